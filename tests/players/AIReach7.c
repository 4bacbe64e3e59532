/* Writes far past the end of an array in round 7: frozen there as a crash,
 * which `judge repro --asan` reports with this file's line.  Only course.h
 * calls: with starwar.h (or ants.h) included instead, it plays those too. */
#include "dominator.h"

PLAYER_NAME(Reach7);

static volatile int cells[16];

void play(void)
{
	volatile int at = current_round() == 7 ? 1 << 28 : 0;
	cells[at] = 1;
}
