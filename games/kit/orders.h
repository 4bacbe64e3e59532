/* orders.h - the orders message every game shares: a u16 count, then that
 * many records of the game's fixed layout (unsigned little-endian fields).
 *
 * A game describes its record once, as a struct orders_layout (which
 * members of its C struct go on the wire, in what order; each at its own
 * size), and both its engine (decode) and its kit (encode) call
 * orders_encode() and orders_decode() with it, so the two sides agree by
 * construction.  Header only, no allocation: it compiles into the judge
 * and into a static player binary alike.  A new game's proto.h writes:
 *
 *     static const struct orders_layout xx_orders = {
 *             sizeof(struct xx_msg_order), XX_MAX_ORDERS,
 *             "more than 1000 orders in one round",
 *             { ORDERS_FIELD(struct xx_msg_order, id),
 *               ORDERS_FIELD(struct xx_msg_order, dir) } };
 *
 * Limits: the encoder keeps at most max + 1 records (one past the limit,
 * enough for the engine to tell the player it broke it); the decoder
 * refuses more than max, and a length that does not match the count.
 */
#ifndef KIT_ORDERS_H
#define KIT_ORDERS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "games/kit/wire.h"

#define ORDERS_MAX_FIELDS 6

struct orders_field {
	uint8_t offset; /* in the C struct */
	uint8_t bytes;  /* 1, 2 or 4: the member's size, the same on the wire */
};

struct orders_layout {
	size_t size;          /* sizeof the game's order struct */
	int max;              /* the most orders a round takes */
	const char *too_many; /* why a message with more is refused */
	struct orders_field field[ORDERS_MAX_FIELDS]; /* ends at bytes == 0 */
};

/* One field of a layout: the struct's member, at its own size. */
#define ORDERS_FIELD(type, member) { offsetof(type, member), sizeof(((type *)0)->member) }

/* Bytes of one record on the wire. */
static inline size_t orders_record_len(const struct orders_layout *l)
{
	size_t n = 0;
	for (int f = 0; f < ORDERS_MAX_FIELDS && l->field[f].bytes; f++)
		n += l->field[f].bytes;
	return n;
}

/* One field between the C struct and the wire, by its size. */
static inline void orders_put_field(struct wire_w *w, const uint8_t *p, int bytes)
{
	uint16_t v16;
	uint32_t v32;
	switch (bytes) {
	case 1: wire_u8(w, *p); break;
	case 2: memcpy(&v16, p, 2), wire_u16(w, v16); break;
	default: memcpy(&v32, p, 4), wire_u32(w, v32); break;
	}
}

static inline void orders_get_field(struct wire_r *r, uint8_t *p, int bytes)
{
	uint16_t v16;
	uint32_t v32;
	switch (bytes) {
	case 1: *p = wire_get_u8(r); break;
	case 2: v16 = wire_get_u16(r), memcpy(p, &v16, 2); break;
	default: v32 = wire_get_u32(r), memcpy(p, &v32, 4); break;
	}
}

/* Returns the length written, 0 when cap is too small. */
static inline size_t orders_encode(const struct orders_layout *l, const void *orders, size_t n,
				   uint8_t *buf, size_t cap)
{
	if (n > (size_t)l->max + 1)
		n = (size_t)l->max + 1;
	struct wire_w w = wire_writer(buf, cap);
	wire_u16(&w, (uint16_t)n);
	for (size_t i = 0; i < n && !w.overflow; i++) {
		const uint8_t *rec = (const uint8_t *)orders + i * l->size;
		for (int f = 0; f < ORDERS_MAX_FIELDS && l->field[f].bytes; f++)
			orders_put_field(&w, rec + l->field[f].offset, l->field[f].bytes);
	}
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
	if (len != 2 + (size_t)n * orders_record_len(l)) {
		*why = "malformed orders message: its length does not match its count";
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uint8_t *rec = (uint8_t *)out + (size_t)i * l->size;
		for (int f = 0; f < ORDERS_MAX_FIELDS && l->field[f].bytes; f++)
			orders_get_field(&r, rec + l->field[f].offset, l->field[f].bytes);
	}
	return n;
}

#endif
