/* The units number themselves in the order they first run (team array
 * cell 0).  Unit 0 spawns workers; units 1 to 3 keep a page of their stack
 * and check it every turn; unit 4, in its third turn, fills a megabyte
 * local array, four times its stack: it must die alone, its stack's guard
 * stopping it before the stacks of units 1 to 3. */
#include <stdio.h>
#include <string.h>

#include "aic2018.h"

PLAYER_NAME(BigFrame);

static int fill_a_megabyte(int seed)
{
	char big[1 << 20];
	memset(big, seed, sizeof big);
	char *volatile p = big;
	return p[seed];
}

static void innocent(int n)
{
	char page[4096];
	for (int i = 0; i < 4096; i++)
		page[i] = (char)(i * 7 + n);
	for (;;) {
		for (int i = 0; i < 4096; i += 64) /* well within a turn's energy */
			if (page[i] != (char)(i * 7 + n)) {
				printf("innocent %d corrupted in round %d\n", n, uc_getRound());
				return;
			}
		if (uc_getRound() % 20 == 0)
			printf("innocent %d intact in round %d\n", n, uc_getRound());
		uc_yield();
	}
}

void run(void)
{
	int n = uc_read(0);
	uc_write(0, n + 1);
	if (n >= 1 && n <= 3)
		innocent(n);
	for (int turn = 0;; turn++) {
		if (n == 4 && turn == 2)
			printf("unit 4 got %d\n", fill_a_megabyte(turn));
		for (int d = 0; n == 0 && uc_read(0) < 5 && d < 8; d++)
			if (uc_canSpawn((Direction)d, WORKER) && uc_spawn((Direction)d, WORKER))
				break;
		uc_yield();
	}
}
