/* engine_testlib.h - what the engines' unit tests share: orders sent as
 * the runner sends them, whole matches of random orders (for determinism
 * and replay tests), and the refusals every engine owes (malformed orders
 * messages, bad parameters).  Everything goes through the game's
 * `struct game` table, so it serves any engine, the next one too.
 *
 * Every function asserts (Criterion) what it needs.
 */
#ifndef ENGINE_TESTLIB_H
#define ENGINE_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "games/kit/orders.h"
#include "games/kit/rng.h"

/* n orders (layout l) encoded and handed to the engine for player, as the
 * runner hands them; the engine's answer (0, or -1 when it refused). */
int et_send(const struct game *gm, void *g, const struct orders_layout *l, int player,
	    const void *orders, size_t n);

/* Random orders for one player of a match: writes them at orders (room for
 * l->max) and returns their count. */
typedef int (*et_orders_fn)(const struct game_state *g, int player, struct rng *r,
			    void *orders);

/* One round: each player's random orders, sent, then the round resolved. */
void et_random_round(const struct game *gm, struct game_state *g, const struct orders_layout *l,
		     et_orders_fn make, struct rng *r);

/* A whole match from seed, its orders drawn from order_seed: its replay's
 * start and rounds as compact JSON (free it), the match left in *out. */
char *et_play_match(const struct game *gm, uint64_t seed, uint64_t order_seed,
		    const struct orders_layout *l, et_orders_fn make, struct game_state **out);

/* The determinism every engine owes: the match of seed played twice with
 * the orders of order_seed gives the same replay bytes, with those of
 * order_seed + 1 other bytes; the replay stays under max_bytes; the match
 * ends after rounds() rounds and a round past the end changes nothing.
 * The two equal matches are left in *a and *b for the game's own
 * comparison (free them with gm->destroy). */
void et_expect_deterministic(const struct game *gm, uint64_t seed, uint64_t order_seed,
			     const struct orders_layout *l, et_orders_fn make, size_t max_bytes,
			     struct game_state **a, struct game_state **b);

/* Orders messages that break the layout (orders of order_len bytes) are
 * refused with -1, "malformed" said for a missing order, and so is a
 * player that does not exist; g is frozen for players 0 to 3 after it. */
void et_expect_malformed_refused(const struct game *gm, struct game_state *g, size_t order_len);

/* The text of the shipped parameters file config/games/GAME.cnf (run
 * from the repository root). */
const char *et_config_text(const char *game);

/* The parameters text is refused, and the error says want. */
void et_expect_params_error(const struct game *gm, const char *text, const char *want);

/* The shipped parameters file of GAME parses (P_params_parse) to exactly
 * P_params_default(), left in *DEFAULTS for the test's own checks. */
#define ET_CONFIG_IS_DEFAULTS(P, GAME, DEFAULTS)                                            \
	do {                                                                                \
		struct P##_params et_file;                                                  \
		err_t et_err;                                                               \
		cr_assert_eq(P##_params_parse(et_config_text(GAME), &et_file, et_err), 0,   \
			     "%s", et_err->msg);                                            \
		P##_params_default(DEFAULTS);                                               \
		cr_expect_eq(memcmp(&et_file, DEFAULTS, sizeof *(DEFAULTS)), 0,             \
			     "config/games/%s.cnf is not the defaults", GAME);             \
	} while (0)

/* Where a test finds one piece (an ant, a unit, a ship) of a board. */
struct et_piece {
	const char *what; /* "ant", "unit", "ship": for the messages */
	int id;
	bool alive;       /* true for pieces that never die */
	int row, col;
	int id_there;     /* what the board's lookup says stands on (row, col) */
};

/* The piece is alive, at (row, col), and the board's lookup names it. */
void et_expect_at(const struct et_piece *p, int row, int col);

/* A parameters text and what its refusal must say. */
struct et_params_error {
	const char *text, *want;
};

/* et_expect_params_error() for every case of the array CASES. */
#define ET_EXPECT_PARAMS_ERRORS(GM, CASES)                                                  \
	for (size_t et_case = 0; et_case < sizeof CASES / sizeof *CASES; et_case++)         \
	et_expect_params_error(GM, CASES[et_case].text, CASES[et_case].want)

/* ---- what a rule test file of engine P (struct game_state, P_new, its
 * orders layout P_orders of struct P_msg_order records) defines alike ---- */

/* fixture(seed): P_new(PARAMS, 1, ...) (PARAMS NULL: the defaults),
 * asserted made, CLEAR()ed of what the tests set up themselves, and its
 * generator reseeded with seed. */
#define ET_FIXTURE(P, PARAMS, CLEAR)                                                        \
	static struct game_state *fixture(uint64_t seed)                                    \
	{                                                                                   \
		err_t err;                                                                  \
		struct game_state *s = P##_new(PARAMS, 1, err);                             \
		cr_assert_not_null(s, "fixture: %s", err->msg);                             \
		CLEAR(s);                                                                   \
		s->rng = rng_seeded(seed);                                                  \
		return s;                                                                   \
	}

/* send_raw(s, player, orders, n): et_send() for game GAME. */
#define ET_SEND_RAW(P, GAME)                                                                \
	static int send_raw(struct game_state *s, int player, const struct P##_msg_order *o, \
			    size_t n)                                                       \
	{                                                                                   \
		return et_send(&GAME, s, &P##_orders, player, o, n);                        \
	}

/* add(s, type, player, row, col): ADD(s, type, player, row, col), a new
 * piece's id, asserted made. */
#define ET_ADD(P, ADD)                                                                      \
	static int add(struct game_state *s, int type, int player, int row, int col)        \
	{                                                                                   \
		int id = ADD(s, type, player, row, col);                                    \
		cr_assert_geq(id, 0, "cannot add a piece of type %d at (%d, %d)", type, row, \
			      col);                                                         \
		return id;                                                                  \
	}

#endif
