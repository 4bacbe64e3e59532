/* runtime.h - what every game kit's runtime.c shares on top of io.h: the
 * contestant's random numbers, the marking of the kit's two entry points
 * and the player's main().  It defines functions: include it in one file
 * per kit, its runtime.c.  A new kit writes:
 *
 *     #include "games/kit/runtime.h"
 *     KIT_ENTRY int xxkit_start(const uint8_t *msg, size_t len);
 *     KIT_ENTRY long xxkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);
 *     ...   (xxkit_start decodes the start message and calls kit_seed())
 *     KIT_MAIN("xx", xxkit_start, xxkit_turn, XX_VIEW_MAX, XX_ORDERS_MAX)
 *
 * random_int() and random_permutation() are the kits' API (each game's
 * header declares them): one stream per player, seeded from the start
 * message, so that a seed fixes a whole match.
 */
#ifndef KIT_RUNTIME_H
#define KIT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "games/kit/io.h"
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

int random_int(int low, int high)
{
	return low < high ? rng_uniform(&kit_rng, low, high) : low;
}

void random_permutation(int n, int *out)
{
	if (n > 0)
		rng_permutation(&kit_rng, out, n);
}

/* The player's main(): the channel, with buffers for the game's largest
 * view and orders messages; nothing in the in-process build. */
#ifdef KIT_NO_MAIN
#define KIT_MAIN(GAME, START, TURN, VIEW_MAX, ORDERS_MAX)
#else
#define KIT_MAIN(GAME, START, TURN, VIEW_MAX, ORDERS_MAX)                                   \
	int main(void)                                                                      \
	{                                                                                   \
		static uint8_t in[FRAME_HEADER + (VIEW_MAX)], out[ORDERS_MAX];              \
		return kit_main(GAME, player_name, START, TURN, in, sizeof in, out,        \
				sizeof out);                                                \
	}
#endif

#endif
