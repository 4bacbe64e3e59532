/* run_int.h - what the phases of run.c and run_finals.c share: the
 * tournament being moved on, and the few steps every phase takes (say
 * what changed, log it, move the phase or round, read the field, plan a
 * match).  Internal to judge/event/. */
#ifndef JUDGE_EVENT_RUN_INT_H
#define JUDGE_EVENT_RUN_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "judge/event/run.h"
#include "judge/event/tournament.h"
#include "judge/store/store_tournament.h"

struct ctx {
	struct store *s;
	struct store_tournament t;
	struct tour_spec spec;
	const struct game *game;
	int64_t now;
	char *note;
	size_t cap;
	char *err;
};

/* The entrants still in, with a representative: ids[] and reps[]. */
struct field {
	int64_t *ids, *reps;
	const char **authors;
	int n;
	json_t *rows;
};


__attribute__((format(printf, 2, 3)))
void run_say(struct ctx *c, const char *fmt, ...);
/* The store's error as ours; -1. */
int run_failed(struct ctx *c, const char *serr);
/* Appends to the tournament's log (data consumed). */
int run_log(struct ctx *c, const char *what, json_t *data);
int run_move(struct ctx *c, int phase, int round, int64_t started_at);
int run_end_phase(struct ctx *c);
/* The entrants still in with a representative, in entry order. */
int run_load_field(struct ctx *c, struct field *f);
void run_field_free(struct field *f);
int64_t run_rep_of(const struct field *f, int64_t entrant);
const char *run_author_of(const struct field *f, int64_t entrant);
/* Queues the match at `at` (unless planned already): who[k] is the entrant
 * in seat k, 0 for the phase's opponent. */
int run_plan_seats(struct ctx *c, const struct field *f, const struct store_tmatch *at,
		   const int64_t *who, int nseats, uint64_t seed, int64_t not_before);

/* The group and bracket phases (run_finals.c): 1 moved on, 0 waits for
 * results, 2 the phase is over, -1 error. */
int run_step_groups(struct ctx *c, const struct tour_phase *p);
int run_step_bracket(struct ctx *c, const struct tour_phase *p);

#endif
