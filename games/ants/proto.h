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
 * Each record is written out below in its order on the wire: its struct,
 * its put and its get (with the checks), its length (games/kit/record.h).
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

/* Bytes on the wire of the records below. */
#define ANT_START_LEN (1 + 1 + 1 + ANT_NPARAMS * 2 + 8)
#define ANT_VIEW_PLAYER_LEN (8 + 4 + 4)
#define ANT_VIEW_ANT_LEN (2 + 1 + 1 + 1 + 1 + 2 + 1 + ANT_NUTRIENTS * 4)
#define ANT_VIEW_HEAD_LEN (2 + 2 + 2 + ANT_PLAYERS * ANT_VIEW_PLAYER_LEN)
#define ANT_VIEW_MAX (ANT_VIEW_HEAD_LEN + ANT_MAX_CELLS + 2 + ANT_MAX_CELLS * ANT_VIEW_ANT_LEN)
#define ANT_ORDER_LEN (2 + 1 + 1 + 1)
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

struct ant_msg_params {
	uint16_t v[ANT_NPARAMS]; /* enum ant_param_index */
};

/* Periods are divisors in a player's code: never zero. */
static inline bool ant_params_ok(const uint16_t *v)
{
	return record_in(v[ANT_P_ROWS], ANT_MIN_ROWS, ANT_MAX_ROWS) &&
	       record_in(v[ANT_P_COLS], ANT_MIN_ROWS, ANT_MAX_ROWS) && v[ANT_P_QUEEN_PERIOD] >= 1 &&
	       v[ANT_P_BONUS_PERIOD] >= 1;
}

struct ant_msg_start {
	uint8_t version, players, me;
	struct ant_msg_params params;
	uint64_t seed;
};

static inline size_t ant_start_encode(const struct ant_msg_start *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, m->version);
	wire_u8(&w, m->players);
	wire_u8(&w, m->me);
	for (int i = 0; i < ANT_NPARAMS; i++)
		wire_u16(&w, m->params.v[i]);
	wire_u64(&w, m->seed);
	return record_length(&w);
}

static inline bool ant_start_decode(const uint8_t *buf, size_t len, struct ant_msg_start *m)
{
	struct wire_r r = wire_reader(buf, len);
	if (!record_u8_in(&r, &m->version, ANT_PROTO_VERSION, ANT_PROTO_VERSION) ||
	    !record_u8_in(&r, &m->players, ANT_PLAYERS, ANT_PLAYERS) ||
	    !record_u8_in(&r, &m->me, 0, ANT_PLAYERS - 1))
		return false;
	for (int i = 0; i < ANT_NPARAMS; i++)
		m->params.v[i] = wire_get_u16(&r);
	m->seed = wire_get_u64(&r);
	return wire_done(&r) && ant_params_ok(m->params.v);
}

/* ---- view ---------------------------------------------------------------- */

struct ant_msg_player {
	int64_t score;
	int32_t ants, cpu;
};

struct ant_msg_ant {
	uint16_t id;
	uint8_t type, player, row, col;
	uint16_t life;
	uint8_t carried;
	uint32_t reserve[ANT_NUTRIENTS];
};

/* The view's fixed part, apart so that the engine can stream a view
 * without building the whole (large) struct ant_msg_view. */
struct ant_msg_head {
	uint16_t round, rows, cols;
	struct ant_msg_player player[ANT_PLAYERS];
};

static inline void ant_msg_head_put(struct wire_w *w, const struct ant_msg_head *h)
{
	wire_u16(w, h->round);
	wire_u16(w, h->rows);
	wire_u16(w, h->cols);
	for (int p = 0; p < ANT_PLAYERS; p++) {
		wire_i64(w, h->player[p].score);
		wire_i32(w, h->player[p].ants);
		wire_i32(w, h->player[p].cpu);
	}
}

static inline bool ant_msg_head_get(struct wire_r *r, struct ant_msg_head *h)
{
	h->round = wire_get_u16(r);
	if (!record_u16_in(r, &h->rows, 0, ANT_MAX_ROWS) ||
	    !record_u16_in(r, &h->cols, 0, ANT_MAX_ROWS))
		return false;
	for (int p = 0; p < ANT_PLAYERS; p++) {
		h->player[p].score = wire_get_i64(r);
		h->player[p].ants = wire_get_i32(r);
		h->player[p].cpu = wire_get_i32(r);
	}
	return !r->bad;
}

static inline void ant_msg_ant_put(struct wire_w *w, const struct ant_msg_ant *a)
{
	wire_u16(w, a->id);
	wire_u8(w, a->type);
	wire_u8(w, a->player);
	wire_u8(w, a->row);
	wire_u8(w, a->col);
	wire_u16(w, a->life);
	wire_u8(w, a->carried);
	for (int n = 0; n < ANT_NUTRIENTS; n++)
		wire_u32(w, a->reserve[n]);
}

/* At most one ant per cell.  Every ant is checked, so a decoded view can
 * be indexed without care. */
struct ant_msg_view {
	struct ant_msg_head h;
	uint8_t cell[ANT_MAX_CELLS]; /* rows * cols of them */
	uint16_t nants;
	struct ant_msg_ant ant[ANT_MAX_CELLS];
};

static inline bool ant_msg_ant_get(struct wire_r *r, const struct ant_msg_head *h,
				   struct ant_msg_ant *a)
{
	a->id = wire_get_u16(r);
	a->type = wire_get_u8(r);
	a->player = wire_get_u8(r);
	a->row = wire_get_u8(r);
	a->col = wire_get_u8(r);
	a->life = wire_get_u16(r);
	a->carried = wire_get_u8(r);
	for (int n = 0; n < ANT_NUTRIENTS; n++)
		a->reserve[n] = wire_get_u32(r);
	return !r->bad && a->type < ANT_TYPES && a->player < ANT_PLAYERS && a->row < h->rows &&
	       a->col < h->cols && a->carried <= ANT_BONUSES;
}

static inline size_t ant_view_encode(const struct ant_msg_view *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	ant_msg_head_put(&w, &m->h);
	record_put_block(&w, m->cell, (size_t)m->h.rows * m->h.cols, ANT_MAX_CELLS, 1);
	wire_u16(&w, m->nants);
	record_room(&w, m->nants, ANT_MAX_CELLS);
	for (int k = 0; k < m->nants && !w.overflow; k++)
		ant_msg_ant_put(&w, &m->ant[k]);
	return record_length(&w);
}

static inline bool ant_view_decode(const uint8_t *buf, size_t len, struct ant_msg_view *m)
{
	struct wire_r r = wire_reader(buf, len);
	if (!ant_msg_head_get(&r, &m->h) ||
	    !record_get_block(&r, m->cell, (size_t)m->h.rows * m->h.cols, ANT_MAX_CELLS, 1) ||
	    !record_get_count(&r, &m->nants, ANT_MAX_CELLS))
		return false;
	for (int k = 0; k < m->nants; k++)
		if (!ant_msg_ant_get(&r, &m->h, &m->ant[k]))
			return false;
	return wire_done(&r) && m->nants <= (size_t)m->h.rows * m->h.cols;
}

/* ---- orders -------------------------------------------------------------- */

struct ant_msg_order {
	uint16_t id;
	uint8_t kind, dir, type;
};

static inline void ant_order_put(struct wire_w *w, const void *order)
{
	const struct ant_msg_order *o = order;
	wire_u16(w, o->id);
	wire_u8(w, o->kind);
	wire_u8(w, o->dir);
	wire_u8(w, o->type);
}

static inline bool ant_order_get(struct wire_r *r, void *order)
{
	struct ant_msg_order *o = order;
	o->id = wire_get_u16(r);
	o->kind = wire_get_u8(r);
	o->dir = wire_get_u8(r);
	o->type = wire_get_u8(r);
	return !r->bad;
}

static const struct orders_layout ant_orders = {
	sizeof(struct ant_msg_order), ANT_MAX_ORDERS, "more than 1000 orders in one round",
	ANT_ORDER_LEN, ant_order_put, ant_order_get,
};

#endif
