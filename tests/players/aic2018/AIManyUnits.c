/* Spawns workers whenever it can; each new one fills a large local array
 * (most of its stack) and, every second one, returns after a few turns
 * (its unit dies, its coroutine ends): many coroutines come and go. */
#include <stdio.h>
#include <string.h>

#include "aic2018.h"

PLAYER_NAME(ManyUnits);

void run(void)
{
	volatile char big[192 * 1024];
	memset((char *)big, uc_getInfo().id & 0xff, sizeof big);
	int id = uc_getInfo().id, born = uc_read(1);
	uc_write(1, born + 1);
	for (int turn = 0; turn < 1000000; turn++) {
		for (int d = 0; d < 8; d++)
			if (uc_canSpawn((Direction)d, WORKER))
				uc_spawn((Direction)d, WORKER);
		if (born % 2 == 1 && turn == 3)
			return;
		if (turn % 100 == 0)
			printf("unit %d alive in round %d\n", id, uc_getRound());
		uc_yield();
	}
}
