/* elimination.h - one round of the course's elimination, as a pure function.
 *
 * The rule (the course's, for games of four): the round's survivors are
 * grouped `seats` at a time at random, Dummies filling the last group; in
 * each match a student who scores better than `beats` of its rivals
 * (Dummies included) is safe for the round.  The students not yet safe are
 * grouped again the same way, stage after stage, while more than `seats`
 * of them remain.  Then those left play among themselves, Dummies filling
 * the seats, until one finishes behind every other student of its match
 * (Dummies not counted): that student is out, and the round is over.
 *
 * Promises.  elim_plan() reads nothing but its arguments: the survivors,
 * the round's seed and the results recorded so far, in any order.  It says
 * which matches of the current stage still wait for a result (each with its
 * stage, group, seats and seed), or who is out; and since which stage each
 * survivor is safe (as soon as its match of that stage is recorded, before
 * the stage is whole).  The same arguments give the same answer, so a worker
 * killed in the middle of a round loses nothing: the plan is computed
 * again from what was recorded.  A stage's matches are planned together
 * (they may play in parallel) and a stage is planned only once the one
 * before it is recorded whole.  A round that makes no progress for
 * `max_stages` stages (players that always tie) ends by a draw among the
 * students not yet safe, and says so.
 */
#ifndef JUDGE_ELIMINATION_H
#define JUDGE_ELIMINATION_H

#include <stdbool.h>
#include <stdint.h>
#include "judge/base/error.h"

#define ELIM_DUMMY 0 /* a seat filled by the organiser's Dummy; students are > 0 */
#define ELIM_SEATS_MAX 8

struct elim_rules {
	int seats;      /* players per match: 4 in the course games */
	int beats;      /* rivals a student must score better than to be safe: 2 */
	int max_stages; /* then a draw decides (see above) */
};

/* The course's rule: four seats, better than two of three rivals. */
struct elim_rules elim_rules_course(void);

/* A recorded match: its place in the plan and each seat's score, in the
 * planned seat order. */
struct elim_result {
	int stage, group;
	int64_t score[ELIM_SEATS_MAX];
};

/* A match to play: who sits where (ELIM_DUMMY for a Dummy) and its seed. */
struct elim_match {
	int stage, group;
	int64_t who[ELIM_SEATS_MAX];
	uint64_t seed;
};

struct elim_plan {
	int stage;                /* the stage under way, or the one that decided */
	struct elim_match *todo;  /* this stage's matches without a result */
	int ntodo;
	int64_t out;              /* > 0: the round is over and this student is out */
	bool by_draw;             /* out was drawn (max_stages without progress) */
	int *safe_stage;          /* per survivor, in the caller's order: -1 not safe */
};

/* 0 with plan filled (free it with elim_plan_free), or -1 with err: bad
 * rules, fewer than one survivor, a survivor twice or not > 0, a result
 * that fits no planned match. */
int elim_plan(const struct elim_rules *rules, const int64_t *survivors, int n, uint64_t seed,
	      const struct elim_result *results, int nresults, struct elim_plan *plan,
	      err_t err);
void elim_plan_free(struct elim_plan *plan);

#endif
