/* Gives 1001 orders in round 3: the game aborts it there. */
#include "dominator.h"

PLAYER_NAME(Orders1001);

void play(void)
{
	if (current_round() != 3)
		return;
	Ids f = farmers(me());
	for (int k = 0; k < 1001; ++k)
		command(f.id[k % f.n], None);
}
