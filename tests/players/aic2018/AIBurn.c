/* Every unit spends all its energy every round (spawning workers while
 * the wood lasts): a team that uses its whole allowance, legitimately. */
#include "aic2018.h"
PLAYER_NAME(Burn);
void run(void)
{
	for (;;) {
		for (int d = 0; d < 8; d++)
			if (uc_getRound() < 100 && uc_canSpawn((Direction)d, WORKER))
				uc_spawn((Direction)d, WORKER);
		while (uc_getEnergyLeft() > 50)
			;
		uc_yield();
	}
}
