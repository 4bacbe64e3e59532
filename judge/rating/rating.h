/* rating.h - player ratings: OpenSkill (Weng-Lin, Plackett-Luce model).
 *
 * Promises: one call rates one free-for-all match of 2..RATING_MAX_PLAYERS
 * players (teams of one) from their ranks, ties included; the result depends
 * only on each player's (rating, rank), bit for bit: not on the order of the
 * players in the arrays, not on earlier calls (no global state).  The update
 * never allocates.  Bad input is rejected with an error code and the output
 * left untouched; an accepted update's output is finite with sigma > 0, so
 * it is always valid input for the next update.
 */
#ifndef JUDGE_RATING_H
#define JUDGE_RATING_H

#include <stddef.h>

/* Large enough for any free-for-all game we run; the scratch space of an
 * update lives on the stack and grows with this. */
#define RATING_MAX_PLAYERS 256

/* A belief about a player's skill: a normal distribution N(mu, sigma^2). */
struct rating {
	double mu;
	double sigma;
};

/* Every field means exactly its value: tau 0 is no drift, not "default". */
struct rating_params {
	double mu;    /* a new player's mu (default 25) */
	double sigma; /* a new player's sigma (default 25/3) */
	double beta;  /* performance noise within one match (default 25/6) */
	double kappa; /* floor of the factor sigma^2 may shrink by (1e-4) */
	double tau;   /* skill drift between matches, added to sigma (25/300) */
};

enum rating_error {
	RATING_OK = 0,
	RATING_EARG = -1,    /* a NULL pointer */
	RATING_EPARAMS = -2, /* beta <= 0, kappa not in (0,1], tau < 0, NaN.. */
	RATING_ECOUNT = -3,  /* fewer than 2 or more than RATING_MAX_PLAYERS */
	RATING_ERANK = -4,   /* a rank below 1 */
	RATING_EMU = -5,     /* a mu that is NaN or infinite */
	RATING_ESIGMA = -6,  /* a sigma that is <= 0, NaN or infinite */
	RATING_ERANGE = -7,  /* inputs so extreme the result would overflow */
};

struct rating_params rating_params_default(void);

/* RATING_OK or RATING_EPARAMS: every field finite, sigma > 0, beta > 0,
 * 0 < kappa <= 1, tau >= 0. */
int rating_params_check(const struct rating_params *p);

/* A new player's rating: (p->mu, p->sigma). */
struct rating rating_initial(const struct rating_params *p);

/* The leaderboard value: mu - 3 sigma, a skill the player very likely has. */
double rating_score(struct rating r);

/* Rates one match.  before[i] and rank[i] describe player i; rank 1 is the
 * best, equal ranks are ties, and only the order of ranks matters (1,3,3,4
 * and 1,2,2,3 are the same result).  Writes after[i]; after may be before.
 * Returns RATING_OK or a negative enum rating_error, writing nothing. */
int rating_update(const struct rating_params *p, size_t n,
		  const struct rating *before, const int *rank,
		  struct rating *after);

/* A short English description of a rating_update / rating_params_check
 * return value; never NULL. */
const char *rating_strerror(int err);

#endif
