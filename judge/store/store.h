/* store.h - the judge's SQLite store: submissions, jobs, matches, ratings.
 *
 * Promises.  One file is the whole truth (db/schema.sql; the schema is
 * created on first open and migrated forward on open).  It runs in WAL mode
 * with a busy timeout, foreign keys on, so several workers may share it;
 * every write that must be whole (a submission and its compile job; a
 * match result, its players, its replay and the rating updates) is one
 * transaction.  A job is claimed inside a write transaction with a lease;
 * an expired lease makes it claimable again; completing a job, or
 * recording a match, checks the worker still holds it, and a match result
 * is recorded at most once per job (matches.job_id is unique).  A file that
 * is not a judge database is refused, never written.  Errors come back as
 * -1 with a message a person can act on.
 */
#ifndef JUDGE_STORE_H
#define JUDGE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_ERRLEN 256
#define STORE_DEFAULT_PATH "db/jobs.sqlite"

struct store;

enum store_sync { STORE_SYNC_NORMAL, STORE_SYNC_FULL };

/* Opens path; creates it (and its schema) only when create is true.  NULL
 * with err filled for a missing, unreadable, read-only or foreign file. */
struct store *store_open(const char *path, bool create, char err[STORE_ERRLEN]);
void store_close(struct store *s);
int store_set_sync(struct store *s, enum store_sync mode, char err[STORE_ERRLEN]);

int64_t store_now_ms(void);

/* ---- submissions -------------------------------------------------------- */

struct store_new_submission {
	const char *game, *author, *name;
	const char *source;
	size_t source_len;
	const char *source_sha256;
};

/* Stores the submission and its compile job in one transaction.  Refuses,
 * storing nothing, a name another author already uses in this game. */
int store_submit(struct store *s, const struct store_new_submission *sub, int64_t *id,
		 char err[STORE_ERRLEN]);

struct store_submission {
	int64_t id;
	char game[32];
	char author[64];
	char name[16];
	char state[16];
	char source_sha256[65];
	char binary_path[4096];
	int64_t created_at, updated_at;
};

/* 1 found, 0 no such submission, -1 error. */
int store_get_submission(struct store *s, int64_t id, struct store_submission *out,
			 char err[STORE_ERRLEN]);

/* The source, malloc'd (the caller frees it). */
int store_get_source(struct store *s, int64_t id, char **src, size_t *len,
		     char err[STORE_ERRLEN]);

int store_set_state(struct store *s, int64_t id, const char *state, const char *binary_path,
		    const char *binary_sha256, const char *compile_log, char err[STORE_ERRLEN]);

/* Inside a transaction: a submission's qualification is over.  Passed, it
 * enters the ranked pool rated (mu, sigma), and the older submissions of
 * its player leave it. */
int store_conclude_qualification(struct store *s, const struct store_submission *sub,
				 bool passed, double mu, double sigma, char err[STORE_ERRLEN]);

/* ---- jobs --------------------------------------------------------------- */

struct store_job {
	int64_t id;
	char kind[16];
	char *payload; /* JSON text, malloc'd; store_job_clear() frees it */
	int attempts;  /* including this one */
};
void store_job_clear(struct store_job *j);

int store_enqueue(struct store *s, const char *kind, const char *payload, int priority,
		  int64_t not_before, int64_t *id, char err[STORE_ERRLEN]);

/* Claims the most urgent claimable job for worker with a lease of
 * lease_ms.  A job past max_attempts is parked on the way, not handed out.
 * 1 claimed, 0 nothing to do, -1 error. */
int store_claim(struct store *s, const char *worker, int64_t lease_ms, int max_attempts,
		struct store_job *job, char err[STORE_ERRLEN]);

/* 0, or -1 when the worker no longer holds the job (its lease expired and
 * somebody else claimed it): the worker must then drop its work. */
int store_renew(struct store *s, int64_t job, const char *worker, int64_t lease_ms,
		char err[STORE_ERRLEN]);
int store_complete(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN]);

/* The job failed: back to the queue, claimable from retry_at, or parked
 * with the error once it has used max_attempts. */
int store_fail(struct store *s, int64_t job, const char *worker, const char *error,
	       int64_t retry_at, int max_attempts, char err[STORE_ERRLEN]);

/* Gives the job back untouched (a worker shutting down). */
int store_release(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN]);

/* How many jobs are still to do: compile and match jobs queued or running,
 * and notify jobs claimable now (a webhook's later retries do not count:
 * a dead endpoint must not keep the judge busy). */
int store_pending(struct store *s, int64_t *count, char err[STORE_ERRLEN]);

/* ---- transactions for the modules built on the store ------------------- */

/* BEGIN IMMEDIATE (waits for the write lock up to the busy timeout). */
int store_begin(struct store *s, char err[STORE_ERRLEN]);
int store_commit(struct store *s, char err[STORE_ERRLEN]);
void store_rollback(struct store *s);

/* The connection, for modules that keep their SQL next to their logic
 * (inside a transaction begun here). */
struct sqlite3 *store_db(struct store *s);

/* Inside a transaction: does worker still hold job? */
int store_holds(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN]);

/* Inside a transaction: marks job done. */
int store_mark_done(struct store *s, int64_t job, char err[STORE_ERRLEN]);

/* ---- ratings and the ranked pool ----------------------------------------- */

struct store_rated {
	int64_t id; /* the submission */
	double mu, sigma;
	int games, wins;
};

/* A game's qualified players with their ratings, by id (malloc'd). */
int store_ranked_pool(struct store *s, const char *game, struct store_rated **out, size_t *n,
		      char err[STORE_ERRLEN]);
/* Ranked matches of the game queued or running: -1 on error. */
int store_ranked_pending(struct store *s, const char *game, char err[STORE_ERRLEN]);
/* Every rated submission of the game, by id (malloc'd). */
int store_rated_players(struct store *s, const char *game, int64_t **ids, size_t *n,
			char err[STORE_ERRLEN]);
/* Every seat of the game's rated ranked matches in the order they were
 * recorded (match, then seat), then one call with match -1 to close the
 * last one.  each() returns 0, or -1 to stop with its own message. */
int store_rated_results(struct store *s, const char *game,
			int (*each)(void *ctx, int64_t match, int64_t submission, int rank),
			void *ctx, char err[STORE_ERRLEN]);
/* 1 found, 0 no rating, -1 error. */
int store_get_rating(struct store *s, int64_t submission, struct store_rated *out,
		     char err[STORE_ERRLEN]);
int store_put_rating(struct store *s, const struct store_rated *r, char err[STORE_ERRLEN]);

/* ---- events ---------------------------------------------------------------- */

/* Inside the transaction of what happened: the event, its JSON payload. */
int store_add_event(struct store *s, const char *kind, int64_t submission, const char *payload,
		    char err[STORE_ERRLEN]);

/* ---- a stored match --------------------------------------------------------- */

/* Match id's stored replay bytes (malloc'd, as stored: gzip or plain):
 * 1; 0 when there are none (*exists: the match itself exists); -1. */
int store_match_replay(struct store *s, int64_t id, uint8_t **bytes, size_t *len, bool *exists,
		       char err[STORE_ERRLEN]);
/* Every seat of the match that froze, with the judge's reason. */
int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			char err[STORE_ERRLEN]);

#endif
