#include "judge/store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 30000

/* db/schema.sql (version 1) and db/migrations/NNN.sql (versions 2, 3...),
 * compiled in by the Makefile; the migrations end with NULL. */
extern const char store_schema_sql[];
extern const char *const store_migrations[];

static int schema_version(void)
{
	int n = 0;
	while (store_migrations[n])
		n++;
	return 1 + n;
}

/* Every statement the store runs often, prepared once per connection. */
enum stmt {
	ST_CLAIM_PICK, ST_CLAIM_TAKE, ST_PARK, ST_COMPLETE, ST_FAIL, ST_RELEASE, ST_RENEW,
	ST_HOLDS, ST_ENQUEUE, ST_PENDING, ST_BEGIN, ST_COMMIT, ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_CLAIM_PICK] =
		"SELECT id, kind, payload, attempts FROM jobs"
		" WHERE state IN ('queued', 'running')"
		"   AND ((state = 'queued' AND not_before <= ?1)"
		"     OR (state = 'running' AND lease_until < ?1))"
		" ORDER BY priority DESC, id LIMIT 1",
	[ST_CLAIM_TAKE] =
		"UPDATE jobs SET state = 'running', worker = ?2, lease_until = ?3,"
		" attempts = attempts + 1, updated_at = ?4 WHERE id = ?1",
	[ST_PARK] =
		"UPDATE jobs SET state = 'parked', worker = NULL, lease_until = NULL,"
		" last_error = ?2, updated_at = ?3 WHERE id = ?1",
	[ST_COMPLETE] =
		"UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = ?3"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'",
	[ST_FAIL] =
		"UPDATE jobs SET state = CASE WHEN attempts >= ?6 THEN 'parked' ELSE 'queued' END,"
		" worker = NULL, lease_until = NULL, last_error = ?3, not_before = ?4,"
		" updated_at = ?5 WHERE id = ?1 AND worker = ?2 AND state = 'running'",
	[ST_RELEASE] =
		"UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL,"
		" attempts = attempts - 1, updated_at = ?3"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'",
	[ST_RENEW] =
		"UPDATE jobs SET lease_until = ?3, updated_at = ?4"
		" WHERE id = ?1 AND worker = ?2 AND state = 'running'",
	[ST_HOLDS] =
		"SELECT 1 FROM jobs WHERE id = ?1 AND worker = ?2 AND state = 'running'",
	[ST_ENQUEUE] =
		"INSERT INTO jobs (kind, payload, state, priority, not_before, created_at, updated_at)"
		" VALUES (?1, ?2, 'queued', ?3, ?4, ?5, ?5)",
	/* Prepared once too: a job is two transactions, and compiling BEGIN
	 * and COMMIT each time is a good part of their cost. */
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_PENDING] =
		"SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')"
		" AND (kind <> 'notify' OR (state = 'queued' AND not_before <= ?1)"
		"      OR (state = 'running' AND lease_until < ?1))",
};

struct store {
	sqlite3 *db;
	char path[160]; /* for messages; a longer path is cut */
	sqlite3_stmt *stmt[ST_COUNT];
};

int64_t store_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int db_error(struct store *s, const char *what, char err[STORE_ERRLEN])
{
	int code = sqlite3_extended_errcode(s->db);
	if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
		snprintf(err, STORE_ERRLEN,
			 "%s: the database %s stayed locked by another process for %d s",
			 what, s->path, BUSY_TIMEOUT_MS / 1000);
	else if ((code & 0xff) == SQLITE_READONLY)
		snprintf(err, STORE_ERRLEN, "%s: the database %s is read-only", what, s->path);
	else
		snprintf(err, STORE_ERRLEN, "%s: %s", what, sqlite3_errmsg(s->db));
	return -1;
}

static sqlite3_stmt *stmt(struct store *s, enum stmt which)
{
	if (!s->stmt[which] &&
	    sqlite3_prepare_v3(s->db, stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT,
			       &s->stmt[which], NULL) != SQLITE_OK)
		return NULL;
	sqlite3_reset(s->stmt[which]);
	sqlite3_clear_bindings(s->stmt[which]);
	return s->stmt[which];
}

static int exec(struct store *s, const char *sql, const char *what, char err[STORE_ERRLEN])
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_error(s, what, err);
}

static sqlite3_stmt *stmt(struct store *s, enum stmt which);

static int run_stmt(struct store *s, enum stmt which, const char *what, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, which);
	int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
	if (st)
		sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_error(s, what, err);
}

int store_begin(struct store *s, char err[STORE_ERRLEN])
{
	return run_stmt(s, ST_BEGIN, "begin", err);
}

int store_commit(struct store *s, char err[STORE_ERRLEN])
{
	if (run_stmt(s, ST_COMMIT, "commit", err) == 0)
		return 0;
	store_rollback(s);
	return -1;
}

void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

struct sqlite3 *store_db(struct store *s)
{
	return s->db;
}

/* ---- opening ------------------------------------------------------------- */

static int user_version(struct store *s, int *version, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "open", err);
	int rc = sqlite3_step(st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_error(s, "open", err);
}

/* 1 if the file already holds tables, 0 if it is empty. */
static int has_tables(struct store *s, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL) !=
	    SQLITE_OK) {
		/* "file is not a database" comes from here */
		snprintf(err, STORE_ERRLEN, "%s is not a judge database (%s)", s->path,
			 sqlite3_errmsg(s->db));
		return -1;
	}
	int rc = sqlite3_step(st);
	int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (n < 0)
		snprintf(err, STORE_ERRLEN, "%s is not a judge database (%s)", s->path,
			 sqlite3_errmsg(s->db));
	return n < 0 ? -1 : n > 0;
}

static int is_ours(struct store *s)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'application'", -1,
			       &st, NULL) != SQLITE_OK)
		return 0;
	const unsigned char *app = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	int ours = app && strcmp((const char *)app, "judge") == 0;
	sqlite3_finalize(st);
	return ours;
}

/* Under the write lock, so that of two processes creating the same new
 * file one creates the schema and the other finds it. */
static int create_schema(struct store *s, char err[STORE_ERRLEN])
{
	char sql[64];
	if (store_begin(s, err) < 0)
		return -1;
	int tables = has_tables(s, err);
	snprintf(sql, sizeof sql, "PRAGMA user_version = 1");
	if (tables < 0 || (tables == 0 && (exec(s, store_schema_sql, "creating the schema", err) < 0 ||
					   exec(s, sql, "creating the schema", err) < 0))) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}

/* Brings an older file up to this judge's version, one migration and one
 * transaction at a time; under the write lock, another process doing the
 * same finds the work done. */
static int migrate(struct store *s, char err[STORE_ERRLEN])
{
	for (;;) {
		int version;
		if (store_begin(s, err) < 0 || user_version(s, &version, err) < 0) {
			store_rollback(s);
			return -1;
		}
		if (version >= schema_version())
			return store_commit(s, err);
		char sql[64], what[64];
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", version + 1);
		snprintf(what, sizeof what, "migrating the database to version %d", version + 1);
		if (exec(s, store_migrations[version - 1], what, err) < 0 ||
		    exec(s, sql, what, err) < 0 || store_commit(s, err) < 0) {
			store_rollback(s);
			return -1;
		}
	}
}

/* Creates the schema of a new file, or checks an existing one is ours and
 * not from a newer judge, reading only: a file that is not ours is left as
 * it was.  Then migrates it to this judge's version. */
static int check_schema(struct store *s, bool create, char err[STORE_ERRLEN])
{
	int tables = has_tables(s, err), version;
	if (tables < 0 || user_version(s, &version, err) < 0)
		return -1;
	if (!tables && !create) {
		snprintf(err, STORE_ERRLEN, "%s is empty, not a judge database", s->path);
		return -1;
	}
	if (!tables && create_schema(s, err) < 0)
		return -1;
	if (!tables && user_version(s, &version, err) < 0)
		return -1;
	if (!is_ours(s)) {
		snprintf(err, STORE_ERRLEN,
			 "%s is an SQLite database, but not a judge's: refusing to touch it",
			 s->path);
		return -1;
	}
	if (version > schema_version()) {
		snprintf(err, STORE_ERRLEN,
			 "%s was made by a newer judge (schema %d, this one knows %d)", s->path,
			 version, schema_version());
		return -1;
	}
	return version < schema_version() ? migrate(s, err) : 0;
}

static int check_writable(struct store *s, char err[STORE_ERRLEN])
{
	if (sqlite3_db_readonly(s->db, "main") != 1)
		return 0;
	snprintf(err, STORE_ERRLEN,
		 "the database %s is read-only: the judge needs to write to it (and to its folder)",
		 s->path);
	return -1;
}

/* WAL (several workers read while one writes), foreign keys, and
 * synchronous NORMAL unless told otherwise: only for a file known ours. */
static int configure(struct store *s, char err[STORE_ERRLEN])
{
	/* Switching to WAL takes an exclusive lock without calling the busy
	 * handler: another process opening the new file at the same moment
	 * makes it fail at once with SQLITE_BUSY, so wait here. */
	for (int waited = 0;; waited += 5) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
			return db_error(s, "open", err);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			break;
		if ((rc & 0xff) != SQLITE_BUSY || waited >= BUSY_TIMEOUT_MS)
			return db_error(s, "open", err);
		usleep(5000);
	}
	/* The plagiarism index of many years is far larger than SQLite's
	 * default 2 MiB cache; 64 MiB keeps its upper levels in memory. */
	return exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;"
		       " PRAGMA cache_size = -65536", "open", err);
}

/* The queue holds every contestant's source: it is the judge's alone
 * (0600, whatever the umask), and so are the journal and WAL files, which
 * SQLite creates with the database file's mode.  An older queue created
 * world-readable is made private when the judge owns it. */
static int make_private(const char *path, bool create, char err[STORE_ERRLEN])
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
	if (fd < 0) {
		if (!create && (errno == EACCES || errno == EROFS))
			return 0; /* a reader: SQLite says what it can do */
		snprintf(err, STORE_ERRLEN, "cannot open the database %s: %s", path,
			 strerror(errno));
		return -1;
	}
	struct stat st;
	int rc = fstat(fd, &st);
	if (rc == 0 && st.st_uid == geteuid() && (st.st_mode & 077))
		rc = fchmod(fd, st.st_mode & 0700);
	close(fd);
	if (rc < 0) {
		snprintf(err, STORE_ERRLEN, "cannot make the database %s private: %s", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

struct store *store_open(const char *path, bool create, char err[STORE_ERRLEN])
{
	struct stat st;
	if (!create && stat(path, &st) < 0) {
		snprintf(err, STORE_ERRLEN, "no judge database at %s (%s): upload a submission or "
			 "start judge-worker to create one, or pass --queue", path, strerror(errno));
		return NULL;
	}
	struct store *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, STORE_ERRLEN, "out of memory");
		return NULL;
	}
	snprintf(s->path, sizeof s->path, "%s", path);
	if (make_private(path, create, err) < 0) {
		store_close(s);
		return NULL;
	}
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
		    SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, STORE_ERRLEN, "cannot open the database %s: %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (check_writable(s, err) < 0 || check_schema(s, create, err) < 0 ||
	    configure(s, err) < 0) {
		store_close(s);
		return NULL;
	}
	return s;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close(s->db);
	free(s);
}

int store_set_sync(struct store *s, enum store_sync mode, char err[STORE_ERRLEN])
{
	return exec(s, mode == STORE_SYNC_FULL ? "PRAGMA synchronous = FULL"
					       : "PRAGMA synchronous = NORMAL",
		    "synchronous", err);
}

/* ---- jobs ------------------------------------------------------------------ */

void store_job_clear(struct store_job *j)
{
	free(j->payload);
	memset(j, 0, sizeof *j);
}

/* Runs a statement that changes rows; returns how many it changed. */
static int step_changes(struct store *s, sqlite3_stmt *st, const char *what,
			char err[STORE_ERRLEN])
{
	if (!st)
		return db_error(s, what, err);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_error(s, what, err);
	return sqlite3_changes(s->db);
}

int store_enqueue(struct store *s, const char *kind, const char *payload, int priority,
		  int64_t not_before, int64_t *id, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, ST_ENQUEUE);
	if (st) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, payload, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, priority);
		sqlite3_bind_int64(st, 4, not_before);
		sqlite3_bind_int64(st, 5, store_now_ms());
	}
	if (step_changes(s, st, "queueing a job", err) < 0)
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int park(struct store *s, int64_t id, const char *why, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, ST_PARK);
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, why, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, store_now_ms());
	}
	return step_changes(s, st, "parking a job", err) < 0 ? -1 : 0;
}

/* Inside the claim's transaction: the next claimable job, parking on the
 * way those that used up their attempts.  1 found, 0 none, -1 error. */
static int pick(struct store *s, int max_attempts, struct store_job *job, char err[STORE_ERRLEN])
{
	for (;;) {
		sqlite3_stmt *st = stmt(s, ST_CLAIM_PICK);
		if (!st)
			return db_error(s, "claiming a job", err);
		sqlite3_bind_int64(st, 1, store_now_ms());
		int rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			return 0;
		if (rc != SQLITE_ROW)
			return db_error(s, "claiming a job", err);
		job->id = sqlite3_column_int64(st, 0);
		snprintf(job->kind, sizeof job->kind, "%s", sqlite3_column_text(st, 1));
		job->attempts = sqlite3_column_int(st, 3) + 1;
		if (job->attempts <= max_attempts) {
			job->payload = strdup((const char *)sqlite3_column_text(st, 2));
			sqlite3_reset(st);
			return job->payload ? 1 : -1;
		}
		sqlite3_reset(st);
		char why[160];
		snprintf(why, sizeof why, "its worker stopped before finishing it %d times",
			 max_attempts);
		if (park(s, job->id, why, err) < 0)
			return -1;
	}
}

int store_claim(struct store *s, const char *worker, int64_t lease_ms, int max_attempts,
		struct store_job *job, char err[STORE_ERRLEN])
{
	memset(job, 0, sizeof *job);
	if (store_begin(s, err) < 0)
		return -1;
	int found = pick(s, max_attempts, job, err);
	if (found == 1) {
		int64_t now = store_now_ms();
		sqlite3_stmt *st = stmt(s, ST_CLAIM_TAKE);
		if (st) {
			sqlite3_bind_int64(st, 1, job->id);
			sqlite3_bind_text(st, 2, worker, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, now + lease_ms);
			sqlite3_bind_int64(st, 4, now);
		}
		if (step_changes(s, st, "claiming a job", err) != 1)
			found = -1;
	}
	if (found < 0 || store_commit(s, err) < 0) {
		store_rollback(s);
		store_job_clear(job);
		return -1;
	}
	if (found == 0)
		store_job_clear(job);
	return found;
}

static int lost_lease(int64_t job, char err[STORE_ERRLEN])
{
	snprintf(err, STORE_ERRLEN,
		 "job %lld is no longer ours: its lease expired and another worker took it",
		 (long long)job);
	return -1;
}

int store_renew(struct store *s, int64_t job, const char *worker, int64_t lease_ms,
		char err[STORE_ERRLEN])
{
	int64_t now = store_now_ms();
	sqlite3_stmt *st = stmt(s, ST_RENEW);
	if (st) {
		sqlite3_bind_int64(st, 1, job);
		sqlite3_bind_text(st, 2, worker, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, now + lease_ms);
		sqlite3_bind_int64(st, 4, now);
	}
	int n = step_changes(s, st, "renewing a lease", err);
	return n < 0 ? -1 : n == 1 ? 0 : lost_lease(job, err);
}

static int finish(struct store *s, enum stmt which, int64_t job, const char *worker,
		  char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, which);
	if (st) {
		sqlite3_bind_int64(st, 1, job);
		sqlite3_bind_text(st, 2, worker, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, store_now_ms());
	}
	int n = step_changes(s, st, "finishing a job", err);
	return n < 0 ? -1 : n == 1 ? 0 : lost_lease(job, err);
}

int store_complete(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN])
{
	return finish(s, ST_COMPLETE, job, worker, err);
}

int store_release(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN])
{
	return finish(s, ST_RELEASE, job, worker, err);
}

int store_fail(struct store *s, int64_t job, const char *worker, const char *error,
	       int64_t retry_at, int max_attempts, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, ST_FAIL);
	if (st) {
		sqlite3_bind_int64(st, 1, job);
		sqlite3_bind_text(st, 2, worker, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, error, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, retry_at);
		sqlite3_bind_int64(st, 5, store_now_ms());
		sqlite3_bind_int(st, 6, max_attempts);
	}
	int n = step_changes(s, st, "failing a job", err);
	return n < 0 ? -1 : n == 1 ? 0 : lost_lease(job, err);
}

int store_pending(struct store *s, int64_t *count, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, ST_PENDING);
	if (!st)
		return db_error(s, "counting jobs", err);
	sqlite3_bind_int64(st, 1, store_now_ms());
	if (sqlite3_step(st) != SQLITE_ROW)
		return db_error(s, "counting jobs", err);
	*count = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

int store_holds(struct store *s, int64_t job, const char *worker, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st = stmt(s, ST_HOLDS);
	if (!st)
		return db_error(s, "checking a lease", err);
	sqlite3_bind_int64(st, 1, job);
	sqlite3_bind_text(st, 2, worker, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? lost_lease(job, err) : db_error(s, "checking a lease", err);
}

int store_mark_done(struct store *s, int64_t job, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db,
			       "UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = ?2"
			       " WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "finishing a job", err);
	sqlite3_bind_int64(st, 1, job);
	sqlite3_bind_int64(st, 2, store_now_ms());
	int n = step_changes(s, st, "finishing a job", err);
	sqlite3_finalize(st);
	return n < 0 ? -1 : 0;
}
