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
 * start (DOM_START_LEN bytes)
 *   u8  version (DOM_PROTO_VERSION)   u8 players (4)
 *   u16 rounds, rows, cols, farmers, knights, witches,
 *       farmer_health, knight_health, farmer_regen, knight_regen,
 *       damage_min, damage_max
 *   u64 seed: the player's own random seed, derived from the match seed
 *            and its seat (games/seed.h): it reveals neither
 *
 * view
 *   u16 round (rounds played so far), u16 rows, u16 cols
 *   4 x { i32 land (cells of its colour), i64 score (total so far),
 *         i32 cpu (share of the CPU budget used, in millionths; -1: frozen) }
 *   rows*cols x u8 cell, row-major: bit 7 wall, bit 6 haunted,
 *         bits 0-2 owner + 1 (0: nobody)
 *   u16 nunits, then nunits x { u16 id, u8 type (0 farmer, 1 knight,
 *         2 witch), u8 owner, u8 row, u8 col, u16 health (0 for witches) }
 *
 * orders
 *   u16 count, then count x { u16 unit id, u8 direction (0..8) }
 *   More than DOM_MAX_ORDERS is an error that freezes the player, so the
 *   encoder keeps at most DOM_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef DOM_PROTO_H
#define DOM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
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

#define DOM_START_LEN (2 + 12 * 2 + 8)
#define DOM_VIEW_PLAYER_LEN (4 + 8 + 4)
#define DOM_VIEW_UNIT_LEN 8
#define DOM_VIEW_MAX \
	(6 + DOM_PLAYERS * DOM_VIEW_PLAYER_LEN + DOM_MAX_CELLS + 2 + DOM_MAX_UNITS * DOM_VIEW_UNIT_LEN)
#define DOM_ORDER_LEN 3
#define DOM_ORDERS_MAX (2 + (DOM_MAX_ORDERS + 1) * DOM_ORDER_LEN)

struct dom_msg_params {
	uint16_t rounds, rows, cols;
	uint16_t farmers, knights, witches;
	uint16_t farmer_health, knight_health;
	uint16_t farmer_regen, knight_regen;
	uint16_t damage_min, damage_max;
};

struct dom_msg_start {
	uint8_t version, players;
	struct dom_msg_params params;
	uint64_t seed;
};

struct dom_msg_player {
	int32_t land;
	int64_t score;
	int32_t cpu; /* millionths of the budget, -1 when frozen */
};

struct dom_msg_unit {
	uint16_t id;
	uint8_t type, owner, row, col;
	uint16_t health;
};

struct dom_msg_view {
	uint16_t round, rows, cols;
	struct dom_msg_player player[DOM_PLAYERS];
	uint8_t cell[DOM_MAX_CELLS];
	uint16_t nunits;
	struct dom_msg_unit unit[DOM_MAX_UNITS];
};

struct dom_msg_order {
	uint16_t id;
	uint8_t dir;
};

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

static inline void dom_params_put(struct wire_w *w, const struct dom_msg_params *p)
{
	const uint16_t v[12] = { p->rounds,	   p->rows,	     p->cols,
				 p->farmers,	   p->knights,	     p->witches,
				 p->farmer_health, p->knight_health, p->farmer_regen,
				 p->knight_regen,  p->damage_min,    p->damage_max };
	for (int i = 0; i < 12; i++)
		wire_u16(w, v[i]);
}

static inline void dom_params_get(struct wire_r *r, struct dom_msg_params *p)
{
	uint16_t *v[12] = { &p->rounds,	       &p->rows,	  &p->cols,
			    &p->farmers,       &p->knights,	  &p->witches,
			    &p->farmer_health, &p->knight_health, &p->farmer_regen,
			    &p->knight_regen,  &p->damage_min,	  &p->damage_max };
	for (int i = 0; i < 12; i++)
		*v[i] = wire_get_u16(r);
}

/* Returns the length written, 0 when cap is too small. */
static inline size_t dom_start_encode(const struct dom_msg_start *s, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, s->version);
	wire_u8(&w, s->players);
	dom_params_put(&w, &s->params);
	wire_u64(&w, s->seed);
	return w.overflow ? 0 : w.len;
}

static inline bool dom_start_decode(const uint8_t *buf, size_t len, struct dom_msg_start *s)
{
	struct wire_r r = wire_reader(buf, len);
	s->version = wire_get_u8(&r);
	s->players = wire_get_u8(&r);
	dom_params_get(&r, &s->params);
	s->seed = wire_get_u64(&r);
	const struct dom_msg_params *p = &s->params;
	return wire_done(&r) && s->version == DOM_PROTO_VERSION && s->players == DOM_PLAYERS &&
	       p->rows == p->cols && p->rows >= DOM_MIN_ROWS && p->rows <= DOM_MAX_ROWS;
}

/* ---- view ---------------------------------------------------------------- */

static inline size_t dom_view_encode(const struct dom_msg_view *v, uint8_t *buf, size_t cap)
{
	size_t cells = (size_t)v->rows * v->cols;
	if (cells > DOM_MAX_CELLS || v->nunits > DOM_MAX_UNITS)
		return 0;
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, v->round);
	wire_u16(&w, v->rows);
	wire_u16(&w, v->cols);
	for (int q = 0; q < DOM_PLAYERS; q++) {
		wire_i32(&w, v->player[q].land);
		wire_u64(&w, (uint64_t)v->player[q].score);
		wire_i32(&w, v->player[q].cpu);
	}
	wire_put(&w, v->cell, cells);
	wire_u16(&w, v->nunits);
	for (int i = 0; i < v->nunits; i++) {
		const struct dom_msg_unit *u = &v->unit[i];
		wire_u16(&w, u->id);
		wire_u8(&w, u->type);
		wire_u8(&w, u->owner);
		wire_u8(&w, u->row);
		wire_u8(&w, u->col);
		wire_u16(&w, u->health);
	}
	return w.overflow ? 0 : w.len;
}

static inline bool dom_view_unit_ok(const struct dom_msg_view *v, const struct dom_msg_unit *u)
{
	return u->type < DOM_TYPES && u->owner < DOM_PLAYERS && u->row < v->rows &&
	       u->col < v->cols;
}

/* Every unit is checked, so a decoded view can be indexed without care. */
static inline bool dom_view_decode(const uint8_t *buf, size_t len, struct dom_msg_view *v)
{
	struct wire_r r = wire_reader(buf, len);
	v->round = wire_get_u16(&r);
	v->rows = wire_get_u16(&r);
	v->cols = wire_get_u16(&r);
	if (v->rows > DOM_MAX_ROWS || v->cols > DOM_MAX_ROWS)
		return false;
	for (int q = 0; q < DOM_PLAYERS; q++) {
		v->player[q].land = wire_get_i32(&r);
		v->player[q].score = (int64_t)wire_get_u64(&r);
		v->player[q].cpu = wire_get_i32(&r);
	}
	size_t cells = (size_t)v->rows * v->cols;
	const uint8_t *c = wire_take(&r, cells);
	if (c)
		memcpy(v->cell, c, cells);
	v->nunits = wire_get_u16(&r);
	if (v->nunits > DOM_MAX_UNITS)
		return false;
	for (int i = 0; i < v->nunits; i++) {
		struct dom_msg_unit *u = &v->unit[i];
		u->id = wire_get_u16(&r);
		u->type = wire_get_u8(&r);
		u->owner = wire_get_u8(&r);
		u->row = wire_get_u8(&r);
		u->col = wire_get_u8(&r);
		u->health = wire_get_u16(&r);
		if (!dom_view_unit_ok(v, u))
			return false;
	}
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

/* The record of one order (games/kit/orders.h: orders_encode() and
 * orders_decode() take it). */
static const struct orders_layout dom_orders = {
	sizeof(struct dom_msg_order), DOM_MAX_ORDERS, "more than 1000 orders in one round",
	{ ORDERS_FIELD(struct dom_msg_order, id), ORDERS_FIELD(struct dom_msg_order, dir) }
};

#endif
