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
 * start (BZ_START_LEN bytes)
 *   u8  version (BZ_PROTO_VERSION)  u8 players  u8 tag (yours, 1..players)
 *   u16 width, height, turns (the turn limit), fog (radius; 0: no fog)
 *   u64 seed: the player's own random seed (match seed + tag)
 *
 * view (each turn; the first is the initial map, which the kit hands to
 * the player's init() before its first play())
 *   u16 turn (turns played so far), u16 width, u16 height
 *   width*height x { u8 owner, u8 strength, u8 production }, row-major;
 *   a fogged site is owner 0, strength 0, production 0
 *
 * orders
 *   u16 count, then count x { u16 site, u8 direction (0 STILL, 1 NORTH,
 *   2 EAST, 3 SOUTH, 4 WEST) }.  More orders in a round than the map has
 *   sites is an error that ejects the player, so the encoder keeps at most
 *   BZ_MAX_ORDERS + 1 of them: enough to be told.
 */
#ifndef BZ_PROTO_H
#define BZ_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "games/kit/orders.h"
#include "games/kit/wire.h"

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

#define BZ_START_LEN (3 + 4 * 2 + 8)
#define BZ_SITE_LEN 3
#define BZ_VIEW_HEAD 6
#define BZ_VIEW_MAX (BZ_VIEW_HEAD + BZ_MAX_SITES * BZ_SITE_LEN)
#define BZ_ORDER_LEN 3
#define BZ_ORDERS_MAX (2 + (BZ_MAX_ORDERS + 1) * BZ_ORDER_LEN)

struct bz_msg_start {
	uint8_t version, players, tag;
	uint16_t width, height, turns, fog;
	uint64_t seed;
};

struct bz_site {
	uint8_t owner, strength, production;
};

struct bz_msg_view {
	uint16_t turn, width, height;
	struct bz_site site[BZ_MAX_SITES];
};

struct bz_msg_order {
	uint16_t site;
	uint8_t dir;
};

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

static inline size_t bz_start_encode(const struct bz_msg_start *s, uint8_t *buf, size_t cap)
{
	struct wire_w w = wire_writer(buf, cap);
	wire_u8(&w, s->version);
	wire_u8(&w, s->players);
	wire_u8(&w, s->tag);
	wire_u16(&w, s->width);
	wire_u16(&w, s->height);
	wire_u16(&w, s->turns);
	wire_u16(&w, s->fog);
	wire_u64(&w, s->seed);
	return w.overflow ? 0 : w.len;
}

static inline bool bz_start_decode(const uint8_t *buf, size_t len, struct bz_msg_start *s)
{
	struct wire_r r = wire_reader(buf, len);
	s->version = wire_get_u8(&r);
	s->players = wire_get_u8(&r);
	s->tag = wire_get_u8(&r);
	s->width = wire_get_u16(&r);
	s->height = wire_get_u16(&r);
	s->turns = wire_get_u16(&r);
	s->fog = wire_get_u16(&r);
	s->seed = wire_get_u64(&r);
	return wire_done(&r) && s->version == BZ_PROTO_VERSION && s->players >= BZ_MIN_PLAYERS &&
	       s->players <= BZ_MAX_PLAYERS && s->tag >= 1 && s->tag <= s->players &&
	       s->width >= BZ_MIN_SIDE && s->width <= BZ_MAX_SIDE && s->height >= BZ_MIN_SIDE &&
	       s->height <= BZ_MAX_SIDE;
}

/* ---- view ---------------------------------------------------------------- */

/* The sites go as they lie in struct bz_msg_view: one memcpy each way. */
_Static_assert(sizeof(struct bz_site) == BZ_SITE_LEN, "a site is its three bytes on the wire");

static inline size_t bz_view_encode(const struct bz_msg_view *v, uint8_t *buf, size_t cap)
{
	size_t sites = (size_t)v->width * v->height;
	if (sites > BZ_MAX_SITES)
		return 0;
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, v->turn);
	wire_u16(&w, v->width);
	wire_u16(&w, v->height);
	wire_block(&w, v->site, sites * BZ_SITE_LEN);
	return w.overflow ? 0 : w.len;
}

/* Owners are checked against the players, so a decoded view indexes
 * safely. */
static inline bool bz_view_decode(const uint8_t *buf, size_t len, int players,
				  struct bz_msg_view *v)
{
	struct wire_r r = wire_reader(buf, len);
	v->turn = wire_get_u16(&r);
	v->width = wire_get_u16(&r);
	v->height = wire_get_u16(&r);
	if (v->width < BZ_MIN_SIDE || v->width > BZ_MAX_SIDE || v->height < BZ_MIN_SIDE ||
	    v->height > BZ_MAX_SIDE)
		return false;
	size_t sites = (size_t)v->width * v->height;
	const uint8_t *p = wire_take(&r, sites * BZ_SITE_LEN);
	if (!p)
		return false;
	memcpy(v->site, p, sites * BZ_SITE_LEN);
	for (size_t i = 0; i < sites; i++)
		if (v->site[i].owner > players)
			return false;
	return wire_done(&r);
}

/* ---- orders -------------------------------------------------------------- */

/* The record of one order (games/kit/orders.h: orders_encode() and
 * orders_decode() take it). */
static const struct orders_layout bz_orders = {
	sizeof(struct bz_msg_order), BZ_MAX_ORDERS, "more orders in one round than the largest map has sites",
	{ ORDERS_FIELD(struct bz_msg_order, site), ORDERS_FIELD(struct bz_msg_order, dir) }
};

#endif
