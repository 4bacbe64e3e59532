/* dom.h - the Dominator engine's state and functions (games/dominator).
 *
 * Promises: a match is one struct game_state, allocated once by dom_new()
 * and never again; resolving a round allocates nothing.  For the same
 * parameters, seed and orders, every random choice (board, placement,
 * execution order, damage, capture teams, rebirth cells) comes from the one
 * generator in the state, so the match and its replay are the same bytes.
 * Orders are hostile bytes: bounded, validated, ignored when they name
 * somebody else's unit or an impossible direction.
 *
 * Everything is exposed for white-box tests: positions are real board
 * coordinates (row, col), directions real ones; only the messages rotate.
 *
 * The rules are the seed's (shared/seeds/000_*.txt) completed by
 * shared/rules/dominator.md; where they disagree, the seed wins and the code
 * says so where it matters.
 */
#ifndef DOM_H
#define DOM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/dominator/proto.h"
#include "games/engine.h"
#include "games/game.h"
#include "games/kit/rng.h"
#include "games/params_text.h"

#define DOM_NOBODY (-1)    /* owner of an unpainted cell */
#define DOM_NO_UNIT (-1)
#define DOM_NO_ORDER (-1)
#define DOM_HAUNT_RADIUS 2  /* Manhattan reach of an active witch */
#define DOM_WITCH_SPACING 4 /* initial distance between witches */
#define DOM_START_WITCH_DISTANCE 4 /* farmers and knights at the start (the original's) */
#define DOM_REBIRTH_WITCH_DISTANCE 3

/* A fixed board cell in the parameters: wall, free, or an owner 0..3. */
#define DOM_BOARD_WALL (-2)
#define DOM_BOARD_FREE (-1)

struct dom_params {
	DOM_PARAMS(PT_INT_FIELD)
	bool fixed_board;
	int8_t board[DOM_MAX_CELLS]; /* when fixed_board: DOM_BOARD_* or owner */
};

struct dom_unit {
	int id, type, owner; /* owner: the new team while captured */
	int row, col;
	int health;    /* 0 for witches */
	bool active;   /* witches: no other witch within Manhattan 2 */
	bool captured; /* off the board, reborn at the end of the round */
};

/* What the last dom_advance() did, for the replay. */
struct dom_round_log {
	int8_t step[DOM_MAX_UNITS];  /* direction a unit stepped, or -1 */
	bool painted[DOM_MAX_UNITS]; /* its step changed the cell's colour */
	struct dom_unit before[DOM_MAX_UNITS];
};

/* A match of Dominator: the state behind the judge's opaque struct game_state
 * (games/game.h), which this engine's functions and table take. */
struct game_state {
	struct dom_params p;
	uint64_t seed;
	struct rng rng;
	int round; /* rounds played */
	int n;     /* rows = cols */

	bool wall[DOM_MAX_CELLS];
	int8_t owner[DOM_MAX_CELLS];    /* DOM_NOBODY or a player */
	int16_t unit_at[DOM_MAX_CELLS]; /* DOM_NO_UNIT or a unit id */

	int nunits;
	struct dom_unit unit[DOM_MAX_UNITS]; /* indexed by id */
	int nwitches;
	int16_t witch[DOM_PLAYERS * DOM_MAX_WITCHES]; /* their ids */

	int land[DOM_PLAYERS]; /* cells of each colour */
	int64_t score[DOM_PLAYERS];
	double cpu[DOM_PLAYERS]; /* as told by dom_set_status() */
	bool frozen[DOM_PLAYERS];

	/* Orders for the coming round: one real direction per unit. */
	int8_t order[DOM_MAX_UNITS];
	int norders[DOM_PLAYERS]; /* orders received, counted for the limit */
	struct dom_msg_order incoming[DOM_MAX_ORDERS];

	/* Scratch of the round: execution order and captured units. */
	int16_t exec[DOM_MAX_UNITS];
	int perm[DOM_MAX_UNITS];
	int nreborn;
	int16_t reborn[DOM_MAX_UNITS];
	struct dom_round_log log;

	int cells[DOM_MAX_CELLS];      /* candidate cells, BFS queue */
	uint16_t mark[DOM_MAX_CELLS];  /* BFS marks, snake labels */
	uint8_t row_walls[DOM_MAX_CELLS]; /* board generator: walls near a cell in its row */
	bool near_witch[DOM_MAX_CELLS];   /* rebirth: a witch closer than the rebirth distance */
};

static inline int dom_cell(const struct game_state *d, int row, int col)
{
	return row * d->n + col;
}

static inline bool dom_inside(const struct game_state *d, int row, int col)
{
	return row >= 0 && col >= 0 && row < d->n && col < d->n;
}

static inline int dom_manhattan(int r1, int c1, int r2, int c2)
{
	return (r1 > r2 ? r1 - r2 : r2 - r1) + (c1 > c2 ? c1 - c2 : c2 - c1);
}

/* ---- game.c, rules.c, view.c, replay.c: the table's functions ------------ */

/* game.h says what each does; dom_take_orders fills err when it refuses a
 * message. */
struct game_state *dom_new(const char *params, uint64_t seed, err_t err);
void dom_free(struct game_state *s);
size_t dom_start(const struct game_state *s, int player, uint8_t *buf, size_t cap);
size_t dom_view(const struct game_state *s, int player, uint8_t *buf, size_t cap);
int dom_take_orders(struct game_state *s, int player, const uint8_t *buf, size_t len,
		    err_t err);
void dom_set_status(struct game_state *s, int player, double cpu_share);
void dom_advance(struct game_state *s);
json_t *dom_replay_header(const struct game_state *s);
json_t *dom_replay_round(const struct game_state *s);
json_t *dom_replay_orders(const struct game_state *s);
size_t dom_replay_message(const struct game_state *s, int player, const json_t *orders,
			  uint8_t *buf, size_t cap);

/* ---- params.c ------------------------------------------------------------ */

void dom_params_default(struct dom_params *p);
/* From a parameters file's text (NULL or empty: the defaults).  -1 with
 * err naming the line and the key. */
int dom_params_parse(const char *text, struct dom_params *p, err_t err);
/* The parameters as the replay's "params": the file's keys, in its order. */
json_t *dom_params_json(const struct dom_params *p);
/* Rows of a player's box: first and last (inclusive); same for columns. */
void dom_box(int n, int player, int *r0, int *r1, int *c0, int *c1);

/* ---- board.c ------------------------------------------------------------- */

/* The board (fixed or generated from the state's generator) and every
 * player's units.  -1 with err when the units do not fit. */
int dom_board_setup(struct game_state *d, err_t err);
/* All free cells are one 4-connected region. */
bool dom_board_connected(struct game_state *d);
/* For tests: an empty board of units, then units one by one (full health;
 * returns the id, or -1 when the cell is not free). */
void dom_clear_units(struct game_state *d);
int dom_add_unit(struct game_state *d, int type, int owner, int row, int col);

/* ---- cells.c ------------------------------------------------------------- */

/* Paints a cell, keeping the land counts. */
void dom_paint(struct game_state *d, int row, int col, int owner);
int dom_full_health(const struct game_state *d, int type);
/* Real direction from the direction player p gave in its rotated view. */
int dom_turn_dir(int player, int dir);
void dom_dir_delta(int dir, int *dr, int *dc);
/* Recomputes which witches are active. */
void dom_update_witches(struct game_state *d);
/* Active witches haunting a cell, per team; returns their total. */
int dom_haunters(const struct game_state *d, int row, int col, int count[DOM_PLAYERS]);
/* The cells an active witch haunts (inside the board, walls excluded: no
 * unit can stand there); fills cells and returns how many (at most 13). */
#define DOM_REACH_MAX 13
int dom_witch_reach(const struct game_state *d, const struct dom_unit *w,
		    int cells[DOM_REACH_MAX]);
bool dom_haunted(const struct game_state *d, int row, int col);

/* ---- rules.c ------------------------------------------------------------- */

/* Starts the replay log of a round: nothing moved, nobody captured yet. */
void dom_begin_log(struct game_state *d);

/* ---- view.c -------------------------------------------------------------- */

/* A player's view cell (vr, vc) is the real cell (*r, *c), and back. */
void dom_view_to_real(int n, int player, int vr, int vc, int *r, int *c);
void dom_real_to_view(int n, int player, int r, int c, int *vr, int *vc);
void dom_view_build(const struct game_state *d, int player, struct dom_msg_view *v);

extern const struct game dominator_game;

#endif
