/* ants.h - the Ants engine's state and functions (games/ants).
 *
 * Promises: a match is one struct game_state, allocated once by ant_new()
 * and never again; resolving a round allocates nothing.  Every random
 * choice (board, food rectangles, execution order, hatching order,
 * successors, food cells) comes from the one generator in the state, so the
 * same parameters, seed and orders give the same match and replay bytes.
 * Orders are hostile bytes: bounded, validated, ignored when they name
 * somebody else's ant or an impossible field.
 *
 * Ants are indexed by id (ids are never reused, ANT_MAX_IDS bounds them);
 * positions are real board coordinates: Ants has no rotation.
 *
 * The rules are the seed's (shared/seeds/001_*.txt) completed by
 * shared/rules/ants.md; where they disagree the seed wins, said in place.
 */
#ifndef ANTS_H
#define ANTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/ants/proto.h"
#include "games/engine.h"
#include "games/game.h"
#include "games/kit/rng.h"

#define ANT_NONE (-1) /* no ant on a cell, no bonus, no order */
/* Eggs of a round: one queen per colony lays at most one; tests that give a
 * colony several queens stay well below this. */
#define ANT_MAX_EGGS 64

/* The fields are ints in the order of ANT_NPARAMS (proto.h), so the start
 * message and the parameters file walk them as an array. */
struct ant_params {
	int rounds, rows, cols, queen_period;
	int need[2][ANT_NUTRIENTS];		/* [soldier, worker] egg costs */
	int food[ANT_BONUSES][ANT_NUTRIENTS]; /* nutrients of a bonus */
	int ini_soldiers, ini_workers;
	int bonus_rows, bonus_cols, bonus_period;
	int worker_life, soldier_life, queen_life;
};

_Static_assert(sizeof(struct ant_params) == ANT_NPARAMS * sizeof(int),
	       "ant_params must be ANT_NPARAMS ints");
_Static_assert(offsetof(struct ant_params, bonus_period) == ANT_P_BONUS_PERIOD * sizeof(int) &&
		       offsetof(struct ant_params, food) == ANT_P_FOOD * sizeof(int),
	       "ant_params in the order of proto.h's indices");

static inline const int *ant_params_array(const struct ant_params *p)
{
	return (const int *)p;
}

struct ant {
	bool alive;
	int8_t type, player;
	int8_t carried; /* ANT_NONE or the bonus a worker carries */
	int row, col;
	int life;
	int reserve[ANT_NUTRIENTS]; /* a queen's */
};

/* An egg laid this round, hatching at its end. */
struct ant_egg {
	int8_t type, player;
	int cell;
};

/* A selected command (proto.h's order, in real terms). */
struct ant_cmd {
	int8_t kind, dir, type;
};

/* What the last ant_advance() changed, for the replay. */
struct ant_round_log {
	int nids; /* ids at the start of the round */
	struct ant before[ANT_MAX_IDS];
	int8_t bonus[ANT_MAX_CELLS];
};

/* A match of Ants: the state behind the judge's opaque struct game_state
 * (games/game.h), which this engine's functions and table take. */
struct game_state {
	struct ant_params p;
	uint64_t seed;
	struct rng rng;
	int round; /* rounds played */

	bool water[ANT_MAX_CELLS];
	int8_t bonus[ANT_MAX_CELLS];	/* ANT_NONE or a bonus */
	int16_t ant_at[ANT_MAX_CELLS];	/* ANT_NONE or an ant id */
	int rect_row[ANT_PLAYERS][ANT_BONUSES]; /* top-left of food rectangles */
	int rect_col[ANT_PLAYERS][ANT_BONUSES];

	int nids; /* ids handed out */
	struct ant ant[ANT_MAX_IDS];
	int64_t score[ANT_PLAYERS];
	double cpu[ANT_PLAYERS];
	bool frozen[ANT_PLAYERS];

	/* Commands of the coming round, by id; the first one counts. */
	struct ant_cmd cmd[ANT_MAX_IDS];
	int norders[ANT_PLAYERS];
	struct ant_msg_order incoming[ANT_MAX_ORDERS];

	/* Scratch of the round. */
	int16_t exec[ANT_MAX_IDS];
	int perm[ANT_MAX_IDS];
	int neggs;
	struct ant_egg egg[ANT_MAX_EGGS];
	int cells[ANT_MAX_CELLS]; /* candidate cells, BFS queue */
	bool seen[ANT_MAX_CELLS];  /* BFS marks */
	struct ant_round_log log;
};

static inline int ant_cell(const struct game_state *g, int row, int col)
{
	return row * g->p.cols + col;
}

static inline bool ant_inside(const struct game_state *g, int row, int col)
{
	return row >= 0 && col >= 0 && row < g->p.rows && col < g->p.cols;
}

/* ---- game.c, rules.c, view.c, replay.c: the table's functions ------------ */

/* game.h says what each does; ant_take_orders fills err when it refuses a
 * message. */
struct game_state *ant_new(const char *params, uint64_t seed, err_t err);
void ant_free(struct game_state *s);
size_t ant_start(const struct game_state *s, int player, uint8_t *buf, size_t cap);
size_t ant_view(const struct game_state *s, int player, uint8_t *buf, size_t cap);
int ant_take_orders(struct game_state *s, int player, const uint8_t *buf, size_t len,
		    err_t err);
void ant_set_status(struct game_state *s, int player, double cpu_share);
void ant_advance(struct game_state *s);
json_t *ant_replay_header(const struct game_state *s);
json_t *ant_replay_round(const struct game_state *s);
json_t *ant_replay_orders(const struct game_state *s);
size_t ant_replay_message(const struct game_state *s, int player, const json_t *orders,
			  uint8_t *buf, size_t cap);

/* ---- params.c ------------------------------------------------------------ */

void ant_params_default(struct ant_params *p);
/* From a parameters file's text (NULL or empty: the defaults).  -1 with
 * err naming the line and the key. */
int ant_params_parse(const char *text, struct ant_params *p, err_t err);
/* The parameters as the replay's "params": the file's keys, in its order. */
json_t *ant_params_json(const struct ant_params *p);
/* How many anti-diagonals of a corner the initial colony fills. */
int ant_corner_diagonals(const struct ant_params *p);

/* ---- board.c ------------------------------------------------------------- */

/* Water, food rectangles and the colonies, from the state's generator. */
int ant_board_setup(struct game_state *g, err_t err);
bool ant_board_connected(struct game_state *g);
/* For tests: no ants, no food, no water; then ants one by one (full life;
 * the id, or -1 when the cell is not free soil). */
void ant_clear(struct game_state *g);
int ant_add(struct game_state *g, int type, int player, int row, int col);
int ant_full_life(const struct ant_params *p, int type);
/* The corner cell of a player: 0 top-left, 1 top-right, 2 bottom-right,
 * 3 bottom-left. */
void ant_corner(const struct ant_params *p, int player, int *row, int *col);

/* ---- rules.c ------------------------------------------------------------- */

void ant_dir_delta(int dir, int *dr, int *dc);
int ant_count(const struct game_state *g, int player);
/* Starts the replay log of a round: nothing changed, no egg laid yet. */
void ant_begin_log(struct game_state *g);
/* The round end's food step (a bonus in every rectangle that has room),
 * exposed for tests. */
void ant_spawn_food(struct game_state *g);

/* ---- view.c -------------------------------------------------------------- */

void ant_view_build(const struct game_state *g, int player, struct ant_msg_view *v);

extern const struct game ants_game;

#endif
