/* proto.h - the bytes of Dominator's messages, for the judge and the kit.
 *
 * Promises: one encoder and one decoder per message, shared by the engine
 * (encodes start and view, decodes orders) and the player kit (decodes start
 * and view, encodes orders), so both sides agree by construction.  Header
 * only, no allocation, no jansson: it compiles into the judge and into a
 * static player binary alike.  Decoders never read out of bounds and reject
 * any message whose length or fields do not add up.
 *
 * All integers are little-endian (games/kit/wire.h).  Everything a player
 * receives is already rotated for it: it is player 0, its box is top-left,
 * and the others are numbered (q - p) mod 4.
 *
 * Each message's fields are listed once below, in their order on the wire;
 * games/kit/record.h makes the structs, encoders and decoders from them.
 *
 * start: version, players (4), the parameters, then the player's own
 *   random seed, derived from the match seed and its seat (games/seed.h):
 *   it reveals neither.
 *
 * view: the rounds played so far, the board's size, per player its land
 *   (cells of its colour), its total score and its share of the CPU budget
 *   (millionths; -1: frozen); then rows*cols cells, row-major: bit 7 wall,
 *   bit 6 haunted, bits 0-2 owner + 1 (0: nobody); then the units (type 0
 *   farmer, 1 knight, 2 witch; health 0 for witches).
 *
 * orders: u16 count, then count x { unit id, direction (0..8) }.  More than
 *   DOM_MAX_ORDERS is an error that freezes the player, so the encoder
 *   keeps at most DOM_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef DOM_PROTO_H
#define DOM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
#include "games/kit/record.h"

#define DOM_PROTO_VERSION 1
#define DOM_PLAYERS 4
#define DOM_MIN_ROWS 21 /* rows = cols, odd, at least 20 */
#define DOM_MAX_ROWS 99 /* positions travel as u8 */
#define DOM_MAX_CELLS (DOM_MAX_ROWS * DOM_MAX_ROWS)
#define DOM_MAX_PLAYER_UNITS 256
#define DOM_MAX_UNITS (DOM_PLAYERS * DOM_MAX_PLAYER_UNITS)
#define DOM_MAX_ORDERS 1000
#define DOM_MAX_VALUE 10000 /* health, regeneration, damage, rounds */
#define DOM_MAX_WITCHES 20 /* per player */

/* Directions as the seed numbers them; turning by 2 is a quarter turn. */
enum dom_dir {
	DOM_BOTTOM,
	DOM_BR,
	DOM_RIGHT,
	DOM_RT,
	DOM_TOP,
	DOM_TL,
	DOM_LEFT,
	DOM_LB,
	DOM_NONE,
	DOM_DIRS
};

enum dom_type { DOM_FARMER, DOM_KNIGHT, DOM_WITCH, DOM_TYPES };

#define DOM_CELL_WALL 0x80
#define DOM_CELL_HAUNTED 0x40
#define DOM_CELL_OWNER 0x07

/* Bytes on the wire, from the lists below. */
#define DOM_START_LEN dom_msg_start_len
#define DOM_VIEW_PLAYER_LEN dom_msg_player_len
#define DOM_VIEW_UNIT_LEN dom_msg_unit_len
#define DOM_VIEW_MAX dom_msg_view_max
#define DOM_ORDER_LEN dom_msg_order_len
#define DOM_ORDERS_MAX (2 + (DOM_MAX_ORDERS + 1) * DOM_ORDER_LEN)

/* The owner of a view cell (-1: nobody), and whether it is a wall. */
static inline int dom_cell_owner(uint8_t cell)
{
	return (cell & DOM_CELL_OWNER) - 1;
}

static inline bool dom_cell_wall(uint8_t cell)
{
	return cell & DOM_CELL_WALL;
}

static inline bool dom_cell_haunted(uint8_t cell)
{
	return cell & DOM_CELL_HAUNTED;
}

/* ---- start --------------------------------------------------------------- */

/* The parameters (but `players`, always 4) in the order of the start
 * message's (struct dom_msg_params): field, least and greatest
 * value.  Each is an int of struct dom_params and a key of the parameters
 * file; the key table, the replay's "params" and the start message all
 * come from this list.  Farmers, knights and witches are per player. */
#define DOM_PARAMS(X)                                                                      \
	X(rounds, 1, DOM_MAX_VALUE)                                                        \
	X(rows, DOM_MIN_ROWS, DOM_MAX_ROWS) X(cols, DOM_MIN_ROWS, DOM_MAX_ROWS)            \
	X(farmers, 0, DOM_MAX_PLAYER_UNITS) X(knights, 0, DOM_MAX_PLAYER_UNITS)            \
	X(witches, 0, DOM_MAX_WITCHES)                                                     \
	X(farmer_health, 1, DOM_MAX_VALUE) X(knight_health, 1, DOM_MAX_VALUE)              \
	X(farmer_regen, 0, DOM_MAX_VALUE) X(knight_regen, 0, DOM_MAX_VALUE)                \
	X(damage_min, 1, DOM_MAX_VALUE) X(damage_max, 1, DOM_MAX_VALUE)

RECORD_PARAMS(dom_msg_params, DOM_PARAMS)

#define DOM_START(X) \
	RECORD_VERSION_PLAYERS(X, DOM_PROTO_VERSION, DOM_PLAYERS) \
	X(record, dom_msg_params, params) X(u64, seed)
RECORD_MESSAGE(dom_msg_start, DOM_START, dom_start, m->params.cols == m->params.rows)

/* ---- view ---------------------------------------------------------------- */

#define DOM_PLAYER(X) X(i32, land) X(i64, score) X(i32, cpu)
RECORD(dom_msg_player, DOM_PLAYER)

#define DOM_UNIT(X) X(u16, id) X(u8, type) X(u8, owner) X(u8, row) X(u8, col) X(u16, health)
RECORD(dom_msg_unit, DOM_UNIT)

/* Every unit is checked, so a decoded view can be indexed without care. */
#define DOM_VIEW(X) \
	X(u16, round) X(range, u16, rows, 0, DOM_MAX_ROWS) X(range, u16, cols, 0, DOM_MAX_ROWS) \
	X(records, dom_msg_player, player, DOM_PLAYERS) \
	X(block, uint8_t, cell, DOM_MAX_CELLS, (size_t)m->rows * m->cols, true) \
	X(list, nunits, dom_msg_unit, unit, DOM_MAX_UNITS, \
	  e->type < DOM_TYPES && e->owner < DOM_PLAYERS && e->row < m->rows && e->col < m->cols)
RECORD_MESSAGE(dom_msg_view, DOM_VIEW, dom_view, true)

/* ---- orders -------------------------------------------------------------- */

#define DOM_ORDER(X) X(u16, id) X(u8, dir)
ORDERS_RECORD(dom_orders, dom_msg_order, DOM_ORDER, DOM_MAX_ORDERS,
	      "more than 1000 orders in one round");

#endif
