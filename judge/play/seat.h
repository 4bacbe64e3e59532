/* seat.h - one player of a match: its sandboxed process and its channel.
 *
 * Messages are framed as a 4-byte little-endian length and the payload.
 * Writes never block the judge (the pipe is non-blocking and what does not
 * fit waits in a buffer); the read buffer holds one frame of the seat's
 * maximum size (its orders, and a block of debug marks), and a frame sent ahead of its round waits there.  Anything
 * the player does wrong freezes the seat for good, with a reason a
 * contestant understands.
 */
#ifndef JUDGE_SEAT_H
#define JUDGE_SEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/sandbox.h"

struct seat {
	struct sbx_proc *proc;
	struct sbx_uid uid;
	int to_fd, from_fd;   /* our ends of its stdin and stdout */
	/* Its output pipe and the sandbox's descriptors, watched as one
	 * (epoll), so that a poll for a round's answers costs one descriptor
	 * a seat; the sandbox's as they were when it started (ep_sbx). */
	int ep_fd;
	int ep_sbx[SBX_POLLFDS], ep_sbx_n;
	uint8_t *in;          /* bytes read, at most one frame */
	size_t in_len, in_max;
	uint8_t *out;         /* bytes not yet written */
	size_t out_len, out_off, out_cap;
	/* The region its messages travel in (games/kit/frame.h), NULL
	 * without one: then they go through the pipe. */
	uint8_t *shared;
	size_t shared_cap;
	/* Turns left before its answer is again looked for as soon as the
	 * message is sent (seat_collect), and the misses of that in a row. */
	int early_skip, early_misses;
	bool frozen;
	int frozen_round;     /* the round it froze in, -1 before the first */
	char reason[200];
	/* The last message sent, for the record of a seat that fails on it:
	 * where it lies in `out`, its size, how many came before it (0: the
	 * start) and the seat's CPU clock when it was sent, which the match
	 * sets from the clock reads it makes anyway. */
	size_t input_off, input_size;
	bool input_shared;    /* it lies in `shared`, not in `out` */
	int messages;
	uint64_t input_cpu_ns;
};

#define SEAT_INPUT_KEEP (256 * 1024)

/* Starts binary under pol as one seat that accepts frames of at most
 * max_in bytes, and is sent messages of at most max_out bytes through a
 * region shared with it (0: through its pipe).  uid 0 keeps the judge's identity.  -1 with err filled
 * only when the judge itself failed; a binary that cannot run gives a
 * frozen seat. */
int seat_start(struct seat *s, const struct sbx_policy *pol, const char *binary,
	       uid_t uid, size_t max_in, size_t max_out, err_t err);

/* Queues one frame (its payload in the shared region when it fits) and
 * writes what the pipe takes now; notes it as the seat's last input. */
void seat_send(struct seat *s, const uint8_t *payload, size_t len);

/* Where its next message may be written in place, *cap bytes: its shared
 * region, which seat_send() then does not copy; NULL when it has none or
 * is frozen.  The player can read the region at any time (one that has
 * answered may still run), so only what it may see goes there: a message
 * written whole, never built in it in passes. */
uint8_t *seat_outbox(struct seat *s, size_t *cap);

/* A copy of the last input's first SEAT_INPUT_KEEP bytes (malloc'd; the
 * caller frees it), *len its length; NULL before any message or when
 * memory ran out.  Exact only while no later message was queued: for a
 * frozen seat, which gets none. */
uint8_t *seat_last_input(const struct seat *s, size_t *len);

/* The complete frame read so far, or NULL.  seat_consume() drops it.
 * An answer that starts with debug marks (games/kit/draw.h) gives its
 * orders here, its marks block through seat_marks() (NULL when it has
 * none, or with *bad set when the block's length does not fit the frame
 * or the cap). */
const uint8_t *seat_frame(const struct seat *s, size_t *len);
const uint8_t *seat_marks(const struct seat *s, size_t *len, bool *bad);
void seat_consume(struct seat *s);

/* Adds the descriptors to watch while waiting for a frame; returns the
 * count added (at most SEAT_POLLFDS). */
#define SEAT_POLLFDS (2 + SBX_POLLFDS)
int seat_pollfds(const struct seat *s, struct pollfd *fds);

/* After a poll of the n descriptors seat_pollfds gave: moves bytes both
 * ways and services the process; freezes the seat if the process ended or
 * broke the framing.  Once its frame is whole, its wall guard (and budget)
 * stops: the judge no longer waits for it. */
void seat_service(struct seat *s, const struct pollfd *fds, int n, int round);

void seat_freeze(struct seat *s, int round, enum sbx_verdict v, const char *why);

/* The judge now waits for its answer: arms its wall guard (wall_ns) and
 * wall budget, unless the answer came ahead of time. */
void seat_await(struct seat *s, uint64_t wall_ns);
/* The same as of `now` (sbx_now_ns()): a runner arms a round's seats with
 * one reading. */
void seat_await_at(struct seat *s, uint64_t wall_ns, uint64_t now);

/* Waits until each of the n seats that still plays has a complete frame
 * (or froze meanwhile), servicing all of them: they think in parallel,
 * each charged its own CPU time. */
void seat_collect(struct seat *seats, int n, int round);

/* Ends the process (if it still runs): seat_end() stops it, seat_finish()
 * stops it if need be, waits for its end and frees everything but the
 * result, which stays readable through sbx.  A match stops every seat
 * before it waits for any: the kernel then tears the processes down one
 * after the other, where stopping and waiting seat by seat would switch
 * to the judge and back between them. */
void seat_end(struct seat *s);
const struct sbx_result *seat_finish(struct seat *s);
void seat_free(struct seat *s);

#endif
