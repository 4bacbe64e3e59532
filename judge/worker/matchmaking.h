/* matchmaking.h - who plays the next ranked match.
 *
 * Promises: mm_pick chooses k distinct players of a pool for one ranked
 * match in O(n log W + k W) time (n players, window W), reading no global
 * state: the choice depends only on the pool, the parameters and the
 * generator, so one seed replays one schedule.  While newly qualified
 * players are short of the minimum of games, the one with the fewest seeds
 * the match; otherwise the seed is drawn with probability proportional to
 * sigma / (1 + games).  Its opponents are those with the fewest games (ties drawn
 * at random) in a window of the players nearest it in order of mu.  Bad
 * input is rejected with an error code, leaving out and the generator
 * untouched.
 */
#ifndef JUDGE_MATCHMAKING_H
#define JUDGE_MATCHMAKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/kit/rng.h"

/* One ranked player as the scheduler sees it. */
struct mm_player {
	int64_t id;      /* the caller's; breaks ties of mu, nothing else */
	double mu;       /* the rating's mean: decides who is near whom */
	double sigma;    /* its uncertainty: an uncertain player plays more */
	int games;       /* ranked games played so far */
	bool new_player; /* newly qualified: its first min_games come first */
};

struct mm_params {
	/* Opponents come from the window of the W players either side of the
	 * seed in order of mu; at either end of the ladder the window shifts
	 * rather than shrinks, it is widened to hold k - 1 players, and
	 * narrowed to the pool when that is smaller. */
	int window;
	/* The games every player should have: a new player keeps priority
	 * until it has this many, and scheduling may stop once all have. */
	int min_games;
};

enum mm_error {
	MM_OK = 0,
	MM_EARG = -1,    /* a NULL pointer */
	MM_ESIZE = -2,   /* k below 2, or more than INT_MAX players */
	MM_EFEW = -3,    /* fewer than k players */
	MM_EPARAMS = -4, /* window below 1 or min_games below 0 */
	MM_EPLAYER = -5, /* a mu not finite, sigma not > 0, games below 0 */
	MM_ENOMEM = -6,  /* the window's scratch could not be allocated */
};

/* window 10, min_games 25. */
struct mm_params mm_params_default(void);

/* Chooses the next match: out[0] is the seed, out[1..k-1] its opponents,
 * all distinct indices into pool (seating them is the caller's job).
 * Returns MM_OK or a negative enum mm_error, writing nothing. */
int mm_pick(const struct mm_player *pool, size_t n, size_t k,
	    const struct mm_params *p, struct rng *r, size_t *out);

/* True when every player has at least p->min_games games: a tournament
 * with a fixed pool may stop scheduling.  True too for an empty pool and
 * for NULL arguments, as there is then nothing sensible to schedule. */
bool mm_should_stop(const struct mm_player *pool, size_t n,
		    const struct mm_params *p);

/* A short English description of an mm_pick return value; never NULL. */
const char *mm_strerror(int err);

#endif
