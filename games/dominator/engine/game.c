/* game.c - Dominator as the judge sees it: the `struct game` table.
 *
 * The judge's opaque struct game_state is a struct dom_state; these thin
 * adapters are the only place that converts between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/dominator/dom.h"

struct dom_state *dom_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct dom_state *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, GAME_ERRLEN, "out of memory for a Dominator match");
		return NULL;
	}
	if (dom_params_parse(params, &d->p, err) < 0) {
		free(d);
		return NULL;
	}
	d->seed = seed;
	d->rng = rng_seeded(seed);
	if (dom_board_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	dom_begin_log(d);
	return d;
}

void dom_free(struct dom_state *d)
{
	free(d);
}

static struct dom_state *dom_of(struct game_state *g)
{
	return (struct dom_state *)g;
}

static const struct dom_state *dom_of_const(const struct game_state *g)
{
	return (const struct dom_state *)g;
}

static struct game_state *game_create(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	return (struct game_state *)dom_new(params, seed, err);
}

static void game_destroy(struct game_state *g)
{
	dom_free(dom_of(g));
}

static int game_rounds(const struct game_state *g)
{
	return dom_of_const(g)->p.rounds;
}

static int game_round(const struct game_state *g)
{
	return dom_of_const(g)->round;
}

static size_t game_start(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return dom_start(dom_of_const(g), player, buf, cap);
}

static size_t game_view(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	return dom_view(dom_of_const(g), player, buf, cap);
}

static int game_orders(struct game_state *g, int player, const uint8_t *buf, size_t len,
		       char err[GAME_ERRLEN])
{
	return dom_take_orders(dom_of(g), player, buf, len, err);
}

static void game_status(struct game_state *g, int player, double cpu_share)
{
	dom_set_status(dom_of(g), player, cpu_share);
}

static void game_advance(struct game_state *g)
{
	dom_advance(dom_of(g));
}

static void game_scores(const struct game_state *g, int64_t *score)
{
	memcpy(score, dom_of_const(g)->score, DOM_PLAYERS * sizeof *score);
}

static json_t *game_replay_header(const struct game_state *g)
{
	return dom_replay_header(dom_of_const(g));
}

static json_t *game_replay_round(const struct game_state *g)
{
	return dom_replay_round(dom_of_const(g));
}

const struct game dominator_game = {
	.name = "dominator",
	.title = "Dominator",
	.players = DOM_PLAYERS,
	.start_max = DOM_START_LEN,
	.view_max = DOM_VIEW_MAX,
	.orders_max = DOM_ORDERS_MAX,
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
