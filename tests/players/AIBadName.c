/* A name with a space in it: the judge refuses it. */
#include "dominator.h"

const char player_name[] = "Bad Name";

void play(void)
{
}
