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
 * Each message's fields are listed once below, in their order on the wire;
 * games/kit/record.h makes the structs, encoders and decoders from them.
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

/* Bytes on the wire, from the lists below. */
#define BZ_START_LEN bz_msg_start_len
#define BZ_SITE_LEN bz_site_len
#define BZ_VIEW_HEAD bz_msg_view_len
#define BZ_VIEW_MAX bz_msg_view_max
#define BZ_ORDER_LEN bz_msg_order_len
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

#define BZ_START(X) \
	X(is, u8, version, BZ_PROTO_VERSION) X(range, u8, players, BZ_MIN_PLAYERS, BZ_MAX_PLAYERS) \
	X(range, u8, tag, 1, m->players) X(range, u16, width, BZ_MIN_SIDE, BZ_MAX_SIDE) \
	X(range, u16, height, BZ_MIN_SIDE, BZ_MAX_SIDE) X(u16, turns) X(u16, fog) X(u64, seed)
RECORD_MESSAGE(bz_msg_start, BZ_START, bz_start, true)

/* ---- view ---------------------------------------------------------------- */

#define BZ_SITE(X) X(u8, owner) X(u8, strength) X(u8, production)
RECORD(bz_site, BZ_SITE)

/* The sites go as they lie in struct bz_msg_view: one memcpy each way. */
_Static_assert(sizeof(struct bz_site) == BZ_SITE_LEN, "a site is its three bytes on the wire");

#define BZ_VIEW(X) \
	X(u16, turn) X(range, u16, width, BZ_MIN_SIDE, BZ_MAX_SIDE) \
	X(range, u16, height, BZ_MIN_SIDE, BZ_MAX_SIDE) \
	X(block, struct bz_site, site, BZ_MAX_SITES, (size_t)m->width * m->height, true)
RECORD_MESSAGE(bz_msg_view, BZ_VIEW, bz_msg_view, true)

static inline size_t bz_view_encode(const struct bz_msg_view *v, uint8_t *buf, size_t cap)
{
	return bz_msg_view_encode(v, buf, cap);
}

/* Owners are checked against the players, so a decoded view indexes
 * safely. */
static inline bool bz_view_decode(const uint8_t *buf, size_t len, int players,
				  struct bz_msg_view *v)
{
	if (!bz_msg_view_decode(buf, len, v))
		return false;
	for (int i = 0; i < v->width * v->height; i++)
		if (v->site[i].owner > players)
			return false;
	return true;
}

/* ---- orders -------------------------------------------------------------- */

#define BZ_ORDER(X) X(u16, site) X(u8, dir)
ORDERS_RECORD(bz_orders, bz_msg_order, BZ_ORDER, BZ_MAX_ORDERS,
	      "more orders in one round than the largest map has sites");

#endif
