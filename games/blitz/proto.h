/* proto.h - the bytes of Blitz2018's messages, for the judge and the kit,
 * and the wrapped map's geometry both sides share.
 *
 * Promises: one encoder and one decoder per message, shared by the engine
 * (encodes start and view, decodes orders) and the player kit (decodes
 * start and view, encodes orders).  Header only, no allocation, no
 * jansson.  Decoders never read out of bounds and reject any message whose
 * length or fields do not add up.  Integers are little-endian
 * (games/kit/wire.h).
 *
 * Players are tagged 1..players as in Halite; owner 0 is the map (neutral).
 * Sites are numbered y * width + x, (0, 0) the north-west corner.
 *
 * Each record is written out below in its order on the wire: its struct,
 * its put and its get (with the checks), its length (games/kit/record.h).
 *
 * start: version, players, tag (yours, 1..players), the map's width and
 *   height, the turn limit, the fog's radius (0: no fog), then the
 *   player's own random seed (match seed + tag).
 *
 * view (each turn; the first is the initial map, which the kit hands to
 *   the player's init() before its first play()): the turns played so far,
 *   the map's size, then width*height sites, row-major; a fogged site is
 *   owner 0, strength 0, production 0.
 *
 * orders: u16 count, then count x { site, direction (0 STILL, 1 NORTH,
 *   2 EAST, 3 SOUTH, 4 WEST) }.  More orders in a round than the map has
 *   sites is an error that ejects the player, so the encoder keeps at most
 *   BZ_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef BZ_PROTO_H
#define BZ_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/orders.h"
#include "games/kit/record.h"

#define BZ_PROTO_VERSION 1
#define BZ_MIN_PLAYERS 2
#define BZ_MAX_PLAYERS 6
#define BZ_DEFAULT_PLAYERS 2
#define BZ_MIN_SIDE 3
#define BZ_MAX_SIDE 64
#define BZ_MAX_SITES (BZ_MAX_SIDE * BZ_MAX_SIDE)
/* One order per site at most: a player moves each of its pieces once. */
#define BZ_MAX_ORDERS BZ_MAX_SITES
#define BZ_MAX_STRENGTH 255
#define BZ_MAX_FOG 255

enum bz_dir { BZ_STILL, BZ_NORTH, BZ_EAST, BZ_SOUTH, BZ_WEST, BZ_DIRS };

/* Bytes on the wire of the records below. */
#define BZ_START_LEN (1 + 1 + 1 + 2 + 2 + 2 + 2 + 8)
#define BZ_SITE_LEN 3
#define BZ_VIEW_HEAD (2 + 2 + 2)
#define BZ_VIEW_MAX (2 + 2 + 2 + BZ_MAX_SITES * BZ_SITE_LEN)
#define BZ_ORDER_LEN (2 + 1)
#define BZ_ORDERS_MAX (2 + (BZ_MAX_ORDERS + 1) * BZ_ORDER_LEN)

/* ---- the wrapped map ----------------------------------------------------- */

/* The site one step from site s in direction d (STILL: s itself). */
static inline int bz_step(int width, int height, int s, int d)
{
	int x = s % width, y = s / width;
	switch (d) {
	case BZ_NORTH: y = y == 0 ? height - 1 : y - 1; break;
	case BZ_EAST: x = x == width - 1 ? 0 : x + 1; break;
	case BZ_SOUTH: y = y == height - 1 ? 0 : y + 1; break;
	case BZ_WEST: x = x == 0 ? width - 1 : x - 1; break;
	default: break;
	}
	return y * width + x;
}

/* The shorter way between two coordinates on a ring of n. */
static inline int bz_ring_gap(int a, int b, int n)
{
	int d = a > b ? a - b : b - a;
	return d < n - d ? d : n - d;
}

/* Squared Euclidean distance between two sites, the map wrapping. */
static inline int bz_dist2(int width, int height, int s, int t)
{
	int dx = bz_ring_gap(s % width, t % width, width);
	int dy = bz_ring_gap(s / width, t / width, height);
	return dx * dx + dy * dy;
}

/* ---- the fog ------------------------------------------------------------ */

/* True when radius r is no fog: 0, or reaching the farthest site. */
static inline bool bz_fog_off(int width, int height, int r)
{
	int hw = width / 2, hh = height / 2;
	return r == 0 || r * r >= hw * hw + hh * hh;
}

/* Marks every site within Euclidean distance r of site s, wrapping. */
static inline void bz_mark_disc(int width, int height, int s, int r, bool *seen)
{
	int x0 = s % width, y0 = s / width;
	/* Beyond half the map a step reaches a site nearer the other way. */
	int ry = r < height / 2 ? r : height / 2, rx = r < width / 2 ? r : width / 2;
	for (int dy = -ry; dy <= ry; dy++) {
		int y = ((y0 + dy) % height + height) % height;
		for (int dx = -rx; dx <= rx; dx++)
			if (dx * dx + dy * dy <= r * r)
				seen[y * width + ((x0 + dx) % width + width) % width] = true;
	}
}

/* ---- start --------------------------------------------------------------- */

struct bz_msg_start {
	uint8_t version, players, tag;
	uint16_t width, height, turns, fog;
	uint64_t seed;
};

static inline size_t bz_start_encode(const struct bz_msg_start *m, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, m->version);
	wire_u8(&w, m->players);
	wire_u8(&w, m->tag);
	wire_u16(&w, m->width);
	wire_u16(&w, m->height);
	wire_u16(&w, m->turns);
	wire_u16(&w, m->fog);
	wire_u64(&w, m->seed);
	return record_length(&w);
}

static inline bool bz_start_decode(const uint8_t *buf, size_t len, struct bz_msg_start *m)
{
	struct wire_r r = wire_reader(buf, len);
	if (!record_u8_in(&r, &m->version, BZ_PROTO_VERSION, BZ_PROTO_VERSION) ||
	    !record_u8_in(&r, &m->players, BZ_MIN_PLAYERS, BZ_MAX_PLAYERS) ||
	    !record_u8_in(&r, &m->tag, 1, m->players) ||
	    !record_u16_in(&r, &m->width, BZ_MIN_SIDE, BZ_MAX_SIDE) ||
	    !record_u16_in(&r, &m->height, BZ_MIN_SIDE, BZ_MAX_SIDE))
		return false;
	m->turns = wire_get_u16(&r);
	m->fog = wire_get_u16(&r);
	m->seed = wire_get_u64(&r);
	return wire_done(&r);
}

/* ---- view ---------------------------------------------------------------- */

struct bz_site {
	uint8_t owner, strength, production;
};

/* The sites go as they lie in struct bz_msg_view: one memcpy each way. */
_Static_assert(sizeof(struct bz_site) == BZ_SITE_LEN, "a site is its three bytes on the wire");

struct bz_msg_view {
	uint16_t turn, width, height;
	struct bz_site site[BZ_MAX_SITES]; /* width * height of them */
};

static inline size_t bz_view_encode(const struct bz_msg_view *v, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, v->turn);
	wire_u16(&w, v->width);
	wire_u16(&w, v->height);
	record_put_block(&w, v->site, (size_t)v->width * v->height, BZ_MAX_SITES, BZ_SITE_LEN);
	return record_length(&w);
}

/* Owners are checked against the players, so a decoded view indexes
 * safely. */
static inline bool bz_view_decode(const uint8_t *buf, size_t len, int players,
				  struct bz_msg_view *v)
{
	struct wire_r r = wire_reader(buf, len);
	v->turn = wire_get_u16(&r);
	if (!record_u16_in(&r, &v->width, BZ_MIN_SIDE, BZ_MAX_SIDE) ||
	    !record_u16_in(&r, &v->height, BZ_MIN_SIDE, BZ_MAX_SIDE) ||
	    !record_get_block(&r, v->site, (size_t)v->width * v->height, BZ_MAX_SITES,
			      BZ_SITE_LEN) ||
	    !wire_done(&r))
		return false;
	for (int i = 0; i < v->width * v->height; i++)
		if (v->site[i].owner > players)
			return false;
	return true;
}

/* ---- orders -------------------------------------------------------------- */

struct bz_msg_order {
	uint16_t site;
	uint8_t dir;
};

static inline void bz_order_put(struct wire_w *w, const void *order)
{
	const struct bz_msg_order *o = order;
	wire_u16(w, o->site);
	wire_u8(w, o->dir);
}

static inline bool bz_order_get(struct wire_r *r, void *order)
{
	struct bz_msg_order *o = order;
	o->site = wire_get_u16(r);
	o->dir = wire_get_u8(r);
	return !r->bad;
}

static const struct orders_layout bz_orders = {
	sizeof(struct bz_msg_order), BZ_MAX_ORDERS,
	"more orders in one round than the largest map has sites", BZ_ORDER_LEN, bz_order_put,
	bz_order_get,
};

#endif
