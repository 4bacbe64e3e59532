/* match.c - what the sandbox costs a whole match, side by side, for every
 * game: (a) four Demos, the game's default parameters and rounds,
 * sandboxed, replay written; (b) the same match with the four players
 * linked into this process (no sandbox, no pipes); (c) the floor: four
 * plain processes started with posix_spawn that answer (b)'s frames, byte
 * for byte, at once.  (c) is what the system alone charges a judge that
 * runs each player in a process of its own on one CPU (start, exit, and a
 * switch into every player and back each round), so (a)/(b) cannot come
 * below ((b)+(c))/(b), whatever the runner does.  (d) the same frames
 * through the runner's seats to four sandboxed copies of (c)'s player:
 * what the sandbox adds to a process (its filter, the judge's answers to
 * its memory calls, its own user and limits) and the seats' round trips,
 * without the match around them.  Once, for Dominator: a raw pipe ping-pong
 * between two processes against the runner's per-turn round trip with a
 * sandboxed player.  (e) the match with real players apart but no
 * sandbox: (b)'s engine and replay, each Demo in a plain process of its
 * own, handed its views as the runner hands them; (e)/((b)+(c)) says how
 * far above the floor plain processes already are, (a)/(e) what the
 * sandbox and the runner's bookkeeping add (the filter, the exec's answer,
 * limits and users, the CPU readings, the status and the replay's CPU
 * plot).  Goals: (a)/(b) <= 1.5 for each game and turn <= 1.3x ping-pong.
 *
 * The in-process players are bench/inproc.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/bench_match.h"
#include "bench/inproc.h"
#include "games/kit/frame.h"
#include "games/game.h"
#include "judge/base/config.h"
#include "judge/play/match.h"
#include "judge/play/seat.h"
#include "judge/replay/replay_io.h"

#define RUNS ((int)bench_size(11, 1))
#define TURNS ((int)bench_size(3000, 100))
#define SEED 30
#define PLAYERS 4
#define MAX_ROUNDS 1000
#define ECHO_PLAYER "build/bench/echo"
#define ECHO_ANSWER (FRAME_HEADER + 2)

/* The course games of games/LIST (the Makefile defines INPROC_GAMES). */
#define INPROC_SET_OF(G) INPROC_SET(inproc, G)
INPROC_GAMES(INPROC_SET_OF)
#define INPROC_ADDRESS_OF(G) &inproc_##G,
static const struct inproc *const games[] = { INPROC_GAMES(INPROC_ADDRESS_OF) };

static struct judge_config cfg;
/* Large enough for any game's view (Ants' largest is some 216 KB). */
static uint8_t buf[1 << 18], reply[1 << 14];
/* The frames of (b), by length: row 0 the start messages, then the views. */
static size_t frame_len[MAX_ROUNDS + 1][PLAYERS];

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench: %s: %s\n", what, why);
	exit(1);
}

static struct sbx_limits player_limits(void)
{
	return (struct sbx_limits){ .cpu_ns = cfg.sandbox.cpu_ns, .wall_ns = cfg.sandbox.wall_ns,
				    .memory_bytes = cfg.sandbox.memory_bytes,
				    .stderr_bytes = cfg.sandbox.stderr_bytes };
}

/* As `judge play -o` writes a replay (both sides write theirs alike). */
static void write_replay(const json_t *replay, const char *path)
{
	err_t err;
	if (replay_write_file(path, replay, err) < 0)
		die(path, err->msg);
}

/* (a): the real thing, as `judge play` does it. */
static uint64_t sandboxed_match(const struct game *game, const char *demo, int64_t *scores)
{
	struct match_result r;
	uint64_t t = bench_match(&cfg, game, NULL, SEED, PLAYERS, demo, "Demo", &r);
	uint64_t t0 = bench_now_ns();
	write_replay(r.replay, "build/bench-match.json");
	t += bench_now_ns() - t0; /* the replay written, as judge play -o does */
	for (int i = 0; i < PLAYERS; i++)
		scores[i] = r.seat[i].score;
	match_result_free(&r);
	return t;
}

/* A round's record as the runner keeps it: the game's, with the orders it
 * resolved. */
static void record(const struct game *game, struct game_state *g, json_t *rounds,
		   json_t *orders)
{
	json_t *frame = game->replay_round(g);
	json_object_set_new(frame, "orders", orders);
	json_array_append_new(rounds, frame);
}

/* The replay written to path, the time since t0 returned; then the
 * scores into *scores, and the game freed. */
static uint64_t finish(const struct game *game, struct game_state *g, json_t *start,
		       json_t *rounds, const char *path, uint64_t t0, int64_t *scores)
{
	json_t *replay = json_pack("{s:o, s:o}", "start", start, "rounds", rounds);
	write_replay(replay, path);
	uint64_t t = bench_now_ns() - t0;
	game->scores(g, scores);
	json_decref(replay);
	game->destroy(g);
	return t;
}

/* (b): the same engine, players and replay, with direct calls. */
static uint64_t in_process_match(const struct game *game, const struct inproc *in,
				 int64_t *scores, int *nrounds)
{
	err_t err;
	uint64_t t0 = bench_now_ns();
	struct game_state *g = game->create(NULL, SEED, err);
	if (!g)
		die(game->name, err->msg);
	if (game->rounds(g) > MAX_ROUNDS)
		die(game->name, "more rounds than the benchmark records");
	if (inproc_start(game, g, in, buf, sizeof buf, frame_len[0]) < 0)
		die(game->name, "in-process start refused");
	json_t *start = game->replay_header(g), *rounds = json_array();
	for (int r = 1; r <= game->rounds(g); r++) {
		json_t *orders = NULL;
		if (inproc_round(game, g, in, buf, sizeof buf, reply, sizeof reply, frame_len[r],
				 &orders, err) < 0)
			die("in-process turn", err->msg);
		record(game, g, rounds, orders);
	}
	*nrounds = game->rounds(g);
	return finish(game, g, start, rounds, "build/bench-match-inproc.json", t0, scores);
}

/* One system call, as the judge and the kits write a frame. */
static void write_frame(int fd, const uint8_t *p, size_t len)
{
	uint8_t h[FRAME_HEADER];
	frame_put_len(h, len);
	struct iovec v[2] = { { h, FRAME_HEADER }, { (void *)p, len } };
	if (writev(fd, v, 2) != (ssize_t)(FRAME_HEADER + len))
		die("writev", "a frame did not go whole");
}

/* The echo player's answer, a frame it wrote with one call. */
static void read_answer(int fd)
{
	if (read(fd, reply, ECHO_ANSWER) != ECHO_ANSWER)
		die(ECHO_PLAYER, "no answer");
}

struct echo {
	pid_t pid;
	int to, from;
};

static void echo_start(struct echo *e)
{
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC))
		die("pipe", "failed");
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, down[0], 0);
	posix_spawn_file_actions_adddup2(&fa, up[1], 1);
	char *argv[] = { ECHO_PLAYER, NULL }, *envp[] = { NULL };
	if (posix_spawn(&e->pid, ECHO_PLAYER, &fa, NULL, argv, envp) != 0)
		die(ECHO_PLAYER, "cannot start it (make bench builds it)");
	posix_spawn_file_actions_destroy(&fa);
	close(down[0]);
	close(up[1]);
	e->to = down[1];
	e->from = up[0];
}

/* One frame of len bytes to each player, then each one's answer. */
static void echo_round(struct echo *e, const size_t *len)
{
	struct pollfd fds[PLAYERS];
	for (int p = 0; p < PLAYERS; p++) {
		write_frame(e[p].to, buf, len[p]);
		fds[p] = (struct pollfd){ e[p].from, POLLIN, 0 };
	}
	for (int waiting = PLAYERS; waiting > 0;) {
		if (poll(fds, PLAYERS, -1) < 0)
			die("poll", "failed");
		for (int p = 0; p < PLAYERS; p++)
			if (fds[p].revents) {
				read_answer(e[p].from);
				fds[p].fd = -1;
				waiting--;
			}
	}
}

/* (c): (b)'s frames between this process and four that do no work. */
static uint64_t floor_match(int rounds)
{
	struct echo e[PLAYERS];
	uint64_t t0 = bench_now_ns();
	for (int p = 0; p < PLAYERS; p++)
		echo_start(&e[p]);
	for (int r = 0; r <= rounds; r++)
		echo_round(e, frame_len[r]);
	for (int p = 0; p < PLAYERS; p++) {
		close(e[p].to);
		close(e[p].from);
		waitpid(e[p].pid, NULL, 0);
	}
	return bench_now_ns() - t0;
}

/* (e): (b)'s engine and replay with each player in a plain process of
 * its own (posix_spawn: no sandbox, no limits, no CPU readings), handed
 * its messages as the runner hands them (seat.h): in a region shared with
 * it, the header alone through the pipe; the players SCHED_BATCH, run by
 * one yield a round.  Where (c)'s no-op players stand for the processes'
 * switches and pipes, these are the real players, each with its own
 * address space, caches and start-up: what any runner would pay them. */
struct plain {
	pid_t pid;
	int to, from;
	uint8_t *region;
	size_t cap;
	uint8_t in[1 << 14];
};

static int plain_region(struct plain *p, size_t size)
{
	p->cap = (size + 4095) & ~(size_t)4095;
	int fd = memfd_create("plain", MFD_CLOEXEC), ro = -1;
	if (fd < 0 || ftruncate(fd, (off_t)p->cap) < 0)
		die("memfd", "cannot make the shared region");
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	p->region = mmap(NULL, p->cap, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p->region == MAP_FAILED || (ro = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		die("memfd", "cannot map the shared region");
	close(fd);
	return ro;
}

static void plain_start(struct plain *p, const char *binary, size_t region)
{
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC))
		die("pipe", "failed");
	int ro = plain_region(p, region);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, down[0], 0);
	posix_spawn_file_actions_adddup2(&fa, up[1], 1);
	posix_spawn_file_actions_adddup2(&fa, ro, FRAME_SHARED_FD);
	posix_spawnattr_t at;
	struct sched_param no_priority = { 0 };
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSCHEDULER);
	posix_spawnattr_setschedpolicy(&at, SCHED_BATCH);
	posix_spawnattr_setschedparam(&at, &no_priority);
	char *argv[] = { (char *)binary, NULL }, *envp[] = { NULL };
	if (posix_spawn(&p->pid, binary, &fa, &at, argv, envp) != 0)
		die(binary, "cannot start it");
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(down[0]);
	close(up[1]);
	close(ro);
	p->to = down[1];
	p->from = up[0];
	if (fcntl(p->from, F_SETFL, O_NONBLOCK) < 0)
		die("fcntl", "failed");
}

/* Its message is in the region: the header tells it so. */
static void plain_send(const struct plain *p, size_t len)
{
	uint8_t h[FRAME_HEADER];
	frame_put_len(h, len);
	h[3] |= FRAME_SHARED >> 24;
	if (write(p->to, h, sizeof h) != (ssize_t)sizeof h)
		die("write", "a header did not go whole");
}

/* Its answer, read as the runner reads it: at once, after one more
 * yield when it is not there yet, else waited for. */
static const uint8_t *plain_answer(struct plain *p, size_t *len)
{
	size_t got = 0;
	for (bool yielded = false; got < FRAME_HEADER || got < FRAME_HEADER + frame_get_len(p->in);) {
		if (got >= FRAME_HEADER && frame_get_len(p->in) > sizeof p->in - FRAME_HEADER)
			die("plain player", "an answer larger than the benchmark takes");
		ssize_t n = read(p->from, p->in + got, sizeof p->in - got);
		if (n > 0) {
			got += (size_t)n;
		} else if (n == 0 || errno != EAGAIN) {
			die("plain player", "it closed its output");
		} else if (yielded) {
			struct pollfd f = { p->from, POLLIN, 0 };
			poll(&f, 1, -1);
		} else {
			sched_yield();
			yielded = true;
		}
	}
	if (frame_has_marks(p->in))
		die("plain player", "debug marks, which a Demo does not draw");
	*len = frame_get_len(p->in);
	return p->in + FRAME_HEADER;
}

static void plain_send_all(struct plain *pl, size_t *len)
{
	for (int p = 0; p < PLAYERS; p++)
		plain_send(&pl[p], len[p]);
	sched_yield(); /* the players run now, one after the other */
}

static uint64_t plain_match(const struct game *game, const char *demo, int64_t *scores)
{
	static struct plain pl[PLAYERS];
	err_t err;
	uint64_t t0 = bench_now_ns();
	struct game_state *g = game->create(NULL, SEED, err);
	if (!g)
		die(game->name, err->msg);
	size_t len[PLAYERS], n;
	for (int p = 0; p < PLAYERS; p++) {
		plain_start(&pl[p], demo, game_message_max(game));
		len[p] = game->start(g, p, pl[p].region, pl[p].cap);
	}
	plain_send_all(pl, len);
	for (int p = 0; p < PLAYERS; p++)
		plain_answer(&pl[p], &n);
	json_t *start = game->replay_header(g), *rounds = json_array();
	for (int r = 1; r <= game->rounds(g); r++) {
		for (int p = 0; p < PLAYERS; p++) {
			game->status(g, p, 0);
			len[p] = game->view(g, p, pl[p].region, pl[p].cap);
		}
		plain_send_all(pl, len);
		for (int p = 0; p < PLAYERS; p++) {
			const uint8_t *answer = plain_answer(&pl[p], &n);
			if (game->orders(g, p, answer, n, err) < 0)
				die("plain player's orders", err->msg);
		}
		json_t *orders = game->replay_orders(g);
		game->advance(g);
		record(game, g, rounds, orders);
	}
	for (int p = 0; p < PLAYERS; p++) {
		close(pl[p].to);
		close(pl[p].from);
		waitpid(pl[p].pid, NULL, 0);
		munmap(pl[p].region, pl[p].cap);
	}
	return finish(game, g, start, rounds, "build/bench-match-plain.json", t0, scores);
}

/* What the runner's reading of each seat's CPU clock once a round (the
 * status the game shows its players, the replay's CPU plot) costs a match:
 * as many readings of the live seats' clocks, timed apart. */
static uint64_t clock_readings(struct seat *seat, int rounds)
{
	uint64_t t0 = bench_now_ns();
	for (int r = 0; r < rounds; r++)
		for (int p = 0; p < PLAYERS; p++)
			sbx_cpu_ns(seat[p].proc);
	return bench_now_ns() - t0;
}

/* (d): (c) through seats, as start_seats() starts them, under the
 * configured limits; the seats' start and end included.  *readings: what
 * the runner's CPU readings of those seats cost (not in (d)). */
static uint64_t sandboxed_floor_match(const struct game *game, int rounds, uint64_t *readings)
{
	err_t err;
	struct sbx_limits lim = player_limits();
	struct seat seat[PLAYERS];
	struct sbx_uid uid[PLAYERS];
	uint64_t t0 = bench_now_ns();
	struct sbx_policy *pol = sbx_policy_new(SBX_PLAYER, &lim, err);
	if (!pol)
		die("policy", err->msg);
	sbx_policy_set_batch(pol); /* as match_play() starts a course game's players */
	for (int p = 0; p < PLAYERS; p++) {
		uid[p] = (struct sbx_uid){ 0, -1 };
		if (geteuid() == 0 &&
		    sbx_uid_claim(cfg.sandbox.uid_base, cfg.sandbox.uid_count, &uid[p], err) < 0)
			die("uid", err->msg);
		if (seat_start(&seat[p], pol, ECHO_PLAYER, uid[p].uid, 64, game_message_max(game),
			       err) < 0)
			die("seat", err->msg);
	}
	for (int r = 0; r <= rounds; r++) {
		for (int p = 0; p < PLAYERS; p++)
			seat_send(&seat[p], buf, frame_len[r][p]);
		seat_collect(seat, PLAYERS, r - 1);
		for (int p = 0; p < PLAYERS; p++) {
			if (seat[p].frozen)
				die(ECHO_PLAYER, seat[p].reason);
			seat_consume(&seat[p]);
		}
	}
	uint64_t t1 = bench_now_ns();
	*readings = clock_readings(seat, rounds);
	t0 += bench_now_ns() - t1;
	for (int p = 0; p < PLAYERS; p++)
		seat_end(&seat[p]); /* as match_play() ends them */
	for (int p = 0; p < PLAYERS; p++) {
		seat_finish(&seat[p]);
		seat_free(&seat[p]);
		sbx_uid_release(&uid[p]);
	}
	sbx_policy_free(pol);
	return bench_now_ns() - t0;
}

/* (a) to (d) of one game; false when (a) and (b) scores differ. */
static bool compare_matches(const struct inproc *in)
{
	const struct game *game = game_find(in->game);
	if (!game || game->players != PLAYERS)
		die(in->game, "not a four-player game in the registry");
	char demo[PATH_MAX];
	bench_compile_shipped(&cfg, in->game, "Demo", demo);
	/* Each ratio is the median of the runs' own (in thousandths): the
	 * five matches of a run are played one after the other, so both sides
	 * of a run's ratio see the same machine, where the medians of each
	 * side could come from runs far apart on a VM that changes pace. */
	uint64_t a[RUNS], b[RUNS], c[RUNS], d[RUNS], e[RUNS], reads[RUNS];
	uint64_t ab[RUNS], floor_b[RUNS], runner[RUNS], around[RUNS], plain[RUNS], over_plain[RUNS];
	int64_t sa[PLAYERS], sb[PLAYERS], se[PLAYERS];
	int rounds = 0;
	for (int i = 0; i < RUNS; i++) {
		a[i] = sandboxed_match(game, demo, sa);
		b[i] = in_process_match(game, in, sb, &rounds);
		c[i] = floor_match(rounds);
		d[i] = sandboxed_floor_match(game, rounds, &reads[i]);
		e[i] = plain_match(game, demo, se);
		ab[i] = a[i] * 1000 / b[i];
		floor_b[i] = (b[i] + c[i]) * 1000 / b[i];
		runner[i] = a[i] * 1000 / (b[i] + c[i]);
		around[i] = a[i] * 1000 / (b[i] + d[i]);
		plain[i] = e[i] * 1000 / (b[i] + c[i]);
		over_plain[i] = a[i] * 1000 / e[i];
	}
	uint64_t ma = bench_median(a, RUNS), mb = bench_median(b, RUNS);
	uint64_t mc = bench_median(c, RUNS), md = bench_median(d, RUNS);
	bool same = memcmp(sa, sb, sizeof sa) == 0 && memcmp(se, sb, sizeof se) == 0;
	printf("%s, four Demos, %d rounds, replay written (medians of %d runs; a ratio, of the "
	       "runs' own):\n", game->title, rounds, RUNS);
	printf("  (a) sandboxed match     %8.1f ms\n", ma / 1e6);
	printf("  (b) in-process match    %8.1f ms   (same scores: %s)\n", mb / 1e6,
	       same ? "yes" : "NO");
	printf("  (c) no-op processes     %8.1f ms   ((b)'s frames, no work: %.1f us a round)\n",
	       mc / 1e6, mc / 1e3 / (rounds + 1));
	printf("  (a)/(b)                 %8.2f     (goal <= 1.5)\n", bench_median(ab, RUNS) / 1e3);
	printf("  ((b)+(c))/(b)           %8.2f     (the floor: a runner that cost nothing)\n",
	       bench_median(floor_b, RUNS) / 1e3);
	printf("  (a)/((b)+(c))           %8.2f     (the runner's own cost)\n",
	       bench_median(runner, RUNS) / 1e3);
	printf("  (d) no-op players, seats %7.1f ms   ((c) sandboxed: %+.1f ms, %+.0f us a player)\n",
	       md / 1e6, ((double)md - mc) / 1e6, ((double)md - mc) / 1e3 / PLAYERS);
	printf("  (a)/((b)+(d))           %8.2f     (the match around the seats)\n",
	       bench_median(around, RUNS) / 1e3);
	printf("  CPU clock readings      %8.2f ms   (%d, one a seat and round, in (a) only: status, "
	       "CPU plot)\n", bench_median(reads, RUNS) / 1e6, rounds * PLAYERS);
	printf("  (e) plain processes     %8.1f ms   (the Demos unsandboxed, the runner's hand-off; "
	       "same scores: %s)\n", bench_median(e, RUNS) / 1e6,
	       memcmp(se, sb, sizeof se) == 0 ? "yes" : "NO");
	printf("  (e)/((b)+(c))           %8.2f     (real players apart, beyond the floor)\n",
	       bench_median(plain, RUNS) / 1e3);
	printf("  (a)/(e)                 %8.2f     (the sandbox's and the runner's cost over "
	       "plain processes)\n", bench_median(over_plain, RUNS) / 1e3);
	fflush(stdout);
	return same;
}

/* The round trip, measured in BLOCKS alternating blocks of TURNS/BLOCKS
 * turns on each side, so that both sides see the same machine: a burst
 * of load elsewhere lands on one block pair, and the median drops it. */
#define BLOCKS 15

/* Floor of one turn: a view-sized frame to a process that does no work,
 * its two-byte frame back. */
static uint64_t ping_pong_block(struct echo *e, size_t view_len)
{
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < TURNS / BLOCKS; i++) {
		write_frame(e->to, buf, view_len);
		read_answer(e->from);
	}
	return bench_now_ns() - t0;
}

/* Runner: the same frames through a seat, to a sandboxed player: the
 * ping-pong's own echo (what the runner and the sandbox add to a turn) or
 * the game's Null (plus what the kit spends reading a view). */
static void seat_open(struct seat *s, struct sbx_policy **pol, const struct game *dom,
		      const char *player, struct game_state *g)
{
	err_t err;
	struct sbx_limits lim = player_limits();
	lim.cpu_ns = 60ULL * 1000000000;
	*pol = sbx_policy_new(SBX_PLAYER, &lim, err);
	if (!*pol || seat_start(s, *pol, player, 0, dom->orders_max,
				       game_message_max(dom), err) < 0)
		die("seat", err->msg);
	seat_send(s, buf + sizeof buf / 2, dom->start(g, 0, buf + sizeof buf / 2, sizeof buf / 2));
	seat_collect(s, 1, -1);
	seat_consume(s);
}

static uint64_t runner_block(struct seat *s, size_t view_len)
{
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < TURNS / BLOCKS && !s->frozen; i++) {
		seat_send(s, buf, view_len);
		seat_collect(s, 1, i);
		seat_consume(s);
	}
	if (s->frozen)
		die("runner turn", s->reason);
	return bench_now_ns() - t0;
}

static void compare_turns(void)
{
	char null_player[PATH_MAX];
	err_t err;
	const struct game *dom = game_find("dominator");
	bench_compile_shipped(&cfg, "dominator", "Null", null_player);
	struct game_state *g = dom->create(NULL, SEED, err);
	if (!g)
		die("dominator", err->msg);
	size_t view_len = dom->view(g, 0, buf, sizeof buf / 2);
	struct echo e;
	struct seat echo, null;
	struct sbx_policy *echo_pol, *null_pol;
	echo_start(&e);
	seat_open(&echo, &echo_pol, dom, ECHO_PLAYER, g);
	seat_open(&null, &null_pol, dom, null_player, g);
	uint64_t pp[BLOCKS], ratio[BLOCKS], null_ratio[BLOCKS], pp_all = 0, echo_all = 0,
		 null_all = 0;
	for (int b = 0; b < BLOCKS; b++) {
		uint64_t p = ping_pong_block(&e, view_len), r = runner_block(&echo, view_len),
			 n = runner_block(&null, view_len);
		pp[b] = p;
		ratio[b] = r * 1000 / p;
		null_ratio[b] = n * 1000 / p;
		pp_all += p;
		echo_all += r;
		null_all += n;
	}
	dom->destroy(g);
	close(e.to);
	close(e.from);
	waitpid(e.pid, NULL, 0);
	seat_free(&echo);
	seat_free(&null);
	sbx_policy_free(echo_pol);
	sbx_policy_free(null_pol);
	double turns = (double)(TURNS / BLOCKS) * BLOCKS;
	printf("round trip of one Dominator turn (%zu-byte view, %d blocks of %d turns, each "
	       "side in turn):\n", view_len, BLOCKS, TURNS / BLOCKS);
	printf("  raw pipe ping-pong      %8.1f us (median block %.1f us)\n", pp_all / turns / 1e3,
	       bench_median(pp, BLOCKS) / (turns / BLOCKS) / 1e3);
	printf("  runner, sandboxed echo  %8.1f us\n", echo_all / turns / 1e3);
	printf("  ratio                   %8.2f     (median of the blocks' ratios; goal <= 1.3)\n",
	       bench_median(ratio, BLOCKS) / 1000.0);
	printf("  runner, sandboxed Null  %8.1f us (the kit reads each view: %.2fx)\n",
	       null_all / turns / 1e3, bench_median(null_ratio, BLOCKS) / 1000.0);
}

/* Everything on one CPU, as the runner plays a match: the in-process match
 * and the ping-pong too, so that both sides of each ratio run alike. */
static void pin_to_one_cpu(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof one, &one) < 0)
		die("sched_setaffinity", "failed");
}

/* "bench-match turn" measures the round trip alone, "bench-match GAME"
 * one course game's match alone (for side-by-side runs of two builds). */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	bool turn = !only || strcmp(only, "turn") == 0, played = false;
	err_t err;
	signal(SIGPIPE, SIG_IGN);
	pin_to_one_cpu();
	if (cfg_init(&cfg, NULL, err) < 0)
		die("config", err->msg);
	bool same = true;
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
		if (only && strcmp(only, games[i]->game) != 0)
			continue;
		same &= compare_matches(games[i]);
		played = true;
	}
	if (only && !turn && !played)
		die(only, "not a course game (or \"turn\" for the round trip alone)");
	if (turn)
		compare_turns();
	return same ? 0 : 1;
}
