/* store_tournament.h - tournaments as the store keeps them: the
 * tournament, its entrants, its planned and played matches, its log.
 *
 * The store only keeps; judge/event/ decides (which matches come next,
 * who is out).  Promises.  A planned match is queued and recorded once:
 * its place (tournament, phase, round, stage, group, game) is the key of
 * its row, and the row, its job and the job's payload are written in one
 * statement group inside the caller's transaction, so planning the same
 * match twice queues nothing the second time.  A match's result is linked
 * to its planned row in the transaction that records the result.
 */
#ifndef JUDGE_STORE_TOURNAMENT_H
#define JUDGE_STORE_TOURNAMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/store/store.h"

struct store_tournament {
	int64_t id;
	char game[32];
	char name[64];
	json_t *spec; /* owned; store_tournament_clear() frees it */
	uint64_t seed;
	int phase, round;
	int64_t started_at; /* 0: the phase under way has not started */
	int64_t created_at;
};
void store_tournament_clear(struct store_tournament *t);

/* 0 and *id; -1 with err, storing nothing, when the name is taken. */
int store_tournament_create(struct store *s, const char *game, const char *name,
			    const json_t *spec, uint64_t seed, int64_t *id, err_t err);
/* By name, or by id when name is NULL: 1 found, 0 none, -1 error. */
int store_tournament_get(struct store *s, int64_t id, const char *name,
			 struct store_tournament *out, err_t err);
/* Every tournament: [{id, game, name, phase, round, started_at, created_at,
 * over}]. */
int store_tournament_list(struct store *s, json_t **out, err_t err);
/* The phase and round under way, and when the phase started (0: not yet). */
int store_tournament_move(struct store *s, int64_t id, int phase, int round, int64_t started_at,
			  err_t err);

/* Replaces the spec (the organiser swapped a phase's opponent); the
 * number of phases stays. */
int store_tournament_set_spec(struct store *s, int64_t id, const json_t *spec,
			      err_t err);

/* 1 added, 0 already an entrant (group and pseudonym updated), -1 error. */
int store_entrant_add(struct store *s, int64_t tournament, const char *author, const char *group,
		      const char *pseudonym, err_t err);
/* [{id, author, group, pseudonym, representative, name, state, out_phase,
 *   out_round, place, score}], by id; name and state are the representative's,
 * score its leaderboard score (mu - 3 sigma; null unrated). */
int store_entrants(struct store *s, int64_t tournament, json_t **out, err_t err);
/* Sets the representative.  1 done; 0 with err saying why not (not an
 * entrant, not the author's, another game, not qualified). */
int store_entrant_pick(struct store *s, int64_t tournament, const char *author,
		       int64_t submission, err_t err);
int store_entrant_out(struct store *s, int64_t entrant, int phase, int round,
		      err_t err);
/* The entrant's place in the last group or bracket phase played. */
int store_entrant_place(struct store *s, int64_t entrant, int place, err_t err);

struct store_tmatch {
	int phase, round, stage, group, game_no;
};

/* Inside a transaction: queues the planned match (a match job of class
 * SCHED_TOURNAMENT with payload, claimable from not_before) unless it is
 * planned already.  1 queued,
 * 0 already planned, -1 error. */
int store_tmatch_plan(struct store *s, int64_t tournament, const struct store_tmatch *at,
		      const json_t *seats, uint64_t seed, const char *payload, int64_t not_before,
		      err_t err);
/* Inside the transaction recording match_id of job: links the result to
 * its planned row.  1 linked, 0 the job is no tournament's, -1 error. */
int store_tmatch_record(struct store *s, int64_t job, int64_t match_id, err_t err);
/* A round's planned matches: [{round, stage, group, game_no, seats, seed,
 * match, scores, ranks}], match null and scores and ranks empty until
 * played; in the order of their place. */
int store_tmatch_round(struct store *s, int64_t tournament, int phase, int round, json_t **out,
		       err_t err);
/* Every round's, the same way (what a page shows of a phase). */
int store_tmatch_phase(struct store *s, int64_t tournament, int phase, json_t **out,
		       err_t err);
/* The tournament a match job belongs to: 1 with *tournament, 0 none. */
int store_tmatch_of_job(struct store *s, int64_t job, int64_t *tournament,
			err_t err);

/* Inside a transaction: holds the lock match results are recorded under
 * (PostgreSQL; SQLite's write transaction is one already), so one
 * process at a time moves a tournament on. */
int store_tournament_lock(struct store *s, err_t err);

/* The mean wall time, in ms, of the game's last `last` matches whose time
 * was measured, and how many that was (0: none). */
int store_match_time(struct store *s, const char *game, int last, double *mean_ms, int *n,
		     err_t err);

/* Appends to the tournament's log (data: a JSON object, borrowed). */
int store_tournament_log(struct store *s, int64_t tournament, const char *what,
			 const json_t *data, err_t err);
/* [{what, data, at}], oldest first. */
int store_tournament_history(struct store *s, int64_t tournament, json_t **out,
			     err_t err);

#endif
