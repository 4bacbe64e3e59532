/* wire.h - bytes of the messages between the judge and a player.
 *
 * Little-endian integers appended to a bounded buffer, and read back from
 * one with bounds checks.  A write past the capacity or a read past the end
 * sets a sticky flag and yields zeros, so an encoder or decoder checks once
 * at the end instead of after every field.  Header-only: both the judge and
 * every static player binary use it.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct wire_w {
	uint8_t *buf;
	size_t len, cap;
	bool overflow;
};

struct wire_r {
	const uint8_t *buf;
	size_t len, off;
	bool bad;
};

static inline struct wire_w wire_writer(uint8_t *buf, size_t cap)
{
	return (struct wire_w){ buf, 0, cap, false };
}

static inline struct wire_r wire_reader(const uint8_t *buf, size_t len)
{
	return (struct wire_r){ buf, len, 0, false };
}

/* Byte by byte: fields are 1 to 8 bytes, and under AddressSanitizer (the
 * fuzz targets) a memcpy call per field cost most of a view. */
static inline void wire_put(struct wire_w *w, const void *p, size_t n)
{
	if (w->overflow || n > w->cap - w->len) {
		w->overflow = true;
		return;
	}
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		w->buf[w->len + i] = b[i];
	w->len += n;
}

/* A long run of bytes (a whole map): one memcpy, which the byte loop above
 * is not made into (the compiler cannot tell buf from w). */
static inline void wire_block(struct wire_w *w, const void *p, size_t n)
{
	if (w->overflow || n > w->cap - w->len) {
		w->overflow = true;
		return;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static inline void wire_u8(struct wire_w *w, uint8_t v)
{
	wire_put(w, &v, 1);
}

static inline void wire_u16(struct wire_w *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	wire_put(w, b, 2);
}

static inline void wire_u32(struct wire_w *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	wire_put(w, b, 4);
}

static inline void wire_i32(struct wire_w *w, int32_t v)
{
	wire_u32(w, (uint32_t)v);
}

static inline void wire_u64(struct wire_w *w, uint64_t v)
{
	wire_u32(w, (uint32_t)v);
	wire_u32(w, (uint32_t)(v >> 32));
}

static inline void wire_i64(struct wire_w *w, int64_t v)
{
	wire_u64(w, (uint64_t)v);
}

static inline const uint8_t *wire_take(struct wire_r *r, size_t n)
{
	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	const uint8_t *p = r->buf + r->off;
	r->off += n;
	return p;
}

static inline uint8_t wire_get_u8(struct wire_r *r)
{
	const uint8_t *p = wire_take(r, 1);
	return p ? p[0] : 0;
}

static inline uint16_t wire_get_u16(struct wire_r *r)
{
	const uint8_t *p = wire_take(r, 2);
	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

static inline uint32_t wire_get_u32(struct wire_r *r)
{
	const uint8_t *p = wire_take(r, 4);
	return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			   (uint32_t)p[3] << 24
		 : 0;
}

static inline int32_t wire_get_i32(struct wire_r *r)
{
	return (int32_t)wire_get_u32(r);
}

static inline uint64_t wire_get_u64(struct wire_r *r)
{
	uint64_t lo = wire_get_u32(r);
	return lo | (uint64_t)wire_get_u32(r) << 32;
}

static inline int64_t wire_get_i64(struct wire_r *r)
{
	return (int64_t)wire_get_u64(r);
}

/* n bytes into p; false (and nothing copied) when fewer are left. */
static inline bool wire_copy(struct wire_r *r, void *p, size_t n)
{
	const uint8_t *b = wire_take(r, n);
	if (b)
		memcpy(p, b, n);
	return b != NULL;
}

/* True when every byte was read and none was missing. */
static inline bool wire_done(const struct wire_r *r)
{
	return !r->bad && r->off == r->len;
}

#endif
