/* engine.h - what the engines share, as ordinary functions.
 *
 * The judge holds a match as an opaque struct game_state; each engine
 * defines that struct as its own state (in its header, which the judge
 * never includes) and its engine/game.c fills its `struct game` table
 * (games/game.h) with its own functions over it, no casts between:
 *
 *     const struct game dominator_game = {
 *             .name = "dominator", ..., .create = dom_new,
 *             .destroy = dom_free, .advance = dom_advance, ...
 *     };
 *
 * Below: the defaults those functions build on (allocation, the engine's
 * random stream, a player's seed, taking orders, freezing a seat, the CPU
 * share a view shows, the replay's JSON of scores and grids).
 */
#ifndef GAME_ENGINE_H
#define GAME_ENGINE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/kit/orders.h"
#include "games/kit/rng.h"
#include "games/seed.h"

/* A player's CPU share as views carry it: millionths of its budget, -1
 * when it is frozen (or the share is negative), at most 2000 budgets (a
 * NaN too: as good as exhausted, and in range). */
static inline int32_t game_cpu_millionths(double share, bool frozen)
{
	if (frozen || share < 0)
		return -1;
	if (!(share < 2000.0))
		share = 2000.0;
	return (int32_t)lround(share * 1e6);
}

/* n scores as a JSON array, for replays (new reference). */
static inline json_t *game_json_scores(const int64_t *score, int n)
{
	json_t *a = json_array();
	for (int q = 0; q < n; q++)
		json_array_append_new(a, json_integer(score[q]));
	return a;
}

/* A grid as a replay draws it: one string a row, letter(state, row, col)
 * a cell (new reference).  cols is a game's width, a few hundred at most. */
static inline json_t *game_json_rows(const void *state, int rows, int cols,
				     char (*letter)(const void *state, int row, int col))
{
	json_t *a = json_array();
	char line[cols + 1];
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++)
			line[c] = letter(state, r, c);
		line[cols] = '\0';
		json_array_append_new(a, json_string(line));
	}
	return a;
}

/* A zeroed match state of `size` bytes, or NULL with err filled. */
static inline void *game_state_alloc(size_t size, const char *title, err_t err)
{
	void *s = calloc(1, size);
	if (!s)
		err_set(err, "out of memory for a match of %s", title);
	return s;
}

/* Decodes one orders message of a player into out with the game's layout
 * and keeps the limit per round, however many messages carry the orders
 * (limit in all, counted in *taken; over_limit, a printf format of the
 * count and the limit, says why more are refused; NULL: the layout's
 * too_many).
 * Returns the count, or -1 with err filled: the caller freezes the player. */
static inline int game_orders_take(const struct orders_layout *l, const uint8_t *buf, size_t len,
				   int *taken, int limit, const char *over_limit, void *out,
				   err_t err)
{
	const char *why = NULL;
	int n = orders_decode(l, buf, len, out, &why);
	if (n < 0) {
		err_set(err, "%s", why);
		return -1;
	}
	if (*taken + n > limit) {
		if (over_limit)
			err_set(err, over_limit, *taken + n, limit);
		else
			err_set(err, "%s", l->too_many);
		return -1;
	}
	*taken += n;
	return n;
}

/* The engine's own random stream for a match, derived from its seed. */
static inline struct rng game_engine_rng(uint64_t seed)
{
	return rng_seeded(seed_derive(seed, SEED_ENGINE, 0));
}

/* The seed a player's start message gives it: one-way from the match's,
 * so that no player can learn the engine's stream (games/seed.h). */
static inline uint64_t game_player_seed(uint64_t match_seed, int player)
{
	return seed_derive(match_seed, SEED_PLAYER, (unsigned)player);
}

/* The seats of a match as taking orders sees them: `players` seats, a
 * flag per seat frozen[] (stopped for good) and norders[] (orders taken
 * this round, counted against `limit`; over_limit as game_orders_take). */
struct game_seats {
	int players;
	const bool *frozen;
	int *norders;
	int limit;
	const char *over_limit;
};

/* player's orders message decoded into out with layout l (game.h:
 * orders): the count, 0 for a frozen player (its orders are ignored), or
 * -1 with err filled; then *broken says the message broke the rules (the
 * engine freezes its player) rather than naming no seat. */
static inline int game_seat_orders(const struct game_seats *seats, int player,
				   const struct orders_layout *l, const uint8_t *buf, size_t len,
				   void *out, bool *broken, err_t err)
{
	*broken = false;
	if (player < 0 || player >= seats->players) {
		err_set(err, "there is no player %d", player);
		return -1;
	}
	if (seats->frozen[player])
		return 0;
	int n = game_orders_take(l, buf, len, &seats->norders[player], seats->limit,
				 seats->over_limit, out, err);
	*broken = n < 0;
	return n;
}

/* Freezes player's seat for good (its share reads -1 from now on): true
 * the first time, when the engine drops the orders it gave this round. */
static inline bool game_seat_freeze(bool *frozen, double *cpu, int player)
{
	if (frozen[player])
		return false;
	frozen[player] = true;
	cpu[player] = -1;
	return true;
}

/* game.h's status for seats frozen[] and cpu[] of `players`: keeps the
 * share (a non-finite one as 0); true when a negative share says the
 * engine must freeze the player now.  Nothing for a frozen or no seat. */
static inline bool game_seat_status(int players, const bool *frozen, double *cpu, int player,
				    double cpu_share)
{
	if (player < 0 || player >= players || frozen[player])
		return false;
	if (cpu_share < 0)
		return true;
	cpu[player] = isfinite(cpu_share) ? cpu_share : 0;
	return false;
}

#endif
