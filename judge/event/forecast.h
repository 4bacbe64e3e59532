/* forecast.h - how many matches a tournament phase needs and how long it
 * takes on W worker slots, before it is run.
 *
 * Promises.  A phase whose format fixes its matches (round-robin groups)
 * is counted exactly.  A phase whose length depends on results (an
 * elimination's stages, a bracket's series and resets) is played many
 * times through the very rules that will run it (elimination.h,
 * bracket.h), with random results, and the mean is given; `exact` says
 * which.  Time is counted in waves: the matches that may run at once
 * (one stage of an elimination round, the series ready in a bracket) take
 * ceil(matches / slots) match times, and a wave starts only when the one
 * before is recorded, as the tournament runs them.  So the time is waves
 * times the game's mean match time, which the caller measures.
 */
#ifndef JUDGE_FORECAST_H
#define JUDGE_FORECAST_H

#include <stdbool.h>
#include <stdint.h>

#include "judge/event/bracket.h"
#include "judge/event/elimination.h"
#include "judge/base/error.h"


struct forecast {
	double matches;  /* mean over the trials, or the exact count */
	double waves;    /* match times on the given slots, one after another */
	double rounds;   /* elimination rounds, bracket waves */
	bool exact;
};

/* Elimination rounds from `entrants` students until `remain` are left. */
int forecast_elimination(const struct elim_rules *rules, int entrants, int remain, int slots,
			 int trials, uint64_t seed, struct forecast *out,
			 err_t err);

/* `groups` groups of `size` players, `matches` matches each, all at once;
 * then, if final_matches > 0, one final group of the group winners. */
int forecast_groups(int groups, int size, int matches, int final_matches, int slots,
		    struct forecast *out, err_t err);

int forecast_bracket(const struct brk_rules *rules, int entrants, int slots, int trials,
		     uint64_t seed, struct forecast *out, err_t err);

#endif
