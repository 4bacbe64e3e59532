#include "judge/store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/store/db.h"

static int schema_version(const struct db_ops *ops)
{
	int n = 0;
	while (ops->migrations[n])
		n++;
	return 1 + n;
}

/* Every statement the store runs often, prepared once per connection:
 * one text for every backend, or a PostgreSQL text where it differs. */
enum stmt {
	ST_CLAIM_PICK, ST_CLAIM_TAKE, ST_PARK, ST_COMPLETE, ST_FAIL, ST_RELEASE, ST_RENEW,
	ST_HOLDS, ST_ENQUEUE, ST_PENDING, ST_BEGIN, ST_COMMIT, ST_MARK_DONE, ST_CLAIM_ONE,
	ST_ACTIVITY, ST_COMPLETE_CLAIM, ST_CLAIM_OVERDUE, ST_SERVED, ST_RANKED_QUEUED, ST_COUNT
};

static const struct {
	const char *sql, *postgres;
} stmt_sql[ST_COUNT] = {
	/* SQLite: BEGIN IMMEDIATE holds the only write lock, so the pick is
	 * alone.  First the oldest overdue job of the class starved longest
	 * (sched.h), if any is; else the most urgent claimable job. */
	[ST_CLAIM_OVERDUE] = {
		"SELECT id, kind, payload, attempts, priority FROM jobs"
		" WHERE state = 'queued' AND due_at IS NOT NULL AND due_at <= ?1 AND not_before <= ?1"
		"   AND priority = (SELECT c.priority FROM job_classes c"
		"     WHERE c.max_pause_ms > 0 AND c.served_at <= ?1 - c.max_pause_ms"
		"       AND EXISTS (SELECT 1 FROM jobs o WHERE o.state = 'queued'"
		"         AND o.due_at IS NOT NULL AND o.priority = c.priority"
		"         AND o.due_at <= ?1 AND o.not_before <= ?1)"
		"     ORDER BY c.served_at + c.max_pause_ms, c.priority DESC LIMIT 1)"
		" ORDER BY due_at, id LIMIT 1" },
	[ST_CLAIM_PICK] = {
		"SELECT id, kind, payload, attempts, priority FROM jobs"
		" WHERE state IN ('queued', 'running')"
		"   AND ((state = 'queued' AND not_before <= ?1)"
		"     OR (state = 'running' AND lease_until < ?1))"
		" ORDER BY priority DESC, id LIMIT 1" },
	/* PostgreSQL: one round trip and one commit (judge_claim, in
	 * db/schema.sql, picks FOR UPDATE SKIP LOCKED). */
	[ST_CLAIM_ONE] = { NULL, "SELECT job_id, job_kind, job_payload, job_attempts"
				 " FROM judge_claim(?1, ?2, ?3, ?4, ?5)" },
	/* PostgreSQL: a completion and the next claim, one round trip. */
	[ST_COMPLETE_CLAIM] = { NULL, "SELECT completed, job_id, job_kind, job_payload,"
				      " job_attempts FROM judge_complete_claim(?1, ?2, ?3, ?4, ?5, ?6)" },
	/* Kept prepared: a slot asks after every job whether the ladder needs
	 * planning. */
	[ST_RANKED_QUEUED] = {
		"SELECT json_extract(payload, '$.game'), count(*) FROM jobs"
		" WHERE kind = 'match' AND state = 'queued' AND json_extract(payload, '$.kind') = 'ranked'"
		" GROUP BY json_extract(payload, '$.game')" },
	[ST_SERVED] = {
		"UPDATE job_classes SET served_at = ?2 WHERE priority = ?1 AND served_at < ?2" },
	[ST_CLAIM_TAKE] = {
		"UPDATE jobs SET state = 'running', worker = ?2, lease_until = ?3,"
		" attempts = attempts + 1, updated_at = ?4 WHERE id = ?1" },
	[ST_PARK] = {
		"UPDATE jobs SET state = 'parked', worker = NULL, lease_until = NULL,"
		" last_error = ?2, updated_at = ?3 WHERE id = ?1" },
	[ST_COMPLETE] = {
		"UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = ?3"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'" },
	[ST_FAIL] = {
		"UPDATE jobs SET state = CASE WHEN attempts >= ?6 THEN 'parked' ELSE 'queued' END,"
		" worker = NULL, lease_until = NULL, last_error = ?3, not_before = ?4,"
		" updated_at = ?5 WHERE id = ?1 AND worker = ?2 AND state = 'running'" },
	[ST_RELEASE] = {
		"UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL,"
		" attempts = attempts - 1, updated_at = ?3"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'" },
	[ST_RENEW] = {
		"UPDATE jobs SET lease_until = ?3, updated_at = ?4"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'" },
	[ST_HOLDS] = { "SELECT 1 FROM jobs WHERE id = ?1 AND worker = ?2 AND state = 'running'" },
	[ST_ENQUEUE] = {
		"INSERT INTO jobs (kind, payload, state, priority, not_before, due_at, created_at,"
		" updated_at) VALUES (?1, ?2, 'queued', ?3, ?4, NULLIF(CAST(?6 AS BIGINT), 0), ?5, ?5)"
		" RETURNING id" },
	/* Prepared once too: a job is two transactions, and compiling BEGIN
	 * and COMMIT each time is a good part of their cost. */
	[ST_BEGIN] = { "BEGIN IMMEDIATE", "BEGIN" },
	[ST_COMMIT] = { "COMMIT" },
	[ST_PENDING] = {
		"SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')"
		" AND (kind <> 'notify' OR (state = 'queued' AND not_before <= ?1)"
		"      OR (state = 'running' AND lease_until < ?1))" },
	[ST_MARK_DONE] = {
		"UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = ?2 WHERE id = ?1" },
	[ST_ACTIVITY] = {
		"SELECT count(*) FILTER (WHERE state = 'queued' AND not_before <= ?1),"
		" count(*) FILTER (WHERE state = 'running' AND lease_until >= ?1),"
		" coalesce(min(CASE WHEN created_at > not_before THEN created_at ELSE not_before END)"
		"   FILTER (WHERE state = 'queued' AND not_before <= ?1), 0)"
		" FROM jobs WHERE state IN ('queued', 'running') AND kind <> 'notify'" },
};

_Static_assert(ST_COUNT <= DB_KEPT_MAX, "the store keeps more statements than db.h holds");

int64_t store_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The statement's text for the store's backend (one backend only may
 * have one), to run kept in its slot. */
static const char *kept_sql(struct store *s, enum stmt which)
{
	if (s->ops->kind == DB_POSTGRES && stmt_sql[which].postgres)
		return stmt_sql[which].postgres;
	return stmt_sql[which].sql;
}

static int run_stmt(struct store *s, enum stmt which, const char *what, err_t err)
{
	return db_changed_kept(s, which, kept_sql(s, which), what, err, "") < 0 ? -1 : 0;
}

int store_begin(struct store *s, err_t err)
{
	return run_stmt(s, ST_BEGIN, "begin", err);
}

int store_commit(struct store *s, err_t err)
{
	if (run_stmt(s, ST_COMMIT, "commit", err) == 0)
		return 0;
	store_rollback(s);
	return -1;
}

void store_rollback(struct store *s)
{
	err_t ignored;
	if (s->ops->in_transaction(s))
		db_exec(s, "ROLLBACK", "rollback", ignored);
}

/* ---- opening ------------------------------------------------------------- */

static int read_ours(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	*(bool *)ctx = strcmp(db_col_text(st, 0), "judge") == 0;
	return 1;
}

static int is_ours(struct store *s)
{
	bool ours = false;
	err_t ignored;
	db_query(s, "reading the database's owner", ignored,
		 "SELECT value FROM meta WHERE key = 'application'", read_ours, &ours, "");
	return ours;
}

/* Under the schema lock, so that of two processes creating the same new
 * database one creates the schema and the other finds it. */
static int create_schema(struct store *s, err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	if (s->ops->schema_lock && db_exec(s, s->ops->schema_lock, "open", err) < 0) {
		store_rollback(s);
		return -1;
	}
	int tables = s->ops->has_tables(s, err);
	if (tables < 0 || (tables == 0 && (db_exec(s, s->ops->schema, "creating the schema", err) < 0 ||
					   s->ops->set_version(s, 1, err) < 0))) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}

/* Brings an older database up to this judge's version, one migration and
 * one transaction at a time; under the schema lock, another process doing
 * the same finds the work done. */
static int migrate(struct store *s, err_t err)
{
	for (;;) {
		int version;
		if (store_begin(s, err) < 0 ||
		    (s->ops->schema_lock && db_exec(s, s->ops->schema_lock, "open", err) < 0) ||
		    s->ops->get_version(s, &version, err) < 0) {
			store_rollback(s);
			return -1;
		}
		if (version >= schema_version(s->ops))
			return store_commit(s, err);
		char what[64];
		snprintf(what, sizeof what, "migrating the database to version %d", version + 1);
		if (db_exec(s, s->ops->migrations[version - 1], what, err) < 0 ||
		    s->ops->set_version(s, version + 1, err) < 0 || store_commit(s, err) < 0) {
			store_rollback(s);
			return -1;
		}
	}
}

/* Creates the schema of a new database, or checks an existing one is ours
 * and not from a newer judge, reading only: a database that is not ours is
 * left as it was.  Then migrates it to this judge's version. */
static int check_schema(struct store *s, bool create, err_t err)
{
	int tables = s->ops->has_tables(s, err), version;
	if (tables < 0 || s->ops->get_version(s, &version, err) < 0)
		return -1;
	if (!tables && !create) {
		err_set(err, "%s is empty, not a judge database", s->where);
		return -1;
	}
	if (!tables && create_schema(s, err) < 0)
		return -1;
	if (!tables && s->ops->get_version(s, &version, err) < 0)
		return -1;
	if (!is_ours(s)) {
		err_set(err, "%s is %s %s database, but not a judge's: refusing to "
			 "touch it", s->where, s->ops->kind == DB_SQLITE ? "an" : "a", s->ops->name);
		return -1;
	}
	int known = schema_version(s->ops);
	if (version > known) {
		err_set(err, 
			 "%s was made by a newer judge (schema %d, this one knows %d)", s->where,
			 version, known);
		return -1;
	}
	return version < known ? migrate(s, err) : 0;
}

/* NULL on failure, *unreachable saying whether it was the server out of
 * reach. */
static struct store *open_once(const char *path, bool create, bool *unreachable,
			       err_t err)
{
	struct store *s = calloc(1, sizeof *s);
	*unreachable = false;
	if (!s) {
		err_set(err, "out of memory");
		return NULL;
	}
	s->ops = db_backend_for(path);
	if (s->ops->open(s, path, create, err) < 0 || check_schema(s, create, err) < 0 ||
	    s->ops->configure(s, err) < 0) {
		*unreachable = s->conn && s->ops->unreachable(s);
		store_close(s);
		return NULL;
	}
	return s;
}

struct store *store_open(const char *path, bool create, err_t err)
{
	bool unreachable;
	return open_once(path, create, &unreachable, err);
}

bool store_unreachable(struct store *s)
{
	return s->ops->unreachable(s);
}

int64_t store_backoff_ms(int64_t last_ms)
{
	return last_ms < 250 ? 250 : last_ms >= 5000 ? 10000 : last_ms * 2;
}

struct store *store_open_patient(const char *path, bool create, int64_t wait_ms,
				 void (*say)(void *ctx, const char *message), void *ctx,
				 err_t err)
{
	int64_t deadline = store_now_ms() + wait_ms, nap_ms = 0;
	for (;;) {
		bool unreachable;
		struct store *s = open_once(path, create, &unreachable, err);
		if (s || !unreachable || store_now_ms() + (nap_ms = store_backoff_ms(nap_ms)) > deadline)
			return s;
		if (nap_ms == 250 && say) {
			char line[ERR_LEN + 64];
			snprintf(line, sizeof line, "%s; retrying for up to %lld s", err->msg,
				 (long long)(wait_ms / 1000));
			say(ctx, line);
		}
		struct timespec ts = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int i = 0; i < DB_KEPT_MAX; i++)
		if (s->kept[i])
			s->ops->finish(s->kept[i]);
	if (s->conn)
		s->ops->close(s);
	free(s);
}

int store_set_sync(struct store *s, enum store_sync mode, err_t err)
{
	return s->ops->set_sync(s, mode, err);
}

/* ---- jobs ------------------------------------------------------------------ */

void store_job_clear(struct store_job *j)
{
	free(j->payload);
	memset(j, 0, sizeof *j);
}

int store_enqueue(struct store *s, const char *kind, const char *payload, enum sched_class cls,
		  int64_t not_before, int64_t *id, err_t err)
{
	int64_t now = store_now_ms(), ignored;
	return db_query_kept(s, ST_ENQUEUE, kept_sql(s, ST_ENQUEUE), "queueing a job", err,
			     db_row_int, id ? id : &ignored, "ttiiii", kind, payload,
			     (int64_t)sched_classes[cls].priority, not_before, now,
			     sched_due_at(cls, now, not_before)) == 1 ? 0 : -1;
}

int store_publish_classes(struct store *s, err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	for (int c = 0; c < SCHED_CLASSES; c++) {
		const struct sched_class_info *k = &sched_classes[c];
		if (db_run(s, "writing the scheduling classes", err,
			   "INSERT INTO job_classes (priority, name, max_pause_ms) VALUES (?1, ?2, ?3)"
			   " ON CONFLICT (priority) DO UPDATE SET name = excluded.name,"
			   " max_pause_ms = excluded.max_pause_ms", "iti", (int64_t)k->priority,
			   k->name, k->max_pause_ms) < 0) {
			store_rollback(s);
			return -1;
		}
	}
	return store_commit(s, err);
}

enum { PARK_WHY_LEN = 160 };

/* Why a job that used up its attempts is parked: the same words whichever
 * backend or path parks it. */
static void park_reason(char why[PARK_WHY_LEN], int max_attempts)
{
	snprintf(why, PARK_WHY_LEN, "its worker stopped before finishing it %d times",
		 max_attempts);
}

static int park(struct store *s, int64_t id, const char *why, err_t err)
{
	return db_changed_kept(s, ST_PARK, kept_sql(s, ST_PARK), "parking a job", err, "iti", id,
			       why, store_now_ms()) < 0 ? -1 : 0;
}

/* Inside the claim's transaction: one run of a pick statement.  1 with
 * the job (attempts counting this one) and its priority, 0 none, -1 error. */
/* A claimed job from the columns id, kind, payload, attempts at first
 * on. */
static int read_job_at(struct db_stmt *st, int first, struct store_job *job, err_t err)
{
	job->id = db_col_int(st, first);
	db_col_copy(st, first + 1, job->kind, sizeof job->kind);
	job->payload = strdup(db_col_text(st, first + 2));
	job->attempts = (int)db_col_int(st, first + 3);
	if (job->payload)
		return 1;
	err_set(err, "out of memory");
	return -1;
}

struct picked {
	struct store_job *job;
	int *priority;
};

static int read_picked(struct db_stmt *st, void *ctx, err_t err)
{
	struct picked *p = ctx;
	if (read_job_at(st, 0, p->job, err) < 0)
		return -1;
	p->job->attempts++;
	*p->priority = (int)db_col_int(st, 4);
	return 1;
}

static int pick_one(struct store *s, enum stmt which, struct store_job *job, int *priority,
		    err_t err)
{
	struct picked p = { job, priority };
	return (int)db_query_kept(s, which, kept_sql(s, which), "claiming a job", err,
				  read_picked, &p, "i", store_now_ms());
}

/* Inside the claim's transaction: the next claimable job as sched.h's rule
 * says, parking on the way those that used up their attempts.  1 found, 0
 * none, -1 error. */
static int pick(struct store *s, int max_attempts, struct store_job *job, int *priority,
		err_t err)
{
	for (;;) {
		int rc = pick_one(s, ST_CLAIM_OVERDUE, job, priority, err);
		if (rc == 0)
			rc = pick_one(s, ST_CLAIM_PICK, job, priority, err);
		if (rc <= 0 || job->attempts <= max_attempts)
			return rc;
		int64_t id = job->id;
		store_job_clear(job);
		char why[PARK_WHY_LEN];
		park_reason(why, max_attempts);
		if (park(s, id, why, err) < 0)
			return -1;
	}
}

static int finish(struct store *s, enum stmt which, int64_t job, const char *worker,
		  err_t err);

/* SQLite: completes job done (0: none), then picks and takes the next, in
 * one write transaction (the file's one lock). */
static int claim_locked(struct store *s, int64_t done, const char *worker, int64_t lease_ms,
			int max_attempts, struct store_job *job, err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	int priority = 0;
	int found = done && finish(s, ST_COMPLETE, done, worker, err) < 0 ? -1
		    : pick(s, max_attempts, job, &priority, err);
	if (found == 1) {
		int64_t now = store_now_ms();
		if (db_changed_kept(s, ST_CLAIM_TAKE, kept_sql(s, ST_CLAIM_TAKE), "claiming a job",
				    err, "itii", job->id, worker, now + lease_ms, now) != 1 ||
		    db_changed_kept(s, ST_SERVED, kept_sql(s, ST_SERVED), "claiming a job", err,
				    "ii", (int64_t)priority, now) < 0)
			found = -1;
	}
	if (found < 0 || store_commit(s, err) < 0) {
		store_rollback(s);
		return -1;
	}
	return found;
}

static int read_claimed(struct db_stmt *st, void *ctx, err_t err)
{
	return read_job_at(st, 0, ctx, err);
}

/* PostgreSQL: one call of judge_claim, so workers on many machines hold
 * no lock between round trips. */
static int claim_skip_locked(struct store *s, const char *worker, int64_t lease_ms,
			     int max_attempts, struct store_job *job, err_t err)
{
	char why[PARK_WHY_LEN];
	park_reason(why, max_attempts);
	int64_t now = store_now_ms();
	return (int)db_query_kept(s, ST_CLAIM_ONE, kept_sql(s, ST_CLAIM_ONE), "claiming a job",
				  err, read_claimed, job, "itiit", now, worker, now + lease_ms,
				  (int64_t)max_attempts, why);
}

int store_claim(struct store *s, const char *worker, int64_t lease_ms, int max_attempts,
		struct store_job *job, err_t err)
{
	memset(job, 0, sizeof *job);
	int found = s->ops->kind == DB_POSTGRES
			    ? claim_skip_locked(s, worker, lease_ms, max_attempts, job, err)
			    : claim_locked(s, 0, worker, lease_ms, max_attempts, job, err);
	if (found != 1)
		store_job_clear(job);
	return found;
}

static int lost_lease(int64_t job, err_t err);

struct completed {
	bool held;
	struct store_job *job;
};

/* judge_complete_claim's row: whether done was still held, then the next
 * job (NULL columns: none). */
static int read_completed(struct db_stmt *st, void *ctx, err_t err)
{
	struct completed *c = ctx;
	c->held = strcmp(db_col_text(st, 0), "t") == 0;
	if (!c->held || db_col_null(st, 1))
		return 1;
	return read_job_at(st, 1, c->job, err);
}

/* PostgreSQL: judge_complete_claim, one round trip and one commit. */
static int complete_claim_one(struct store *s, int64_t done, const char *worker,
			      int64_t lease_ms, int max_attempts, struct store_job *job,
			      err_t err)
{
	char why[PARK_WHY_LEN];
	park_reason(why, max_attempts);
	int64_t now = store_now_ms();
	struct completed c = { false, job };
	if (db_query_kept(s, ST_COMPLETE_CLAIM, kept_sql(s, ST_COMPLETE_CLAIM), "finishing a job",
			  err, read_completed, &c, "iitiit", done, now, worker, now + lease_ms,
			  (int64_t)max_attempts, why) < 0)
		return -1;
	if (!c.held)
		return lost_lease(done, err);
	return job->payload ? 1 : 0;
}

int store_complete_claim(struct store *s, int64_t done, const char *worker, int64_t lease_ms,
			 int max_attempts, struct store_job *job, err_t err)
{
	memset(job, 0, sizeof *job);
	int found = s->ops->kind == DB_POSTGRES
			    ? complete_claim_one(s, done, worker, lease_ms, max_attempts, job, err)
			    : claim_locked(s, done, worker, lease_ms, max_attempts, job, err);
	if (found != 1)
		store_job_clear(job);
	return found;
}

static int lost_lease(int64_t job, err_t err)
{
	err_set(err, 
		 "job %lld is no longer ours: its lease expired and another worker took it",
		 (long long)job);
	return -1;
}

/* After a statement that changes the one job the worker holds (n rows
 * changed, -1 failed): 0, or -1 when the worker held it no longer. */
static int held_change(int64_t n, int64_t job, err_t err)
{
	return n < 0 ? -1 : n == 1 ? 0 : lost_lease(job, err);
}

int store_renew(struct store *s, int64_t job, const char *worker, int64_t lease_ms,
		err_t err)
{
	int64_t now = store_now_ms();
	return held_change(db_changed_kept(s, ST_RENEW, kept_sql(s, ST_RENEW), "renewing a lease",
					   err, "itii", job, worker, now + lease_ms, now), job, err);
}

static int finish(struct store *s, enum stmt which, int64_t job, const char *worker,
		  err_t err)
{
	return held_change(db_changed_kept(s, which, kept_sql(s, which), "finishing a job", err,
					   "iti", job, worker, store_now_ms()), job, err);
}

int store_complete(struct store *s, int64_t job, const char *worker, err_t err)
{
	return finish(s, ST_COMPLETE, job, worker, err);
}

int store_release(struct store *s, int64_t job, const char *worker, err_t err)
{
	return finish(s, ST_RELEASE, job, worker, err);
}

struct json_t *store_holders(struct store *s, err_t err)
{
	return db_query_json(s, "listing the workers holding jobs", err,
			     "SELECT DISTINCT worker FROM jobs WHERE state = 'running'"
			     " AND worker IS NOT NULL ORDER BY 1", "worker:t", "");
}

int store_expire_holder(struct store *s, const char *worker, int64_t *jobs,
			err_t err)
{
	*jobs = db_changed(s, "taking over a dead worker's jobs", err,
			   "UPDATE jobs SET lease_until = 0, updated_at = ?2"
			   " WHERE state = 'running' AND worker = ?1", "ti", worker, store_now_ms());
	return *jobs < 0 ? -1 : 0;
}

int store_fail(struct store *s, int64_t job, const char *worker, const char *error,
	       int64_t retry_at, int max_attempts, err_t err)
{
	return held_change(db_changed_kept(s, ST_FAIL, kept_sql(s, ST_FAIL), "failing a job", err,
					   "ittiii", job, worker, error, retry_at, store_now_ms(),
					   (int64_t)max_attempts), job, err);
}

int store_pending(struct store *s, int64_t *count, err_t err)
{
	return db_query_kept(s, ST_PENDING, kept_sql(s, ST_PENDING), "counting jobs", err,
			     db_row_int, count, "i", store_now_ms()) == 1 ? 0 : -1;
}

struct activity_read {
	struct store_activity *out;
	int64_t now;
};

static int read_activity(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct activity_read *a = ctx;
	int64_t since = db_col_int(st, 2);
	*a->out = (struct store_activity){ .waiting = db_col_int(st, 0),
					   .running = db_col_int(st, 1),
					   .oldest_wait_ms = since ? a->now - since : 0 };
	return 1;
}

int store_activity(struct store *s, struct store_activity *out, err_t err)
{
	struct activity_read a = { out, store_now_ms() };
	return db_query_kept(s, ST_ACTIVITY, kept_sql(s, ST_ACTIVITY), "reading the queue", err,
			     read_activity, &a, "i", a.now) == 1 ? 0 : -1;
}

struct queued_counts {
	const char *const *games;
	size_t n;
	int *counts;
};

static int read_queued(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct queued_counts *q = ctx;
	for (size_t i = 0; i < q->n; i++)
		if (strcmp(q->games[i], db_col_text(st, 0)) == 0)
			q->counts[i] = (int)db_col_int(st, 1);
	return 0;
}

int store_ranked_queued(struct store *s, const char *const *games, size_t n, int *counts,
			err_t err)
{
	for (size_t i = 0; i < n; i++)
		counts[i] = 0;
	struct queued_counts q = { games, n, counts };
	return db_query_kept(s, ST_RANKED_QUEUED, kept_sql(s, ST_RANKED_QUEUED),
			     "counting queued matches", err, read_queued, &q, "") < 0 ? -1 : 0;
}

int store_holds(struct store *s, int64_t job, const char *worker, err_t err)
{
	int64_t rc = db_query_kept(s, ST_HOLDS, kept_sql(s, ST_HOLDS), "checking a lease", err,
				   NULL, NULL, "it", job, worker);
	return rc < 0 ? -1 : rc ? 0 : lost_lease(job, err);
}

int store_mark_done(struct store *s, int64_t job, err_t err)
{
	return db_changed_kept(s, ST_MARK_DONE, kept_sql(s, ST_MARK_DONE), "finishing a job", err,
			       "ii", job, store_now_ms()) < 0 ? -1 : 0;
}
