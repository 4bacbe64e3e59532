/* run.h - moves tournaments on from what the store records.
 *
 * The rules are pure (elimination.h, bracket.h, points.h); this is the
 * glue: it reads a tournament, its entrants and its recorded matches from
 * the store, asks the rule what comes next, and writes that back: the
 * matches to play (queued as tournament work, sched.h), who is out, a
 * phase's end, in the log of the tournament.
 *
 * Promises.  Every function runs inside the caller's transaction and
 * takes the tournament's lock first, so the match that decides a round,
 * the entrant put out and the next round's matches are one commit: a
 * worker killed at any instant loses nothing and records nothing twice.
 * Planning is idempotent (a planned match is never queued again), and
 * every draw follows from the tournament's seed, so a tournament run
 * again from the same record and seed makes the same draws.  A round
 * never starts before the one before it is recorded whole.
 */
#ifndef JUDGE_EVENT_RUN_H
#define JUDGE_EVENT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/store.h"
#include "judge/base/error.h"


/* After the match of job was recorded as match_id: links it to its planned
 * place and moves its tournament on; note says what changed ("round 3:
 * Frodo is out").  1 it was a tournament's, 0 it was not, -1 error. */
int event_match_recorded(struct store *s, int64_t job, int64_t match_id, char *note,
			 size_t cap, err_t err);

/* Moves the tournament on as far as its record allows: starts the phase
 * whose time has come, plans what can be played, puts out who lost a
 * round, ends a phase whose goal is met.  now: the time to compare start
 * times with.  0, or -1 with err. */
int event_advance(struct store *s, int64_t tournament, int64_t now, char *note, size_t cap,
		  err_t err);

/* The organiser starts the phase under way now, by hand.  1 started, 0 it
 * had started already or the tournament is over (err says which), -1. */
int event_start(struct store *s, int64_t tournament, int64_t now, err_t err);

/* Whether author may upload to game now: uploads close at a tournament's
 * qualification deadline, except (unless the spec says otherwise) for the
 * students still in it.  1 closed, with why saying since when and what
 * still happens; 0 open; -1 error. */
int event_uploads_closed(struct store *s, const char *game, const char *author, int64_t now,
			 err_t why);

/* The steps a new submission of a game is qualified by while a
 * tournament of that game runs from its qualification phase on (under
 * way, waiting to start, or before the phase under way; the last such):
 * self_match, then `matches` against `opponent`, `wins` of them won. */
struct event_qualify {
	char tournament[64];
	bool self_match;
	int matches, wins;
	char opponent[64];
};
/* 1 with *q, 0 no tournament qualifies the game now (the judge's own
 * worker.qualify_* apply), -1 with err. */
int event_qualification(struct store *s, const char *game, struct event_qualify *q,
			err_t err);

/* The organiser swaps the opponent of phase `phase` (0-based; -1: the
 * phase under way, or the next one, that plays one) for `player`, a name
 * the caller checked is one the game can play (shipped or a reference
 * player).  The swap is in the tournament's log ("opponent": of_phase, round,
 * from, to) and counts from the next match planned.  1 done with *phase
 * set; 0 refused (err says why); -1 error. */
int event_swap_opponent(struct store *s, int64_t tournament, int *phase, const char *player,
			err_t err);

#endif
