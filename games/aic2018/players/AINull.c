/* Null: every unit ends its turn at once, forever.  Copy it to start your
 * own player. */
#include "aic2018.h"

PLAYER_NAME(Null);

void run(void)
{
	for (;;)
		uc_yield();
}
