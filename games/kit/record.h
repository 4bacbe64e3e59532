/* record.h - what the games' messages share, as ordinary functions.
 *
 * Each game's proto.h writes its records out in C: the struct, its
 * encoder NAME_put(w, m), its decoder NAME_get(r, m) (false when a read
 * ran short or a check failed) and its lengths on the wire (NAME_len, its
 * bytes with counted lists and blocks empty; NAME_max, at the most), then
 * a whole message's PREFIX_encode() (the length, 0 when it does not fit)
 * and PREFIX_decode() (true when the whole message was read and every
 * check passed).  Fields travel in the order written, little-endian
 * (games/kit/wire.h).  What a game checks stands in its decoder beside the
 * field it checks; the encoder checks nothing but the room of blocks and
 * lists (the engine is trusted).  Header only, no allocation: it compiles
 * into the judge and into a static player binary alike.
 */
#ifndef KIT_RECORD_H
#define KIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/wire.h"

static inline bool record_in(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi;
}

/* A field read and checked: false when the read ran short or the value
 * lies outside lo..hi. */
static inline bool record_u8_in(struct wire_r *r, uint8_t *v, int64_t lo, int64_t hi)
{
	*v = wire_get_u8(r);
	return !r->bad && record_in(*v, lo, hi);
}

static inline bool record_u16_in(struct wire_r *r, uint16_t *v, int64_t lo, int64_t hi)
{
	*v = wire_get_u16(r);
	return !r->bad && record_in(*v, lo, hi);
}

/* A block or list longer than its array cannot be written. */
static inline void record_room(struct wire_w *w, size_t count, size_t max)
{
	if (count > max)
		w->overflow = true;
}

/* count values of size bytes at p, as they lie in memory (bytes, or a
 * struct of bytes); at most max. */
static inline void record_put_block(struct wire_w *w, const void *p, size_t count, size_t max,
				    size_t size)
{
	record_room(w, count, max);
	wire_block(w, p, count * size);
}

static inline bool record_get_block(struct wire_r *r, void *p, size_t count, size_t max,
				    size_t size)
{
	return count <= max && wire_copy(r, p, count * size);
}

/* A list's count (a u16), read and checked against the array's room. */
static inline bool record_get_count(struct wire_r *r, uint16_t *count, size_t max)
{
	*count = wire_get_u16(r);
	return !r->bad && *count <= max;
}

/* What a whole message's encoder returns: its length, 0 when it did not
 * fit. */
static inline size_t record_length(const struct wire_w *w)
{
	return w->overflow ? 0 : w->len;
}

#endif
