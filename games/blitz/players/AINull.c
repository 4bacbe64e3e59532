/* Null: gives no moves at all; its pieces stay and grow.  Copy it to start
 * your own player. */
#include "blitz.h"

PLAYER_NAME(Null);

void play(void)
{
}
