/* Writes far past the end of an array on its eighth turn (round 7): frozen
 * there as a crash, which `judge repro --asan` reports with this file's
 * line.  It counts its own turns, so only a program given every turn
 * before that one crashes on it.  Only course.h calls: with starwar.h (or
 * ants.h) included instead, it plays those games too. */
#include "dominator.h"

PLAYER_NAME(Reach7);

static volatile int cells[16];
static int turns;

void play(void)
{
	volatile int at = ++turns == 8 ? 1 << 28 : 0;
	cells[at] = 1;
}
