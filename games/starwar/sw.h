/* sw.h - the Star War engine's state and functions (games/starwar).
 *
 * Promises: a match is one struct game_state, allocated once by sw_new() and
 * never again; resolving a round allocates nothing.  Every random choice
 * (start cells, player order, regeneration and bonus cells) comes from the
 * one generator in the state, so parameters + seed + orders fix the match
 * and its replay bytes.  Orders are hostile bytes: bounded and validated.
 *
 * The universe is rows x cols cells, cylindrical in the columns (column c
 * and c + cols are the same cell); columns are stored reduced mod cols.  In
 * round r (r = rounds played) the window is columns r .. r + window - 1.
 *
 * The rules are the seed's (shared/seeds/002_*.txt) completed by
 * shared/rules/starwar.md; where they disagree the seed wins and the code
 * says so where it matters.
 */
#ifndef SW_H
#define SW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/engine.h"
#include "games/game.h"
#include "games/kit/rng.h"
#include "games/params_text.h"
#include "games/starwar/proto.h"

#define SW_NONE (-1)
#define SW_PLACE_TRIES 20 /* random draws for a regeneration or a bonus (the original's) */
#define SW_FREE_RADIUS 2    /* the 5 x 5 square around a placed thing */
#define SW_MAX_PASSED 5     /* cells a move passes through, at most */

struct sw_params {
	SW_PARAMS(PT_INT_FIELD)
	bool has_map;
	uint8_t map[SW_MAX_CELLS]; /* when has_map: SW_EMPTY, _ASTEROID or a bonus */
	/* Every ship's start cell (nstarts == SW_PLAYERS * ships), or none
	 * (nstarts == 0): then they spread over columns 0..3. */
	int nstarts;
	uint8_t start_row[SW_MAX_SHIPS], start_col[SW_MAX_SHIPS];
};

struct sw_ship {
	int owner, row, col, missiles;
	bool alive;
	int wait;      /* dead: rounds still to wait before trying to regenerate */
	bool died_now; /* died in the round being resolved: no countdown yet */
	int8_t order;  /* the first order of the round, or SW_NONE */
	bool moved;    /* has acted this round (instruction or default) */
};

/* What the last sw_advance() changed, for the replay. */
struct sw_round_log {
	uint8_t kind[SW_MAX_CELLS]; /* cells before the round */
	struct sw_ship ship[SW_MAX_SHIPS];
	int64_t score[SW_PLAYERS];
};

/* A match of Star War: the state behind the judge's opaque struct game_state
 * (games/game.h), which this engine's functions and table take. */
struct game_state {
	struct sw_params p;
	uint64_t seed;
	struct rng rng;
	int round; /* rounds played */
	int nships;

	uint8_t kind[SW_MAX_CELLS]; /* enum sw_kind */
	int16_t ref[SW_MAX_CELLS];  /* ship id on a ship; the shooter's ship id on a missile */
	struct sw_ship ship[SW_MAX_SHIPS];

	int pending[SW_KINDS]; /* bonuses waiting to reappear, by kind */
	int64_t score[SW_PLAYERS];
	/* Tallies of the match so far, for benchmarks and tests: bonuses taken
	 * by ships, by kind, and ship deaths. */
	int64_t taken[SW_KINDS];
	int64_t deaths;
	double cpu[SW_PLAYERS];
	bool frozen[SW_PLAYERS];

	int norders[SW_PLAYERS]; /* orders received this round, for the limit */
	struct sw_msg_order incoming[SW_MAX_ORDERS];
	/* Each player's selected ship ids in the order given. */
	int nqueue[SW_PLAYERS];
	int16_t queue[SW_PLAYERS][SW_MAX_PLAYER_SHIPS];

	/* Scratch of the missile step: where each missile is, and its shooter. */
	int missile_cell[SW_MAX_CELLS];
	int16_t missile_ref[SW_MAX_CELLS];
	struct sw_round_log log;
};

static inline int sw_mod(int a, int m)
{
	int r = a % m;
	return r < 0 ? r + m : r;
}

static inline int sw_cell(const struct game_state *d, int row, int col)
{
	return row * d->p.cols + sw_mod(col, d->p.cols);
}

/* Column col is inside the window whose leftmost column is start. */
static inline bool sw_in_window(const struct game_state *d, int start, int col)
{
	return sw_mod(col - start, d->p.cols) < d->p.window;
}

/* ---- game.c, rules.c, view.c, replay.c: the table's functions ------------ */

/* game.h says what each does; sw_take_orders fills err when it refuses a
 * message. */
struct game_state *sw_new(const char *params, uint64_t seed, err_t err);
void sw_free(struct game_state *s);
size_t sw_start(const struct game_state *s, int player, uint8_t *buf, size_t cap);
size_t sw_view(const struct game_state *s, int player, uint8_t *buf, size_t cap);
int sw_take_orders(struct game_state *s, int player, const uint8_t *buf, size_t len,
		   err_t err);
void sw_set_status(struct game_state *s, int player, double cpu_share);
void sw_advance(struct game_state *s);
json_t *sw_replay_header(const struct game_state *s);
json_t *sw_replay_round(const struct game_state *s);
json_t *sw_replay_orders(const struct game_state *s);
size_t sw_replay_message(const struct game_state *s, int player, const json_t *orders,
			 uint8_t *buf, size_t cap);

/* ---- params.c ------------------------------------------------------------ */

/* The original's default game: its map (125 asteroids, 10 bonuses of each
 * kind) and its start cells. */
void sw_params_default(struct sw_params *p);
/* From a parameters file's text (NULL or empty: the defaults).  -1 with err
 * naming the line and the key. */
int sw_params_parse(const char *text, struct sw_params *p, err_t err);
/* The parameters as the replay's "params": the file's keys, in its order. */
json_t *sw_params_json(const struct sw_params *p);

/* ---- rules.c ------------------------------------------------------------- */

/* The universe from the map (or empty), ships in columns 0..3, bonuses.
 * -1 with err when something does not fit. */
int sw_setup(struct game_state *d, err_t err);
/* The cells a move (dr, dc) from (row, col) passes through, in the order
 * of the rules page, destination last; returns how many. */
int sw_passed(int row, int col, int dr, int dc, int out_row[SW_MAX_PASSED],
	      int out_col[SW_MAX_PASSED]);
/* Whether ship id may make move action (0..8) or shoot in this round. */
bool sw_valid(const struct game_state *d, int id, int action);
/* For tests: clear the universe (no ships, asteroids, bonuses or missiles,
 * nothing pending); put things back one by one. */
void sw_clear(struct game_state *d);
void sw_put(struct game_state *d, int row, int col, int kind, int ref);
int sw_put_ship(struct game_state *d, int id, int row, int col);
void sw_begin_log(struct game_state *d);
/* The end-of-round steps, exposed for tests. */
void sw_move_missiles(struct game_state *d);
void sw_regenerate(struct game_state *d);
void sw_refill_bonuses(struct game_state *d);

/* ---- view.c -------------------------------------------------------------- */

void sw_view_build(const struct game_state *d, int player, struct sw_msg_view *v);

extern const struct game starwar_game;

#endif
