#include "judge/play/seat.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include "games/kit/draw.h"
#include "games/kit/frame.h"
#include "judge/base/grow.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static bool watch_fd(int ep_fd, int fd)
{
	struct epoll_event e = { .events = EPOLLIN, .data.fd = fd };
	return epoll_ctl(ep_fd, EPOLL_CTL_ADD, fd, &e) == 0;
}

/* Its output and the sandbox's descriptors under one epoll descriptor;
 * without one (epoll failed), each is polled on its own. */
static void watch_as_one(struct seat *s)
{
	struct pollfd sbx[SBX_POLLFDS];
	int n = sbx_pollfds_with_output(s->proc, sbx);
	s->ep_fd = epoll_create1(EPOLL_CLOEXEC);
	bool ok = s->ep_fd >= 0 && watch_fd(s->ep_fd, s->from_fd);
	for (int i = 0; ok && i < n; i++) {
		ok = watch_fd(s->ep_fd, sbx[i].fd);
		s->ep_sbx[i] = sbx[i].fd;
	}
	s->ep_sbx_n = n;
	if (!ok)
		close_fd(&s->ep_fd);
}

/* The region messages to the player travel in (frame.h): ours to write,
 * the player's to read through a read-only descriptor (*ro_fd), sealed at
 * its size so that nothing can shrink it under our writes.  Without it
 * (memfd or /proc missing) messages go through the pipe. */
static void share_region(struct seat *s, size_t size, int *ro_fd)
{
	*ro_fd = -1;
	size = (size + 4095) & ~(size_t)4095;
	int fd = size ? memfd_create("seat", MFD_CLOEXEC | MFD_ALLOW_SEALING) : -1;
	if (fd < 0)
		return;
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	void *at = MAP_FAILED;
	if (ftruncate(fd, (off_t)size) == 0 &&
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
		at = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (at != MAP_FAILED && (*ro_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		munmap(at, size);
	close(fd);
	if (*ro_fd >= 0) {
		s->shared = at;
		s->shared_cap = size;
	}
}

static int start_failed(err_t err, int *fds, int n)
{
	err_set(err, "match: %s", strerror(errno));
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return -1;
}

int seat_start(struct seat *s, const struct sbx_policy *pol, const char *binary,
	       uid_t uid, size_t max_in, size_t max_out, err_t err)
{
	*s = (struct seat){ .to_fd = -1, .from_fd = -1, .ep_fd = -1, .uid = { 0, -1 },
			    .frozen_round = -1 };
	s->in_max = FRAME_HEADER + DRAW_LEN_BYTES + DRAW_TURN_BYTES + max_in;
	s->in = malloc(s->in_max);
	int fds[4];
	if (!s->in || pipe2(fds, O_CLOEXEC) < 0)
		return start_failed(err, fds, 0);
	if (pipe2(fds + 2, O_CLOEXEC) < 0)
		return start_failed(err, fds, 2);
	int ro_fd;
	share_region(s, max_out, &ro_fd);
	struct sbx_spec spec = { .path = binary, .stdin_fd = fds[0], .stdout_fd = fds[3],
				 .shared_fd = ro_fd > 0 ? ro_fd : 0, .uid = uid, .gid = uid };
	s->proc = sbx_start(pol, &spec, err);
	close(fds[0]);
	close(fds[3]);
	if (ro_fd >= 0)
		close(ro_fd);
	s->to_fd = fds[1];
	s->from_fd = fds[2];
	if (!s->proc)
		return -1;
	fcntl(s->to_fd, F_SETFL, O_NONBLOCK);
	fcntl(s->from_fd, F_SETFL, O_NONBLOCK);
	if (!sbx_running(s->proc))
		seat_freeze(s, -1, SBX_SETUP, NULL);
	else
		watch_as_one(s);
	return 0;
}

void seat_freeze(struct seat *s, int round, enum sbx_verdict v, const char *why)
{
	if (s->frozen)
		return;
	if (why)
		sbx_stop(s->proc, v, why);
	s->frozen = true;
	s->frozen_round = round;
	const struct sbx_result *r = sbx_finish(s->proc);
	snprintf(s->reason, sizeof s->reason, "%s", r->message);
	close_fd(&s->to_fd);
	close_fd(&s->from_fd);
	close_fd(&s->ep_fd);
}

void seat_await(struct seat *s, uint64_t wall_ns)
{
	seat_await_at(s, wall_ns, sbx_now_ns());
}

void seat_await_at(struct seat *s, uint64_t wall_ns, uint64_t now)
{
	size_t len;
	if (!s->frozen)
		sbx_arm_wall_at(s->proc, seat_frame(s, &len) ? 0 : wall_ns, now);
}

static void flush(struct seat *s, int round)
{
	while (s->out_off < s->out_len) {
		ssize_t n = write(s->to_fd, s->out + s->out_off, s->out_len - s->out_off);
		if (n > 0) {
			s->out_off += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			seat_freeze(s, round, SBX_STOPPED,
				    "protocol error: it closed its input before the game ended");
		return;
	}
	s->out_len = s->out_off = 0;
}

/* The message about to be sent is the seat's last input.  It stays in
 * the shared region or the output buffer, which no later send reuses once
 * the seat froze, so only its place is noted: the copy is made for the
 * rare seat that fails (seat_last_input), never on the hot path. */
static void note_input(struct seat *s, size_t len, bool shared)
{
	s->input_shared = shared;
	s->input_off = shared ? 0 : s->out_len + FRAME_HEADER;
	s->input_size = len;
	s->messages++;
}

void seat_send(struct seat *s, const uint8_t *payload, size_t len)
{
	if (s->frozen)
		return;
	bool shared = s->shared && len <= s->shared_cap;
	size_t need = s->out_len + FRAME_HEADER + (shared ? 0 : len);
	/* Doubled: views that grow a little each round would otherwise be
	 * moved at every growth. */
	if (!grow_room(&s->out, &s->out_cap, need, 1, 4096)) {
		seat_freeze(s, -1, SBX_STOPPED, "the judge ran out of memory");
		return;
	}
	note_input(s, len, shared);
	uint8_t *h = s->out + s->out_len;
	frame_put_len(h, len);
	if (shared) {
		h[3] |= FRAME_SHARED >> 24;
		if (payload != s->shared)
			memcpy(s->shared, payload, len);
	} else {
		memcpy(h + FRAME_HEADER, payload, len);
	}
	s->out_len = need;
	flush(s, -1);
}

uint8_t *seat_outbox(struct seat *s, size_t *cap)
{
	*cap = s->frozen ? 0 : s->shared_cap;
	return *cap ? s->shared : NULL;
}

static size_t frame_length(const struct seat *s)
{
	return frame_get_len(s->in);
}

/* The largest payload the frame begun may have: debug marks may come on
 * top of the largest message. */
static size_t allowed_length(const struct seat *s)
{
	size_t marks = frame_has_marks(s->in) ? 0 : DRAW_LEN_BYTES + DRAW_TURN_BYTES;
	return s->in_max - FRAME_HEADER - marks;
}

/* The whole frame's payload, marks and all; never one longer than
 * allowed, which oversized() freezes the seat for. */
static const uint8_t *whole_frame(const struct seat *s, size_t *len)
{
	if (s->frozen || s->in_len < FRAME_HEADER)
		return NULL;
	size_t n = frame_length(s);
	if (n > allowed_length(s) || s->in_len < FRAME_HEADER + n)
		return NULL;
	*len = n;
	return s->in + FRAME_HEADER;
}

/* The bytes of the frame's marks block, with their length ahead of them;
 * a length past the frame takes the whole frame (the block then reads as
 * broken). */
static size_t marks_part(const struct seat *s, size_t frame_len)
{
	if (!frame_has_marks(s->in))
		return 0;
	if (frame_len < DRAW_LEN_BYTES)
		return frame_len;
	size_t block = draw_block_len(s->in + FRAME_HEADER);
	return block > frame_len - DRAW_LEN_BYTES ? frame_len : DRAW_LEN_BYTES + block;
}

const uint8_t *seat_frame(const struct seat *s, size_t *len)
{
	const uint8_t *f = whole_frame(s, len);
	if (!f)
		return NULL;
	size_t marks = marks_part(s, *len);
	*len -= marks;
	return f + marks;
}

const uint8_t *seat_marks(const struct seat *s, size_t *len, bool *bad)
{
	size_t n;
	const uint8_t *f = whole_frame(s, &n);
	size_t marks = f ? marks_part(s, n) : 0;
	*bad = marks && (marks < DRAW_LEN_BYTES || draw_block_len(f) > marks - DRAW_LEN_BYTES ||
			 draw_block_len(f) > DRAW_TURN_BYTES);
	if (!marks || *bad)
		return NULL;
	*len = marks - DRAW_LEN_BYTES;
	return f + DRAW_LEN_BYTES;
}

uint8_t *seat_last_input(const struct seat *s, size_t *len)
{
	*len = 0;
	if (!s->messages || !s->out)
		return NULL;
	const uint8_t *from = (s->input_shared ? s->shared : s->out) + s->input_off;
	size_t keep = s->input_size < SEAT_INPUT_KEEP ? s->input_size : SEAT_INPUT_KEEP;
	uint8_t *copy = malloc(keep ? keep : 1);
	if (copy) {
		memcpy(copy, from, keep);
		*len = keep;
	}
	return copy;
}

/* Keeps what came after the frame: a frame sent early waits for its round. */
void seat_consume(struct seat *s)
{
	size_t len;
	if (!whole_frame(s, &len))
		return;
	size_t used = FRAME_HEADER + len;
	memmove(s->in, s->in + used, s->in_len - used);
	s->in_len -= used;
}

/* Its end of the pipe closed.  A process that is ending (it crashed, it
 * exited) has a verdict that says more than "closed its output". */
#define SEAT_END_GRACE_NS 200000000ULL
static void output_closed(struct seat *s, int round)
{
	if (sbx_wait_end(s->proc, SEAT_END_GRACE_NS))
		seat_freeze(s, round, SBX_RUNNING, NULL);
	else
		seat_freeze(s, round, SBX_STOPPED,
			    "protocol error: it closed its output before the game ended");
}

/* Freezes the seat when the frame it has started announces more than the
 * seat takes. */
static bool oversized(struct seat *s, int round)
{
	if (s->frozen || s->in_len < FRAME_HEADER)
		return false;
	size_t want = frame_length(s), allowed = allowed_length(s);
	if (want <= allowed)
		return false;
	char why[160];
	snprintf(why, sizeof why, "protocol error: a message of %zu bytes (at most %zu allowed)",
		 want, allowed);
	seat_freeze(s, round, SBX_STOPPED, why);
	return true;
}

/* Reads until the first frame is whole, as much as the buffer takes at
 * once: one read() per frame when the player wrote it with one call.  The
 * buffer holds one frame of the largest size, so whatever follows the
 * first frame also fits. */
static void receive(struct seat *s, int round)
{
	size_t len;
	while (!oversized(s, round) && !seat_frame(s, &len)) {
		ssize_t n = read(s->from_fd, s->in + s->in_len, s->in_max - s->in_len);
		if (n > 0) {
			s->in_len += n;
		} else if (n == 0) {
			output_closed(s, round);
			return;
		} else if (errno != EINTR) {
			return; /* EAGAIN: the rest is on its way */
		}
	}
}

static bool waiting(const struct seat *s)
{
	size_t len;
	return !s->frozen && !seat_frame(s, &len);
}

int seat_pollfds(const struct seat *s, struct pollfd *fds)
{
	if (s->frozen)
		return 0;
	int n = 0;
	size_t len;
	bool reading = !seat_frame(s, &len);
	if (reading)
		fds[n++] = (struct pollfd){ s->from_fd, POLLIN, 0 };
	if (s->out_off < s->out_len)
		fds[n++] = (struct pollfd){ s->to_fd, POLLOUT, 0 };
	return n + (reading ? sbx_pollfds_with_output(s->proc, fds + n)
			    : sbx_pollfds(s->proc, fds + n));
}

/* now: 0, or the clock read since what fds say was ready. */
static void service_at(struct seat *s, const struct pollfd *fds, int n, int round, uint64_t now)
{
	if (s->frozen || oversized(s, round))
		return;
	for (int i = 0; i < n && !s->frozen; i++) {
		if (!fds[i].revents)
			continue;
		if (fds[i].fd == s->to_fd)
			flush(s, round);
		else if (fds[i].fd == s->from_fd)
			receive(s, round);
	}
	/* Once it has answered, the judge waits for it no more: its wall
	 * budget stops running while the others think. */
	size_t len;
	bool answered = !s->frozen && seat_frame(s, &len);
	bool running = answered ? sbx_service_answered(s->proc, fds, n, now)
				: sbx_service_polled(s->proc, fds, n);
	if (!s->frozen && !running)
		seat_freeze(s, round, SBX_RUNNING, NULL);
}

void seat_service(struct seat *s, const struct pollfd *fds, int n, int round)
{
	service_at(s, fds, n, round, 0);
}

/* The seat can be waited for through its epoll descriptor alone: nothing
 * waits to be written, and the sandbox watches what it watched at the
 * start (once the process is killed, or its stderr closed, each
 * descriptor is polled on its own). */
static bool one_to_watch(const struct seat *s)
{
	struct pollfd sbx[SBX_POLLFDS];
	if (s->ep_fd < 0 || s->out_off < s->out_len ||
	    sbx_pollfds_with_output(s->proc, sbx) != s->ep_sbx_n)
		return false;
	for (int i = 0; i < s->ep_sbx_n; i++)
		if (sbx[i].fd != s->ep_sbx[i])
			return false;
	return true;
}

/* What its epoll descriptor said is ready, serviced. */
static void service_events(struct seat *s, const struct epoll_event *ev, int n, int round,
			   uint64_t now)
{
	struct pollfd fds[SEAT_POLLFDS];
	for (int i = 0; i < n; i++)
		fds[i] = (struct pollfd){ ev[i].data.fd, POLLIN, (short)ev[i].events };
	service_at(s, fds, n > 0 ? n : 0, round, now);
}

/* Reads what it has written; true when that made its answer whole, the
 * seat then served (its sandbox looked at, its wall guard disarmed)
 * without a poll. */
static bool read_answer(struct seat *s, int round, uint64_t now)
{
	receive(s, round);
	if (waiting(s))
		return false;
	service_at(s, NULL, 0, round, now);
	return true;
}

/* Its epoll descriptor is ready.  Mostly that is its answer, read at
 * once; only when it is not (yet) whole does the seat learn which
 * descriptors are ready and service them all. */
static void service_watched(struct seat *s, int round, uint64_t now)
{
	if (read_answer(s, round, now))
		return;
	struct epoll_event ev[SEAT_POLLFDS];
	service_events(s, ev, epoll_wait(s->ep_fd, ev, SEAT_POLLFDS, 0), round, now);
}

/* One seat watched as one (a game of steps, AIC2018's, waits for one seat
 * at a time): its epoll descriptor waited on directly, which says at once
 * what is ready; false when the wait failed. */
static bool wait_watched(struct seat *s, int64_t timeout, int round)
{
	struct timespec ts = { timeout / 1000000000, timeout % 1000000000 };
	struct epoll_event ev[SEAT_POLLFDS];
	int n = epoll_pwait2(s->ep_fd, ev, SEAT_POLLFDS, timeout < 0 ? NULL : &ts, NULL);
	if (n < 0 && errno != EINTR)
		return false;
	service_events(s, ev, n, round, 0);
	return true;
}

/* The players share the judge's CPU.  A lone seat's player (a game of
 * steps) mostly runs as soon as its message is written; the players of a
 * round, SCHED_BATCH (sandbox.h), once the judge gives up the CPU, which
 * seat_collect does once for them all.  Either way the answer is mostly
 * there before the judge would wait, and a read finds it without the
 * wait's system call.  When it is not there, the judge gives up the CPU
 * once more and reads again, a call cheaper than a wait and its wake-up.
 * Where that keeps missing (the player runs elsewhere, or thinks long) the
 * seat is waited for the usual way for a while, longer after each miss in
 * a row: 3 turns after the second, up to 63.  *now is the clock read since
 * the players last ran (0: none yet), re-read after a yield. */
static void read_early(struct seat *s, int round, uint64_t *now)
{
	if (!waiting(s))
		return;
	if (s->early_skip) {
		s->early_skip--;
		return;
	}
	bool whole = read_answer(s, round, *now);
	if (!whole) {
		sched_yield();
		*now = sbx_now_ns();
		whole = read_answer(s, round, *now);
	}
	if (whole) {
		s->early_misses = 0;
		return;
	}
	if (s->early_misses < 6)
		s->early_misses++;
	s->early_skip = s->early_misses >= 2 ? (1 << s->early_misses) - 1 : 0;
}

void seat_collect(struct seat *seats, int n, int round)
{
	struct pollfd fds[n * SEAT_POLLFDS];
	int first[n], count[n];
	bool as_one[n];
	/* One clock reading serves every seat served at once. */
	uint64_t now = 0;
	if (n > 1) {
		sched_yield(); /* the round's players run now, one after the other */
		now = sbx_now_ns();
	}
	for (int i = 0; i < n; i++)
		read_early(&seats[i], round, &now);
	for (;;) {
		int nfds = 0;
		int64_t timeout = -1;
		for (int i = 0; i < n; i++) {
			first[i] = nfds;
			count[i] = 0;
			as_one[i] = waiting(&seats[i]) && one_to_watch(&seats[i]);
			if (as_one[i]) {
				fds[nfds] = (struct pollfd){ seats[i].ep_fd, POLLIN, 0 };
				count[i] = 1;
			} else if (waiting(&seats[i])) {
				count[i] = seat_pollfds(&seats[i], fds + nfds);
			}
			nfds += count[i];
			int64_t t = count[i] ? sbx_timeout_ns(seats[i].proc) : -1;
			if (t >= 0 && (timeout < 0 || t < timeout))
				timeout = t;
		}
		if (nfds == 0)
			return;
		if (n == 1 && as_one[0]) {
			if (!wait_watched(seats, timeout, round))
				return;
			continue;
		}
		struct timespec ts = { timeout / 1000000000, timeout % 1000000000 };
		if (ppoll(fds, nfds, timeout < 0 ? NULL : &ts, NULL) < 0 && errno != EINTR)
			return;
		now = sbx_now_ns();
		for (int i = 0; i < n; i++) {
			if (as_one[i] && fds[first[i]].revents)
				service_watched(&seats[i], round, now);
			else if (as_one[i])
				service_at(&seats[i], NULL, 0, round, now);
			else if (count[i])
				service_at(&seats[i], fds + first[i], count[i], round, now);
		}
	}
}

void seat_end(struct seat *s)
{
	close_fd(&s->to_fd);
	close_fd(&s->from_fd);
	close_fd(&s->ep_fd);
	if (sbx_running(s->proc))
		sbx_stop(s->proc, SBX_STOPPED, "the game ended");
}

const struct sbx_result *seat_finish(struct seat *s)
{
	seat_end(s);
	return sbx_finish(s->proc);
}

void seat_free(struct seat *s)
{
	close_fd(&s->to_fd);
	close_fd(&s->from_fd);
	close_fd(&s->ep_fd);
	sbx_free(s->proc);
	sbx_uid_release(&s->uid);
	free(s->in);
	free(s->out);
	if (s->shared)
		munmap(s->shared, s->shared_cap);
	s->shared = NULL;
	s->shared_cap = 0;
	s->proc = NULL;
	s->in = s->out = NULL;
}
