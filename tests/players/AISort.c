/* Sorts a few thousand numbers every round with the C library's qsort,
 * which asks the kernel about the machine's memory first (sysinfo): a
 * legitimate player the sandbox must let play. */
#include <stdlib.h>

#include "dominator.h"

PLAYER_NAME(Sort);

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

void play(void)
{
	static int v[4096];
	for (int i = 0; i < 4096; ++i)
		v[i] = random_int(0, 1000000);
	qsort(v, 4096, sizeof v[0], cmp);
}
