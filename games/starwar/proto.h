/* proto.h - the bytes of Star War's messages, for the judge and the kit.
 *
 * Promises: one encoder and one decoder per message, shared by the engine
 * (encodes start and view, decodes orders) and the player kit (decodes start
 * and view, encodes orders).  Header only, no allocation, no jansson.
 * Decoders never read out of bounds and reject any message whose length or
 * fields do not add up.  All integers are little-endian (games/kit/wire.h).
 *
 * Star War does not rotate anything: the seed says every player can look
 * up any cell of the universe, and ids are the real ones (player p owns
 * ships p*k .. p*k+k-1).  Columns are real universe columns 0..cols-1.
 *
 * Each message's fields are listed once below, in their order on the wire;
 * games/kit/record.h makes the structs, encoders and decoders from them.
 *
 * start: version, players (4), player (the seat, 0..3), the parameters
 *   (rows and cols: the universe; ships: per player), then the player's own
 *   random seed, derived from the match seed and its seat (games/seed.h):
 *   it reveals neither.
 *
 * view: the rounds played so far, the universe's size and the window, per
 *   player its score and its share of the CPU budget (millionths; -1:
 *   frozen); then rows*cols cell kinds (enum sw_kind), row-major; then the
 *   ships (wait: rounds before it may regenerate).  Ship ids are the
 *   indices; the owner of ship i is i / ships.
 *
 * orders: u16 count, then count x { ship id, action }: action 0..8 is a
 *   move (dr + 1) * 3 + dc, dr in -1..1, dc in 0..2; SW_SHOOT (9) shoots.
 *   More than SW_MAX_ORDERS in a round is an error, so the encoder keeps
 *   at most SW_MAX_ORDERS + 1: enough to be told.
 */
#ifndef SW_PROTO_H
#define SW_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
#include "games/kit/record.h"

#define SW_PROTO_VERSION 1
#define SW_PLAYERS 4
#define SW_MIN_ROWS 5   /* room for one 5 x 5 regeneration square */
#define SW_MAX_ROWS 100 /* positions travel as u8 */
#define SW_MIN_COLS 5
#define SW_MAX_COLS 250
#define SW_MAX_CELLS (SW_MAX_ROWS * SW_MAX_COLS)
#define SW_MAX_PLAYER_SHIPS 64
#define SW_MAX_SHIPS (SW_PLAYERS * SW_MAX_PLAYER_SHIPS)
#define SW_MAX_ORDERS 1000
#define SW_MAX_VALUE 10000
#define SW_START_COLS 4 /* ships start in columns 0..3: the narrowest window */

#define SW_DEFAULT_MOVE 4 /* (0, +1) */
#define SW_SHOOT 9
#define SW_ACTIONS 10

/* What a cell holds: one thing at most. */
enum sw_kind { SW_EMPTY, SW_ASTEROID, SW_POINT_BONUS, SW_MISSILE_BONUS, SW_SHIP, SW_MISSILE,
	       SW_KINDS };

/* Bytes on the wire, from the lists below. */
#define SW_START_LEN sw_msg_start_len
#define SW_VIEW_PLAYER_LEN sw_msg_player_len
#define SW_VIEW_SHIP_LEN sw_msg_ship_len
#define SW_VIEW_MAX sw_msg_view_max
#define SW_ORDER_LEN sw_msg_order_len
#define SW_ORDERS_MAX (2 + (SW_MAX_ORDERS + 1) * SW_ORDER_LEN)

/* Row and column steps of a move action 0..8. */
static inline int sw_action_dr(int action)
{
	return action / 3 - 1;
}

static inline int sw_action_dc(int action)
{
	return action % 3;
}

static inline uint8_t sw_move_action(int dr, int dc)
{
	return (uint8_t)((dr + 1) * 3 + dc);
}

/* ---- start --------------------------------------------------------------- */

/* The parameters (but `players`, always 4) in the order of the start
 * message's (struct sw_msg_params): field, least and greatest
 * value.  Each is an int of struct sw_params and a key of the game file;
 * the key table, the replay's "params" and the start message all come
 * from this list.  Ships are per player. */
#define SW_PARAMS(X)                                                                       \
	X(rounds, 1, SW_MAX_VALUE)                                                         \
	X(rows, SW_MIN_ROWS, SW_MAX_ROWS) X(cols, SW_MIN_COLS, SW_MAX_COLS)                \
	X(window, SW_START_COLS, SW_MAX_COLS)                                              \
	X(ships, 1, SW_MAX_PLAYER_SHIPS) X(regen_rounds, 0, SW_MAX_VALUE)                  \
	X(missile_bonuses, 0, SW_MAX_CELLS) X(point_bonuses, 0, SW_MAX_CELLS)              \
	X(bonus_missiles, 0, SW_MAX_VALUE) X(bonus_points, 0, SW_MAX_VALUE)                \
	X(kill_points, 0, SW_MAX_VALUE) X(initial_missiles, 0, SW_MAX_VALUE)

RECORD_PARAMS(sw_msg_params, SW_PARAMS)

#define SW_START(X) \
	RECORD_VERSION_PLAYERS(X, SW_PROTO_VERSION, SW_PLAYERS) \
	X(range, u8, player, 0, SW_PLAYERS - 1) X(record, sw_msg_params, params) X(u64, seed)
RECORD_MESSAGE(sw_msg_start, SW_START, sw_start, m->params.window <= m->params.cols)

/* ---- view ---------------------------------------------------------------- */

#define SW_PLAYER(X) X(i64, score) X(i32, cpu)
RECORD(sw_msg_player, SW_PLAYER)

#define SW_SHIP(X) X(u8, alive) X(u8, row) X(u8, col) X(u16, missiles) X(u16, wait)
RECORD(sw_msg_ship, SW_SHIP)

/* Every cell and ship is checked, so a decoded view indexes safely. */
#define SW_VIEW(X) \
	X(u16, round) X(range, u16, rows, 0, SW_MAX_ROWS) X(range, u16, cols, 0, SW_MAX_COLS) \
	X(range, u16, window, 0, m->cols) X(records, sw_msg_player, player, SW_PLAYERS) \
	X(block, uint8_t, cell, SW_MAX_CELLS, (size_t)m->rows * m->cols, *e < SW_KINDS) \
	X(list, nships, sw_msg_ship, ship, SW_MAX_SHIPS, \
	  e->alive <= 1 && e->row < m->rows && e->col < m->cols)
RECORD_MESSAGE(sw_msg_view, SW_VIEW, sw_view, true)

/* ---- orders -------------------------------------------------------------- */

#define SW_ORDER(X) X(u16, id) X(u8, action)
ORDERS_RECORD(sw_orders, sw_msg_order, SW_ORDER, SW_MAX_ORDERS,
	      "more than 1000 orders in one round");

#endif
