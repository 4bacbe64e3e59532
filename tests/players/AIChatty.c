/* Writes debugging output every round, with printf and to stderr: none of
 * it may reach the game, and its log keeps it. */
#include <stdio.h>

#include "dominator.h"

PLAYER_NAME(Chatty);

void play(void)
{
	printf("round %d\n", current_round());
	fprintf(stderr, "farmers %d\n", farmers(me()).n);
}
