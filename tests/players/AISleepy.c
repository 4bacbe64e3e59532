/* Plays like Null, but sleeps 280 ms every turn: just under a 300 ms wall
 * guard, and using no CPU.  Without a wall budget for the whole match it
 * would hold the match (and a worker) for 200 x 280 ms; the judge must
 * freeze it once its waits add up to the budget. */
#include <time.h>

#include "dominator.h"

PLAYER_NAME(Sleepy);

void play(void)
{
	struct timespec nap = { 0, 280 * 1000 * 1000 };
	nanosleep(&nap, NULL);
}
