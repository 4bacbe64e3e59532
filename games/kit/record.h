/* record.h - a game's messages, each stated once as a list of fields.
 *
 * A game writes a record's fields once, as an X-macro, and RECORD() makes
 * from that one list the C struct, the encoder, the decoder and the lengths
 * on the wire, so that the three cannot disagree and no two games write the
 * same encoder again.  Fields travel in the order listed, little-endian
 * (games/kit/wire.h):
 *
 *     #define XX_UNIT(X) X(u16, id) X(u8, row) X(u8, col)
 *     RECORD(xx_msg_unit, XX_UNIT)
 *
 * gives struct xx_msg_unit { uint16_t id; uint8_t row, col; },
 * xx_msg_unit_put(w, m), xx_msg_unit_get(r, m) (false when a read ran
 * short or a check failed), xx_msg_unit_len (its bytes, counted lists and
 * blocks empty) and xx_msg_unit_max (its bytes at the most).  A record
 * that is a whole message is written RECORD_MESSAGE(xx_msg_view, XX_VIEW,
 * xx_view, ok), which adds xx_view_encode() (the length, 0 when it does not
 * fit) and xx_view_decode() (true when the whole message was read, every
 * check passed, and then ok held).
 *
 * The kinds of fields (T: u8 u16 u32 u64 i32 i64; R: a RECORD's name):
 *   X(T, name)                         an integer
 *   X(is, T, name, value)              decoded, it must equal value
 *   X(range, T, name, lo, hi)          decoded, it must lie in lo..hi
 *   X(array, T, name, n)               n integers
 *   X(record, R, name)                 a record
 *   X(records, R, name, n)             n records
 *   X(block, C, name, max, count, ok)  count (at most max) values of the C
 *                                      type C as they lie in memory (bytes,
 *                                      or a struct of bytes), each passing ok
 *   X(list, count, R, name, max, ok)   a u16 count (at most max), then that
 *                                      many records, each passing ok
 * The expressions (value, lo, hi, count, ok) may read the fields listed
 * before them as m->field, and ok the element it judges as e.  The
 * encoder checks nothing but the room of blocks and lists (the engine is
 * trusted); the decoder refuses a message that breaks a check, so what a
 * game checks stands beside the field it checks.  Header only, no
 * allocation: it compiles into the judge and into a static player binary
 * alike.
 */
#ifndef KIT_RECORD_H
#define KIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/wire.h"

/* ---- what a game writes ---------------------------------------------------- */

#define RECORD(name, FIELDS) RECORD_WITH_ASPECTS(name, FIELDS, )

/* A game's parameters, listed X(field, lo, hi) as games/params_text.h
 * reads them, as a record of u16 fields each checked within lo..hi: one
 * list gives the engine's struct and keys and the message's record. */
#define RECORD_PARAMS(name, LIST) RECORD_WITH_ASPECTS(name, LIST, _PARAM)

/* The fields of a course game's start message that every one of them
 * opens with: the protocol's version and the fixed number of players. */
#define RECORD_VERSION_PLAYERS(X, V, N) X(is, u8, version, V) X(is, u8, players, N)

/* RECORD with each field's aspect macros named RECORD_<aspect><SUFFIX>
 * (RECORD_DECL, RECORD_DECL_PARAM, ...): a list of another shape of X()
 * brings its own aspects. */
#define RECORD_WITH_ASPECTS(name, FIELDS, SUFFIX) \
	struct name { FIELDS(RECORD_DECL##SUFFIX) }; \
	enum { name##_len = 0 FIELDS(RECORD_LEN##SUFFIX), name##_max = 0 FIELDS(RECORD_MAX##SUFFIX) }; \
	static inline void name##_put(struct wire_w *w, const struct name *m) { FIELDS(RECORD_PUT##SUFFIX) } \
	static inline bool name##_get(struct wire_r *r, struct name *m) \
	{ \
		FIELDS(RECORD_GET##SUFFIX) \
		return !r->bad; \
	}

/* A record that is a whole message, with prefix##_encode() and
 * prefix##_decode(); the decoder asks ok (an expression of m) last. */
#define RECORD_MESSAGE(name, FIELDS, prefix, ok) \
	RECORD(name, FIELDS) \
	static inline size_t prefix##_encode(const struct name *m, uint8_t *buf, size_t cap) \
	{ \
		struct wire_w w = wire_writer(buf, cap); \
		name##_put(&w, m); \
		return w.overflow ? 0 : w.len; \
	} \
	static inline bool prefix##_decode(const uint8_t *buf, size_t len, struct name *m) \
	{ \
		struct wire_r r = wire_reader(buf, len); \
		return name##_get(&r, m) && wire_done(&r) && (ok); \
	}

static inline bool record_in(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi;
}

/* ---- how each kind of field is made ---------------------------------------- */

/* One aspect (DECL, LEN, MAX, PUT, GET) of one field: the plain integers
 * are integers that pass any check. */
#define RECORD_DECL(kind, ...) RECORD_K_##kind(DECL, __VA_ARGS__)
#define RECORD_LEN(kind, ...) RECORD_K_##kind(LEN, __VA_ARGS__)
#define RECORD_MAX(kind, ...) RECORD_K_##kind(MAX, __VA_ARGS__)
#define RECORD_PUT(kind, ...) RECORD_K_##kind(PUT, __VA_ARGS__)
#define RECORD_GET(kind, ...) RECORD_K_##kind(GET, __VA_ARGS__)

#define RECORD_K_u8(a, name) RECORD_##a##_int(u8, name, true)
#define RECORD_K_u16(a, name) RECORD_##a##_int(u16, name, true)
#define RECORD_K_u32(a, name) RECORD_##a##_int(u32, name, true)
#define RECORD_K_u64(a, name) RECORD_##a##_int(u64, name, true)
#define RECORD_K_i32(a, name) RECORD_##a##_int(i32, name, true)
#define RECORD_K_i64(a, name) RECORD_##a##_int(i64, name, true)
#define RECORD_K_is(a, T, name, value) RECORD_##a##_int(T, name, m->name == (value))
#define RECORD_K_range(a, T, name, lo, hi) RECORD_##a##_int(T, name, record_in(m->name, lo, hi))
#define RECORD_K_array(a, ...) RECORD_##a##_array(__VA_ARGS__)
#define RECORD_K_record(a, ...) RECORD_##a##_record(__VA_ARGS__)
#define RECORD_K_records(a, ...) RECORD_##a##_records(__VA_ARGS__)
#define RECORD_K_block(a, ...) RECORD_##a##_block(__VA_ARGS__)
#define RECORD_K_list(a, ...) RECORD_##a##_list(__VA_ARGS__)

#define RECORD_CTYPE_u8 uint8_t
#define RECORD_CTYPE_u16 uint16_t
#define RECORD_CTYPE_u32 uint32_t
#define RECORD_CTYPE_u64 uint64_t
#define RECORD_CTYPE_i32 int32_t
#define RECORD_CTYPE_i64 int64_t

#define RECORD_DECL_int(T, name, ok) RECORD_CTYPE_##T name;
#define RECORD_DECL_array(T, name, n) RECORD_CTYPE_##T name[n];
#define RECORD_DECL_record(R, name) struct R name;
#define RECORD_DECL_records(R, name, n) struct R name[n];
#define RECORD_DECL_block(C, name, max, count, ok) C name[max];
#define RECORD_DECL_list(count, R, name, max, ok) uint16_t count; struct R name[max];

#define RECORD_LEN_int(T, name, ok) + sizeof(RECORD_CTYPE_##T)
#define RECORD_LEN_array(T, name, n) + (n) * sizeof(RECORD_CTYPE_##T)
#define RECORD_LEN_record(R, name) + R##_len
#define RECORD_LEN_records(R, name, n) + (n) * R##_len
#define RECORD_LEN_block(C, name, max, count, ok)
#define RECORD_LEN_list(count, R, name, max, ok) + 2

#define RECORD_MAX_int RECORD_LEN_int
#define RECORD_MAX_array RECORD_LEN_array
#define RECORD_MAX_record(R, name) + R##_max
#define RECORD_MAX_records(R, name, n) + (n) * R##_max
#define RECORD_MAX_block(C, name, max, count, ok) + (max) * sizeof(C)
#define RECORD_MAX_list(count, R, name, max, ok) + 2 + (max) * R##_max

#define RECORD_PUT_int(T, name, ok) wire_##T(w, m->name);
#define RECORD_PUT_array(T, name, n) \
	for (int i_ = 0; i_ < (n); i_++) \
		wire_##T(w, m->name[i_]);
#define RECORD_PUT_record(R, name) R##_put(w, &m->name);
#define RECORD_PUT_records(R, name, n) \
	for (int i_ = 0; i_ < (n); i_++) \
		R##_put(w, &m->name[i_]);
#define RECORD_PUT_block(C, name, max, count, ok) \
	record_put_block(w, m->name, (count), (max), sizeof(C));
#define RECORD_PUT_list(count, R, name, max, ok) \
	wire_u16(w, m->count); \
	record_room(w, m->count, (max)); \
	for (int i_ = 0; i_ < m->count && !w->overflow; i_++) \
		R##_put(w, &m->name[i_]);

#define RECORD_GET_int(T, name, ok) \
	m->name = wire_get_##T(r); \
	if (!(ok)) \
		return false;
#define RECORD_GET_array(T, name, n) \
	for (int i_ = 0; i_ < (n); i_++) \
		m->name[i_] = wire_get_##T(r);
#define RECORD_GET_record(R, name) \
	if (!R##_get(r, &m->name)) \
		return false;
#define RECORD_GET_records(R, name, n) \
	for (int i_ = 0; i_ < (n); i_++) \
		if (!R##_get(r, &m->name[i_])) \
			return false;
#define RECORD_GET_block(C, name, max, count, ok) \
	{ \
		size_t n_ = (count); \
		if (n_ > (max) || !wire_copy(r, m->name, n_ * sizeof(C))) \
			return false; \
		for (size_t i_ = 0; i_ < n_; i_++) { \
			const C *e = &m->name[i_]; \
			(void)e; \
			if (!(ok)) \
				return false; \
		} \
	}
#define RECORD_GET_list(count, R, name, max, ok) \
	m->count = wire_get_u16(r); \
	if (m->count > (max)) \
		return false; \
	for (int i_ = 0; i_ < m->count; i_++) { \
		const struct R *e = &m->name[i_]; \
		(void)e; \
		if (!R##_get(r, &m->name[i_]) || !(ok)) \
			return false; \
	}

/* RECORD_PARAMS' field: a u16 within lo..hi. */
#define RECORD_DECL_PARAM(name, lo, hi) RECORD_DECL(range, u16, name, lo, hi)
#define RECORD_LEN_PARAM(name, lo, hi) RECORD_LEN(range, u16, name, lo, hi)
#define RECORD_MAX_PARAM(name, lo, hi) RECORD_MAX(range, u16, name, lo, hi)
#define RECORD_PUT_PARAM(name, lo, hi) RECORD_PUT(range, u16, name, lo, hi)
#define RECORD_GET_PARAM(name, lo, hi) RECORD_GET(range, u16, name, lo, hi)

/* A block or list longer than its array cannot be written. */
static inline void record_room(struct wire_w *w, size_t count, size_t max)
{
	if (count > max)
		w->overflow = true;
}

static inline void record_put_block(struct wire_w *w, const void *p, size_t count, size_t max,
				    size_t size)
{
	record_room(w, count, max);
	wire_block(w, p, count * size);
}

#endif
