/* dummy_winrate.c - how strong each game's shipped Dummy player is.  For
 * every game of games/LIST it compiles Dummy and Demo through the
 * judge's compile step, plays the seeded matches Dummy Demo Demo Demo (Dummy
 * in seat 0; a game with a range of players, Blitz, at its smallest and at
 * four) in the sandbox with the configured limits, and prints one line:
 * Dummy's strict win rate (goal >= 80%) and its CPU per match.  A game whose
 * Dummy is not written yet is named and skipped.  Falling short of the goal
 * is reported, not failed: the exit status is non-zero only when a game's
 * benchmark could not run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "games/game.h"
#include "judge/compile/compile.h"
#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/play/match.h"
#include "judge/play/players.h"

#define DW_FIRST_SEED 1
#define DW_LAST_SEED ((int)bench_size(50, 1))
#define DW_GOAL_PERCENT 80
#define DW_PARAMS_MAX (1 << 20)

/* One line of the report: a game of games/LIST at one number of players. */
struct dw_game {
	const char *name; /* as game_find() and `judge play` know it */
	char title[64];   /* as the report prints it */
	int players;      /* Dummy and players - 1 Demos */
};

struct dw_tally {
	int matches, wins, shared_wins, frozen;
	uint64_t cpu_total, cpu_max;
};

/* Compiles a shipped player of game as `judge play` does; -1 with the
 * reason printed when it cannot. */
static int dw_compile(const struct judge_config *cfg, const char *game, const char *source,
		      struct cmp_result *out)
{
	err_t err;
	if (players_compile(cfg, game, source, out, err) < 0) {
		fprintf(stderr, "bench: %s\n", err->msg);
		return -1;
	}
	if (!out->ok) {
		fprintf(stderr, "bench: %s does not compile:\n%s", source, out->log);
		return -1;
	}
	return 0;
}

/* The game's default parameters file, the one `judge play` reads; NULL
 * (the engine's defaults, the same game) when it is absent. */
static char *dw_read_params(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *text = calloc(1, DW_PARAMS_MAX + 1);
	if (text && fread(text, 1, DW_PARAMS_MAX, f) == DW_PARAMS_MAX) {
		free(text); /* too big to be the default game: use the defaults */
		text = NULL;
	}
	fclose(f);
	return text;
}

/* Dummy wins strictly when it alone has rank 1: a shared first place is
 * not a win, so a Dummy that merely ties cannot meet the goal. */
static void dw_count(const struct match_result *r, struct dw_tally *t)
{
	const struct match_seat *dummy = &r->seat[0];
	int firsts = 0;
	for (int i = 0; i < r->nplayers; i++)
		firsts += r->seat[i].rank == 1;
	t->matches++;
	t->wins += dummy->rank == 1 && firsts == 1;
	t->shared_wins += dummy->rank == 1 && firsts > 1;
	t->frozen += dummy->frozen;
	t->cpu_total += dummy->cpu_ns;
	if (dummy->cpu_ns > t->cpu_max)
		t->cpu_max = dummy->cpu_ns;
}

/* The limits and uids are the configured ones, so the CPU figure is the
 * one a contestant's budget is checked against. */
static void dw_spec(const struct judge_config *cfg, const struct game *game, int players,
		    const char *params, struct match_spec *spec)
{
	const struct cfg_sandbox *sb = &cfg->sandbox;
	*spec = (struct match_spec){
		.game = game, .params = params, .nplayers = players,
		.uid_base = sb->uid_base, .uid_count = sb->uid_count,
		.wall_budget_factor = sb->wall_budget_factor, .wall_round_ns = sb->wall_round_ns,
		.limits = { .cpu_ns = sb->cpu_ns, .wall_ns = sb->wall_ns,
			    .memory_bytes = sb->memory_bytes, .stderr_bytes = sb->stderr_bytes,
			    .open_files = sb->open_files },
	};
}

static int dw_play_all(struct match_spec *spec, struct dw_tally *t)
{
	for (uint64_t seed = DW_FIRST_SEED; seed <= (uint64_t)DW_LAST_SEED; seed++) {
		struct match_result r;
		err_t err;
		spec->seed = seed;
		if (match_play(spec, &r, err) < 0) {
			fprintf(stderr, "bench: %s, seed %llu: %s\n", spec->game->name,
				(unsigned long long)seed, err->msg);
			return -1;
		}
		dw_count(&r, t);
		match_result_free(&r);
	}
	return 0;
}

static void dw_report(const struct dw_game *g, const struct dw_tally *t)
{
	double rate = 100.0 * t->wins / t->matches;
	printf("  %-21s win rate %5.1f%% (%d/%d, shared first places not counted: %d), "
	       "goal >= %d%%: %s; Dummy CPU / match %.1f ms mean, %.1f ms max, frozen in %d\n",
	       g->title, rate, t->wins, t->matches, t->shared_wins, DW_GOAL_PERCENT,
	       rate >= DW_GOAL_PERCENT ? "met" : "NOT met", t->cpu_total / 1e6 / t->matches,
	       t->cpu_max / 1e6, t->frozen);
}

/* Plays one game's matches and prints its line; -1 when they could not be
 * played (the judge lacks the game, a runtime is missing, no compile). */
static int dw_bench_game(const struct judge_config *cfg, const struct dw_game *g)
{
	char dummy_src[PATH_MAX], demo_src[PATH_MAX], params_path[PATH_MAX];
	if (!paths_shipped_player(cfg->data_dir, g->name, "Dummy", dummy_src)) {
		printf("  %-10s no Dummy player yet\n", g->title);
		return 0;
	}
	const struct game *game = game_find(g->name);
	if (!game || !paths_shipped_player(cfg->data_dir, g->name, "Demo", demo_src)) {
		fprintf(stderr, "bench: the judge has no %s game with a Demo\n", g->name);
		return -1;
	}
	struct cmp_result dummy = { 0 }, demo = { 0 };
	struct dw_tally t = { 0 };
	struct match_spec spec;
	paths_game_params(cfg->data_dir, g->name, params_path);
	char *params = dw_read_params(params_path);
	dw_spec(cfg, game, g->players, params, &spec);
	int rc = dw_compile(cfg, g->name, dummy_src, &dummy) < 0 ||
		 dw_compile(cfg, g->name, demo_src, &demo) < 0;
	if (!rc) {
		spec.entry[0] = (struct match_entry){ .binary = dummy.binary, .name = "Dummy",
						      .label = "Dummy" };
		for (int i = 1; i < spec.nplayers; i++)
			spec.entry[i] = (struct match_entry){ .binary = demo.binary, .name = "Demo",
							      .label = "Demo" };
		rc = dw_play_all(&spec, &t) < 0;
	}
	if (!rc)
		dw_report(g, &t);
	free(params);
	cmp_result_free(&dummy);
	cmp_result_free(&demo);
	return rc ? -1 : 0;
}

/* A game's matches at its count of players; a game with a range of them
 * at its smallest and at four. */
static int dw_bench_sizes(const struct judge_config *cfg, const struct game *game)
{
	int sizes[2] = { game->min_players ? game->min_players : game->players, 0 }, failed = 0;
	if (game->min_players && game->min_players < 4 && game->max_players >= 4)
		sizes[1] = 4;
	for (int i = 0; i < 2 && sizes[i]; i++) {
		struct dw_game g = { .name = game->name, .players = sizes[i] };
		if (game->min_players)
			snprintf(g.title, sizeof g.title, "%s (%d players)", game->title, sizes[i]);
		else
			snprintf(g.title, sizeof g.title, "%s", game->title);
		failed |= dw_bench_game(cfg, &g) < 0;
	}
	return failed;
}

static int dw_usage(FILE *out, int status)
{
	fprintf(out, "usage: bench-dummy_winrate\n\n"
		     "For every game, plays Dummy (seat 0) against three Demos (a game with\n"
		     "a range of players: its smallest, then four) over seeds %d..%d with the configured limits and\n"
		     "prints Dummy's strict win rate\n"
		     "(goal >= %d%%) and its CPU per match.\n\n"
		     "exit status: 0 when every game was measured (goal met or not), 1 when\n"
		     "one could not be, 2 for bad usage.\n",
		DW_FIRST_SEED, DW_LAST_SEED, DW_GOAL_PERCENT);
	return status;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return dw_usage(strcmp(argv[1], "--help") ? stderr : stdout,
				strcmp(argv[1], "--help") ? 2 : 0);
	struct judge_config cfg;
	err_t err;
	if (cfg_init(&cfg, NULL, err) < 0) {
		fprintf(stderr, "bench: %s\n", err->msg);
		return 1;
	}
	printf("Dummy (seat 0) vs Demos (3 unless said), seeds %d..%d, strict wins:\n", DW_FIRST_SEED,
	       DW_LAST_SEED);
	uint64_t t0 = bench_now_ns();
	int failed = 0;
	for (const struct game *const *g = game_list(); *g; g++)
		failed |= dw_bench_sizes(&cfg, *g);
	printf("  wall time %.1f s\n", (bench_now_ns() - t0) / 1e9);
	return failed;
}
