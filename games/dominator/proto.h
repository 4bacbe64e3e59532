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
 * Each record is written out below in its order on the wire: its struct,
 * its put and its get (with the checks), its length (games/kit/record.h).
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
#include "games/kit/wire.h"

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

/* Bytes on the wire of the records below. */
#define DOM_PARAMS_LEN (12 * 2)
#define DOM_START_LEN (1 + 1 + DOM_PARAMS_LEN + 8)
#define DOM_VIEW_PLAYER_LEN (4 + 8 + 4)
#define DOM_VIEW_UNIT_LEN (2 + 1 + 1 + 1 + 1 + 2)
#define DOM_VIEW_MAX \
	(2 + 2 + 2 + DOM_PLAYERS * DOM_VIEW_PLAYER_LEN + DOM_MAX_CELLS + 2 + \
	 DOM_MAX_UNITS * DOM_VIEW_UNIT_LEN)
#define DOM_ORDER_LEN (2 + 1)
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
 * file; the key table and the replay's "params" come from this list, and
 * the start message's struct below is filled by its names.  Farmers,
 * knights and witches are per player. */
#define DOM_PARAMS(X)                                                                      \
	X(rounds, 1, DOM_MAX_VALUE)                                                        \
	X(rows, DOM_MIN_ROWS, DOM_MAX_ROWS) X(cols, DOM_MIN_ROWS, DOM_MAX_ROWS)            \
	X(farmers, 0, DOM_MAX_PLAYER_UNITS) X(knights, 0, DOM_MAX_PLAYER_UNITS)            \
	X(witches, 0, DOM_MAX_WITCHES)                                                     \
	X(farmer_health, 1, DOM_MAX_VALUE) X(knight_health, 1, DOM_MAX_VALUE)              \
	X(farmer_regen, 0, DOM_MAX_VALUE) X(knight_regen, 0, DOM_MAX_VALUE)                \
	X(damage_min, 1, DOM_MAX_VALUE) X(damage_max, 1, DOM_MAX_VALUE)

/* The start message's parameters, in DOM_PARAMS' order, each a u16
 * within its range. */
struct dom_msg_params {
	uint16_t rounds, rows, cols, farmers, knights, witches, farmer_health, knight_health,
		farmer_regen, knight_regen, damage_min, damage_max;
};

static inline void dom_msg_params_put(struct wire_w *w, const struct dom_msg_params *m)
{
	const uint16_t v[] = { m->rounds, m->rows, m->cols, m->farmers, m->knights, m->witches,
			       m->farmer_health, m->knight_health, m->farmer_regen,
			       m->knight_regen, m->damage_min, m->damage_max };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		wire_u16(w, v[i]);
}

static inline bool dom_msg_params_get(struct wire_r *r, struct dom_msg_params *m)
{
	return record_u16_in(r, &m->rounds, 1, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->rows, DOM_MIN_ROWS, DOM_MAX_ROWS) &&
	       record_u16_in(r, &m->cols, DOM_MIN_ROWS, DOM_MAX_ROWS) &&
	       record_u16_in(r, &m->farmers, 0, DOM_MAX_PLAYER_UNITS) &&
	       record_u16_in(r, &m->knights, 0, DOM_MAX_PLAYER_UNITS) &&
	       record_u16_in(r, &m->witches, 0, DOM_MAX_WITCHES) &&
	       record_u16_in(r, &m->farmer_health, 1, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->knight_health, 1, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->farmer_regen, 0, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->knight_regen, 0, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->damage_min, 1, DOM_MAX_VALUE) &&
	       record_u16_in(r, &m->damage_max, 1, DOM_MAX_VALUE);
}

struct dom_msg_start {
	uint8_t version, players;
	struct dom_msg_params params;
	uint64_t seed;
};

static inline size_t dom_start_encode(const struct dom_msg_start *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, m->version);
	wire_u8(&w, m->players);
	dom_msg_params_put(&w, &m->params);
	wire_u64(&w, m->seed);
	return record_length(&w);
}

static inline bool dom_start_decode(const uint8_t *buf, size_t len, struct dom_msg_start *m)
{
	struct wire_r r = wire_reader(buf, len);
	if (!record_u8_in(&r, &m->version, DOM_PROTO_VERSION, DOM_PROTO_VERSION) ||
	    !record_u8_in(&r, &m->players, DOM_PLAYERS, DOM_PLAYERS) ||
	    !dom_msg_params_get(&r, &m->params))
		return false;
	m->seed = wire_get_u64(&r);
	return wire_done(&r) && m->params.cols == m->params.rows;
}

/* ---- view ---------------------------------------------------------------- */

struct dom_msg_player {
	int32_t land;
	int64_t score;
	int32_t cpu;
};

struct dom_msg_unit {
	uint16_t id;
	uint8_t type, owner, row, col;
	uint16_t health;
};

struct dom_msg_view {
	uint16_t round, rows, cols;
	struct dom_msg_player player[DOM_PLAYERS];
	uint8_t cell[DOM_MAX_CELLS]; /* rows * cols of them */
	uint16_t nunits;
	struct dom_msg_unit unit[DOM_MAX_UNITS];
};

static inline size_t dom_view_encode(const struct dom_msg_view *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, m->round);
	wire_u16(&w, m->rows);
	wire_u16(&w, m->cols);
	for (int p = 0; p < DOM_PLAYERS; p++) {
		wire_i32(&w, m->player[p].land);
		wire_i64(&w, m->player[p].score);
		wire_i32(&w, m->player[p].cpu);
	}
	record_put_block(&w, m->cell, (size_t)m->rows * m->cols, DOM_MAX_CELLS, 1);
	wire_u16(&w, m->nunits);
	record_room(&w, m->nunits, DOM_MAX_UNITS);
	for (int k = 0; k < m->nunits && !w.overflow; k++) {
		const struct dom_msg_unit *u = &m->unit[k];
		wire_u16(&w, u->id);
		wire_u8(&w, u->type);
		wire_u8(&w, u->owner);
		wire_u8(&w, u->row);
		wire_u8(&w, u->col);
		wire_u16(&w, u->health);
	}
	return record_length(&w);
}

/* Every unit is checked, so a decoded view can be indexed without care. */
static inline bool dom_unit_get(struct wire_r *r, const struct dom_msg_view *m,
				struct dom_msg_unit *u)
{
	u->id = wire_get_u16(r);
	u->type = wire_get_u8(r);
	u->owner = wire_get_u8(r);
	u->row = wire_get_u8(r);
	u->col = wire_get_u8(r);
	u->health = wire_get_u16(r);
	return !r->bad && u->type < DOM_TYPES && u->owner < DOM_PLAYERS && u->row < m->rows &&
	       u->col < m->cols;
}

static inline bool dom_view_decode(const uint8_t *buf, size_t len, struct dom_msg_view *m)
{
	struct wire_r r = wire_reader(buf, len);
	m->round = wire_get_u16(&r);
	if (!record_u16_in(&r, &m->rows, 0, DOM_MAX_ROWS) ||
	    !record_u16_in(&r, &m->cols, 0, DOM_MAX_ROWS))
		return false;
	for (int p = 0; p < DOM_PLAYERS; p++) {
		m->player[p].land = wire_get_i32(&r);
		m->player[p].score = wire_get_i64(&r);
		m->player[p].cpu = wire_get_i32(&r);
	}
	if (!record_get_block(&r, m->cell, (size_t)m->rows * m->cols, DOM_MAX_CELLS, 1) ||
	    !record_get_count(&r, &m->nunits, DOM_MAX_UNITS))
		return false;
	for (int k = 0; k < m->nunits; k++)
		if (!dom_unit_get(&r, m, &m->unit[k]))
			return false;
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

struct dom_msg_order {
	uint16_t id;
	uint8_t dir;
};

static inline void dom_order_put(struct wire_w *w, const void *order)
{
	const struct dom_msg_order *o = order;
	wire_u16(w, o->id);
	wire_u8(w, o->dir);
}

static inline bool dom_order_get(struct wire_r *r, void *order)
{
	struct dom_msg_order *o = order;
	o->id = wire_get_u16(r);
	o->dir = wire_get_u8(r);
	return !r->bad;
}

static const struct orders_layout dom_orders = {
	sizeof(struct dom_msg_order), DOM_MAX_ORDERS, "more than 1000 orders in one round",
	DOM_ORDER_LEN, dom_order_put, dom_order_get,
};

#endif
