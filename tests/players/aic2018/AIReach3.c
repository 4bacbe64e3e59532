/* Each unit writes far past the end of an array on its fourth turn: the
 * team is frozen there as a crash, which `judge repro --asan` reports with
 * this file's line.  The turns are counted by the unit itself, so only a
 * program given every step before reaches it. */
#include "aic2018.h"

PLAYER_NAME(Reach3);

void run(void)
{
	volatile int cells[16];
	for (int turn = 1;; turn++) {
		volatile int at = turn == 4 ? 1 << 28 : 0;
		cells[at] = turn;
		uc_yield();
	}
}
