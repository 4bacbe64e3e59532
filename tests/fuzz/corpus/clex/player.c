/* A well-behaved contestant: the game header, standard headers, libm. */
#include "dominator.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *note = "#include \"/etc/passwd\" in a string is fine; so is asm";

int ai_move(int turn)
{
	/* __asm__ in a comment is fine too */
	double r = sqrt((double)dom_score(turn + 1));
	return (int)lround(r) + (int)(strlen(note) > 0) * DOM_BOARD;
}
