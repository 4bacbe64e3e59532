/* Looks through the program's zeroed data for what could be its energy
 * counter (a word pointing at a small count) and keeps zeroing it while
 * it loops: energy would never run out, but the judge measures the CPU
 * of the team's turns from outside. */
#include <stdint.h>

#include "aic2018.h"

PLAYER_NAME(Tamper);

extern char __bss_start[], _end[];

void run(void)
{
	int64_t *found[64];
	int n = 0;
	for (char *p = __bss_start; p + 8 <= _end && n < 64; p += 8) {
		int64_t *w = *(int64_t **)p;
		if ((char *)w >= __bss_start && (char *)w + 8 <= _end &&
		    ((uintptr_t)w & 7) == 0 && *w > 0 && *w < 15000)
			found[n++] = w;
	}
	for (;;)
		for (int i = 0; i < n; i++)
			*found[i] = 0;
}
