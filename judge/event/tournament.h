/* tournament.h - what a tournament is: its phases and their settings, read
 * from the organiser's JSON, and the grades it gives.
 *
 * A tournament has a game, a name, settings and phases in order; each
 * phase takes its entrants from the one before (all of them, the top N,
 * or the survivors) and starts at a set time or by hand.  Phases:
 *
 *   qualification  the course's steps (a match of copies of the player,
 *                  then `matches` matches against `opponent`s, `wins`
 *                  of them won); uploads close at `deadline`
 *   ladder         rated matches, as the judge plays them anyway
 *   elimination    rounds of the course's rule until `remain` are left
 *                  (elimination.h), `opponent` filling the groups
 *   round-robin    groups of `size` playing `matches` each, points per
 *                  place (points.h); with `final`, the group winners play
 *                  a final group of `final` matches
 *   bracket        single or double elimination, best of `best_of`
 *                  (bracket.h), for two-player games
 *
 * Promises.  tour_spec_parse() accepts only what it can run and says what
 * is wrong in the organiser's words, naming the phase and the setting; a
 * parsed spec is plain data (no pointers into the JSON).  tour_grade() is
 * the settings' mapping and nothing else: not qualified, a confirmed copy,
 * out in round k of R, or a finalist.
 */
#ifndef JUDGE_TOURNAMENT_H
#define JUDGE_TOURNAMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/event/bracket.h"
#include "judge/event/elimination.h"
#include "judge/base/error.h"

#define TOUR_PHASES_MAX 8
#define TOUR_NAME_MAX 64

enum tour_kind { TOUR_QUALIFICATION, TOUR_LADDER, TOUR_ELIMINATION, TOUR_ROUND_ROBIN,
		 TOUR_BRACKET };

/* Who a phase takes from the one before it. */
enum tour_from { TOUR_FROM_ALL, TOUR_FROM_TOP, TOUR_FROM_SURVIVORS };

struct tour_phase {
	enum tour_kind kind;
	enum tour_from from;
	int top;                      /* TOUR_FROM_TOP: how many */
	int64_t starts_at;            /* ms since the epoch; 0: by hand */
	char opponent[TOUR_NAME_MAX]; /* qualification, elimination: a shipped or organiser's player */
	/* qualification */
	int64_t deadline;             /* uploads close; 0: never */
	bool survivors_upload;        /* after it, students still in may upload (the course) */
	bool self_match;              /* first a match of copies of the player */
	int matches, wins;
	/* elimination */
	struct elim_rules elim;
	int remain;
	int64_t round_gap_ms;         /* 0: rounds back to back */
	/* round robin */
	int size, final_matches;
	/* bracket */
	struct brk_rules bracket;
};

struct tour_grades {
	double not_qualified, qualified, max, copy;
};

struct tour_spec {
	struct tour_grades grades;
	bool newest_if_unpicked; /* a student who picked no representative: newest qualified, or out */
	bool pseudonyms;         /* public pages show pseudonyms, not authors */
	int nphases;
	struct tour_phase phase[TOUR_PHASES_MAX];
};

/* The course's tournament for a game of `seats` players: qualification
 * (copies, then 4 wins of 4 against Dummy), elimination to 11, a final of
 * 4 groups of 4 and a final group (4/3/2/1 points). */
void tour_spec_course(struct tour_spec *spec);

/* Fills spec from the organiser's JSON, checked against a game of
 * min_seats..max_seats players.  0, or -1 with err. */
int tour_spec_parse(const json_t *json, int min_seats, int max_seats, struct tour_spec *spec,
		    err_t err);

/* The spec as JSON, as tour_spec_parse reads it (a round trip). */
json_t *tour_spec_json(const struct tour_spec *spec);

const char *tour_kind_name(enum tour_kind kind);

/* A student's grade: not qualified, a confirmed copy, out in round `out`
 * (1-based) of `rounds`, or a finalist (out == 0 and qualified). */
double tour_grade(const struct tour_grades *g, bool qualified, bool copy, int out, int rounds);

#endif
