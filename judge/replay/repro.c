#include "judge/replay/repro.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "games/game.h"
#include "games/kit/draw.h"
#include "games/kit/frame.h"

#define NS 1000000000ULL

struct run {
	const struct repro_spec *spec;
	const struct fault *f;
	const struct game *game;
	struct game_state *g;
	int n, seat;
	int stopped[GAME_MAX_PLAYERS]; /* first round a seat did not play, or -1 */
	double cpu_ns[GAME_MAX_PLAYERS]; /* CPU used before the round, per the replay */
	double budget_ns;                /* the match's CPU budget, 0: none */
	uint8_t *buf, *orders;
	size_t buf_cap;
	pid_t pid;
	int to_fd, from_fd;
	int message, round, step;
	struct repro_outcome *out;
	struct err *err;
};

/* ---- the program ---------------------------------------------------------- */

#define ASAN_KEEP "detect_leaks=0:allow_user_segv_handler=0:handle_sigbus=1:handle_sigfpe=1:" \
		  "handle_sigill=1"

static void child(const struct repro_spec *spec, int in, int out)
{
	int null = open("/dev/null", O_RDONLY);
	if (spec->fds_3_4) {
		dup2(null, 0);
		dup2(in, 3);
		dup2(out, 4);
	} else {
		dup2(in, 0);
		dup2(out, 1);
	}
	/* AddressSanitizer, not the kit's crash handler (games/kit/io.h),
	 * reports the faults; leaks at exit are not the failure looked for;
	 * under gdb a report stops the program where it is. */
	if (!getenv("ASAN_OPTIONS"))
		setenv("ASAN_OPTIONS", spec->fds_3_4 ? ASAN_KEEP ":abort_on_error=1" : ASAN_KEEP, 1);
	/* A unit's crash (AIC2018) ends the program, so that it shows as a
	 * seat's does, where it happened. */
	if (spec->fault->unit)
		setenv("JUDGE_REPRO_UNIT_FAULTS", "1", 1);
	signal(SIGPIPE, SIG_DFL);
	execvp(spec->argv[0], spec->argv);
	fprintf(stderr, "judge repro: cannot run %s: %s\n", spec->argv[0], strerror(errno));
	_exit(127);
}

static int start_program(struct run *r)
{
	int in[2], out[2];
	if (pipe(in) < 0)
		return err_fail(r->err, "pipe: %s", strerror(errno));
	if (pipe(out) < 0) {
		close(in[0]);
		close(in[1]);
		return err_fail(r->err, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0) {
		close(in[1]);
		close(out[0]);
		child(r->spec, in[0], out[1]);
	}
	close(in[0]);
	close(out[1]);
	r->to_fd = in[1];
	r->from_fd = out[0];
	fcntl(r->to_fd, F_SETFD, FD_CLOEXEC);
	fcntl(r->from_fd, F_SETFD, FD_CLOEXEC);
	return r->pid < 0 ? err_fail(r->err, "fork: %s", strerror(errno)) : 0;
}

static double program_cpu(pid_t pid)
{
	clockid_t clock;
	struct timespec ts;
	if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0)
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The program's end, once its output closed: waits for it. */
static void ended(struct run *r)
{
	int status = 0;
	r->out->cpu_s = program_cpu(r->pid);
	while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
		;
	r->pid = -1;
	bool signalled = WIFSIGNALED(status);
	r->out->end = signalled ? REPRO_CRASHED : REPRO_EXITED;
	r->out->status = signalled ? WTERMSIG(status) : WEXITSTATUS(status);
}

static bool send_message(struct run *r, const uint8_t *msg, size_t len)
{
	uint8_t h[FRAME_HEADER];
	frame_put_len(h, len);
	struct { const void *b; size_t n; } part[2] = { { h, sizeof h }, { msg, len } };
	for (int i = 0; i < 2; i++)
		for (size_t done = 0; done < part[i].n;) {
			ssize_t w = write(r->to_fd, (const uint8_t *)part[i].b + done, part[i].n - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return false;
			done += (size_t)w;
		}
	return true;
}

/* Reads exactly len bytes within the deadline: 1, 0 at its end of output,
 * -1 past the deadline. */
static int read_within(struct run *r, uint8_t *to, size_t len, uint64_t deadline)
{
	for (size_t got = 0; got < len;) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t t = (uint64_t)now.tv_sec * NS + now.tv_nsec;
		if (t >= deadline)
			return -1;
		struct pollfd p = { r->from_fd, POLLIN, 0 };
		int ms = (int)((deadline - t) / 1000000) + 1;
		if (poll(&p, 1, ms) <= 0)
			continue;
		ssize_t n = read(r->from_fd, to + got, len - got);
		if (n == 0)
			return 0;
		if (n > 0)
			got += (size_t)n;
	}
	return 1;
}

/* An answer's largest size: its orders, after a block of debug marks. */
static size_t answer_max(const struct game *game)
{
	return game->orders_max + DRAW_LEN_BYTES + DRAW_TURN_BYTES;
}

/* The program's answer to the message just sent: 1 it answered, 0 it
 * ended (out->end says how), -1 silent past wait_ns. */
static int answer(struct run *r, uint64_t wait_ns)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t deadline = (uint64_t)now.tv_sec * NS + now.tv_nsec + wait_ns;
	uint8_t h[FRAME_HEADER];
	int rc = read_within(r, h, sizeof h, deadline);
	size_t len = rc > 0 ? frame_get_len(h) : 0;
	if (rc > 0 && len > answer_max(r->game))
		rc = 0; /* not the kit's framing: as if it ended */
	if (rc > 0)
		rc = read_within(r, r->orders, len, deadline);
	if (rc == 0) {
		close(r->from_fd);
		r->from_fd = -1;
		ended(r);
	}
	return rc;
}

static void stop_program(struct run *r)
{
	if (r->to_fd >= 0)
		close(r->to_fd);
	if (r->from_fd >= 0)
		close(r->from_fd);
	r->to_fd = r->from_fd = -1;
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	r->pid = -1;
}

/* ---- the turns ------------------------------------------------------------ */

static void say_turn(const struct run *r, FILE *log)
{
	if (r->round < 0)
		fprintf(log, "its start message");
	else if (game_stepwise(r->game))
		fprintf(log, "round %d, its step %d", r->round, r->step);
	else
		fprintf(log, "round %d", r->round);
}

/* The first byte where the re-created message differs from the recorded
 * one, or -1 when they agree as far as it was kept. */
static long first_difference(const struct fault *f, const uint8_t *msg, size_t len)
{
	size_t n = len < f->input_len ? len : f->input_len;
	for (size_t i = 0; i < n; i++)
		if (msg[i] != f->input[i])
			return (long)i;
	return len == f->input_size ? -1 : (long)n;
}

/* The failing turn: the recorded bytes (the re-created ones when they were
 * not all kept), then the program's fate. */
static int failing_turn(struct run *r, const uint8_t *msg, size_t len)
{
	const struct fault *f = r->f;
	long diff = first_difference(f, msg, len);
	bool whole = f->input_len == f->input_size;
	r->out->same_input = diff < 0;
	FILE *log = r->spec->log;
	fprintf(log, "judge repro: the failing turn, ");
	say_turn(r, log);
	fprintf(log, ": sending the %s input (%zu bytes)", whole ? "recorded" : "re-created",
		whole ? f->input_len : len);
	if (diff >= 0)
		fprintf(log, "; the re-created one differs from byte %ld (the CPU shares "
			"views show are re-created to the replay's microsecond)", diff);
	fprintf(log, "\n");
	r->out->message = r->message;
	r->out->round = r->round;
	r->out->step = r->step;
	send_message(r, whole ? f->input : msg, whole ? f->input_len : len);
	int rc = answer(r, r->spec->fault_wait_ns);
	if (rc != 0) {
		r->out->cpu_s = program_cpu(r->pid);
		r->out->end = rc > 0 ? REPRO_ANSWERED : REPRO_SILENT;
	}
	return 1;
}

/* The seat's next message: the failing one (1, the run is over), or one
 * to answer (0); -1 when the program ended before the failing turn. */
static int next_message(struct run *r, const uint8_t *msg, size_t len)
{
	if (r->message == r->f->message)
		return failing_turn(r, msg, len);
	r->message++;
	send_message(r, msg, len); /* if it cannot be sent, the program ended */
	if (answer(r, r->spec->turn_wait_ns) > 0)
		return 0;
	r->out->message = r->message - 1;
	r->out->round = r->round;
	r->out->step = r->step;
	if (r->pid > 0) {
		r->out->end = REPRO_SILENT;
		r->out->cpu_s = program_cpu(r->pid);
	}
	return -1;
}

/* ---- the match, re-created -------------------------------------------------- */

/* Which seats play round `round` ("live"): one that does not has stopped
 * in it (the engine hears of it once its part of the round is over). */
static int take_live(struct run *r, const json_t *frame, int round)
{
	const json_t *live = json_object_get(frame, "live");
	if (json_array_size(live) != (size_t)r->n)
		return err_fail(r->err, "the replay's round %d has no \"live\" list of every seat", round);
	for (int p = 0; p < r->n; p++)
		if (!json_integer_value(json_array_get(live, (size_t)p)) && r->stopped[p] < 0)
			r->stopped[p] = round;
	return 0;
}

/* What the runner told the engine before the round's views: -1 for a seat
 * frozen earlier, else its share of the CPU budget so far, from the
 * replay's CPU time per round ("cpu_us"; 0 in a replay without it). */
static void tell_shares(struct run *r, const json_t *cpu_us, int round)
{
	for (int p = 0; p < r->n; p++) {
		bool gone = r->stopped[p] >= 0 && r->stopped[p] < round;
		r->game->status(r->g, p, gone ? -1 : r->budget_ns ? r->cpu_ns[p] / r->budget_ns : 0);
		const json_t *us = json_array_get(json_array_get(cpu_us, (size_t)p), (size_t)round);
		if (json_integer_value(us) > 0)
			r->cpu_ns[p] += (double)json_integer_value(us) * 1000;
	}
}

/* Seat p's recorded orders to the engine: 0, or -1 when the replay's
 * orders do not fit the engine (a damaged or foreign replay). */
static int feed(struct run *r, int p, const json_t *orders)
{
	err_t gerr;
	size_t len = r->game->replay_message(r->g, p, orders, r->buf, r->buf_cap);
	if (len == 0 && r->stopped[p] >= 0) {
		r->game->status(r->g, p, -1);
		return 0;
	}
	if (len == 0 || r->game->orders(r->g, p, r->buf, len, gerr) < 0)
		return err_fail(r->err, "the replay's orders for seat %d in round %d do not fit the engine%s%s "
			    "(is it this match's replay? `judge replay check` says where)", p,
			    r->round, len ? ": " : "", len ? gerr->msg : "");
	return 0;
}

/* 1 the run is over, 0 the round was played, -1 error. */
static int play_steps(struct run *r, const json_t *orders)
{
	r->step = 0;
	for (int s; (s = r->game->next_seat(r->g)) >= 0;) {
		if (s == r->seat) {
			size_t len = r->game->view(r->g, s, r->buf, r->buf_cap);
			int rc = next_message(r, r->buf, len);
			if (rc)
				return 1;
			r->step++;
		}
		if (feed(r, s, orders) < 0)
			return -1;
	}
	return 0;
}

static int play_simultaneous(struct run *r, const json_t *orders)
{
	size_t len = r->game->view(r->g, r->seat, r->buf, r->buf_cap);
	if (next_message(r, r->buf, len))
		return 1;
	for (int p = 0; p < r->n; p++)
		if (r->stopped[p] >= 0)
			r->game->status(r->g, p, -1);
		else if (feed(r, p, orders) < 0)
			return -1;
	return 0;
}

static int play_rounds(struct run *r, const json_t *rounds)
{
	const json_t *cpu_us = json_object_get(r->spec->replay, "cpu_us");
	for (size_t i = 0; i < json_array_size(rounds); i++) {
		const json_t *frame = json_array_get(rounds, i);
		r->round = (int)i;
		if (game_over(r->game, r->g))
			return err_fail(r->err, "the replay has more rounds than its match");
		tell_shares(r, cpu_us, r->round);
		if (take_live(r, frame, r->round) < 0)
			return -1;
		const json_t *orders = json_object_get(frame, "orders");
		int rc = game_stepwise(r->game) ? play_steps(r, orders)
						: play_simultaneous(r, orders);
		if (rc)
			return rc;
		r->game->advance(r->g);
	}
	return err_fail(r->err, "the replay ends before the seat's recorded message %d: is it this "
		    "match's replay?", r->f->message);
}

static int create_game(struct run *r)
{
	const json_t *rp = r->spec->replay;
	const char *name = json_string_value(json_object_get(rp, "game"));
	r->game = name ? game_find(name) : NULL;
	if (!r->game)
		return err_fail(r->err, "the replay is of no game this judge knows (\"%.64s\")",
			    name ? name : "");
	r->n = (int)json_array_size(json_object_get(rp, "players"));
	if (!game_players_ok(r->game, r->n) || r->seat >= r->n)
		return err_fail(r->err, "the replay's players do not fit %s, or it has no such seat",
			    r->game->title);
	r->g = game_create(r->game, json_string_value(json_object_get(rp, "params_file")),
			   (uint64_t)json_integer_value(json_object_get(rp, "seed")), r->n, r->err);
	if (!r->g) {
		err_prefix(r->err, "the replay's parameters do not load");
		return -1;
	}
	r->buf_cap = game_message_max(r->game);
	if (r->game->orders_max > r->buf_cap)
		r->buf_cap = r->game->orders_max;
	r->buf = malloc(r->buf_cap);
	r->orders = malloc(answer_max(r->game));
	for (int p = 0; p < r->n; p++)
		r->stopped[p] = -1;
	const json_t *ms = json_object_get(json_object_get(rp, "limits"), "cpu_ms");
	r->budget_ns = json_integer_value(ms) > 0 ? (double)json_integer_value(ms) * 1e6 : 0;
	return r->buf && r->orders ? 0 : err_fail(r->err, "out of memory");
}

int repro_run(const struct repro_spec *spec, struct repro_outcome *out, err_t err)
{
	struct run r = { .spec = spec, .f = spec->fault, .seat = spec->fault->seat, .pid = -1,
			 .to_fd = -1, .from_fd = -1, .round = -1, .out = out, .err = err };
	*out = (struct repro_outcome){ .end = REPRO_SILENT, .round = -1, .message = -1 };
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	int rc = create_game(&r);
	if (rc == 0)
		rc = start_program(&r);
	if (rc == 0) {
		size_t len = r.game->start(r.g, r.seat, r.buf, r.buf_cap);
		rc = next_message(&r, r.buf, len);
		if (rc == 0)
			rc = play_rounds(&r, json_object_get(spec->replay, "rounds"));
		rc = rc < 0 && out->message < 0 ? -1 : 0;
	}
	if (rc == 0 && r.pid > 0 && out->end == REPRO_SILENT && spec->interrupt_signal) {
		kill(r.pid, spec->interrupt_signal);
		if (r.to_fd >= 0)
			close(r.to_fd);
		r.to_fd = -1;
		while (waitpid(r.pid, NULL, 0) < 0 && errno == EINTR)
			;
		r.pid = -1;
	}
	stop_program(&r);
	signal(SIGPIPE, old_pipe);
	if (r.g)
		r.game->destroy(r.g);
	free(r.buf);
	free(r.orders);
	return rc;
}
