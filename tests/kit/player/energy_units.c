/* energy_units.c - unit bodies compiled as a contestant's file is
 * (-fsanitize-coverage=trace-pc), for test_aic_energy.c. */
#include "tests/kit/player/energy_units.h"

#include "games/aic2018/kit/coro.h"

void spin_forever(void *arg)
{
	volatile long *progress = arg;
	for (;;)
		(*progress)++;
}

void loop_then_yield(void *arg)
{
	volatile long *n = arg;
	for (;;) {
		for (long i = 0; i < *n; i++)
			__asm__ volatile("");
		coro_yield();
	}
}
