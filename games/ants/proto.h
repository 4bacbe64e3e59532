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
 * start (ANT_START_LEN bytes)
 *   u8 version, u8 players (4), u8 me (this player's number)
 *   u16 x ANT_NPARAMS, the parameters in the order of enum ant_param_index
 *   u64 seed: the player's own random seed, derived from the match seed
 *            and its seat (games/seed.h): it reveals neither
 *
 * view
 *   u16 round (rounds played so far), u16 rows, u16 cols
 *   4 x { i64 score, i32 ants, i32 cpu (millionths of the budget; -1 frozen) }
 *   rows*cols x u8 cell, row-major: bit 7 water, bits 0-1 bonus + 1 (0 none)
 *   u16 nants, then nants x { u16 id, u8 type, u8 player, u8 row, u8 col,
 *       u16 life, u8 carried bonus + 1 (0 none), u32 carbo, prote, lipid }
 *
 * orders
 *   u16 count, then count x { u16 ant id, u8 kind, u8 dir, u8 type }
 *   (dir used by move and lay, type by lay).  More than ANT_MAX_ORDERS is an
 *   error that freezes the player, so the encoder keeps at most
 *   ANT_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef ANT_PROTO_H
#define ANT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "games/kit/orders.h"
#include "games/kit/wire.h"

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
struct ant_msg_params {
	uint16_t v[ANT_NPARAMS];
};

#define ANT_START_LEN (3 + 2 * ANT_NPARAMS + 8)
#define ANT_VIEW_PLAYER_LEN (8 + 4 + 4)
#define ANT_VIEW_ANT_LEN 21
#define ANT_VIEW_MAX \
	(6 + ANT_PLAYERS * ANT_VIEW_PLAYER_LEN + ANT_MAX_CELLS + 2 + ANT_MAX_CELLS * ANT_VIEW_ANT_LEN)
#define ANT_ORDER_LEN 5
#define ANT_ORDERS_MAX (2 + (ANT_MAX_ORDERS + 1) * ANT_ORDER_LEN)

struct ant_msg_start {
	uint8_t version, players, me;
	struct ant_msg_params params;
	uint64_t seed;
};

struct ant_msg_player {
	int64_t score;
	int32_t ants;
	int32_t cpu;
};

struct ant_msg_ant {
	uint16_t id;
	uint8_t type, player, row, col;
	uint16_t life;
	uint8_t carried; /* bonus + 1, 0 none */
	uint32_t reserve[ANT_NUTRIENTS];
};

/* The view's fixed part, apart so that the engine can stream a view
 * without building the whole (large) struct ant_msg_view. */
struct ant_msg_head {
	uint16_t round, rows, cols;
	struct ant_msg_player player[ANT_PLAYERS];
};

/* At most one ant per cell, so ANT_MAX_CELLS ants. */
struct ant_msg_view {
	struct ant_msg_head h;
	uint8_t cell[ANT_MAX_CELLS];
	uint16_t nants;
	struct ant_msg_ant ant[ANT_MAX_CELLS];
};

struct ant_msg_order {
	uint16_t id;
	uint8_t kind, dir, type;
};

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

static inline size_t ant_start_encode(const struct ant_msg_start *s, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, s->version);
	wire_u8(&w, s->players);
	wire_u8(&w, s->me);
	for (int i = 0; i < ANT_NPARAMS; i++)
		wire_u16(&w, s->params.v[i]);
	wire_u64(&w, s->seed);
	return w.overflow ? 0 : w.len;
}

static inline bool ant_start_decode(const uint8_t *buf, size_t len, struct ant_msg_start *s)
{
	struct wire_r r = wire_reader(buf, len);
	s->version = wire_get_u8(&r);
	s->players = wire_get_u8(&r);
	s->me = wire_get_u8(&r);
	for (int i = 0; i < ANT_NPARAMS; i++)
		s->params.v[i] = wire_get_u16(&r);
	s->seed = wire_get_u64(&r);
	const uint16_t *v = s->params.v;
	/* Periods are divisors in a player's code: never zero. */
	return wire_done(&r) && s->version == ANT_PROTO_VERSION && s->players == ANT_PLAYERS &&
	       s->me < ANT_PLAYERS && v[ANT_P_ROWS] >= ANT_MIN_ROWS &&
	       v[ANT_P_ROWS] <= ANT_MAX_ROWS && v[ANT_P_COLS] >= ANT_MIN_ROWS &&
	       v[ANT_P_COLS] <= ANT_MAX_ROWS && v[ANT_P_QUEEN_PERIOD] >= 1 &&
	       v[ANT_P_BONUS_PERIOD] >= 1;
}

/* ---- view ---------------------------------------------------------------- */

static inline void ant_view_put_ant(struct wire_w *w, const struct ant_msg_ant *a)
{
	wire_u16(w, a->id);
	wire_u8(w, a->type);
	wire_u8(w, a->player);
	wire_u8(w, a->row);
	wire_u8(w, a->col);
	wire_u16(w, a->life);
	wire_u8(w, a->carried);
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		wire_u32(w, a->reserve[k]);
}

static inline void ant_view_put_head(struct wire_w *w, const struct ant_msg_head *h)
{
	wire_u16(w, h->round);
	wire_u16(w, h->rows);
	wire_u16(w, h->cols);
	for (int q = 0; q < ANT_PLAYERS; q++) {
		wire_u64(w, (uint64_t)h->player[q].score);
		wire_i32(w, h->player[q].ants);
		wire_i32(w, h->player[q].cpu);
	}
}

static inline size_t ant_view_encode(const struct ant_msg_view *v, uint8_t *buf, size_t cap)
{
	size_t cells = (size_t)v->h.rows * v->h.cols;
	if (v->h.rows > ANT_MAX_ROWS || v->h.cols > ANT_MAX_ROWS || v->nants > cells)
		return 0;
	struct wire_w w = wire_writer(buf, cap);
	ant_view_put_head(&w, &v->h);
	wire_put(&w, v->cell, cells);
	wire_u16(&w, v->nants);
	for (int i = 0; i < v->nants; i++)
		ant_view_put_ant(&w, &v->ant[i]);
	return w.overflow ? 0 : w.len;
}

static inline bool ant_view_get_ant(struct wire_r *r, const struct ant_msg_view *v,
				    struct ant_msg_ant *a)
{
	a->id = wire_get_u16(r);
	a->type = wire_get_u8(r);
	a->player = wire_get_u8(r);
	a->row = wire_get_u8(r);
	a->col = wire_get_u8(r);
	a->life = wire_get_u16(r);
	a->carried = wire_get_u8(r);
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		a->reserve[k] = wire_get_u32(r);
	return a->type < ANT_TYPES && a->player < ANT_PLAYERS && a->row < v->h.rows &&
	       a->col < v->h.cols && a->carried <= ANT_BONUSES;
}

/* Every ant is checked, so a decoded view can be indexed without care. */
static inline bool ant_view_decode(const uint8_t *buf, size_t len, struct ant_msg_view *v)
{
	struct wire_r r = wire_reader(buf, len);
	struct ant_msg_head *h = &v->h;
	h->round = wire_get_u16(&r);
	h->rows = wire_get_u16(&r);
	h->cols = wire_get_u16(&r);
	if (h->rows > ANT_MAX_ROWS || h->cols > ANT_MAX_ROWS)
		return false;
	for (int q = 0; q < ANT_PLAYERS; q++) {
		h->player[q].score = (int64_t)wire_get_u64(&r);
		h->player[q].ants = wire_get_i32(&r);
		h->player[q].cpu = wire_get_i32(&r);
	}
	size_t cells = (size_t)h->rows * h->cols;
	const uint8_t *c = wire_take(&r, cells);
	if (c)
		memcpy(v->cell, c, cells);
	v->nants = wire_get_u16(&r);
	if (v->nants > cells)
		return false;
	for (int i = 0; i < v->nants; i++)
		if (!ant_view_get_ant(&r, v, &v->ant[i]))
			return false;
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

/* The record of one order (games/kit/orders.h: orders_encode() and
 * orders_decode() take it). */
static const struct orders_layout ant_orders = {
	sizeof(struct ant_msg_order), ANT_MAX_ORDERS, "more than 1000 orders in one round",
	{ ORDERS_FIELD(struct ant_msg_order, id), ORDERS_FIELD(struct ant_msg_order, kind), ORDERS_FIELD(struct ant_msg_order, dir), ORDERS_FIELD(struct ant_msg_order, type) }
};

#endif
