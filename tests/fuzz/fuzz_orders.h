/* fuzz_orders.h - the harness the orders targets share (fuzz_orders.c):
 * hostile orders bytes against one engine, through the `struct game` table
 * as the runner uses it.  A target (fuzz_GAME_orders.c) names its game and
 * parameter sets and adds what only its rules promise, through the hooks
 * of struct fuzz_orders_game.
 *
 * One input plays a few rounds of one match:
 *
 *   u8  set      low 3 bits (mod the number of sets): which parameters;
 *                bit 7: play the input twice and demand the same bytes
 *   u8  board    bits 0-2: which of the set's seeds (mod the set's count);
 *                bits 3-4: how far into the match it starts: 0, 10, 40 or
 *                150 rounds already played (by the warm-up below; at most
 *                the match's last round)
 *   then messages, up to the end of the input or the set's round cap
 *   (FUZZ_MAX_ROUNDS unless the set says fewer):
 *   u8  ctl      bits 0-1 the player (mod the players); bit 2: resolve the
 *                round after it; bits 3-4 what the runner says first:
 *                0 nothing, 1 a CPU share of (bits 5-7) / 4, 2 an odd share
 *                (NaN, infinity, huge, -0), 3 frozen (a negative share)
 *   u16 len      little-endian; cut short by the end of the input
 *   (the input stops early when the game says the match is over)
 *   len bytes    the orders message, handed to game->orders as they are
 *
 * What the harness checks for every game: orders return what the message's
 * layout says (u16 count, count orders of order_len bytes, at most
 * max_orders a round over all of a player's messages; an independent
 * reading, not the engine's decoder), -1 comes with a terminated reason, and a refused
 * player is frozen (the runner's view of it, kept in fuzz_run.frozen);
 * start and view messages are 1..start_max / view_max bytes and an encoder
 * given one byte too few returns 0 without writing past its buffer; the
 * replay's header (once for each match inputs start from) and frames are
 * JSON objects; the same input played twice gives the same bytes (start,
 * views, replay frames, answers); the orders the replay records for a
 * round (replay_orders), fed through replay_message to a second copy of the
 * match that never saw the player's bytes, are taken back exactly and
 * resolve the round the same (`judge replay check` relies on it).  Player
 * 0's view goes to the hooks at the start and after every round, every
 * player's at the end.  Every byte read
 * from the engine is handed to the target's hooks, which check the rest.
 *
 * Speed (goal: 1000 inputs a second and more for each target): creating a
 * match can cost milliseconds under ASan, so each (set, seed, depth) match
 * is made once, the first time an input asks for it, and every input plays
 * on a copy in one buffer allocated once.  Each engine promises its match
 * is one flat struct allocated once and freed by destroy (dom.h, ants.h,
 * sw.h), so a copy of state_size bytes is a match.  A deeper match is the
 * same one after a warm-up: rounds in which every player sends
 * FUZZ_WARM_ORDERS orders, ids below FUZZ_WARM_IDS and every other byte
 * below 10, from a generator seeded by the set, seed and depth, so an input
 * of a few rounds can start in the middle of a match.  Views and start
 * messages go to buffers allocated once (of exactly their maximum size, so
 * ASan still sees a byte past it).
 */
#ifndef FUZZ_ORDERS_H
#define FUZZ_ORDERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define FUZZ_MAX_ROUNDS 8 /* per input: deeper rounds come from the warm-up */
#define FUZZ_MAX_SETS 8
#define FUZZ_MAX_SEEDS 8
#define FUZZ_DEPTHS 4
#define FUZZ_WARM_ORDERS 64
#define FUZZ_WARM_IDS 256

struct fuzz_set {
	const char *name;
	const char *params; /* NULL: the defaults */
	int seeds;          /* distinct boards (match seeds 1..seeds), <= FUZZ_MAX_SEEDS */
	int max_rounds;     /* rounds an input plays at most; 0: FUZZ_MAX_ROUNDS (big boards
			     * take fewer, so that they do not slow the whole run) */
};

/* The match being played, as the runner knows it. */
struct fuzz_run {
	const struct game *game;
	struct game_state *g;
	struct game_state *replayed; /* the same match fed only the replay's orders */
	int set;
	uint64_t seed;                    /* the match seed */
	bool frozen[GAME_MAX_PLAYERS];    /* refused or told frozen */
	int sent[GAME_MAX_PLAYERS];       /* orders accepted this round */
	uint64_t hash;                    /* every byte the engine produced */
};

/* The sets every target plays, each at its own place in the target's
 * table (an input names a set by its place: keep each table's order):
 * the defaults, what contestants play; a match that ends within a few
 * messages (EXTRA: the game's other keys for it, "" for none); the largest
 * board, whose views are the longest (PARAMS), one round an input.  The
 * course games' targets also play a small board crowded with pieces that
 * meet every round (PARAMS). */
#define FUZZ_SET_DEFAULT { "default", NULL, FUZZ_MAX_SEEDS, 0 }
#define FUZZ_SET_CROWDED(PARAMS) { "crowded", PARAMS, FUZZ_MAX_SEEDS, 0 }
#define FUZZ_SET_SHORT(EXTRA) { "short", "rounds 3\n" EXTRA, 4, 0 }
#define FUZZ_SET_LARGEST(PARAMS) { "largest", PARAMS, 2, 1 }

/* A game's part.  Hooks may be NULL.  All buffers are the engine's bytes,
 * valid during the call only. */
struct fuzz_orders_game {
	const char *game;   /* its registry name */
	const struct fuzz_set *sets;
	int nsets;          /* <= FUZZ_MAX_SETS */
	size_t state_size;  /* sizeof the engine's state struct */
	size_t order_len;   /* bytes of one order in an orders message */
	int max_orders;     /* a round's limit, over all of a player's messages */
	/* The limit of this match when it depends on it (Blitz: the map's
	 * sites); NULL: max_orders. */
	int (*max_orders_of)(const struct fuzz_run *r);

	void (*init)(void); /* once, before the first input */
	/* A new run on a fresh copy of the match (also the second play). */
	void (*begin)(struct fuzz_run *r);
	/* Player p's start message (all players in turn, 0 first). */
	void (*start)(struct fuzz_run *r, int p, const uint8_t *msg, size_t len);
	/* Player p's view: player 0's after every round; all players in turn,
	 * 0 first, at the start and the end of the input (all). */
	void (*view)(struct fuzz_run *r, int p, const uint8_t *msg, size_t len, bool all);
	void (*views_done)(struct fuzz_run *r, bool all);
	/* An orders message the engine accepted from a player not frozen:
	 * count orders of order_len bytes at orders. */
	void (*orders)(struct fuzz_run *r, int p, const uint8_t *orders, int count);
	/* Around game->advance: before it, and after it once player 0's new
	 * view went through view(); frozen is who was frozen when the round
	 * was resolved. */
	void (*before_advance)(struct fuzz_run *r);
	void (*after_advance)(struct fuzz_run *r, const bool frozen[GAME_MAX_PLAYERS]);
	/* The round's replay frame (a JSON object). */
	void (*replay_round)(struct fuzz_run *r, json_t *frame);
};

/* The fields every target's table starts with: its game, its parameter
 * sets (an array), its engine's state type, the bytes of one order and a
 * round's limit (written down by the target, not taken from the game's
 * layout, so that the harness reads orders independently). */
#define FUZZ_ORDERS_GAME(NAME, SETS, STATE, ORDER_LEN, MAX_ORDERS)                          \
	.game = NAME, .sets = SETS, .nsets = sizeof SETS / sizeof SETS[0],                  \
	.state_size = sizeof(STATE), .order_len = ORDER_LEN, .max_orders = MAX_ORDERS

/* The hooks of a target that names them begin, start, check_view,
 * views_done, take, before_advance and after_advance. */
#define FUZZ_ORDERS_HOOKS                                                                    \
	.begin = begin, .start = start, .view = check_view, .views_done = views_done,        \
	.orders = take, .before_advance = before_advance, .after_advance = after_advance

/* A course game's start message as the target's decoder read it. */
struct fuzz_start {
	bool decoded;       /* the decoder took it (with the length it must have) */
	int me;             /* the player it names; -1: it names none (Dominator) */
	uint64_t seed;      /* the player's seed */
	const void *params; /* the match's parameters */
	long rounds;        /* the match's length, as they say */
};

/* What the start messages of the course games promise alike, for a
 * target's start hook: player p's message decodes, names p (unless
 * s->me is -1), carries p's own seed (games/seed.h) and everybody's
 * parameters (size bytes, player 0's kept at first), and the match lasts
 * the rounds they say. */
void fuzz_check_start(const struct fuzz_run *r, int p, const struct fuzz_start *s, void *first,
		      size_t size);

/* For games where every player gets the same view bytes: keeps player 0's
 * view and returns true (the target checks it); for another player,
 * checks that its view is player 0's byte for byte and returns false. */
bool fuzz_same_view(int p, const uint8_t *buf, size_t len);

/* Defined by each target. */
extern const struct fuzz_orders_game fuzz_orders_game;

#endif
