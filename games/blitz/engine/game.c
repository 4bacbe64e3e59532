/* game.c - Blitz2018 as the judge sees it: the `struct game` table.
 *
 * 2 to 6 players; the match ends early when at most one is left; ranks are
 * the rules' (bz_ranks), not the scores (each player's territory); the
 * seed's time budgets are 1 s of CPU to start and 1 s per turn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/engine.h"

struct game_state *bz_new_players(const char *params, uint64_t seed, int players,
				err_t err)
{
	if (players < BZ_MIN_PLAYERS || players > BZ_MAX_PLAYERS) {
		err_set(err, "Blitz2018 is played by %d to %d players, not %d",
			BZ_MIN_PLAYERS, BZ_MAX_PLAYERS, players);
		return NULL;
	}
	struct game_state *b = game_state_alloc(sizeof *b, "Blitz2018", err);
	if (!b)
		return NULL;
	if (bz_params_parse(params, &b->p, err) < 0) {
		free(b);
		return NULL;
	}
	b->seed = seed;
	b->rng = rng_seeded(seed);
	b->players = players;
	if (b->p.size_max) {
		/* Halite's contest mixed map sizes; the seed picks this match's. */
		int side = b->p.size_min + rng_uniform(&b->rng, 0, b->p.size_max - b->p.size_min);
		b->p.width = b->p.height = side;
	}
	if (bz_map_setup(b, err) < 0) {
		free(b);
		return NULL;
	}
	if (b->p.rounds == 0)
		b->p.rounds = (int)floor(10 * sqrt((double)b->width * b->height));
	for (int p = 0; p < players; p++)
		b->out_turn[p] = BZ_ALIVE;
	memset(b->order, BZ_NO_ORDER, sizeof b->order);
	memset(b->piece, 0xff, sizeof b->piece); /* no pieces between turns */
	memcpy(b->first_owner, b->owner, sizeof b->owner);
	memcpy(b->first_strength, b->strength, sizeof b->strength);
	bz_count_land(b);
	return b;
}

struct game_state *bz_new(const char *params, uint64_t seed, err_t err)
{
	return bz_new_players(params, seed, BZ_DEFAULT_PLAYERS, err);
}

void bz_free(struct game_state *b)
{
	free(b);
}

static int bz_rounds(const struct game_state *b)
{
	return b->p.rounds;
}

static int bz_round(const struct game_state *b)
{
	return b->round;
}

static void bz_scores(const struct game_state *b, int64_t *score)
{
	memcpy(score, b->score, sizeof b->score);
}

const struct game blitz_game = {
	.name = "blitz",
	.title = "Blitz2018",
	.players = BZ_DEFAULT_PLAYERS,
	.min_players = BZ_MIN_PLAYERS,
	.max_players = BZ_MAX_PLAYERS,
	.start_max = BZ_START_LEN,
	.view_max = BZ_VIEW_MAX,
	.orders_max = BZ_ORDERS_MAX,
	.create = bz_new,
	.create_players = bz_new_players,
	.destroy = bz_free,
	.rounds = bz_rounds,
	.round = bz_round,
	.start = bz_start,
	.view = bz_view,
	.orders = bz_take_orders,
	.status = bz_set_status,
	.advance = bz_advance,
	.scores = bz_scores,
	.over = bz_over,
	.ranks = bz_ranks,
	.init_cpu_ns = 1000000000,
	.turn_cpu_ns = 1000000000,
	.replay_header = bz_replay_header,
	.replay_round = bz_replay_round,
	.replay_orders = bz_replay_orders,
	.replay_message = bz_replay_message,
};
