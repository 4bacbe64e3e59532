/* io.h - the player side of the judge's channel (fd 0 in, fd 1 out).
 *
 * Frames are a 4-byte little-endian length and the payload, as in
 * judge/seat.c.  A player kit's runtime uses these; contestants never do.
 * stdout is pointed at stderr first, so a contestant's printf() lands in
 * its debug log instead of corrupting the channel.
 */
#ifndef KIT_IO_H
#define KIT_IO_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void kit_io_init(void)
{
	stdout = stderr;
}

static inline int kit_read_all(void *buf, size_t n)
{
	uint8_t *p = buf;
	while (n) {
		ssize_t r = read(0, p, n);
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Reads one frame into buf; returns its length, or -1 when the judge has
 * closed the channel (the game is over) or sent more than cap bytes. */
static inline long kit_read_frame(uint8_t *buf, size_t cap)
{
	uint8_t h[4];
	if (kit_read_all(h, 4) < 0)
		return -1;
	size_t len = (size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16 | (size_t)h[3] << 24;
	if (len > cap || kit_read_all(buf, len) < 0)
		return -1;
	return (long)len;
}

static inline int kit_write_frame(const uint8_t *payload, size_t len)
{
	uint8_t h[4] = { (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
			 (uint8_t)(len >> 24) };
	const uint8_t *parts[2] = { h, payload };
	size_t sizes[2] = { 4, len };
	for (int i = 0; i < 2; i++) {
		size_t off = 0;
		while (off < sizes[i]) {
			ssize_t w = write(1, parts[i] + off, sizes[i] - off);
			if (w <= 0)
				return -1;
			off += (size_t)w;
		}
	}
	return 0;
}

#endif
