/* runtime.h - what every game kit's runtime.c shares on top of io.h: the
 * contestant's random numbers, the marking of the kit's two entry points
 * and the player's main().  It defines functions: include it in one file
 * per kit, its runtime.c, which writes the kit's two entry points (marked
 * KIT_ENTRY): the start message decoded and the player's random numbers
 * seeded from it (kit_seed); a view decoded, the API's lookups rebuilt,
 * and the turn ended with kit_play(); and, unless KIT_NO_MAIN, a main()
 * that hands them to kit_main() (io.h) with buffers for the game's largest
 * view and orders.  games/dominator/kit/runtime.c is the plainest.
 *
 * random_int() and random_permutation() are the kits' API (each game's
 * header declares them): one stream per player, seeded from the start
 * message, so that a seed fixes a whole match.
 */
#ifndef KIT_RUNTIME_H
#define KIT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/drawing.h"
#include "games/kit/io.h"
#include "games/kit/orders.h"
#include "games/kit/rng.h"

extern const char player_name[];

/* The in-process benchmark build (KIT_NO_MAIN, -fvisibility=hidden) hides
 * every symbol but the kit's two entry points, marked with this. */
#define KIT_ENTRY __attribute__((visibility("default")))

static struct rng kit_rng;

static inline void kit_seed(uint64_t seed)
{
	kit_rng = rng_seeded(seed);
}

/* The usual start step's end: -1 when the start message did not decode
 * (ok false), else the random numbers seeded from *seed (read after the
 * decode filled it). */
static inline int kit_started(bool ok, const uint64_t *seed)
{
	if (!ok)
		return -1;
	kit_seed(*seed);
	return 0;
}

/* A kit's main(): kit_main() with buffers for the game's largest view
 * and orders messages, on the stack (touched only as far as used). */
static inline int kit_run(const char *game, int (*start)(const uint8_t *, size_t),
			  long (*turn)(const uint8_t *, size_t, uint8_t *, size_t),
			  size_t view_max, size_t orders_max)
{
	uint8_t in[FRAME_HEADER + view_max], out[orders_max];
	return kit_main(game, player_name, start, turn, in, sizeof in, out, sizeof out);
}

int random_int(int low, int high)
{
	return low < high ? rng_uniform(&kit_rng, low, high) : low;
}

void random_permutation(int n, int *out)
{
	if (n > 0)
		rng_permutation(&kit_rng, out, n);
}

/* The contestant's function, which every game's header declares. */
void play(void);

/* One turn's end: the contestant's play() on the view just decoded, then
 * the orders it gave (*norders of them at orders, layout l) encoded into
 * out; the length, or 0 when they do not fit. */
static inline long kit_play(const struct orders_layout *l, const void *orders, int *norders,
			    uint8_t *out, size_t cap)
{
	*norders = 0;
	play();
	return (long)orders_encode(l, orders, (size_t)*norders, out, cap);
}

#endif
