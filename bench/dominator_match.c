/* dominator_match.c - what the sandbox costs a whole match, side by side:
 * (a) four Demos, 200 rounds, sandboxed, replay written; (b) the same match
 * with the four players linked into this process (no sandbox, no pipes);
 * (c) a raw pipe ping-pong between two processes against the runner's
 * per-turn round trip with a sandboxed player.  Goals: (a)/(b) <= 1.5 and
 * turn <= 2x ping-pong. */
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "games/game.h"
#include "judge/compile.h"
#include "judge/config.h"
#include "judge/match.h"
#include "judge/seat.h"

#define RUNS 7
#define TURNS 3000
#define SEED 30

typedef int (*kit_start_fn)(const uint8_t *, size_t);
typedef long (*kit_turn_fn)(const uint8_t *, size_t, uint8_t *, size_t);
int dom_kit_start_0(const uint8_t *, size_t), dom_kit_start_1(const uint8_t *, size_t);
int dom_kit_start_2(const uint8_t *, size_t), dom_kit_start_3(const uint8_t *, size_t);
long dom_kit_turn_0(const uint8_t *, size_t, uint8_t *, size_t);
long dom_kit_turn_1(const uint8_t *, size_t, uint8_t *, size_t);
long dom_kit_turn_2(const uint8_t *, size_t, uint8_t *, size_t);
long dom_kit_turn_3(const uint8_t *, size_t, uint8_t *, size_t);
static const kit_start_fn kit_start[4] = { dom_kit_start_0, dom_kit_start_1, dom_kit_start_2,
					   dom_kit_start_3 };
static const kit_turn_fn kit_turn[4] = { dom_kit_turn_0, dom_kit_turn_1, dom_kit_turn_2,
					 dom_kit_turn_3 };

static struct judge_config cfg;
static const struct game *dom;
static uint8_t buf[1 << 16], reply[1 << 14];

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench: %s: %s\n", what, why);
	exit(1);
}

static void compile(const char *player, char binary[PATH_MAX])
{
	char source[PATH_MAX], err[CMP_ERRLEN];
	snprintf(source, sizeof source, "games/dominator/players/AI%s.c", player);
	struct cmp_request req = { .source = source, .header = "games/dominator/kit/dominator.h",
				   .runtime = "build/kits/libdominator.a" };
	struct cmp_result r;
	if (cmp_compile(&cfg.compile, &req, &r, err) < 0 || !r.ok)
		die(source, r.ok ? err : r.log);
	snprintf(binary, PATH_MAX, "%s", r.binary);
	cmp_result_free(&r);
}

static struct sbx_limits player_limits(void)
{
	return (struct sbx_limits){ .cpu_ns = cfg.sandbox.cpu_ns, .wall_ns = cfg.sandbox.wall_ns,
				    .memory_bytes = cfg.sandbox.memory_bytes,
				    .stderr_bytes = cfg.sandbox.stderr_bytes };
}

/* (a): the real thing, as `judge play` does it. */
static uint64_t sandboxed_match(const char *demo, int64_t scores[4])
{
	struct match_spec spec = { .game = dom, .seed = SEED, .nplayers = 4,
				   .pin_cpu = true, .cpu = sched_getcpu(),
				   .limits = player_limits(), .uid_base = cfg.sandbox.uid_base,
				   .uid_count = cfg.sandbox.uid_count };
	for (int i = 0; i < 4; i++)
		spec.entry[i] = (struct match_entry){ .binary = demo, .label = "Demo" };
	struct match_result r;
	char err[MATCH_ERRLEN];
	uint64_t t0 = bench_now_ns();
	if (match_play(&spec, &r, err) < 0)
		die("match", err);
	json_dump_file(r.replay, "build/bench-match.json", JSON_COMPACT);
	uint64_t t = bench_now_ns() - t0;
	for (int i = 0; i < 4; i++)
		scores[i] = r.seat[i].score;
	match_result_free(&r);
	return t;
}

/* (b): the same engine, players and replay, with direct calls. */
static uint64_t in_process_match(int64_t scores[4])
{
	char err[GAME_ERRLEN];
	uint64_t t0 = bench_now_ns();
	struct game_state *g = dom->create(NULL, SEED, err);
	if (!g)
		die("game", err);
	for (int p = 0; p < 4; p++)
		kit_start[p](buf, dom->start(g, p, buf, sizeof buf));
	json_t *rounds = json_array();
	for (int r = dom->rounds(g); r > 0; r--) {
		for (int p = 0; p < 4; p++) {
			dom->status(g, p, 0);
			long n = kit_turn[p](buf, dom->view(g, p, buf, sizeof buf), reply, sizeof reply);
			if (n < 0 || dom->orders(g, p, reply, (size_t)n, err) < 0)
				die("in-process turn", err);
		}
		dom->advance(g);
		json_array_append_new(rounds, dom->replay_round(g));
	}
	json_t *replay = json_pack("{s:o, s:o}", "start", dom->replay_header(g), "rounds", rounds);
	json_dump_file(replay, "build/bench-match-inproc.json", JSON_COMPACT);
	uint64_t t = bench_now_ns() - t0;
	dom->scores(g, scores);
	json_decref(replay);
	dom->destroy(g);
	return t;
}

static void write_frame(int fd, const uint8_t *p, uint32_t len)
{
	uint8_t h[4] = { (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24) };
	if (write(fd, h, 4) != 4 || write(fd, p, len) != (ssize_t)len)
		_exit(1);
}

static void read_exact(int fd, uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r <= 0)
			_exit(0);
		p += r;
		n -= (size_t)r;
	}
}

static uint32_t read_frame(int fd, uint8_t *p)
{
	uint8_t h[4];
	read_exact(fd, h, 4);
	uint32_t len = h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
	read_exact(fd, p, len);
	return len;
}

/* (c) floor: a view-sized frame there, a two-byte frame back, no work. */
static double ping_pong_ns(size_t view_len)
{
	int down[2], up[2];
	if (pipe(down) || pipe(up))
		die("pipe", "failed");
	pid_t pid = fork();
	if (pid == 0) {
		static uint8_t in[1 << 16];
		close(down[1]);
		close(up[0]);
		for (;;) {
			read_frame(down[0], in);
			write_frame(up[1], (const uint8_t *)"\0\0", 2);
		}
	}
	close(down[0]);
	close(up[1]);
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < TURNS; i++) {
		write_frame(down[1], buf, (uint32_t)view_len);
		read_frame(up[0], reply);
	}
	uint64_t t = bench_now_ns() - t0;
	close(down[1]);
	waitpid(pid, NULL, 0);
	close(up[0]);
	return (double)t / TURNS;
}

/* (c) runner: the same frames through a seat, to a sandboxed Null player. */
static double runner_turn_ns(const char *null_player, struct game_state *g, size_t view_len)
{
	char err[SBX_ERRLEN];
	struct sbx_limits lim = player_limits();
	lim.cpu_ns = 60ULL * 1000000000;
	struct sbx_policy *pol = sbx_policy_new(SBX_PLAYER, &lim, err);
	struct seat s;
	if (!pol || seat_start(&s, pol, null_player, 0, dom->orders_max, err) < 0)
		die("seat", err);
	seat_send(&s, buf + sizeof buf / 2, dom->start(g, 0, buf + sizeof buf / 2, sizeof buf / 2));
	seat_collect(&s, 1, -1);
	seat_consume(&s);
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < TURNS && !s.frozen; i++) {
		seat_send(&s, buf, view_len);
		seat_collect(&s, 1, i);
		seat_consume(&s);
	}
	uint64_t t = bench_now_ns() - t0;
	if (s.frozen)
		die("runner turn", s.reason);
	seat_free(&s);
	sbx_policy_free(pol);
	return (double)t / TURNS;
}

int main(void)
{
	char err[CFG_ERRLEN], demo[PATH_MAX], null_player[PATH_MAX];
	signal(SIGPIPE, SIG_IGN);
	if (cfg_init(&cfg, NULL, err) < 0)
		die("config", err);
	dom = game_find("dominator");
	compile("Demo", demo);
	compile("Null", null_player);

	uint64_t a[RUNS], b[RUNS];
	int64_t sa[4], sb[4];
	for (int i = 0; i < RUNS; i++) {
		a[i] = sandboxed_match(demo, sa);
		b[i] = in_process_match(sb);
	}
	uint64_t ma = bench_median(a, RUNS), mb = bench_median(b, RUNS);
	bool same = memcmp(sa, sb, sizeof sa) == 0;
	printf("Dominator, four Demos, 200 rounds, replay written (median of %d):\n", RUNS);
	printf("  (a) sandboxed match     %8.1f ms\n", ma / 1e6);
	printf("  (b) in-process match    %8.1f ms   (same scores: %s)\n", mb / 1e6,
	       same ? "yes" : "NO");
	printf("  (a)/(b)                 %8.2f     (goal <= 1.5)\n", (double)ma / mb);

	struct game_state *g = dom->create(NULL, SEED, err);
	size_t view_len = dom->view(g, 0, buf, sizeof buf / 2);
	double pp = ping_pong_ns(view_len), turn = runner_turn_ns(null_player, g, view_len);
	dom->destroy(g);
	printf("round trip of one turn (%zu-byte view, mean of %d):\n", view_len, TURNS);
	printf("  raw pipe ping-pong      %8.1f us\n", pp / 1e3);
	printf("  runner, sandboxed Null  %8.1f us\n", turn / 1e3);
	printf("  ratio                   %8.2f     (goal <= 2)\n", turn / pp);
	return same ? 0 : 1;
}
