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
 * Each record is written out below in its order on the wire: its struct,
 * its put and its get (with the checks), its length (games/kit/record.h).
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

/* Bytes on the wire of the records below. */
#define SW_PARAMS_LEN (12 * 2)
#define SW_START_LEN (1 + 1 + 1 + SW_PARAMS_LEN + 8)
#define SW_VIEW_PLAYER_LEN (8 + 4)
#define SW_VIEW_SHIP_LEN (1 + 1 + 1 + 2 + 2)
#define SW_VIEW_MAX \
	(2 + 2 + 2 + 2 + SW_PLAYERS * SW_VIEW_PLAYER_LEN + SW_MAX_CELLS + 2 + \
	 SW_MAX_SHIPS * SW_VIEW_SHIP_LEN)
#define SW_ORDER_LEN (2 + 1)
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
 * the key table and the replay's "params" come from this list, and the
 * start message's struct below is filled by its names.  Ships are per
 * player. */
#define SW_PARAMS(X)                                                                       \
	X(rounds, 1, SW_MAX_VALUE)                                                         \
	X(rows, SW_MIN_ROWS, SW_MAX_ROWS) X(cols, SW_MIN_COLS, SW_MAX_COLS)                \
	X(window, SW_START_COLS, SW_MAX_COLS)                                              \
	X(ships, 1, SW_MAX_PLAYER_SHIPS) X(regen_rounds, 0, SW_MAX_VALUE)                  \
	X(missile_bonuses, 0, SW_MAX_CELLS) X(point_bonuses, 0, SW_MAX_CELLS)              \
	X(bonus_missiles, 0, SW_MAX_VALUE) X(bonus_points, 0, SW_MAX_VALUE)                \
	X(kill_points, 0, SW_MAX_VALUE) X(initial_missiles, 0, SW_MAX_VALUE)

/* The start message's parameters, in SW_PARAMS' order, each a u16
 * within its range. */
struct sw_msg_params {
	uint16_t rounds, rows, cols, window, ships, regen_rounds, missile_bonuses, point_bonuses,
		bonus_missiles, bonus_points, kill_points, initial_missiles;
};

static inline void sw_msg_params_put(struct wire_w *w, const struct sw_msg_params *m)
{
	const uint16_t v[] = { m->rounds, m->rows, m->cols, m->window, m->ships, m->regen_rounds,
			       m->missile_bonuses, m->point_bonuses, m->bonus_missiles,
			       m->bonus_points, m->kill_points, m->initial_missiles };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		wire_u16(w, v[i]);
}

static inline bool sw_msg_params_get(struct wire_r *r, struct sw_msg_params *m)
{
	return record_u16_in(r, &m->rounds, 1, SW_MAX_VALUE) &&
	       record_u16_in(r, &m->rows, SW_MIN_ROWS, SW_MAX_ROWS) &&
	       record_u16_in(r, &m->cols, SW_MIN_COLS, SW_MAX_COLS) &&
	       record_u16_in(r, &m->window, SW_START_COLS, SW_MAX_COLS) &&
	       record_u16_in(r, &m->ships, 1, SW_MAX_PLAYER_SHIPS) &&
	       record_u16_in(r, &m->regen_rounds, 0, SW_MAX_VALUE) &&
	       record_u16_in(r, &m->missile_bonuses, 0, SW_MAX_CELLS) &&
	       record_u16_in(r, &m->point_bonuses, 0, SW_MAX_CELLS) &&
	       record_u16_in(r, &m->bonus_missiles, 0, SW_MAX_VALUE) &&
	       record_u16_in(r, &m->bonus_points, 0, SW_MAX_VALUE) &&
	       record_u16_in(r, &m->kill_points, 0, SW_MAX_VALUE) &&
	       record_u16_in(r, &m->initial_missiles, 0, SW_MAX_VALUE);
}

struct sw_msg_start {
	uint8_t version, players, player;
	struct sw_msg_params params;
	uint64_t seed;
};

static inline size_t sw_start_encode(const struct sw_msg_start *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, m->version);
	wire_u8(&w, m->players);
	wire_u8(&w, m->player);
	sw_msg_params_put(&w, &m->params);
	wire_u64(&w, m->seed);
	return record_length(&w);
}

static inline bool sw_start_decode(const uint8_t *buf, size_t len, struct sw_msg_start *m)
{
	struct wire_r r = wire_reader(buf, len);
	if (!record_u8_in(&r, &m->version, SW_PROTO_VERSION, SW_PROTO_VERSION) ||
	    !record_u8_in(&r, &m->players, SW_PLAYERS, SW_PLAYERS) ||
	    !record_u8_in(&r, &m->player, 0, SW_PLAYERS - 1) || !sw_msg_params_get(&r, &m->params))
		return false;
	m->seed = wire_get_u64(&r);
	return wire_done(&r) && m->params.window <= m->params.cols;
}

/* ---- view ---------------------------------------------------------------- */

struct sw_msg_player {
	int64_t score;
	int32_t cpu;
};

struct sw_msg_ship {
	uint8_t alive, row, col;
	uint16_t missiles, wait;
};

/* Every cell and ship is checked, so a decoded view indexes safely. */
struct sw_msg_view {
	uint16_t round, rows, cols, window;
	struct sw_msg_player player[SW_PLAYERS];
	uint8_t cell[SW_MAX_CELLS]; /* rows * cols of them, each below SW_KINDS */
	uint16_t nships;
	struct sw_msg_ship ship[SW_MAX_SHIPS];
};

static inline size_t sw_view_encode(const struct sw_msg_view *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, m->round);
	wire_u16(&w, m->rows);
	wire_u16(&w, m->cols);
	wire_u16(&w, m->window);
	for (int p = 0; p < SW_PLAYERS; p++) {
		wire_i64(&w, m->player[p].score);
		wire_i32(&w, m->player[p].cpu);
	}
	record_put_block(&w, m->cell, (size_t)m->rows * m->cols, SW_MAX_CELLS, 1);
	wire_u16(&w, m->nships);
	record_room(&w, m->nships, SW_MAX_SHIPS);
	for (int k = 0; k < m->nships && !w.overflow; k++) {
		const struct sw_msg_ship *s = &m->ship[k];
		wire_u8(&w, s->alive);
		wire_u8(&w, s->row);
		wire_u8(&w, s->col);
		wire_u16(&w, s->missiles);
		wire_u16(&w, s->wait);
	}
	return record_length(&w);
}

static inline bool sw_ship_get(struct wire_r *r, const struct sw_msg_view *m,
			       struct sw_msg_ship *s)
{
	s->alive = wire_get_u8(r);
	s->row = wire_get_u8(r);
	s->col = wire_get_u8(r);
	s->missiles = wire_get_u16(r);
	s->wait = wire_get_u16(r);
	return !r->bad && s->alive <= 1 && s->row < m->rows && s->col < m->cols;
}

static inline bool sw_view_decode(const uint8_t *buf, size_t len, struct sw_msg_view *m)
{
	struct wire_r r = wire_reader(buf, len);
	m->round = wire_get_u16(&r);
	if (!record_u16_in(&r, &m->rows, 0, SW_MAX_ROWS) ||
	    !record_u16_in(&r, &m->cols, 0, SW_MAX_COLS) ||
	    !record_u16_in(&r, &m->window, 0, m->cols))
		return false;
	for (int p = 0; p < SW_PLAYERS; p++) {
		m->player[p].score = wire_get_i64(&r);
		m->player[p].cpu = wire_get_i32(&r);
	}
	size_t cells = (size_t)m->rows * m->cols;
	if (!record_get_block(&r, m->cell, cells, SW_MAX_CELLS, 1))
		return false;
	for (size_t c = 0; c < cells; c++)
		if (m->cell[c] >= SW_KINDS)
			return false;
	if (!record_get_count(&r, &m->nships, SW_MAX_SHIPS))
		return false;
	for (int k = 0; k < m->nships; k++)
		if (!sw_ship_get(&r, m, &m->ship[k]))
			return false;
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

struct sw_msg_order {
	uint16_t id;
	uint8_t action;
};

static inline void sw_order_put(struct wire_w *w, const void *order)
{
	const struct sw_msg_order *o = order;
	wire_u16(w, o->id);
	wire_u8(w, o->action);
}

static inline bool sw_order_get(struct wire_r *r, void *order)
{
	struct sw_msg_order *o = order;
	o->id = wire_get_u16(r);
	o->action = wire_get_u8(r);
	return !r->bad;
}

static const struct orders_layout sw_orders = {
	sizeof(struct sw_msg_order), SW_MAX_ORDERS, "more than 1000 orders in one round",
	SW_ORDER_LEN, sw_order_put, sw_order_get,
};

#endif
