/* store.h - the judge's store: submissions, jobs, matches, ratings.
 *
 * Promises.  One database is the whole truth: a SQLite file (db/schema.sql)
 * on one machine, or a PostgreSQL database (db/postgres/schema.sql) that
 * workers on many machines share, chosen by store_open's argument (a path,
 * or a postgresql:// URL); the same tables and meaning on both.  The schema
 * is created on first open and migrated forward on open.  SQLite runs in
 * WAL mode with a busy timeout, foreign keys on, so several workers may
 * share the file; every write that must be whole (a submission and its
 * compile job; a match result, its players, its replay and the rating
 * updates) is one transaction.  A job is claimed inside a transaction with
 * a lease (on PostgreSQL its row locked FOR UPDATE, rows other workers hold
 * skipped); an expired lease makes it claimable again; completing a job,
 * or recording a match, checks the worker still holds it, and a match
 * result is recorded at most once per job (matches.job_id is unique).  A
 * database that is not a judge's is refused, never written.  Errors come
 * back as -1 with a message a person can act on.
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

/* Opens path (a file, or postgresql://... / postgres://...); creates the
 * file (SQLite) and the schema only when create is true (a PostgreSQL
 * database itself must exist).  NULL with err filled for a missing,
 * unreadable, read-only or foreign database, or a server out of reach. */
struct store *store_open(const char *path, bool create, char err[STORE_ERRLEN]);
void store_close(struct store *s);
/* FULL: a commit returns once it is on disk.  NORMAL (SQLite's default):
 * a crash of the machine (SQLite) or of the server (PostgreSQL,
 * synchronous_commit off) may lose the last commits, never half of one.
 * A PostgreSQL store keeps the server's setting until told. */
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

/* Whether workers are taking the compile and match jobs: how many may be
 * claimed now, how many a worker holds under a live lease, and how long
 * the oldest claimable one has waited (0 when none): a job waiting long
 * with nothing running means no worker is at work. */
struct store_activity {
	int64_t waiting, running, oldest_wait_ms;
};
int store_activity(struct store *s, struct store_activity *out, char err[STORE_ERRLEN]);
#define STORE_STALL_MS (30 * 1000)
static inline bool store_stalled(const struct store_activity *a)
{
	return a->waiting > 0 && a->running == 0 && a->oldest_wait_ms >= STORE_STALL_MS;
}

/* ---- transactions for the modules built on the store ------------------- */

/* SQLite: BEGIN IMMEDIATE (waits for the write lock up to the busy
 * timeout).  PostgreSQL: BEGIN. */
int store_begin(struct store *s, char err[STORE_ERRLEN]);
int store_commit(struct store *s, char err[STORE_ERRLEN]);
void store_rollback(struct store *s);

/* The SQLite connection, for modules that keep their SQL next to their
 * logic (inside a transaction begun here).  A PostgreSQL store has none:
 * the program stops there with a message saying the command needs a
 * SQLite queue. */
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
	char name[16], author[64]; /* filled by store_ranked_pool */
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
/* Up to max of the submission's latest matches that have a replay, newest
 * first: their ids in ids, their count in *n. */
int store_recent_matches(struct store *s, int64_t submission, int max, int64_t *ids, int *n,
			 char err[STORE_ERRLEN]);
/* Every seat of the match that froze, with the judge's reason. */
int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			char err[STORE_ERRLEN]);

/* ---- recording a match -------------------------------------------------------- */

struct store_new_match {
	int64_t job;             /* the match job: one result per job */
	const char *game, *kind; /* kind: "qualifying" or "ranked" */
	int64_t seed;
	const void *replay;      /* as stored (gzip) */
	size_t replay_len;
};

struct store_match_player {
	int seat;
	int64_t submission;      /* 0: a shipped player */
	const char *name;
	int64_t score;
	int rank;
	const char *verdict;     /* NULL unless it froze */
	int frozen_round;
	const char *reason;
	int64_t cpu_ns, peak_memory;
};

/* Inside the job's transaction: the match, then each of its players. */
int store_add_match(struct store *s, const struct store_new_match *m, int64_t *id,
		    char err[STORE_ERRLEN]);
int store_add_match_player(struct store *s, int64_t match, const struct store_match_player *p,
			   char err[STORE_ERRLEN]);
/* A player's rating while it is in the ranked pool: 1; 0 when it is not
 * (superseded meanwhile); -1. */
int store_ranked_rating(struct store *s, int64_t submission, struct store_rated *out,
			char err[STORE_ERRLEN]);
/* The leaderboard place a score (mu - 3 sigma) has in game: 1 + the ranked
 * players above it; -1 on error. */
int store_board_place(struct store *s, const char *game, double score, char err[STORE_ERRLEN]);
/* One more rated game for a player, at its new rating. */
int store_rate(struct store *s, int64_t submission, double mu, double sigma, bool won,
	       char err[STORE_ERRLEN]);
int store_mark_rated(struct store *s, int64_t match, char err[STORE_ERRLEN]);
/* The qualifying matches a submission played and won (rank 1). */
int store_qualifying_record(struct store *s, int64_t submission, int *played, int *wins,
			    char err[STORE_ERRLEN]);

#endif
