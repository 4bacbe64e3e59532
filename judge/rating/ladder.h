/* ladder.h - a ranked match's result applied to the ladder, inside the
 * transaction that records the match.
 *
 * Promises: when every seat is still in the ranked pool, each seat's
 * rating is updated (OpenSkill, rating.h), its games, wins and games by
 * match size counted, the match marked rated, and a rank.changed event
 * recorded for each seat whose leaderboard place (store_board_place) moved,
 * with the places before and after the match.  The places are read only
 * when an endpoint listens for rank.changed: with nobody listening, no
 * event is recorded and the ladder costs the same whatever the field's
 * size.  A seat that left the pool while the match ran leaves the match
 * unrated, nothing written.
 */
#ifndef JUDGE_LADDER_H
#define JUDGE_LADDER_H

#include <stdint.h>

#include "judge/base/hook_config.h"
#include "judge/store/store.h"

struct ladder_seat {
	int64_t submission;
	const char *name; /* as the events name the player */
	int rank;         /* 1 = best; ties share */
};

/* 1 rated, 0 not rated (a seat left the pool), -1 with err. */
int ladder_rate(struct store *s, const struct hook_config *hc, int64_t match, const char *game,
		const struct ladder_seat *seats, int n, err_t err);

#endif
