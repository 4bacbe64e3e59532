/* game.c - Ants as the judge sees it: the `struct game` table.
 *
 * The judge's opaque struct game_state is a struct ant_state; these thin
 * adapters are the only place that converts between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/ants/ants.h"

struct ant_state *ant_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct ant_state *g = calloc(1, sizeof *g);
	if (!g) {
		snprintf(err, GAME_ERRLEN, "out of memory for an Ants match");
		return NULL;
	}
	if (ant_params_parse(params, &g->p, err) < 0) {
		free(g);
		return NULL;
	}
	g->seed = seed;
	g->rng = rng_seeded(seed);
	if (ant_board_setup(g, err) < 0) {
		free(g);
		return NULL;
	}
	ant_begin_log(g);
	return g;
}

void ant_free(struct ant_state *g)
{
	free(g);
}

static struct ant_state *ant_of(struct game_state *g)
{
	return (struct ant_state *)g;
}

static const struct ant_state *ant_of_const(const struct game_state *g)
{
	return (const struct ant_state *)g;
}

static struct game_state *game_create(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	return (struct game_state *)ant_new(params, seed, err);
}

static void game_destroy(struct game_state *g)
{
	ant_free(ant_of(g));
}

static int game_rounds(const struct game_state *g)
{
	return ant_of_const(g)->p.rounds;
}

static int game_round(const struct game_state *g)
{
	return ant_of_const(g)->round;
}

static size_t game_start(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return ant_start(ant_of_const(g), player, buf, cap);
}

static size_t game_view(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return ant_view(ant_of_const(g), player, buf, cap);
}

static int game_orders(struct game_state *g, int player, const uint8_t *buf, size_t len,
		       char err[GAME_ERRLEN])
{
	return ant_take_orders(ant_of(g), player, buf, len, err);
}

static void game_status(struct game_state *g, int player, double cpu_share)
{
	ant_set_status(ant_of(g), player, cpu_share);
}

static void game_advance(struct game_state *g)
{
	ant_advance(ant_of(g));
}

static void game_scores(const struct game_state *g, int64_t *score)
{
	memcpy(score, ant_of_const(g)->score, ANT_PLAYERS * sizeof *score);
}

static json_t *game_replay_header(const struct game_state *g)
{
	return ant_replay_header(ant_of_const(g));
}

static json_t *game_replay_round(const struct game_state *g)
{
	return ant_replay_round(ant_of_const(g));
}

const struct game ants_game = {
	.name = "ants",
	.title = "Ants",
	.players = ANT_PLAYERS,
	.start_max = ANT_START_LEN,
	.view_max = ANT_VIEW_MAX,
	.orders_max = ANT_ORDERS_MAX,
	.create = game_create,
	.destroy = game_destroy,
	.rounds = game_rounds,
	.round = game_round,
	.start = game_start,
	.view = game_view,
	.orders = game_orders,
	.status = game_status,
	.advance = game_advance,
	.scores = game_scores,
	.replay_header = game_replay_header,
	.replay_round = game_replay_round,
};
