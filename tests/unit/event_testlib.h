/* event_testlib.h - a simulated worker for the tournament tests: players
 * of authors s1, s2... qualified straight in the store, a tournament of
 * them with representatives, and match jobs claimed and recorded as the
 * worker does (store_claim, the match, event_match_recorded, one
 * transaction), the scores made up from the players' strengths.  A
 * failure fails the Criterion test.
 *
 * Strengths: player N's is N * 7 % 100 (strengths mix), the opponent's 50,
 * plus a little luck from the match seed; with favourites, the smaller
 * number always wins. */
#ifndef EVENT_TESTLIB_H
#define EVENT_TESTLIB_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/store/store.h"

struct event_sim {
	const char *game; /* of the players made next and of the matches recorded */
	bool favourites;
};

/* A qualified player "PN" of author "sN": its submission id. */
int64_t event_sim_player(struct store *s, const struct event_sim *sim, int n);
/* A tournament of spec (consumed) with students s1..sn, each represented
 * by its newest player (made when missing); started at time 1000. */
int64_t event_sim_tournament(struct store *s, const struct event_sim *sim, const char *name,
			     json_t *spec, int n, uint64_t seed);
/* Claims one tournament job and records a result, committed or (commit
 * false: a worker killed before its commit) rolled back.  0 when no job
 * waits. */
int event_sim_play(struct store *s, const struct event_sim *sim, bool commit);
/* Plays at most `most` jobs, fewer when none waits: how many. */
int event_sim_run(struct store *s, const struct event_sim *sim, int most);

#endif
