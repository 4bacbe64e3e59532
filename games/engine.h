/* engine.h - an engine's `struct game` table, written once for all games.
 *
 * The judge holds a match as the opaque struct game_state; an engine works
 * on its own state type.  An engine with prefix P whose state is struct
 * P_state (fields p.rounds, round and score[]) and whose functions are
 * P_new, P_free, P_start, P_view, P_take_orders, P_set_status, P_advance,
 * P_replay_header, P_replay_round, P_replay_orders and P_replay_message gets
 * its table, and the casts between the two state types, from one line:
 *
 *     GAME_ENGINE(dom, dominator_game, "dominator", "Dominator",
 *                 DOM_PLAYERS, DOM_START_LEN, DOM_VIEW_MAX, DOM_ORDERS_MAX);
 *
 * score[] holds a score per seat the game can have.  Optional fields of
 * struct game (game.h) follow as designated initialisers:
 *
 *     GAME_ENGINE(..., BZ_ORDERS_MAX, .min_players = 2, .max_players = 6);
 *
 * The engine's header declares those functions in one line too, after its
 * struct P_state:
 *
 *     GAME_ENGINE_FUNCTIONS(dom);
 *
 * and a course-style engine (parse the parameters, seed its generator from
 * the match seed, set up the board, start the replay log) gets P_new and
 * P_free from GAME_ENGINE_NEW (below).  The macros below write the rest
 * the games share: taking orders and freezing (GAME_PLAYER_INPUT,
 * GAME_FREEZE), a round run in one random order (GAME_ROUND), the start
 * and view messages (GAME_START_MESSAGE, GAME_VIEW_MESSAGE).
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

/* What GAME_ENGINE() calls, as the engine defines it (game.h says what
 * each step does; P_take_orders fills err when it refuses a message). */
#define GAME_ENGINE_FUNCTIONS(P)                                                           \
	struct P##_state *P##_new(const char *params, uint64_t seed, char err[GAME_ERRLEN]); \
	void P##_free(struct P##_state *s);                                                \
	size_t P##_start(const struct P##_state *s, int player, uint8_t *buf, size_t cap);  \
	size_t P##_view(const struct P##_state *s, int player, uint8_t *buf, size_t cap);   \
	int P##_take_orders(struct P##_state *s, int player, const uint8_t *buf, size_t len, \
			    char err[GAME_ERRLEN]);                                        \
	void P##_set_status(struct P##_state *s, int player, double cpu_share);            \
	void P##_advance(struct P##_state *s);                                             \
	json_t *P##_replay_header(const struct P##_state *s);                              \
	json_t *P##_replay_round(const struct P##_state *s);                               \
	json_t *P##_replay_orders(const struct P##_state *s);                              \
	size_t P##_replay_message(const struct P##_state *s, int player, const json_t *orders, \
				  uint8_t *buf, size_t cap)

#define GAME_ENGINE(P, table, NAME, TITLE, PLAYERS, START_MAX, VIEW_MAX, ORDERS_MAX, ...) \
	static struct P##_state *P##_of(struct game_state *g)                              \
	{                                                                                  \
		return (struct P##_state *)g;                                              \
	}                                                                                  \
	static const struct P##_state *P##_of_const(const struct game_state *g)            \
	{                                                                                  \
		return (const struct P##_state *)g;                                        \
	}                                                                                  \
	static struct game_state *P##_game_create(const char *params, uint64_t seed,       \
						   char err[GAME_ERRLEN])                  \
	{                                                                                  \
		return (struct game_state *)P##_new(params, seed, err);                    \
	}                                                                                  \
	static void P##_game_destroy(struct game_state *g)                                 \
	{                                                                                  \
		P##_free(P##_of(g));                                                       \
	}                                                                                  \
	static int P##_game_rounds(const struct game_state *g)                             \
	{                                                                                  \
		return P##_of_const(g)->p.rounds;                                          \
	}                                                                                  \
	static int P##_game_round(const struct game_state *g)                              \
	{                                                                                  \
		return P##_of_const(g)->round;                                             \
	}                                                                                  \
	static size_t P##_game_start(const struct game_state *g, int player, uint8_t *buf, \
				     size_t cap)                                           \
	{                                                                                  \
		return P##_start(P##_of_const(g), player, buf, cap);                       \
	}                                                                                  \
	static size_t P##_game_view(const struct game_state *g, int player, uint8_t *buf,  \
				    size_t cap)                                            \
	{                                                                                  \
		return P##_view(P##_of_const(g), player, buf, cap);                        \
	}                                                                                  \
	static int P##_game_orders(struct game_state *g, int player, const uint8_t *buf,   \
				   size_t len, char err[GAME_ERRLEN])                      \
	{                                                                                  \
		return P##_take_orders(P##_of(g), player, buf, len, err);                  \
	}                                                                                  \
	static void P##_game_status(struct game_state *g, int player, double cpu_share)    \
	{                                                                                  \
		P##_set_status(P##_of(g), player, cpu_share);                              \
	}                                                                                  \
	static void P##_game_advance(struct game_state *g)                                 \
	{                                                                                  \
		P##_advance(P##_of(g));                                                    \
	}                                                                                  \
	static void P##_game_scores(const struct game_state *g, int64_t *score)            \
	{                                                                                  \
		memcpy(score, P##_of_const(g)->score, sizeof P##_of_const(g)->score);       \
	}                                                                                  \
	static json_t *P##_game_replay_header(const struct game_state *g)                  \
	{                                                                                  \
		return P##_replay_header(P##_of_const(g));                                 \
	}                                                                                  \
	static json_t *P##_game_replay_round(const struct game_state *g)                   \
	{                                                                                  \
		return P##_replay_round(P##_of_const(g));                                  \
	}                                                                                  \
	static json_t *P##_game_replay_orders(const struct game_state *g)                  \
	{                                                                                  \
		return P##_replay_orders(P##_of_const(g));                                 \
	}                                                                                  \
	static size_t P##_game_replay_message(const struct game_state *g, int player,      \
					      const json_t *orders, uint8_t *buf,          \
					      size_t cap)                                  \
	{                                                                                  \
		return P##_replay_message(P##_of_const(g), player, orders, buf, cap);      \
	}                                                                                  \
	const struct game table = {                                                        \
		.name = NAME, .title = TITLE, .players = PLAYERS,                          \
		.start_max = START_MAX, .view_max = VIEW_MAX, .orders_max = ORDERS_MAX,    \
		.create = P##_game_create, .destroy = P##_game_destroy,                    \
		.rounds = P##_game_rounds, .round = P##_game_round,                        \
		.start = P##_game_start, .view = P##_game_view,                            \
		.orders = P##_game_orders, .status = P##_game_status,                      \
		.advance = P##_game_advance, .scores = P##_game_scores,                    \
		.replay_header = P##_game_replay_header,                                   \
		.replay_round = P##_game_replay_round,                                     \
		.replay_orders = P##_game_replay_orders,                                   \
		.replay_message = P##_game_replay_message,                                 \
		__VA_ARGS__                                                                \
	}

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
static inline void *game_state_alloc(size_t size, const char *title, char err[GAME_ERRLEN])
{
	void *s = calloc(1, size);
	if (!s)
		snprintf(err, GAME_ERRLEN, "out of memory for a match of %s", title);
	return s;
}

/* P_new and P_free of a course-style engine: its state has the parameters
 * p (from P_params_parse), seed and rng (the engine's own stream, derived
 * from the match seed: games/seed.h); SETUP(state, err) lays out the board
 * (-1 with err when the parameters do not fit), then P_begin_log starts
 * the replay log of the first round. */
#define GAME_ENGINE_NEW(P, TITLE, SETUP)                                                    \
	struct P##_state *P##_new(const char *params, uint64_t seed, char err[GAME_ERRLEN]) \
	{                                                                                   \
		struct P##_state *s = game_state_alloc(sizeof *s, TITLE, err);               \
		if (!s)                                                                     \
			return NULL;                                                        \
		s->seed = seed;                                                             \
		s->rng = rng_seeded(seed_derive(seed, SEED_ENGINE, 0));                     \
		if (P##_params_parse(params, &s->p, err) < 0 || SETUP(s, err) < 0) {        \
			free(s);                                                            \
			return NULL;                                                        \
		}                                                                           \
		P##_begin_log(s);                                                           \
		return s;                                                                   \
	}                                                                                   \
	void P##_free(struct P##_state *s)                                                  \
	{                                                                                   \
		free(s);                                                                    \
	}

/* Decodes one orders message of a player into out with the game's layout
 * and keeps the limit per round, however many messages carry the orders
 * (limit in all, counted in *taken; over_limit, a printf format of the
 * count and the limit, says why more are refused; NULL: the layout's
 * too_many).
 * Returns the count, or -1 with err filled: the caller freezes the player. */
static inline int game_orders_take(const struct orders_layout *l, const uint8_t *buf, size_t len,
				   int *taken, int limit, const char *over_limit, void *out,
				   char err[GAME_ERRLEN])
{
	const char *why = NULL;
	int n = orders_decode(l, buf, len, out, &why);
	if (n < 0) {
		snprintf(err, GAME_ERRLEN, "%s", why);
		return -1;
	}
	if (*taken + n > limit) {
		if (over_limit)
			snprintf(err, GAME_ERRLEN, over_limit, *taken + n, limit);
		else
			snprintf(err, GAME_ERRLEN, "%s", l->too_many);
		return -1;
	}
	*taken += n;
	return n;
}

/* P_freeze(s, player) for an engine whose state s has a flag per player
 * FROZEN and cpu[]: the player is stopped for good (its share reads -1
 * from now on) and DROP(s, player) drops the orders it gave this round.
 * The FREEZE that GAME_PLAYER_INPUT takes. */
#define GAME_FREEZE(P, FROZEN, DROP)                                   \
	static void P##_freeze(struct P##_state *s, int player)        \
	{                                                              \
		if (s->FROZEN[player])                                 \
			return;                                        \
		s->FROZEN[player] = true;                              \
		s->cpu[player] = -1;                                   \
		DROP(s, player);                                       \
	}

/* P_take_orders and P_set_status (game.h: orders and status) for an engine
 * whose state s has norders[] (orders taken this round, per player),
 * incoming[] (room for a message's orders), cpu[] (the shares) and a flag
 * per player FROZEN (frozen[], ejected[]...).  PLAYERS and LIMIT (orders a
 * round) may use s; OVER_LIMIT is game_orders_take()'s.  SELECT(s, player,
 * order) takes one decoded order; FREEZE(s, player) stops a player for
 * good.  Orders of a frozen player are ignored; a broken message freezes
 * its player. */
#define GAME_PLAYER_INPUT(P, PLAYERS, FROZEN, LIMIT, OVER_LIMIT, SELECT, FREEZE)                 \
	int P##_take_orders(struct P##_state *s, int player, const uint8_t *buf, size_t len,     \
			    char err[GAME_ERRLEN])                                               \
	{                                                                                        \
		if (player < 0 || player >= (PLAYERS)) {                                         \
			snprintf(err, GAME_ERRLEN, "there is no player %d", player);             \
			return -1;                                                               \
		}                                                                                \
		if (s->FROZEN[player])                                                           \
			return 0;                                                                \
		int n = game_orders_take(&P##_orders, buf, len, &s->norders[player], (LIMIT),    \
					 OVER_LIMIT, s->incoming, err);                          \
		if (n < 0) {                                                                     \
			FREEZE(s, player);                                                       \
			return -1;                                                               \
		}                                                                                \
		for (int i = 0; i < n; i++)                                                      \
			SELECT(s, player, s->incoming[i]);                                       \
		return 0;                                                                        \
	}                                                                                        \
	void P##_set_status(struct P##_state *s, int player, double cpu_share)                   \
	{                                                                                        \
		if (player < 0 || player >= (PLAYERS) || s->FROZEN[player])                      \
			return;                                                                  \
		if (cpu_share < 0)                                                               \
			FREEZE(s, player);                                                       \
		else                                                                             \
			s->cpu[player] = isfinite(cpu_share) ? cpu_share : 0;                    \
	}

/* P_advance (game.h: advance) of an engine whose round goes as the course
 * games' seeds say: the units with an order act one at a time, in one
 * random order, then the round closes.  Its state s has round, p.rounds,
 * rng, exec[] (int16_t ids) and perm[] (ints), as many as units.
 * P_begin_log(s) starts the round's replay log; SELECTED(s) puts the ids
 * of the units that act in s->exec, in id order, and returns how many;
 * RUN(s, id) runs one's order; END(s) closes the round (healing, births,
 * scores); FORGET(s) forgets the round's orders.  Once the match is over,
 * orders that come anyway go nowhere. */
#define GAME_ROUND(P, SELECTED, RUN, END, FORGET)                                   \
	void P##_advance(struct P##_state *s)                                       \
	{                                                                           \
		if (s->round >= s->p.rounds) {                                      \
			FORGET(s);                                                  \
			return;                                                     \
		}                                                                   \
		P##_begin_log(s);                                                   \
		int n = SELECTED(s);                                                \
		rng_permutation(&s->rng, s->perm, n);                               \
		for (int i = 0; i < n; i++)                                         \
			RUN(s, s->exec[s->perm[i]]);                                \
		END(s);                                                             \
		FORGET(s);                                                          \
		s->round++;                                                         \
	}

/* P_view (game.h: view) of a game that builds player's whole view as a
 * struct P_msg_view (P_view_build), then encodes it (P_view_encode). */
#define GAME_VIEW_MESSAGE(P, PLAYERS)                                                    \
	size_t P##_view(const struct P##_state *s, int player, uint8_t *buf, size_t cap)  \
	{                                                                                 \
		if (player < 0 || player >= (PLAYERS))                                    \
			return 0;                                                         \
		struct P##_msg_view v;                                                    \
		P##_view_build(s, player, &v);                                            \
		return P##_view_encode(&v, buf, cap);                                     \
	}

/* P_start (game.h: start) of a course game: player's start message
 * (struct P_msg_start, encoded by P_start_encode) holds the protocol's
 * VERSION, the number of PLAYERS and the player's own seed, one-way from
 * the match seed (games/seed.h); the game's other fields (its parameters,
 * the player's number) follow as designated initialisers, which may use
 * the state s and player. */
#define GAME_START_MESSAGE(P, VERSION, PLAYERS, ...)                                     \
	size_t P##_start(const struct P##_state *s, int player, uint8_t *buf, size_t cap) \
	{                                                                                  \
		if (player < 0 || player >= (PLAYERS))                                     \
			return 0;                                                          \
		struct P##_msg_start m = {                                                 \
			.version = VERSION,                                                \
			.players = PLAYERS,                                                \
			.seed = seed_derive(s->seed, SEED_PLAYER, (unsigned)player),       \
			__VA_ARGS__                                                        \
		};                                                                         \
		return P##_start_encode(&m, buf, cap);                                     \
	}

#endif
