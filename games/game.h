/* game.h - what the judge knows of a game, and all it knows.
 *
 * A game is one folder under games/ with an engine (trusted, runs in the
 * judge) and a player kit (a header and a runtime linked into each
 * contestant's binary).  The engine exposes one `struct game` and is
 * listed once in games/registry.c; nothing else in the judge names it.
 *
 * The judge and a player exchange messages; their bytes are the game's
 * business (the kit encodes and decodes them on the player's side):
 *
 *   judge -> player  start   game_start(): parameters, board, the player's
 *                            random seed, as the player sees them
 *   player -> judge  hello   the player's name (the runner checks it)
 *   then each round:
 *   judge -> player  view    game_view(): the state the player sees
 *   player -> judge  orders  game_orders(): hostile bytes, validated
 *   then the judge resolves the round with game_advance().
 *
 * Promises of every engine: deterministic for (parameters, seed, orders);
 * game_orders() never crashes, reads out of bounds or allocates without
 * bound whatever the bytes; a player marked frozen gets no more orders
 * executed; views are rotated or fogged as the game's rules say.
 *
 * Optional parts (zero or NULL keeps the course games' behaviour): a range
 * of players instead of an exact count, an early end, ranks other than
 * "highest score", and time budgets per turn.  The inline helpers at the
 * end give every caller the defaults, so nobody tests the fields itself.
 */
#ifndef GAME_H
#define GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/base/error.h"

#define GAME_MAX_PLAYERS 8

struct game_state;

struct game {
	const char *name;  /* "dominator": the command-line and database name */
	const char *title; /* "Dominator" */
	int players;       /* players in a match: the exact count, or the
			    * default one when a range is given */
	int min_players;   /* the range of players; 0: exactly `players` */
	int max_players;
	size_t start_max;  /* upper bounds of the messages, for the buffers */
	size_t view_max;
	size_t orders_max;

	/* A match from a parameters file's text (NULL: the defaults) and a
	 * seed.  NULL with err filled for bad parameters (line and key). */
	struct game_state *(*create)(const char *params, uint64_t seed,
				     err_t err);
	void (*destroy)(struct game_state *g);
	/* The same for a number of players in the range (NULL: the game has
	 * one count and create() plays it). */
	struct game_state *(*create_players)(const char *params, uint64_t seed, int players,
					     err_t err);

	int (*rounds)(const struct game_state *g); /* rounds in the match */
	int (*round)(const struct game_state *g);  /* rounds played so far */

	/* Encode into buf (at most cap bytes); return the length.  buf may be
	 * the region the player reads its messages from, which it can read
	 * while they are written: write only the message, whole, never what
	 * it may not see (a view is built elsewhere, then encoded into buf). */
	size_t (*start)(const struct game_state *g, int player, uint8_t *buf, size_t cap);
	size_t (*view)(const struct game_state *g, int player, uint8_t *buf, size_t cap);

	/* Takes player's orders for the coming round.  -1 with err filled
	 * when the message breaks the rules (malformed, more than the allowed
	 * number of orders): the runner then freezes the player. */
	int (*orders)(struct game_state *g, int player, const uint8_t *buf, size_t len,
		      err_t err);

	/* What the runner tells the game about a player: its share of the
	 * CPU budget used so far, or a negative value once it is frozen (its
	 * units then take no more orders).  The share only shows in views:
	 * the course of the match depends on it through the players' orders
	 * alone, so a replay records which seats are frozen, not the shares. */
	void (*status)(struct game_state *g, int player, double cpu_share);

	/* Resolves the round with the orders taken since the last call. */
	void (*advance)(struct game_state *g);

	/* Scores so far (the final ones after the last round). */
	void (*scores)(const struct game_state *g, int64_t *score);

	/* True when the match ended before its last round (Blitz: one player
	 * left).  NULL: every round is played. */
	bool (*over)(const struct game_state *g);
	/* Final ranks, 1 best, equal ranks for a tie (1, 2, 2, 4).  NULL:
	 * ranked by score, highest first. */
	void (*ranks)(const struct game_state *g, int *rank);

	/* CPU budgets per player, in nanoseconds: for the start message (up
	 * to the name) and for each turn (view to orders).  0: none, only the
	 * judge's budget for the whole match. */
	uint64_t init_cpu_ns, turn_cpu_ns;
	/* The least whole-match CPU budget this game's players get, when the
	 * judge's (sandbox.cpu_ms) is smaller: a game whose players may
	 * rightly need more (AIC2018: every unit may spend its energy every
	 * round).  0: the judge's. */
	uint64_t match_cpu_ns;

	/* The contestant's file (never the kit) is compiled with this flag
	 * more (AIC2018: -ffixed-r15, the register of its energy count);
	 * NULL: none.  With no_writable_globals, its writable global and
	 * static variables are refused (AIC2018's units share no memory). */
	const char *compile_flag;
	bool no_writable_globals;
	/* A rewrite of the contestant's assembly before it is assembled
	 * (AIC2018: the energy count, games/aic2018/engine/energy_asm.h) and
	 * its version; NULL: none.  0 done, 1 refused (err, for the
	 * contestant), -1 out of memory. */
	int (*asm_pass)(const char *in, size_t len, char **out, size_t *out_len, err_t err);
	const char *asm_pass_version;

	/* Games whose units act one after another (AIC2018: one list of both
	 * teams' units, each seeing what the earlier ones did).  Then a round
	 * is a series of steps: next_seat() runs the engine up to the next
	 * unit that takes orders and returns its seat (-1: the round's turns
	 * are over); the runner sends that seat a view and gives its answer
	 * to orders(), which applies it at once (a run of that seat's
	 * consecutive units may answer together); advance() then ends the
	 * round.  It never returns a seat marked frozen.  turn_cpu_ns is then
	 * the budget of one unit's turn, and step_units() says how many of
	 * the seat's units the coming step may run (its budget is that many
	 * turns).  NULL: every seat answers each round at once. */
	int (*next_seat)(struct game_state *g);
	int (*step_units)(const struct game_state *g, int player);
	/* Games whose units are programs of their own inside the player's
	 * process (AIC2018): a unit of player's that died by its own fault
	 * (it crashed, or its energy count was broken) in the orders just
	 * taken: 1 with its id and the reason in words, once; 0 none.  The
	 * player plays on; the runner keeps the step's input for the seat's
	 * record.  NULL: no such units. */
	int (*unit_fault)(struct game_state *g, int player, int *unit, err_t why);

	/* Replay: the parameters and initial state, then after each
	 * game_advance() what changed in that round (new references). */
	json_t *(*replay_header)(const struct game_state *g);
	json_t *(*replay_round)(const struct game_state *g);

	/* The orders the engine holds for the coming round, every seat's
	 * (call it just before game_advance()), in the game's compact replay
	 * form: only what game_advance() will act on (new reference). */
	json_t *(*replay_orders)(const struct game_state *g);
	/* Back from a replay: the orders message that makes the engine hold
	 * player's part of `orders` (replay_orders' form, taken in the same
	 * state); its length in buf, 0 when `orders` is not in that form or
	 * does not fit in cap (orders_max always does).  A replay is hostile
	 * input too. */
	size_t (*replay_message)(const struct game_state *g, int player, const json_t *orders,
				 uint8_t *buf, size_t cap);
};

/* ---- the defaults of the optional parts ---------------------------------- */

static inline int game_min_players(const struct game *gm)
{
	return gm->min_players ? gm->min_players : gm->players;
}

static inline int game_max_players(const struct game *gm)
{
	return gm->max_players ? gm->max_players : gm->players;
}

static inline bool game_players_ok(const struct game *gm, int n)
{
	return n >= game_min_players(gm) && n <= game_max_players(gm);
}

/* A match for n players (in the game's range). */
static inline struct game_state *game_create(const struct game *gm, const char *params,
					     uint64_t seed, int n, err_t err)
{
	return gm->create_players ? gm->create_players(params, seed, n, err)
				  : gm->create(params, seed, err);
}

/* The largest message the game sends a player: its start or a view. */
static inline size_t game_message_max(const struct game *gm)
{
	return gm->start_max > gm->view_max ? gm->start_max : gm->view_max;
}

/* The game's rounds are steps of one seat at a time (next_seat). */
static inline bool game_stepwise(const struct game *gm)
{
	return gm->next_seat != NULL;
}

/* No more rounds: the last one was played or the game ended early. */
static inline bool game_over(const struct game *gm, const struct game_state *g)
{
	return gm->round(g) >= gm->rounds(g) || (gm->over && gm->over(g));
}

/* games/ranks.c: the final ranks of n players (the game's, or by score). */
void game_ranks(const struct game *gm, const struct game_state *g, int n, int *rank);

/* games/registry.c: every game the judge knows, in the order of games/LIST
 * (the one list of the games: the build compiles it in). */
const struct game *game_find(const char *name);
const struct game *const *game_list(void);

/* What games/LIST says of a game beside its engine. */
struct game_entry {
	const struct game *game;
	const char *kit_entry; /* the kit's entry points: KIT_ENTRY_start, _turn */
	bool course;           /* a course game (games/kit/course.h) */
};
/* NULL when the judge knows no such game. */
const struct game_entry *game_entry(const char *name);

#endif
