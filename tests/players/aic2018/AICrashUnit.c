/* The first unit spawns one worker and plays on; the worker writes through
 * a null pointer in round 7 (its unit dies, its team plays on).  Each says
 * who it is in the log, so that a test can check the match's record. */
#include <stdio.h>

#include "aic2018.h"

PLAYER_NAME(CrashUnit);

static void worker(void)
{
	for (;;) {
		if (uc_getRound() == 7) {
			printf("unit %d writes through a null pointer in round %d\n", uc_getInfo().id,
			       uc_getRound());
			volatile int *nowhere = NULL;
			*nowhere = 7; /* the deliberate crash */
		}
		uc_yield();
	}
}

void run(void)
{
	if (uc_read(0))
		worker();
	uc_write(0, 1);
	for (;;) {
		for (int d = 0; uc_read(1) == 0 && d < 8; d++)
			if (uc_canSpawn((Direction)d, WORKER) && uc_spawn((Direction)d, WORKER))
				uc_write(1, 1);
		uc_yield();
	}
}
