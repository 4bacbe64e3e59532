/* runtime.h - what every game kit's runtime.c shares on top of io.h: the
 * contestant's random numbers, the marking of the kit's two entry points
 * and the player's main().  It defines functions: include it in one file
 * per kit, its runtime.c.  A new kit writes:
 *
 *     #include "games/kit/runtime.h"
 *     static struct xx_msg_start start;   (what KIT_START decodes into)
 *     static struct xx_msg_view view;     (what KIT_TURN decodes into)
 *     static struct xx_msg_order orders[XX_MAX_ORDERS + 1];
 *     static int norders;                 (the API's functions add orders)
 *     ...
 *     KIT_START(xxkit_start, xx_start_decode)
 *     KIT_TURN(xxkit_turn, xx_view_decode, index_view, &xx_orders)
 *     KIT_MAIN("xx", xxkit_start, xxkit_turn, XX_VIEW_MAX, XX_ORDERS_MAX)
 *
 * A kit whose steps do more writes them itself, marked KIT_ENTRY, and may
 * still end its turn with kit_play().
 *
 * random_int() and random_permutation() are the kits' API (each game's
 * header declares them): one stream per player, seeded from the start
 * message, so that a seed fixes a whole match.
 */
#ifndef KIT_RUNTIME_H
#define KIT_RUNTIME_H

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

/* The kit's two steps when they do no more than the usual: the start
 * message decoded into `start` (DECODE(msg, len, &start) true when it is
 * well formed) and the player's random numbers seeded from it; a view
 * decoded into `view`, INDEX() run to rebuild the API's lookups, and
 * kit_play() with the kit's `orders` and `norders`. */
#define KIT_START(NAME, DECODE)                                                             \
	KIT_ENTRY int NAME(const uint8_t *msg, size_t len);                                 \
	int NAME(const uint8_t *msg, size_t len)                                            \
	{                                                                                   \
		if (!DECODE(msg, len, &start))                                              \
			return -1;                                                          \
		kit_seed(start.seed);                                                       \
		return 0;                                                                   \
	}

#define KIT_TURN(NAME, DECODE, INDEX, LAYOUT)                                               \
	KIT_ENTRY long NAME(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);      \
	long NAME(const uint8_t *msg, size_t len, uint8_t *out, size_t cap)                 \
	{                                                                                   \
		if (!DECODE(msg, len, &view))                                               \
			return -1;                                                          \
		INDEX();                                                                    \
		return kit_play(LAYOUT, orders, &norders, out, cap);                        \
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
