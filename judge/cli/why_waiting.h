/* why_waiting.h - why a submission does not move: the words `judge status`
 * and `judge submit --wait` show when nothing seems to happen.
 *
 * Promise: why_waiting() reads the store only; it names the one cause a
 * person can act on: no worker has taken a job for STORE_STALL_MS (start
 * one), or, for a qualified player, why no ranked match can be scheduled
 * (too few qualified players, every player has its minimum of games).
 */
#ifndef JUDGE_WHY_WAITING_H
#define JUDGE_WHY_WAITING_H

#include <stddef.h>

#include "judge/store/store.h"

/* 1 with the reason in out, 0 when nothing is stuck, -1 when the store
 * fails.  state: the submission's; queue: the path to name in advice. */
int why_waiting(struct store *s, const char *queue, const char *state, const char *game,
		int min_games, char *out, size_t size);

#endif
