/* Every unit but the first recurses without end in its fifth turn (its
 * stack overflows); the first spawns two workers, keeps playing and logs
 * its turns now and then. */
#include <stdio.h>

#include "aic2018.h"

PLAYER_NAME(DeepUnit);

static int deeper(int n)
{
	volatile char pad[256];
	pad[0] = (char)n;
	return n < 1 << 30 ? deeper(n + 1) + pad[0] : 0;
}

void run(void)
{
	bool first = !uc_read(0);
	uc_write(0, 1);
	for (int turn = 0;; turn++) {
		if (!first && turn == 5)
			deeper(0);
		for (int d = 0; first && turn < 40 && d < 8; d++)
			if (uc_canSpawn((Direction)d, WORKER) && uc_spawn((Direction)d, WORKER))
				break;
		if (first && uc_getRound() % 100 == 0)
			printf("survivor acts in round %d\n", uc_getRound());
		uc_yield();
	}
}
