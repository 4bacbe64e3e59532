/* aic2018.c - what AIC2018's model costs, side by side in one run:
 * (a) Demo against Demo, sandboxed, on one core, as `judge play` plays
 * it: wall time per unit-turn (every turn a unit's code ran; goal <= 6 us;
 * the original family's Java engine takes 22-28 us); (b) the same match
 * with the players compiled without the energy count's instrumentation:
 * the players' CPU, instrumented against plain (the counting overhead on
 * the Demo); (c) the same match with both Demos (their kits, coroutines
 * and energy count included) linked into this process: no sandbox, no
 * pipes, no process switches.  The rounds of (a), (b) and (c) must be
 * equal: energy only pauses a unit that spends 15000, which the Demo never
 * does, and the runner's steps are the engine's.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/bench_match.h"
#include "games/aic2018/engine/energy_asm.h"
#include "games/aic2018/proto.h"
#include "games/game.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/compile/compile.h"
#include "judge/play/players.h"

int inproc_aic2018_start_0(const uint8_t *, size_t);
long inproc_aic2018_turn_0(const uint8_t *, size_t, uint8_t *, size_t);
int inproc_aic2018_start_1(const uint8_t *, size_t);
long inproc_aic2018_turn_1(const uint8_t *, size_t, uint8_t *, size_t);
static int (*const kit_start[2])(const uint8_t *, size_t) = { inproc_aic2018_start_0,
							     inproc_aic2018_start_1 };
static long (*const kit_turn[2])(const uint8_t *, size_t, uint8_t *, size_t) = {
	inproc_aic2018_turn_0, inproc_aic2018_turn_1
};

#define RUNS ((int)bench_size(5, 1))
#define SEED 11

static struct judge_config cfg;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench: %s: %s\n", what, why);
	exit(1);
}

/* The Demo as the judge compiles it (instrumented), or plain. */
static void compile_demo(bool instrumented, char binary[PATH_MAX])
{
	char source[PATH_MAX], header[PATH_MAX], runtime[PATH_MAX];
	err_t err;
	if (!paths_shipped_player(cfg.data_dir, "aic2018", "Demo", source))
		die(source, "no such player");
	paths_game_header(cfg.data_dir, "aic2018", header);
	snprintf(runtime, sizeof runtime, "build/kits/libaic2018.a");
	struct cmp_request req = { .source = source, .header = header, .runtime = runtime,
				   .instrument = "-ffixed-r15", .no_writable_globals = true,
				   .asm_pass = instrumented ? energy_asm_rewrite : NULL,
				   .asm_pass_version = ENERGY_ASM_VERSION };
	struct cmp_result r;
	if (cmp_compile(&cfg.compile, &req, &r, err) < 0 || !r.ok)
		die(source, r.ok ? err->msg : r.log);
	snprintf(binary, PATH_MAX, "%s", r.binary);
	cmp_result_free(&r);
}

struct outcome {
	uint64_t wall_ns, cpu_ns; /* the match; both players' CPU */
	long unit_turns;
	int rounds;
	char *replay;             /* the rounds, for comparing (a) and (b) */
};

/* Units whose code ran: one entry per unit in each step's orders. */
static long count_unit_turns(const json_t *rounds)
{
	long n = 0;
	size_t i, j;
	const json_t *frame, *step;
	json_array_foreach(rounds, i, frame)
		json_array_foreach(json_object_get(json_object_get(frame, "orders"), "steps"), j, step)
			n += (long)json_array_size(json_array_get(step, 1));
	return n;
}

static struct outcome play(const char *binary)
{
	struct judge_config generous = cfg; /* ten CPU budgets: a slow machine is no freeze */
	generous.sandbox.cpu_ns *= 10;
	struct match_result r;
	struct outcome o = { .wall_ns = bench_match(&generous, game_find("aic2018"), NULL, SEED, 2,
						     binary, "Demo", &r) };
	for (int i = 0; i < 2; i++)
		o.cpu_ns += r.seat[i].cpu_ns;
	const json_t *rounds = json_object_get(r.replay, "rounds");
	o.unit_turns = count_unit_turns(rounds);
	o.rounds = (int)json_array_size(rounds);
	o.replay = json_dumps(rounds, JSON_COMPACT);
	match_result_free(&r);
	return o;
}

/* Median of RUNS matches (wall and CPU separately). */
static struct outcome measure(const char *binary)
{
	uint64_t wall[RUNS], cpu[RUNS];
	struct outcome o = { 0 };
	for (int i = 0; i < RUNS; i++) {
		free(o.replay);
		o = play(binary);
		wall[i] = o.wall_ns;
		cpu[i] = o.cpu_ns;
	}
	o.wall_ns = bench_median(wall, RUNS);
	o.cpu_ns = bench_median(cpu, RUNS);
	return o;
}

/* (c): the runner's steps with direct calls; the rounds as the replay
 * records them, for the comparison. */
static uint64_t in_process(char **replay)
{
	static uint8_t view[AIC_VIEW_MAX], answer[AIC_ORDERS_MAX];
	const struct game *gm = game_find("aic2018");
	err_t err;
	struct game_state *g = gm->create(NULL, SEED, err);
	if (!g)
		die("create", err->msg);
	json_decref(gm->replay_header(g));
	json_t *rounds = json_array();
	uint64_t t0 = bench_now_ns();
	for (int p = 0; p < 2; p++)
		if (kit_start[p](view, gm->start(g, p, view, sizeof view)) < 0)
			die("start", "refused");
	while (!game_over(gm, g)) {
		for (int s; (s = gm->next_seat(g)) >= 0;) {
			long n = kit_turn[s](view, gm->view(g, s, view, sizeof view), answer,
					     sizeof answer);
			if (n < 0 || gm->orders(g, s, answer, (size_t)n, err) < 0)
				die("orders", n < 0 ? "the kit failed" : err->msg);
		}
		json_t *orders = gm->replay_orders(g);
		gm->advance(g);
		json_t *frame = gm->replay_round(g);
		json_object_set_new(frame, "orders", orders);
		json_object_set_new(frame, "live", json_pack("[i, i]", 1, 1));
		json_array_append_new(rounds, frame);
	}
	uint64_t t = bench_now_ns() - t0;
	*replay = json_dumps(rounds, JSON_COMPACT);
	json_decref(rounds);
	gm->destroy(g);
	return t;
}

int main(void)
{
	char counted[PATH_MAX], plain[PATH_MAX];
	err_t err;
	if (cfg_init(&cfg, NULL, err) < 0)
		die("config", err->msg);
	compile_demo(true, counted);
	compile_demo(false, plain);
	struct outcome a = measure(counted), b = measure(plain);
	if (strcmp(a.replay, b.replay) != 0)
		die("Demo", "the instrumented and plain Demos played different matches");
	char *c_replay;
	uint64_t c_ns = in_process(&c_replay); /* once: the kits' state is this process's */
	if (strcmp(a.replay, c_replay) != 0)
		die("Demo", "the in-process match differs from the sandboxed one");
	free(c_replay);
	double per_turn = (double)a.wall_ns / 1e3 / (double)a.unit_turns;
	printf("aic2018 Demo vs Demo, sandboxed, one core: %d rounds, %ld unit-turns, %.1f ms: "
	       "%.2f us per unit-turn (goal <= 6 us; AIC2019's Java engine: 22-28 us)\n",
	       a.rounds, a.unit_turns, a.wall_ns / 1e6, per_turn);
	printf("aic2018 the same match in-process (kits linked in, no sandbox): %.1f ms, %.2f us "
	       "per unit-turn; sandboxed/in-process %.2f\n", c_ns / 1e6,
	       (double)c_ns / 1e3 / (double)a.unit_turns, (double)a.wall_ns / (double)c_ns);
	printf("aic2018 energy counting on the Demo: players' CPU %.1f ms instrumented, %.1f ms "
	       "plain: %.2fx\n", a.cpu_ns / 1e6, b.cpu_ns / 1e6,
	       b.cpu_ns ? (double)a.cpu_ns / (double)b.cpu_ns : 0);
	free(a.replay);
	free(b.replay);
	return 0; /* a goal missed is reported, not failed: the machine may be busy */
}
