/* Null: gives no orders at all, so its ships fly on by default.  Copy it to
 * start your own player. */
#include "starwar.h"

PLAYER_NAME(Null);

void play(void)
{
}
