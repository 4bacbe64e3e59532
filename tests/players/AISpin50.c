/* Plays like Null until round 50, then thinks forever: the judge must
 * freeze it there, for its CPU budget, and finish the match without it. */
#include "dominator.h"

PLAYER_NAME(Spin50);

void play(void)
{
	if (current_round() < 50)
		return;
	volatile unsigned long n = 0;
	for (;;)
		n++;
}
