/* frame.h - how a message travels between the judge and a player: a
 * 4-byte little-endian length, then that many bytes of payload.
 * Header-only: the judge's end (judge/play/seat.c) and the players' (io.h)
 * frame with it. */
#ifndef KIT_FRAME_H
#define KIT_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_HEADER 4
/* The length's top bit: a player's answer that starts with debug marks
 * (draw.h); a message to the player whose payload is not in the pipe but
 * at the start of the memory region the judge shares with it, read-only
 * (descriptor FRAME_SHARED_FD).  Large views cost a pipe a page
 * allocated, charged and copied twice for each 4 KB; the region is
 * written once and read in place. */
#define FRAME_MARKS 0x80000000u
#define FRAME_SHARED FRAME_MARKS
#define FRAME_SHARED_FD 3

static inline size_t frame_get_len(const uint8_t *h)
{
	return (size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16 | (size_t)(h[3] & 0x7f) << 24;
}

static inline bool frame_has_marks(const uint8_t *h)
{
	return h[3] & 0x80;
}

static inline bool frame_is_shared(const uint8_t *h)
{
	return h[3] & 0x80;
}

static inline void frame_put_len(uint8_t *h, size_t len)
{
	h[0] = (uint8_t)len, h[1] = (uint8_t)(len >> 8), h[2] = (uint8_t)(len >> 16),
	h[3] = (uint8_t)(len >> 24);
}

#endif
