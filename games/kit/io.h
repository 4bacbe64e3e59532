/* io.h - the player side of the judge's channel (fd 0 in, fd 1 out).
 *
 * Frames are as frame.h says, the same at the judge's end.  A player kit's runtime uses these; contestants never do.
 * stdout is pointed at stderr first, so a contestant's printf() lands in
 * its debug log instead of corrupting the channel; crashes are re-raised
 * so the judge can measure the player's memory as it dies.
 */
#ifndef KIT_IO_H
#define KIT_IO_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "games/kit/draw.h"
#include "games/kit/frame.h"


/* A crash re-raised through kill() passes by the judge, which then sees
 * the player's memory one last time (a plain fault does not).  Its own
 * stack, so that a stack overflow gets here too. */
static void kit_on_crash(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void kit_io_init(void)
{
	static char altstack[1 << 14];
	static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	struct sigaction sa = { .sa_handler = kit_on_crash, .sa_flags = SA_ONSTACK };
	sigaltstack(&ss, NULL);
	for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++)
		sigaction(crashes[i], &sa, NULL);
	stdout = stderr;
}

/* What has arrived from the judge: the frame being answered, then
 * possibly the start of the next one; and the region the judge shares
 * (frame.h), once a frame has used it. */
struct kit_inbox {
	uint8_t *buf;
	size_t cap, have, used;
	const uint8_t *shared;
	size_t shared_size;
};

/* The shared region's first n bytes, mapped read-only at first use (its
 * size read by lseek: glibc's fstat is refused in the sandbox); NULL when
 * there is none or n does not fit it. */
static inline const uint8_t *kit_shared(struct kit_inbox *b, size_t n)
{
	if (!b->shared) {
		off_t size = lseek(FRAME_SHARED_FD, 0, SEEK_END);
		void *at = size > 0 ? mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED,
					   FRAME_SHARED_FD, 0) : MAP_FAILED;
		if (at == MAP_FAILED)
			return NULL;
		b->shared = at;
		b->shared_size = (size_t)size;
	}
	return n <= b->shared_size ? b->shared : NULL;
}

/* The next frame: its payload in place (in the buffer, or in the shared
 * region) and its length, or NULL when the judge has closed the channel
 * (the game is over) or announced more than the buffer (or region) holds.
 * One read() per frame whenever the frame is in the
 * pipe whole, as it is when the judge wrote it with one call. */
static inline const uint8_t *kit_next_frame(struct kit_inbox *b, size_t *len)
{
	memmove(b->buf, b->buf + b->used, b->have - b->used);
	b->have -= b->used;
	b->used = 0;
	for (;;) {
		if (b->have >= FRAME_HEADER && frame_is_shared(b->buf)) {
			b->used = FRAME_HEADER;
			*len = frame_get_len(b->buf);
			return kit_shared(b, *len);
		}
		if (b->have >= FRAME_HEADER) {
			size_t n = frame_get_len(b->buf);
			if (n > b->cap - FRAME_HEADER)
				return NULL;
			if (b->have >= FRAME_HEADER + n) {
				b->used = FRAME_HEADER + n;
				*len = n;
				return b->buf + FRAME_HEADER;
			}
		}
		ssize_t r = read(0, b->buf + b->have, b->cap - b->have);
		if (r <= 0)
			return NULL;
		b->have += (size_t)r;
	}
}

/* One writev, so the judge wakes once per message, not per part.  marks:
 * this turn's debug marks, or NULL. */
static inline int kit_write_frame(const uint8_t *payload, size_t len,
				  const struct draw_block *marks)
{
	uint8_t h[FRAME_HEADER], mlen[DRAW_LEN_BYTES];
	bool with_marks = marks && marks->len;
	size_t block = with_marks ? marks->len : 0, extra = with_marks ? DRAW_LEN_BYTES + block : 0;
	frame_put_len(h, len + extra);
	frame_put_len(mlen, block);
	if (with_marks)
		h[3] |= FRAME_MARKS >> 24;
	struct iovec v[4] = { { h, FRAME_HEADER }, { mlen, with_marks ? DRAW_LEN_BYTES : 0 },
			      { (void *)(marks ? marks->b : NULL), block }, { (void *)payload, len } };
	size_t total = FRAME_HEADER + extra + len;
	while (total) {
		ssize_t w = writev(1, v, 4);
		if (w <= 0)
			return -1;
		total -= (size_t)w;
		for (int i = 0; i < 4; i++) {
			size_t d = (size_t)w < v[i].iov_len ? (size_t)w : v[i].iov_len;
			v[i].iov_base = (uint8_t *)v[i].iov_base + d;
			v[i].iov_len -= d;
			w -= (ssize_t)d;
		}
	}
	return 0;
}

/* The player's whole life, the same for every game: the start message,
 * the name, then one answer per view until the judge closes the channel.
 * start and turn are the game kit's two steps; in holds the game's largest
 * view plus FRAME_HEADER, out its largest orders message. */
static inline int kit_main(const char *game, const char *name,
			   int (*start)(const uint8_t *, size_t),
			   long (*turn)(const uint8_t *, size_t, uint8_t *, size_t),
			   uint8_t *in, size_t in_cap, uint8_t *out, size_t out_cap)
{
	kit_io_init();
	struct kit_inbox inbox = { .buf = in, .cap = in_cap };
	size_t n;
	const uint8_t *msg = kit_next_frame(&inbox, &n);
	if (!msg || start(msg, n) < 0) {
		fprintf(stderr, "%s kit: the judge's first message is not a start message\n", game);
		return 1;
	}
	kit_write_frame((const uint8_t *)name, strlen(name), NULL);
	while ((msg = kit_next_frame(&inbox, &n)) != NULL) {
		draw_reset(&kit_marks);
		long len = turn(msg, n, out, out_cap);
		if (len < 0) {
			fprintf(stderr, "%s kit: a malformed view from the judge\n", game);
			return 1;
		}
		if (kit_write_frame(out, (size_t)len, &kit_marks) < 0)
			return 0;
	}
	return 0; /* the judge closed the channel: the game is over */
}

#endif
