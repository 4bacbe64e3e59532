/* Null: gives no orders at all.  Copy it to start your own player. */
#include "ants.h"

PLAYER_NAME(Null);

void play(void)
{
}
