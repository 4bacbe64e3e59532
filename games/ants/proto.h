/* proto.h - the bytes of Ants' messages, for the judge and the kit.
 *
 * Promises: one encoder and one decoder per message, shared by the engine
 * (encodes start and view, decodes orders) and the player kit (decodes start
 * and view, encodes orders).  Header only, no allocation, no jansson.
 * Decoders never read out of bounds and reject any message whose length or
 * fields do not add up.  Integers are little-endian (games/kit/wire.h).
 *
 * Ants is not rotated: the seed gives each colony its own corner and lets a
 * player ask who it is (me()), so views carry real coordinates and real
 * player numbers, and the start message says which player you are.  The
 * food rectangles are "unknown to the players" and are never sent.
 *
 * Each message's fields are listed once below, in their order on the wire;
 * games/kit/record.h makes the structs, encoders and decoders from them.
 *
 * start: version, players (4), me (this player's number), the parameters
 *   in the order of enum ant_param_index, then the player's own random
 *   seed, derived from the match seed and its seat (games/seed.h): it
 *   reveals neither.
 *
 * view: the rounds played so far, the board's size, per player its score,
 *   its ants and its share of the CPU budget (millionths; -1: frozen); then
 *   rows*cols cells, row-major: bit 7 water, bits 0-1 bonus + 1 (0 none);
 *   then the ants, each with the bonus it carries + 1 (0 none) and its
 *   reserves of carbo, prote and lipid.
 *
 * orders: u16 count, then count x { ant id, kind, dir, type } (dir used
 *   by move and lay, type by lay).  More than ANT_MAX_ORDERS is an error
 *   that freezes the player, so the encoder keeps at most
 *   ANT_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef ANT_PROTO_H
#define ANT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
#include "games/kit/record.h"

#define ANT_PROTO_VERSION 1
#define ANT_PLAYERS 4
#define ANT_MIN_ROWS 10
#define ANT_MAX_ROWS 99 /* positions travel as u8 */
#define ANT_MAX_CELLS (ANT_MAX_ROWS * ANT_MAX_ROWS)
#define ANT_MAX_ROUNDS 5000
#define ANT_MAX_INITIAL 255 /* initial ants of a colony, queen included */
/* Ids are never reused; at most one egg per colony a round (one queen, one
 * command), so this bounds every id of a match and fits a u16. */
#define ANT_MAX_IDS (ANT_PLAYERS * (ANT_MAX_INITIAL + ANT_MAX_ROUNDS))
#define ANT_MAX_ORDERS 1000

enum ant_dir { ANT_DOWN, ANT_RIGHT, ANT_UP, ANT_LEFT, ANT_DIRS };
/* The fight order: a lower type beats a higher one (queen < soldier < worker). */
enum ant_type { ANT_QUEEN, ANT_SOLDIER, ANT_WORKER, ANT_TYPES };
enum ant_bonus { ANT_BREAD, ANT_SEED, ANT_LEAF, ANT_BONUSES };
enum ant_nutrient { ANT_CARBO, ANT_PROTE, ANT_LIPID, ANT_NUTRIENTS };
enum ant_kind { ANT_MOVE, ANT_TAKE, ANT_LEAVE, ANT_LAY, ANT_KINDS };

#define ANT_CELL_WATER 0x80
#define ANT_CELL_BONUS 0x03

/* The parameters as they travel, in the order of the seed's table:
 * rounds, rows, cols, queen_period, need[soldier, worker][carbo, prote,
 * lipid], food[bread, seed, leaf][carbo, prote, lipid], ini_soldiers,
 * ini_workers, bonus_rows, bonus_cols, bonus_period, worker_life,
 * soldier_life, queen_life. */
#define ANT_NPARAMS 27
/* Indices of the parameters a kit reads most. */
enum ant_param_index {
	ANT_P_ROUNDS = 0,
	ANT_P_ROWS = 1,
	ANT_P_COLS = 2,
	ANT_P_QUEEN_PERIOD = 3,
	ANT_P_NEED = 4,	 /* 2 x 3: soldier then worker; carbo, prote, lipid */
	ANT_P_FOOD = 10, /* 3 x 3: bread, seed, leaf; carbo, prote, lipid */
	ANT_P_INI_SOLDIERS = 19,
	ANT_P_INI_WORKERS = 20,
	ANT_P_BONUS_ROWS = 21,
	ANT_P_BONUS_COLS = 22,
	ANT_P_BONUS_PERIOD = 23,
	ANT_P_WORKER_LIFE = 24,
	ANT_P_SOLDIER_LIFE = 25,
	ANT_P_QUEEN_LIFE = 26,
};

/* Bytes on the wire, from the lists below. */
#define ANT_START_LEN ant_msg_start_len
#define ANT_VIEW_PLAYER_LEN ant_msg_player_len
#define ANT_VIEW_ANT_LEN ant_msg_ant_len
#define ANT_VIEW_MAX ant_msg_view_max
#define ANT_ORDER_LEN ant_msg_order_len
#define ANT_ORDERS_MAX (2 + (ANT_MAX_ORDERS + 1) * ANT_ORDER_LEN)

static inline bool ant_cell_water(uint8_t cell)
{
	return cell & ANT_CELL_WATER;
}

/* The bonus on a view cell, -1 for none. */
static inline int ant_cell_bonus(uint8_t cell)
{
	return (cell & ANT_CELL_BONUS) - 1;
}

/* ---- start --------------------------------------------------------------- */

#define ANT_PARAMS(X) X(array, u16, v, ANT_NPARAMS)
RECORD(ant_msg_params, ANT_PARAMS)

/* Periods are divisors in a player's code: never zero. */
static inline bool ant_params_ok(const uint16_t *v)
{
	return record_in(v[ANT_P_ROWS], ANT_MIN_ROWS, ANT_MAX_ROWS) &&
	       record_in(v[ANT_P_COLS], ANT_MIN_ROWS, ANT_MAX_ROWS) && v[ANT_P_QUEEN_PERIOD] >= 1 &&
	       v[ANT_P_BONUS_PERIOD] >= 1;
}

#define ANT_START(X) \
	RECORD_VERSION_PLAYERS(X, ANT_PROTO_VERSION, ANT_PLAYERS) \
	X(range, u8, me, 0, ANT_PLAYERS - 1) X(record, ant_msg_params, params) X(u64, seed)
RECORD_MESSAGE(ant_msg_start, ANT_START, ant_start, ant_params_ok(m->params.v))

/* ---- view ---------------------------------------------------------------- */

#define ANT_PLAYER(X) X(i64, score) X(i32, ants) X(i32, cpu)
RECORD(ant_msg_player, ANT_PLAYER)

#define ANT_ANT(X) \
	X(u16, id) X(u8, type) X(u8, player) X(u8, row) X(u8, col) X(u16, life) X(u8, carried) \
	X(array, u32, reserve, ANT_NUTRIENTS)
RECORD(ant_msg_ant, ANT_ANT)

/* The view's fixed part, apart so that the engine can stream a view
 * without building the whole (large) struct ant_msg_view. */
#define ANT_HEAD(X) \
	X(u16, round) X(range, u16, rows, 0, ANT_MAX_ROWS) X(range, u16, cols, 0, ANT_MAX_ROWS) \
	X(records, ant_msg_player, player, ANT_PLAYERS)
RECORD(ant_msg_head, ANT_HEAD)

/* At most one ant per cell.  Every ant is checked, so a decoded view can
 * be indexed without care. */
#define ANT_VIEW(X) \
	X(record, ant_msg_head, h) \
	X(block, uint8_t, cell, ANT_MAX_CELLS, (size_t)m->h.rows * m->h.cols, true) \
	X(list, nants, ant_msg_ant, ant, ANT_MAX_CELLS, \
	  e->type < ANT_TYPES && e->player < ANT_PLAYERS && e->row < m->h.rows && \
		  e->col < m->h.cols && e->carried <= ANT_BONUSES)
RECORD_MESSAGE(ant_msg_view, ANT_VIEW, ant_view, m->nants <= (size_t)m->h.rows * m->h.cols)

/* ---- orders -------------------------------------------------------------- */

#define ANT_ORDER(X) X(u16, id) X(u8, kind) X(u8, dir) X(u8, type)
ORDERS_RECORD(ant_orders, ant_msg_order, ANT_ORDER, ANT_MAX_ORDERS,
	      "more than 1000 orders in one round");

#endif
