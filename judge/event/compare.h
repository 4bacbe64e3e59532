/* compare.h - is a contestant's new version better than an older one?
 *
 * A comparison plays both versions against the same opponents, on the
 * same seeds, from the same seat (paired): pair k is two matches that
 * differ only in which version sits in the seat, so what the opponents
 * and the seed do to a player cancels out of the difference.  Reported:
 * the difference in win rate (a win is rank 1) and in mean rank, each
 * with a 95% confidence interval from the pairs' differences (Student's
 * t, n - 1 degrees of freedom).
 *
 * Promises.  Both versions are the same author's, of one game, compiled.
 * Opponents are other authors' qualified players (different ones from
 * pair to pair, in turn), the seats left over the shipped Demo; the
 * version's seat moves round the board.  Every match is queued in one
 * transaction as comparison work (sched.h: below qualifying and ranked
 * work), recorded as kind 'comparison', never rated, seen only by the
 * authors who played and organisers.
 */
#ifndef JUDGE_EVENT_COMPARE_H
#define JUDGE_EVENT_COMPARE_H

#include <stdint.h>

#include "judge/store/store.h"
#include "judge/base/error.h"

#define COMPARE_PAIRS_MAX 200

/* The mean of n differences and its 95% interval [low, high]; with fewer
 * than 2 the interval is unknown (low and high are NaN). */
struct compare_interval {
	int n;
	double mean, low, high;
};
void compare_interval(const double *d, int n, struct compare_interval *out);

/* Queues a comparison of submission a with submission b (both author's):
 * pairs pairs of matches.  0 and *id; 1 refused (err says why: not
 * author's, not compiled, other games, too many pairs); -1 the store
 * failed (err). */
int compare_queue(struct store *s, const char *author, int64_t a, int64_t b, int pairs,
		  int64_t *id, err_t err);
/* The same inside the caller's transaction (a refusal writes nothing; the
 * caller rolls back after -1). */
int compare_queue_within(struct store *s, const char *author, int64_t a, int64_t b, int pairs,
			 int64_t *id, err_t err);

/* What the comparison's recorded pairs say: pairs whose both matches are
 * played count; wins: a's win (0/1) minus b's; rank: a's rank minus b's
 * (below 0: a places better). */
struct compare_summary {
	int64_t id, a, b;
	char author[64];
	int queued_pairs;
	struct compare_interval wins, rank;
};
/* 1 with *out, 0 no such comparison, -1 with err. */
int compare_read(struct store *s, int64_t id, struct compare_summary *out,
		 err_t err);
/* The summary as JSON: {comparison, a, b, queued_pairs, wins: {pairs,
 * mean, low, high}, rank: {...}} (low, high null when unknown). */
struct json_t *compare_json(const struct compare_summary *c);

#endif
