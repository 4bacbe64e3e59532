/* inproc.h - each course game's Demo linked into a benchmark's own process,
 * four copies (no sandbox, no pipes), and one round played with them.
 *
 * The Makefile builds the copies (INPROC, INPROC_ORIG): for game G and
 * copy i, G's kit and a player in one object, every symbol local but the
 * kit's two entry points, renamed.  A benchmark that links them names them
 * in BENCH_EXTRA_name in the Makefile.
 */
#ifndef BENCH_INPROC_H
#define BENCH_INPROC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "games/game.h"

#define INPROC_PLAYERS 4

typedef int (*kit_start_fn)(const uint8_t *, size_t);
typedef long (*kit_turn_fn)(const uint8_t *, size_t, uint8_t *, size_t);

struct inproc {
	const char *game;
	kit_start_fn start[INPROC_PLAYERS];
	kit_turn_fn turn[INPROC_PLAYERS];
};

/* The four copies of a player of game G whose entry points the Makefile
 * renamed P_G_start_i and P_G_turn_i, as the struct inproc P_G (P: inproc
 * for the shipped Demos, orig for the original engines' Demos). */
#define INPROC_COPY(P, G, i)                                      \
	int P##_##G##_start_##i(const uint8_t *, size_t);         \
	long P##_##G##_turn_##i(const uint8_t *, size_t, uint8_t *, size_t);
#define INPROC_SET(P, G)                                                                  \
	INPROC_COPY(P, G, 0) INPROC_COPY(P, G, 1) INPROC_COPY(P, G, 2) INPROC_COPY(P, G, 3) \
	static const struct inproc P##_##G = {                                            \
		#G,                                                                       \
		{ P##_##G##_start_0, P##_##G##_start_1, P##_##G##_start_2,                \
		  P##_##G##_start_3 },                                                    \
		{ P##_##G##_turn_0, P##_##G##_turn_1, P##_##G##_turn_2, P##_##G##_turn_3 }, \
	};

/* Each player's start message (its length into len[p] when len is not
 * NULL); -1 when a kit refuses it. */
static inline int inproc_start(const struct game *game, const struct game_state *g,
			       const struct inproc *in, uint8_t *buf, size_t cap, size_t *len)
{
	for (int p = 0; p < INPROC_PLAYERS; p++) {
		size_t n = game->start(g, p, buf, cap);
		if (len)
			len[p] = n;
		if (in->start[p](buf, n) < 0)
			return -1;
	}
	return 0;
}

/* One round: each player's view, its answer handed to the game, then the
 * round resolved; with orders not NULL, the orders the replay records, as
 * the runner takes them before the round is resolved.  -1 with err filled
 * when a player's answer is refused. */
static inline int inproc_round(const struct game *game, struct game_state *g,
			       const struct inproc *in, uint8_t *buf, size_t cap, uint8_t *reply,
			       size_t reply_cap, size_t *len, json_t **orders,
			       err_t err)
{
	for (int p = 0; p < INPROC_PLAYERS; p++) {
		game->status(g, p, 0);
		size_t n = game->view(g, p, buf, cap);
		if (len)
			len[p] = n;
		long answer = in->turn[p](buf, n, reply, reply_cap);
		if (answer < 0)
			return err_fail(err, "player %d's kit failed", p);
		if (game->orders(g, p, reply, (size_t)answer, err) < 0)
			return -1;
	}
	if (orders)
		*orders = game->replay_orders(g);
	game->advance(g);
	return 0;
}

#endif
