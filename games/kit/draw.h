/* draw.h - debug marks: what a player draws on the board for its author
 * (a dot, a line, a short text on a cell, each with a colour), as they
 * travel to the judge with the player's answer.  Header-only: the kits
 * write marks with draw_put(), the judge (judge/play/debug.h) reads them
 * back with draw_next(), which trusts nothing.
 *
 * On the wire a turn's marks are a block: u16 marks dropped by the player
 * (past the cap), then records until the end: u8 kind, u8 red, green,
 * blue, i16 row, i16 column, then for a line i16 row and column of its
 * end, for a text u8 length and that many bytes.  A player's answer with
 * marks sets FRAME_MARKS in its frame's length (frame.h) and starts with a
 * u32 length of the block, then the block, then the orders.  A block
 * holds at most DRAW_TURN_BYTES: what a player draws past it in one turn
 * is dropped and counted.
 */
#ifndef KIT_DRAW_H
#define KIT_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum draw_kind { DRAW_DOT = 1, DRAW_LINE = 2, DRAW_TEXT = 3 };

#define DRAW_TURN_BYTES 1024 /* one block, dropped count included */
#define DRAW_TEXT_MAX 32     /* bytes of one text; longer ones are cut */
#define DRAW_LEN_BYTES 4     /* the block's length ahead of it */

struct draw_mark {
	enum draw_kind kind;
	uint32_t rgb; /* 0xRRGGBB */
	int row, col, row2, col2;
	char text[DRAW_TEXT_MAX + 1];
};

struct draw_block {
	uint8_t b[DRAW_TURN_BYTES];
	size_t len; /* 0: nothing drawn or dropped this turn */
	unsigned dropped;
};

static inline size_t draw_mark_bytes(const struct draw_mark *m)
{
	size_t text = strnlen(m->text, DRAW_TEXT_MAX);
	return 8 + (m->kind == DRAW_LINE ? 4 : m->kind == DRAW_TEXT ? 1 + text : 0);
}

/* The u32 length of a block, ahead of it in a player's answer. */
static inline size_t draw_block_len(const uint8_t *p)
{
	return (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24;
}

static inline uint8_t *draw_put_i16(uint8_t *p, int v)
{
	v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
	p[0] = (uint8_t)(v & 0xff), p[1] = (uint8_t)((unsigned)v >> 8 & 0xff);
	return p + 2;
}

static inline int draw_get_i16(const uint8_t *p)
{
	return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

/* Adds one mark to this turn's block, or counts it dropped when the block
 * is full. */
static inline void draw_put(struct draw_block *d, const struct draw_mark *m)
{
	size_t need = draw_mark_bytes(m), start = d->len ? d->len : 2;
	if (start + need > DRAW_TURN_BYTES) {
		d->dropped += d->dropped < 0xffff;
		d->len = start;
	} else {
		uint8_t *p = d->b + start;
		*p++ = (uint8_t)m->kind;
		*p++ = (uint8_t)(m->rgb >> 16), *p++ = (uint8_t)(m->rgb >> 8), *p++ = (uint8_t)m->rgb;
		p = draw_put_i16(draw_put_i16(p, m->row), m->col);
		if (m->kind == DRAW_LINE)
			p = draw_put_i16(draw_put_i16(p, m->row2), m->col2);
		if (m->kind == DRAW_TEXT) {
			*p = (uint8_t)strnlen(m->text, DRAW_TEXT_MAX);
			memcpy(p + 1, m->text, *p);
			p += 1 + *p;
		}
		d->len = (size_t)(p - d->b);
	}
	d->b[0] = (uint8_t)d->dropped, d->b[1] = (uint8_t)(d->dropped >> 8);
}

static inline void draw_reset(struct draw_block *d)
{
	d->len = 0;
	d->dropped = 0;
}

/* The dropped count of a block of len bytes (hostile). */
static inline unsigned draw_dropped(const uint8_t *b, size_t len)
{
	return len >= 2 ? (unsigned)(b[0] | b[1] << 8) : 0;
}

/* The next mark of a block of len bytes from *at (start at 2, past the
 * dropped count): true with *m filled and *at moved on; false at the end,
 * or with *bad set when the rest is not a mark (a bad kind, a length past
 * the block, a text that is not printable). */
static inline bool draw_next(const uint8_t *b, size_t len, size_t *at, struct draw_mark *m,
			     bool *bad)
{
	*bad = false;
	if (*at >= len)
		return false;
	const uint8_t *p = b + *at;
	size_t left = len - *at;
	*m = (struct draw_mark){ .kind = p[0] };
	*bad = left < 8 || p[0] < DRAW_DOT || p[0] > DRAW_TEXT;
	if (*bad)
		return false;
	m->rgb = (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	m->row = draw_get_i16(p + 4), m->col = draw_get_i16(p + 6);
	size_t used = 8;
	if (m->kind == DRAW_LINE) {
		*bad = left < 12;
		if (!*bad)
			m->row2 = draw_get_i16(p + 8), m->col2 = draw_get_i16(p + 10), used = 12;
	} else if (m->kind == DRAW_TEXT) {
		size_t n = left > 8 ? p[8] : 0;
		*bad = left < 9 || n > DRAW_TEXT_MAX || left < 9 + n;
		for (size_t i = 0; !*bad && i < n; i++)
			*bad = p[9 + i] < 0x20 || p[9 + i] > 0x7e;
		if (!*bad)
			memcpy(m->text, p + 9, n), used = 9 + n;
	}
	if (*bad)
		return false;
	*at += used;
	return true;
}

/* The kits' side: this turn's marks, which the kit's drawing calls add to
 * through kit_draw() and kit_main() (io.h) sends with the answer.
 * drawing.h defines both, once per kit. */
extern struct draw_block kit_marks;
void kit_draw(enum draw_kind kind, int rgb, int row, int col, int row2, int col2,
	      const char *text);

#endif
