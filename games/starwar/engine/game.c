/* game.c - Star War as the judge sees it: the `struct game` table.
 *
 * The judge's opaque struct game_state is a struct sw_state; these thin
 * adapters are the only place that converts between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/starwar/sw.h"

struct sw_state *sw_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct sw_state *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, GAME_ERRLEN, "out of memory for a Star War match");
		return NULL;
	}
	if (sw_params_parse(params, &d->p, err) < 0) {
		free(d);
		return NULL;
	}
	d->seed = seed;
	d->rng = rng_seeded(seed);
	if (sw_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	sw_begin_log(d);
	return d;
}

void sw_free(struct sw_state *d)
{
	free(d);
}

static struct sw_state *sw_of(struct game_state *g)
{
	return (struct sw_state *)g;
}

static const struct sw_state *sw_of_const(const struct game_state *g)
{
	return (const struct sw_state *)g;
}

static struct game_state *game_create(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	return (struct game_state *)sw_new(params, seed, err);
}

static void game_destroy(struct game_state *g)
{
	sw_free(sw_of(g));
}

static int game_rounds(const struct game_state *g)
{
	return sw_of_const(g)->p.rounds;
}

static int game_round(const struct game_state *g)
{
	return sw_of_const(g)->round;
}

static size_t game_start(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return sw_start(sw_of_const(g), player, buf, cap);
}

static size_t game_view(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return sw_view(sw_of_const(g), player, buf, cap);
}

static int game_orders(struct game_state *g, int player, const uint8_t *buf, size_t len,
		       char err[GAME_ERRLEN])
{
	return sw_take_orders(sw_of(g), player, buf, len, err);
}

static void game_status(struct game_state *g, int player, double cpu_share)
{
	sw_set_status(sw_of(g), player, cpu_share);
}

static void game_advance(struct game_state *g)
{
	sw_advance(sw_of(g));
}

static void game_scores(const struct game_state *g, int64_t *score)
{
	memcpy(score, sw_of_const(g)->score, SW_PLAYERS * sizeof *score);
}

static json_t *game_replay_header(const struct game_state *g)
{
	return sw_replay_header(sw_of_const(g));
}

static json_t *game_replay_round(const struct game_state *g)
{
	return sw_replay_round(sw_of_const(g));
}

const struct game starwar_game = {
	.name = "starwar",
	.title = "Star War",
	.players = SW_PLAYERS,
	.start_max = SW_START_LEN,
	.view_max = SW_VIEW_MAX,
	.orders_max = SW_ORDERS_MAX,
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
