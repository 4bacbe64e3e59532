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
 * start (SW_START_LEN bytes)
 *   u8  version (SW_PROTO_VERSION)   u8 players (4)   u8 player (the seat, 0..3)
 *   u16 rounds, rows, cols (universe), window, ships (per player),
 *       regen_rounds, missile_bonuses, point_bonuses, bonus_missiles,
 *       bonus_points, kill_points, initial_missiles
 *   u64 seed: the player's own random seed, derived from the match seed
 *            and its seat (games/seed.h): it reveals neither
 *
 * view
 *   u16 round (rounds played so far), u16 rows, u16 cols, u16 window
 *   4 x { i64 score, i32 cpu (millionths of the budget; -1: frozen) }
 *   rows*cols x u8 cell kind (enum sw_kind), row-major
 *   u16 nships, then nships x { u8 alive, u8 row, u8 col,
 *         u16 missiles, u16 wait (rounds before it may regenerate) }
 *   Ship ids are the indices; the owner of ship i is i / ships.
 *
 * orders
 *   u16 count, then count x { u16 ship id, u8 action }
 *   action 0..8 is a move (dr + 1) * 3 + dc, dr in -1..1, dc in 0..2;
 *   SW_SHOOT (9) shoots.  More than SW_MAX_ORDERS in a round is an error,
 *   so the encoder keeps at most SW_MAX_ORDERS + 1: enough to be told.
 */
#ifndef SW_PROTO_H
#define SW_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
#include "games/kit/wire.h"

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

#define SW_DEFAULT_MOVE 4 /* (0, +1) */
#define SW_SHOOT 9
#define SW_ACTIONS 10

/* What a cell holds: one thing at most. */
enum sw_kind { SW_EMPTY, SW_ASTEROID, SW_POINT_BONUS, SW_MISSILE_BONUS, SW_SHIP, SW_MISSILE,
	       SW_KINDS };

#define SW_NPARAMS 12
#define SW_START_LEN (3 + SW_NPARAMS * 2 + 8)
#define SW_VIEW_PLAYER_LEN (8 + 4)
#define SW_VIEW_SHIP_LEN 7
#define SW_VIEW_MAX \
	(8 + SW_PLAYERS * SW_VIEW_PLAYER_LEN + SW_MAX_CELLS + 2 + SW_MAX_SHIPS * SW_VIEW_SHIP_LEN)
#define SW_ORDER_LEN 3
#define SW_ORDERS_MAX (2 + (SW_MAX_ORDERS + 1) * SW_ORDER_LEN)

struct sw_msg_params {
	uint16_t rounds, rows, cols, window, ships, regen_rounds;
	uint16_t missile_bonuses, point_bonuses, bonus_missiles, bonus_points, kill_points;
	uint16_t initial_missiles;
};

struct sw_msg_start {
	uint8_t version, players, player;
	struct sw_msg_params params;
	uint64_t seed;
};

struct sw_msg_player {
	int64_t score;
	int32_t cpu;
};

struct sw_msg_ship {
	uint8_t alive, row, col;
	uint16_t missiles, wait;
};

struct sw_msg_view {
	uint16_t round, rows, cols, window;
	struct sw_msg_player player[SW_PLAYERS];
	uint8_t cell[SW_MAX_CELLS];
	uint16_t nships;
	struct sw_msg_ship ship[SW_MAX_SHIPS];
};

struct sw_msg_order {
	uint16_t id;
	uint8_t action;
};

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

static inline void sw_params_fields(struct sw_msg_params *p, uint16_t *v[SW_NPARAMS])
{
	uint16_t *f[SW_NPARAMS] = { &p->rounds,		&p->rows,	   &p->cols,
				    &p->window,		&p->ships,	   &p->regen_rounds,
				    &p->missile_bonuses, &p->point_bonuses, &p->bonus_missiles,
				    &p->bonus_points,	&p->kill_points,   &p->initial_missiles };
	for (int i = 0; i < SW_NPARAMS; i++)
		v[i] = f[i];
}

static inline size_t sw_start_encode(const struct sw_msg_start *s, uint8_t *buf, size_t cap)
{
	struct sw_msg_params p = s->params;
	uint16_t *v[SW_NPARAMS];
	sw_params_fields(&p, v);
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, s->version);
	wire_u8(&w, s->players);
	wire_u8(&w, s->player);
	for (int i = 0; i < SW_NPARAMS; i++)
		wire_u16(&w, *v[i]);
	wire_u64(&w, s->seed);
	return w.overflow ? 0 : w.len;
}

static inline bool sw_start_decode(const uint8_t *buf, size_t len, struct sw_msg_start *s)
{
	struct wire_r r = wire_reader(buf, len);
	uint16_t *v[SW_NPARAMS];
	sw_params_fields(&s->params, v);
	s->version = wire_get_u8(&r);
	s->players = wire_get_u8(&r);
	s->player = wire_get_u8(&r);
	for (int i = 0; i < SW_NPARAMS; i++)
		*v[i] = wire_get_u16(&r);
	s->seed = wire_get_u64(&r);
	const struct sw_msg_params *p = &s->params;
	return wire_done(&r) && s->version == SW_PROTO_VERSION && s->players == SW_PLAYERS &&
	       s->player < SW_PLAYERS &&
	       p->rows >= SW_MIN_ROWS && p->rows <= SW_MAX_ROWS && p->cols >= SW_MIN_COLS &&
	       p->cols <= SW_MAX_COLS && p->window >= 1 && p->window <= p->cols &&
	       p->ships >= 1 && p->ships <= SW_MAX_PLAYER_SHIPS;
}

/* ---- view ---------------------------------------------------------------- */

static inline size_t sw_view_encode(const struct sw_msg_view *v, uint8_t *buf, size_t cap)
{
	size_t cells = (size_t)v->rows * v->cols;
	if (cells > SW_MAX_CELLS || v->nships > SW_MAX_SHIPS)
		return 0;
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, v->round);
	wire_u16(&w, v->rows);
	wire_u16(&w, v->cols);
	wire_u16(&w, v->window);
	for (int q = 0; q < SW_PLAYERS; q++) {
		wire_u64(&w, (uint64_t)v->player[q].score);
		wire_i32(&w, v->player[q].cpu);
	}
	wire_put(&w, v->cell, cells);
	wire_u16(&w, v->nships);
	for (int i = 0; i < v->nships; i++) {
		const struct sw_msg_ship *s = &v->ship[i];
		wire_u8(&w, s->alive);
		wire_u8(&w, s->row);
		wire_u8(&w, s->col);
		wire_u16(&w, s->missiles);
		wire_u16(&w, s->wait);
	}
	return w.overflow ? 0 : w.len;
}

/* Every cell and ship is checked, so a decoded view indexes safely. */
static inline bool sw_view_decode(const uint8_t *buf, size_t len, struct sw_msg_view *v)
{
	struct wire_r r = wire_reader(buf, len);
	v->round = wire_get_u16(&r);
	v->rows = wire_get_u16(&r);
	v->cols = wire_get_u16(&r);
	v->window = wire_get_u16(&r);
	if (v->rows > SW_MAX_ROWS || v->cols > SW_MAX_COLS || v->window > v->cols)
		return false;
	for (int q = 0; q < SW_PLAYERS; q++) {
		v->player[q].score = (int64_t)wire_get_u64(&r);
		v->player[q].cpu = wire_get_i32(&r);
	}
	size_t cells = (size_t)v->rows * v->cols;
	const uint8_t *c = wire_take(&r, cells);
	if (!c)
		return false;
	for (size_t i = 0; i < cells; i++) {
		if (c[i] >= SW_KINDS)
			return false;
		v->cell[i] = c[i];
	}
	v->nships = wire_get_u16(&r);
	if (v->nships > SW_MAX_SHIPS)
		return false;
	for (int i = 0; i < v->nships; i++) {
		struct sw_msg_ship *s = &v->ship[i];
		s->alive = wire_get_u8(&r);
		s->row = wire_get_u8(&r);
		s->col = wire_get_u8(&r);
		s->missiles = wire_get_u16(&r);
		s->wait = wire_get_u16(&r);
		if (s->alive > 1 || s->row >= v->rows || s->col >= v->cols)
			return false;
	}
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

/* The record of one order (games/kit/orders.h: orders_encode() and
 * orders_decode() take it). */
static const struct orders_layout sw_orders = {
	sizeof(struct sw_msg_order), SW_MAX_ORDERS, "more than 1000 orders in one round",
	{ ORDERS_FIELD(struct sw_msg_order, id), ORDERS_FIELD(struct sw_msg_order, action) }
};

#endif
