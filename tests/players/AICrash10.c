/* Dereferences a null pointer in round 10: frozen there as a crash. */
#include <stddef.h>

#include "dominator.h"

PLAYER_NAME(Crash10);

void play(void)
{
	if (current_round() == 10) {
		volatile int *nowhere = NULL;
		*nowhere = 1;
	}
}
