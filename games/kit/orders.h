/* orders.h - the orders message every game shares: a u16 count, then that
 * many records of the game's fixed layout.
 *
 * A game writes its order record (struct xx_msg_order, its length on the
 * wire, a put and a get over wire.h) and names it, with the round's
 * limit, in its orders_layout; both its engine (decode) and its kit
 * (encode) call orders_encode() and orders_decode() with it, so the two
 * sides agree by construction.  Header only, no allocation: it compiles
 * into the judge and into a static player binary alike.  A new game's
 * proto.h writes, as games/dominator/proto.h does:
 *
 *     struct xx_msg_order { uint16_t id; uint8_t dir; };
 *     #define XX_ORDER_LEN 3
 *     static inline void xx_order_put(struct wire_w *w, const void *order) ...
 *     static inline bool xx_order_get(struct wire_r *r, void *order) ...
 *     static const struct orders_layout xx_orders = { sizeof(struct
 *         xx_msg_order), XX_MAX_ORDERS, "more than 1000 orders in one round",
 *         XX_ORDER_LEN, xx_order_put, xx_order_get };
 *
 * The record's fields are plain integers: the engine judges the values.
 *
 * Limits: the encoder keeps at most max + 1 records (one past the limit,
 * enough for the engine to tell the player it broke it); the decoder
 * refuses more than max, and a length that does not match the count.
 */
#ifndef KIT_ORDERS_H
#define KIT_ORDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/wire.h"

struct orders_layout {
	size_t size;          /* sizeof the game's order struct */
	int max;              /* the most orders a round takes */
	const char *too_many; /* why a message with more is refused */
	size_t record_len;    /* bytes of one record on the wire */
	void (*put)(struct wire_w *w, const void *order);
	bool (*get)(struct wire_r *r, void *order);
};

/* Returns the length written, 0 when cap is too small. */
static inline size_t orders_encode(const struct orders_layout *l, const void *orders, size_t n,
				   uint8_t *buf, size_t cap)
{
	if (n > (size_t)l->max + 1)
		n = (size_t)l->max + 1;
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, (uint16_t)n);
	for (size_t i = 0; i < n && !w.overflow; i++)
		l->put(&w, (const uint8_t *)orders + i * l->size);
	return w.overflow ? 0 : w.len;
}

/* Decodes into out (room for l->max orders); returns the count, or -1 with
 * why set.  Field values are not judged here: each engine ignores the
 * orders it cannot follow. */
static inline int orders_decode(const struct orders_layout *l, const uint8_t *buf, size_t len,
				void *out, const char **why)
{
	struct wire_r r = wire_reader(buf, len);
	uint16_t n = wire_get_u16(&r);
	if (r.bad) {
		*why = "malformed orders message: shorter than its count";
		return -1;
	}
	if (n > l->max) {
		*why = l->too_many;
		return -1;
	}
	if (len != 2 + (size_t)n * l->record_len) {
		*why = "malformed orders message: its length does not match its count";
		return -1;
	}
	for (int i = 0; i < n; i++)
		l->get(&r, (uint8_t *)out + (size_t)i * l->size);
	return n;
}

#endif
