/* The public course Demo that is taken for Dominator's, its logic written
 * again for this kit so that bench/fidelity.c can play it.  That AIDemo.cc
 * orders every farmer and knight `Dir(1 + random() % 4)` and its witches
 * nothing; it was written for the course's earlier farmers-and-knights game,
 * whose directions are None, Top, Bottom, Left, Right, so the order is a
 * random straight step.  (Compiled against Dominator's own directions, the
 * same expression would mean BR, Right, RT or Top.)  Dominator's own Demo is
 * not public.
 */
#include "dominator.h"

PLAYER_NAME(PublicDemo);

static void step_at_random(Ids units)
{
	for (int k = 0; k < units.n; ++k)
		command(units.id[k], (Dir)(2 * random_int(0, 3)));
}

void play(void)
{
	step_at_random(farmers(me()));
	step_at_random(knights(me()));
}
