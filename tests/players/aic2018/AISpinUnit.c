/* One unit (the first to claim it through the team array) spawns a
 * worker, then spins forever without yielding and says, each time it finds itself in a new round,
 * how far it got; every other unit logs its turn and yields. */
#include <stdio.h>

#include "aic2018.h"

PLAYER_NAME(SpinUnit);

static void spin(void)
{
	for (int d = 0; d < 8; d++)
		if (uc_canSpawn((Direction)d, WORKER) && uc_spawn((Direction)d, WORKER))
			break;
	long steps = 0;
	int last = -1;
	for (;;) {
		steps++;
		int r = uc_getRound();
		if (r != last) {
			printf("spinner round %d steps %ld\n", r, steps);
			last = r;
		}
	}
}

void run(void)
{
	if (!uc_read(0)) {
		uc_write(0, 1);
		spin();
	}
	for (;;) {
		printf("unit %d acts in round %d\n", uc_getInfo().id, uc_getRound());
		for (int d = 0; d < 8; d++)
			if (uc_canSpawn((Direction)d, WORKER) && uc_getRound() < 50)
				uc_spawn((Direction)d, WORKER);
		uc_yield();
	}
}
