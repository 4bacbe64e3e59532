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
#include "judge/event/bracket.h"
#include "judge/event/elimination.h"
#include "judge/event/points.h"
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
	struct err *err;
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
/* message (one of ours: the store's errors go to c->err directly) as the
 * run's error; -1. */
int run_failed(struct ctx *c, const char *message);
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

/* The seeds the draws follow: an elimination round's (run.c), and a
 * group or bracket phase's for `what` ("groups", "final", "bracket"). */
uint64_t run_round_seed(uint64_t seed, int phase, int round);
uint64_t run_phase_seed(uint64_t seed, int phase, const char *what);
/* The phase's seeding (entrant ids, best first) as the log (store_tournament_history)
 * kept it: a new reference, or NULL when not seeded yet. */
json_t *run_seeding_of(json_t *log, int phase);

/* Round-robin groups dealt from a seeding in a snake: seeds 1..G go to
 * groups 1..G, the next G back from G to 1, so every group gets a fair
 * share of the strong and the weak.  -1 when more than RUN_GROUPS_MAX. */
#define RUN_GROUPS_MAX 64
struct run_groups {
	int count;
	int size[RUN_GROUPS_MAX];
	int64_t member[RUN_GROUPS_MAX][PTS_SEATS_MAX];
};
int run_deal(const int64_t *seeded, int n, int size, struct run_groups *g);
/* The recorded matches of group grp among one round's rows
 * (store_tmatch_round) into m[], seats and ranks as played: how many. */
int run_group_results(json_t *rows, int grp, struct pts_match *m, int cap);

/* A round's recorded matches (store_tmatch_round's rows) as the rule
 * reads them: an elimination's results, a bracket's games (a game's winner:
 * the seat ranked first alone; a tie is a draw).  malloc'd with *n; NULL
 * when out of memory. */
struct elim_result *run_elim_results(json_t *rows, int *n);
struct brk_game *run_bracket_games(json_t *rows, int *n);
int64_t run_game_winner(json_t *row);

/* The group and bracket phases (run_finals.c): 1 moved on, 0 waits for
 * results, 2 the phase is over, -1 error. */
int run_step_groups(struct ctx *c, const struct tour_phase *p);
int run_step_bracket(struct ctx *c, const struct tour_phase *p);

#endif
