/* Reaches for the kit's own names: its world copy and the rules, whose
 * direct calls would spend no energy.  The kit keeps them local, so the
 * link fails. */
#include "aic2018.h"

PLAYER_NAME(Internals);

struct aic_world;
int aic_move(struct aic_world *w, int slot, int dir);
extern char kit[];

void run(void)
{
	for (;;) {
		aic_move((struct aic_world *)(void *)kit, 0, 0);
		uc_yield();
	}
}
