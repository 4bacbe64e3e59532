/* Does not compile. */
#include "dominator.h"

PLAYER_NAME(Broken);

void play(void)
{
	undeclared_function(42);
}
