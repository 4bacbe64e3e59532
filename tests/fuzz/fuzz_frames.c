/* fuzz_frames.c - libFuzzer target: the runner's frame reader (judge/play/seat.c)
 * on the bytes a player writes to its stdout.
 *
 * The seat is started by seat_start() as the runner starts it, but against
 * a fake sandbox defined below instead of sandbox/: its "process" is the
 * other ends of the two pipes, so this file plays the player.  Only the
 * sbx_* functions seat.c calls are faked; a new one shows up as a link
 * error here, which is the cue to fake it too.
 *
 * Input:
 *   u16 max_in   little-endian, mod 4097: the largest payload the seat takes
 *   u8  burst    the player writes its bytes burst + 1 at a time, and the
 *                seat is serviced after each write, so frames arrive split
 *                anywhere
 *   the rest     what the player writes, then it closes its stdout
 *
 * Checked against an independent reading of the same bytes (4-byte
 * little-endian length, payload; the length's top bit: the payload starts
 * with a u32 length and a block of debug marks, which may add at most 4 +
 * 1024 bytes): the seat hands over exactly the complete frames, in order,
 * byte for byte (what follows the marks); it freezes as soon as a header
 * announces more than that (before the payload arrives), otherwise at the end
 * of the stream, with a reason and the round it was serviced in.  Each frame
 * is echoed back with seat_send() and must reach the player framed the same
 * way.  A leaked descriptor would soon make seat_start() fail, which stops
 * the run as a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/play/seat.h"

#define ROUND 7 /* any round number: the freeze must record it */
#define MAX_IN_LIMIT 4096

#define FUZZ_NAME "fuzz_frames"
#include "tests/fuzz/fuzz_check.h"

/* ---- the fake sandbox ---------------------------------------------------- */

struct sbx_proc {
	int stdin_fd, stdout_fd; /* the player's ends: it reads, it writes */
	bool running;
	struct sbx_result result;
};

struct sbx_proc *sbx_start(const struct sbx_policy *pol, const struct sbx_spec *spec,
			   err_t err)
{
	(void)pol;
	struct sbx_proc *p = calloc(1, sizeof *p);
	if (!p) {
		err_set(err, "out of memory");
		return NULL;
	}
	/* seat_start() closes its copies of the child's ends after this
	 * returns, as the real one has handed them to the child by then. */
	p->stdin_fd = dup(spec->stdin_fd);
	p->stdout_fd = dup(spec->stdout_fd);
	if (p->stdin_fd < 0 || p->stdout_fd < 0) {
		err_set(err, "dup: %s", strerror(errno));
		if (p->stdin_fd >= 0)
			close(p->stdin_fd);
		if (p->stdout_fd >= 0)
			close(p->stdout_fd);
		free(p);
		return NULL;
	}
	/* A seat_send() that left bytes behind must fail the read in
	 * check_echo(), not hang it. */
	fcntl(p->stdin_fd, F_SETFL, O_NONBLOCK);
	p->running = true;
	p->result.verdict = SBX_RUNNING;
	return p;
}

bool sbx_running(const struct sbx_proc *p)
{
	return p->running;
}

int sbx_pollfds(const struct sbx_proc *p, struct pollfd *fds)
{
	(void)p;
	(void)fds;
	return 0;
}

int sbx_pollfds_with_output(const struct sbx_proc *p, struct pollfd *fds)
{
	return sbx_pollfds(p, fds);
}

int64_t sbx_timeout_ns(const struct sbx_proc *p)
{
	(void)p;
	return -1;
}

/* The CPU clock a seat reads when it sends a message: none spent here. */
uint64_t sbx_cpu_ns(const struct sbx_proc *p)
{
	(void)p;
	return 0;
}

bool sbx_service_polled(struct sbx_proc *p, const struct pollfd *fds, int n)
{
	(void)fds;
	(void)n;
	return p->running;
}

bool sbx_service_answered(struct sbx_proc *p, const struct pollfd *fds, int n, uint64_t now)
{
	(void)now;
	return sbx_service_polled(p, fds, n);
}

/* The fake has no clock: no guard can fire. */
uint64_t sbx_now_ns(void)
{
	return 1;
}

void sbx_arm_wall(struct sbx_proc *p, uint64_t wall_ns)
{
	(void)p;
	(void)wall_ns;
}

void sbx_arm_wall_at(struct sbx_proc *p, uint64_t wall_ns, uint64_t now)
{
	(void)now;
	sbx_arm_wall(p, wall_ns);
}

/* The player closing its stdout does not end it: the seat must call that a
 * protocol error rather than wait for an exit status. */
bool sbx_wait_end(struct sbx_proc *p, uint64_t timeout_ns)
{
	(void)timeout_ns;
	return !p->running;
}

/* The first verdict wins, as in sandbox/. */
void sbx_stop(struct sbx_proc *p, enum sbx_verdict v, const char *message)
{
	if (!p->running)
		return;
	p->running = false;
	p->result.verdict = v;
	snprintf(p->result.message, sizeof p->result.message, "%s", message);
}

const struct sbx_result *sbx_finish(struct sbx_proc *p)
{
	if (p->running)
		sbx_stop(p, SBX_STOPPED, "the game ended");
	return &p->result;
}

void sbx_free(struct sbx_proc *p)
{
	if (!p)
		return;
	if (p->stdin_fd >= 0)
		close(p->stdin_fd);
	if (p->stdout_fd >= 0)
		close(p->stdout_fd);
	free(p);
}

void sbx_uid_release(struct sbx_uid *u)
{
	(void)u;
}

/* ---- the player's side --------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Writing to a seat that froze (and closed its end) must fail with
	 * EPIPE here, not kill the fuzzer. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The frames as the framing defines them: where each complete one starts
 * and how long it is, up to the first oversized header (*oversize) or the
 * end of the bytes. */
struct expect {
	size_t count, next;
	bool oversize;
};

#define MARKS_MAX (4 + 1024)

/* *skip: the bytes of marks (and their length) ahead of the orders. */
static void expect_next(struct expect *e, const uint8_t *s, size_t len, size_t max_in,
			size_t *at, size_t *flen, size_t *skip)
{
	*at = 0;
	*flen = 0;
	*skip = 0;
	if (e->oversize || len - e->next < 4)
		return;
	uint32_t h = le32(s + e->next);
	bool marks = h >> 31;
	size_t n = h & 0x7fffffff;
	if (n > max_in + (marks ? MARKS_MAX : 0)) {
		e->oversize = true;
		return;
	}
	if (len - e->next - 4 < n)
		return;
	*at = e->next + 4;
	*flen = n;
	if (marks)
		*skip = n < 4 || le32(s + *at) > n - 4 ? n : 4 + le32(s + *at);
}

/* seat_send() must put the frame in the player's stdin: header, payload. */
static void check_echo(struct seat *s, const uint8_t *payload, size_t len)
{
	seat_send(s, payload, len);
	check(!s->frozen, "seat_send of %zu bytes froze the seat: %s", len, s->reason);
	uint8_t *got = malloc(len + 4);
	check(got, "out of memory");
	size_t have = 0;
	while (have < len + 4) {
		ssize_t n = read(s->proc->stdin_fd, got + have, len + 4 - have);
		if (n < 0 && errno == EINTR)
			continue;
		check(n > 0, "echo of %zu bytes: only %zu arrived", len, have);
		have += (size_t)n;
	}
	check(le32(got) == len && memcmp(got + 4, payload, len) == 0,
	      "echo of %zu bytes came back as header %u and other bytes", len, le32(got));
	free(got);
}

/* One turn of the runner's loop (seat_collect): poll what the seat asks
 * for, without waiting (the bytes are already in the pipe), and service. */
static void service(struct seat *s)
{
	struct pollfd fds[SEAT_POLLFDS];
	int n = seat_pollfds(s, fds);
	check(n >= 0 && n <= SEAT_POLLFDS, "seat_pollfds gave %d descriptors", n);
	if (n == 0)
		return;
	/* libFuzzer's timer (SIGALRM, for -timeout) may interrupt it. */
	int ready;
	do
		ready = poll(fds, (nfds_t)n, 0);
	while (ready < 0 && errno == EINTR);
	check(ready >= 0, "poll: %s", strerror(errno));
	seat_service(s, fds, n, ROUND);
}

/* Takes every frame the seat holds, checking each against the expected
 * ones; returns when the seat is waiting for bytes or frozen. */
static void drain(struct seat *s, struct expect *e, const uint8_t *stream, size_t len,
		  size_t max_in)
{
	for (;;) {
		service(s);
		size_t flen;
		const uint8_t *f = seat_frame(s, &flen);
		if (!f)
			return;
		size_t at, want, skip;
		expect_next(e, stream, len, max_in, &at, &want, &skip);
		check(at, "frame %zu (%zu bytes): none expected there", e->count, flen);
		check(flen == want - skip && memcmp(f, stream + at + skip, flen) == 0,
		      "frame %zu: %zu bytes, expected %zu bytes at offset %zu", e->count, flen,
		      want - skip, at + skip);
		check_echo(s, f, flen);
		seat_consume(s);
		e->count++;
		e->next = at + want;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	size_t max_in = ((size_t)data[0] | (size_t)data[1] << 8) % (MAX_IN_LIMIT + 1);
	size_t burst = (size_t)data[2] + 1;
	const uint8_t *stream = data + 3;
	size_t len = size - 3;

	struct seat s;
	err_t err = {0};
	check(seat_start(&s, NULL, "fake-player", 0, max_in, 0, err) == 0, "seat_start: %s",
	      err->msg);
	check(!s.frozen, "a fresh seat is frozen: %s", s.reason);

	struct expect e = { 0 };
	size_t off = 0;
	while (off < len && !s.frozen) {
		size_t n = len - off < burst ? len - off : burst;
		/* At most one burst waits in the pipe (the seat drains it after
		 * each), far below its capacity: this write never blocks. */
		ssize_t w;
		do
			w = write(s.proc->stdout_fd, stream + off, n);
		while (w < 0 && errno == EINTR);
		check(w == (ssize_t)n, "player write of %zu bytes: %zd (%s)", n, w, strerror(errno));
		off += n;
		drain(&s, &e, stream, off, max_in);
	}
	/* What the whole stream holds, beyond what was written so far: an
	 * oversized header must have frozen the seat on arrival. */
	size_t at, want, skip;
	expect_next(&e, stream, len, max_in, &at, &want, &skip);
	check(!at, "frame %zu at offset %zu was never delivered", e.count, e.next + 4);
	if (e.oversize) {
		check(s.frozen, "a header of %u bytes (max %zu) did not freeze the seat",
		      le32(stream + e.next) & 0x7fffffff, max_in);
	} else {
		check(!s.frozen, "the seat froze with the stream still open: %s", s.reason);
		close(s.proc->stdout_fd);
		s.proc->stdout_fd = -1;
		for (int i = 0; i < 4 && !s.frozen; i++)
			drain(&s, &e, stream, len, max_in);
		check(s.frozen, "the player closed its stdout; the seat did not notice");
	}
	check(s.reason[0] && strstr(s.reason, "protocol error"),
	      "frozen without a protocol error reason: \"%s\"", s.reason);
	check(s.frozen_round == ROUND, "frozen in round %d, serviced in %d", s.frozen_round, ROUND);
	check(s.proc->result.verdict == SBX_STOPPED, "verdict %d, expected stopped",
	      (int)s.proc->result.verdict);

	seat_finish(&s);
	seat_free(&s);
	return 0;
}
