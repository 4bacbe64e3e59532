/* blitz.c - what a Blitz2018 turn costs, at the two sizes the issue
 * compares with the original Halite I environment, with no-op players (the
 * shipped Null: it moves nothing, so every match runs to its turn limit):
 * (a) the sandboxed match as `judge play` plays it, replay written; (b)
 * the same engine in this process, each player's view encoded and an empty
 * orders message taken, the replay recorded the same way.  Per turn, the
 * median of RUNS matches, and the size of (a)'s replay.
 *
 * (a) is given two ways: the whole match over its turns, and per turn once
 * the players are running (a match of the same size cut to one turn gives
 * the launch and the teardown, which are taken off).  The second is what
 * the original's figure is (its whole 30 x 30 match of two bots takes
 * 0.26 s, far more than its turns), so it is the one held to the goal,
 * a quarter of the original's; both are printed against it.
 *
 * The original's figures, measured by the issue on this VM (its trivial
 * bots, no replay): 0.14 ms a turn at 30 x 30 with 2 players, 0.55 ms at
 * 48 x 48 with 6 (here 50 x 50, the size Halite's contest used).  The load
 * average is printed too: the machine is shared and the figures move with
 * it.
 */
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/bench_match.h"
#include "games/game.h"
#include "judge/base/config.h"

#define RUNS ((int)bench_size(5, 1))
#define SEED 7

struct bz_case {
	int side, players;
	double original_ms; /* per turn, the original environment's */
};

static const struct bz_case cases[] = { { 30, 2, 0.14 }, { 50, 6, 0.55 } };

static struct judge_config cfg;
static uint8_t buf[1 << 16];

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench: %s: %s\n", what, why);
	exit(1);
}

/* (a): turns played into *turns, the replay's size into *bytes. */
static uint64_t sandboxed(const struct game *gm, const char *params, int n, const char *null,
			  int *turns, size_t *bytes)
{
	struct match_result r;
	uint64_t t = bench_match(&cfg, gm, params, SEED, n, null, "Null", &r);
	uint64_t t0 = bench_now_ns();
	char *text = json_dumps(r.replay, JSON_COMPACT);
	t += bench_now_ns() - t0; /* the replay's text, as (b) makes it */
	*turns = r.rounds;
	*bytes = text ? strlen(text) : 0;
	free(text);
	match_result_free(&r);
	return t;
}

/* (b): the engine alone, players that send no orders. */
static uint64_t in_process(const struct game *gm, const char *params, int n)
{
	static const uint8_t no_orders[2] = { 0, 0 };
	err_t err;
	uint64_t t0 = bench_now_ns();
	struct game_state *g = game_create(gm, params, SEED, n, err);
	if (!g)
		die("blitz", err->msg);
	json_t *start = gm->replay_header(g), *rounds = json_array();
	for (int p = 0; p < n; p++)
		gm->start(g, p, buf, sizeof buf);
	while (!game_over(gm, g)) {
		for (int p = 0; p < n; p++) {
			gm->status(g, p, 0);
			gm->view(g, p, buf, sizeof buf);
			if (gm->orders(g, p, no_orders, sizeof no_orders, err) < 0)
				die("blitz orders", err->msg);
		}
		json_t *orders = gm->replay_orders(g);
		gm->advance(g);
		json_t *frame = gm->replay_round(g);
		json_object_set_new(frame, "orders", orders);
		json_array_append_new(rounds, frame);
	}
	json_t *replay = json_pack("{s:o, s:o}", "start", start, "rounds", rounds);
	char *text = json_dumps(replay, JSON_COMPACT);
	uint64_t t = bench_now_ns() - t0;
	free(text);
	json_decref(replay);
	gm->destroy(g);
	return t;
}

static void print_load(void)
{
	double load[3];
	if (getloadavg(load, 3) == 3)
		printf("load average %.1f %.1f %.1f (2 cores)\n", load[0], load[1], load[2]);
}

static void measure(const struct game *gm, const struct bz_case *c, const char *null)
{
	char params[64], one_turn[80];
	snprintf(params, sizeof params, "width %d\nheight %d\n", c->side, c->side);
	snprintf(one_turn, sizeof one_turn, "%srounds 1\n", params);
	uint64_t a[RUNS], launch[RUNS], b[RUNS];
	int turns = 0, one = 0;
	size_t bytes = 0, one_bytes;
	for (int i = 0; i < RUNS; i++) {
		a[i] = sandboxed(gm, params, c->players, null, &turns, &bytes);
		launch[i] = sandboxed(gm, one_turn, c->players, null, &one, &one_bytes);
		b[i] = in_process(gm, params, c->players);
	}
	double whole = bench_median(a, RUNS) / 1e6, start = bench_median(launch, RUNS) / 1e6;
	double ma = whole / turns, mb = bench_median(b, RUNS) / 1e6 / turns;
	/* the one-turn match's own turn is in `start`: the rest are turns - 1 */
	double running = (whole - start) / (turns - one);
	printf("Blitz2018 %dx%d, %d Nulls, %d turns (median of %d):\n", c->side, c->side,
	       c->players, turns, RUNS);
	printf("  (a) sandboxed, whole match / turns     %8.3f ms   (replay %zu bytes)\n", ma,
	       bytes);
	printf("      launch + teardown + 1 turn         %8.3f ms\n", start);
	printf("      per turn, players running          %8.3f ms\n", running);
	printf("  (b) in-process, per turn               %8.3f ms\n", mb);
	printf("  (a)/(b), whole match                   %8.2f\n", ma / mb);
	printf("  (a)/original (%.2f ms), running turns  %8.2f     (goal <= 0.25)\n",
	       c->original_ms, running / c->original_ms);
	printf("  (a)/original, whole match / turns      %8.2f\n", ma / c->original_ms);
	fflush(stdout);
}

int main(void)
{
	char null[PATH_MAX];
	err_t err;
	signal(SIGPIPE, SIG_IGN);
	if (cfg_init(&cfg, NULL, err) < 0)
		die("config", err->msg);
	const struct game *gm = game_find("blitz");
	if (!gm)
		die("blitz", "not in the registry");
	bench_compile_shipped(&cfg, "blitz", "Null", null);
	print_load();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		measure(gm, &cases[i], null);
	return 0;
}
