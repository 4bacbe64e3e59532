/* test_store.c - the judge's store (judge/store/) on both its backends:
 * opening and refusing databases, submissions and their compile jobs, the
 * job queue with its leases, and processes sharing one queue.  The suites
 * store_open, store_submit, store_jobs and store_concurrent work on SQLite
 * files, each test in its own mkdtemp directory, removed afterwards; each
 * has a twin suite NAME_pg running the same test bodies (BOTH) on a new
 * database of a private PostgreSQL server (tests/unit/pg_testlib.h). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <glob.h>

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "judge/store/db.h"
#include "judge/store/store.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/pg_testlib.h"

/* ---- fixture: one temporary directory per test -------------------------- */


/* schema.sql is version 1; each db/migrations/NNN.sql adds one. */
static int latest_version(void)
{
	glob_t g;
	int n = glob("db/migrations/*.sql", 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
	globfree(&g);
	return 1 + n;
}

static char tmpdir[64];
static char dbpath[128];
/* What the test's stores open: dbpath, or a PostgreSQL database's URL. */
static char target[512];
static enum db_kind backend;

static void setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test-store-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	snprintf(dbpath, sizeof dbpath, "%s/judge.sqlite", tmpdir);
	snprintf(target, sizeof target, "%s", dbpath);
	backend = DB_SQLITE;
}

/* A new database on the run's PostgreSQL server (started on first use). */
static void setup_pg(void)
{
	setup();
	err_t err = {0};
	cr_assert_eq(pg_test_database(target, sizeof target, err), 0, "%s", err->msg);
	backend = DB_POSTGRES;
}

/* One PostgreSQL server for the whole run: made ready before the first
 * test process starts, stopped after the last. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	(void)set;
	pg_test_run_begin();
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	(void)stats;
	pg_test_run_end();
}

static void teardown(void)
{
	DIR *d = opendir(tmpdir);
	if (!d)
		return;
	struct dirent *e;
	char p[512];
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

TestSuite(store_open, .init = setup, .fini = teardown);
TestSuite(store_schemas, .init = setup_pg, .fini = teardown, .timeout = 60);
TestSuite(store_submit, .init = setup, .fini = teardown);
TestSuite(store_jobs, .init = setup, .fini = teardown);
TestSuite(store_concurrent, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(store_open_pg, .init = setup_pg, .fini = teardown, .timeout = 60);
TestSuite(store_submit_pg, .init = setup_pg, .fini = teardown, .timeout = 60);
TestSuite(store_jobs_pg, .init = setup_pg, .fini = teardown, .timeout = 60);
TestSuite(store_concurrent_pg, .init = setup_pg, .fini = teardown, .timeout = 120);
TestSuite(store_sched, .init = setup, .fini = teardown);
TestSuite(store_sched_pg, .init = setup_pg, .fini = teardown, .timeout = 60);

/* ---- helpers -------------------------------------------------------------- */

/* The first row of a query through the store's own connection, whatever
 * its backend; a query that fails or returns no row fails the test. */
static struct db_stmt *first_row(struct store *s, const char *fmt, va_list ap)
{
	char sql[1024];
	err_t err = {0};
	int n = vsnprintf(sql, sizeof sql, fmt, ap);
	cr_assert(n >= 0 && (size_t)n < sizeof sql, "a query too long for the test helper");
	struct db_stmt *st = db_prepare(s, sql);
	int rc = st ? db_step(st) : -1;
	if (rc != 1)
		db_fail(s, sql, err);
	cr_assert_eq(rc, 1, "%s", rc < 0 ? err->msg : "no row");
	return st;
}

__attribute__((format(printf, 2, 3)))
static int64_t q_int(struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct db_stmt *st = first_row(s, fmt, ap);
	va_end(ap);
	int64_t v = db_col_int(st, 0);
	db_finish(st);
	return v;
}

__attribute__((format(printf, 4, 5)))
static void q_text(struct store *s, char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct db_stmt *st = first_row(s, fmt, ap);
	va_end(ap);
	snprintf(out, size, "%s", db_col_null(st, 0) ? "(null)" : db_col_text(st, 0));
	db_finish(st);
}

static int64_t count(struct store *s, const char *table)
{
	return q_int(s, "SELECT count(*) FROM %s", table);
}

/* The schema version the store wrote. */
static int64_t stored_version(struct store *s)
{
	if (backend == DB_SQLITE)
		return testdb_int(store_db(s), "PRAGMA user_version");
	return q_int(s, "SELECT value::int FROM meta WHERE key = 'schema_version'");
}

static bool in_transaction(struct store *s)
{
	return s->ops->in_transaction(s);
}

/* Runs a script on the store's connection: SQLite's or PostgreSQL's text. */
static void script(struct store *s, const char *sqlite, const char *postgres)
{
	err_t err = {0};
	const char *sql = backend == DB_SQLITE ? sqlite : postgres;
	cr_assert_eq(db_exec(s, sql, "test script", err), 0, "%s", err->msg);
}

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	cr_assert_eq(rc, SQLITE_OK, "sqlite3_open_v2(%s): %s", path,
		     db ? sqlite3_errmsg(db) : "out of memory");
	return db;
}

static void raw_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s: %s", sql,
		     msg ? msg : "?");
}

/* The whole file, malloc'd. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "fopen(%s): %s", path, strerror(errno));
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	cr_assert_not_null(buf);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "fopen(%s): %s", path, strerror(errno));
	cr_assert_eq(fwrite(text, 1, strlen(text), f), strlen(text));
	cr_assert_eq(fclose(f), 0);
}

/* Asserts path holds exactly the bytes it held before (and frees them). */
static void expect_unchanged(const char *path, char *before, size_t before_len)
{
	size_t len;
	char *now = slurp(path, &len);
	cr_expect_eq(len, before_len, "%s changed size: %zu bytes, was %zu", path, len,
		     before_len);
	if (len == before_len) {
		size_t i = 0;
		while (i < len && now[i] == before[i])
			i++;
		cr_expect_eq(i, len, "%s was written: first changed byte at offset %zu "
			     "(0x%02x, was 0x%02x)", path, i, i < len ? (unsigned char)now[i] : 0,
			     i < len ? (unsigned char)before[i] : 0);
	}
	free(now);
	free(before);
}

/* How many entries the test's directory holds (a -wal, -shm or -journal
 * left next to a refused file shows it was opened for writing). */
static int dir_entries(void)
{
	DIR *d = opendir(tmpdir);
	cr_assert_not_null(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static const char SHA[] = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
/* A source with a NUL byte in it: the store keeps bytes, not a C string. */
static const char SOURCE[] = "int main(void)\n{\n\treturn 0;\n}\n/*\0*/\n";

/* Each call a different version of the source (its hash differs; the
 * first is SHA): the store keeps a file sent again unchanged as the one it
 * has. */
static struct store_new_submission new_sub(const char *game, const char *author,
					   const char *name)
{
	static char versions[64][sizeof SHA];
	static unsigned made;
	char *sha = versions[made % 64];
	if (made++ == 0)
		snprintf(sha, sizeof SHA, "%s", SHA);
	else
		snprintf(sha, sizeof SHA, "%.56s%08x", SHA, made);
	return (struct store_new_submission){ .game = game, .author = author, .name = name,
					      .source = SOURCE, .source_len = sizeof SOURCE - 1,
					      .source_sha256 = sha };
}

static int64_t submit_ok(struct store *s, const char *game, const char *author,
			 const char *name)
{
	err_t err = {0};
	struct store_new_submission sub = new_sub(game, author, name);
	int64_t id = -1;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "store_submit(%s, %s, %s): %s", game,
		     author, name, err->msg);
	cr_assert_gt(id, 0);
	return id;
}

static int64_t enqueue(struct store *s, const char *kind, const char *payload,
		       enum sched_class cls, int64_t not_before)
{
	err_t err = {0};
	int64_t id = -1;
	cr_assert_eq(store_enqueue(s, kind, payload, cls, not_before, &id, err), 0,
		     "store_enqueue: %s", err->msg);
	cr_assert_gt(id, 0);
	return id;
}

/* Claims and expects a job (returned, payload owned by the caller). */
static struct store_job claim_ok(struct store *s, const char *worker, int64_t lease_ms,
				 int max_attempts)
{
	err_t err = {0};
	struct store_job j;
	int rc = store_claim(s, worker, lease_ms, max_attempts, &j, err);
	cr_assert_eq(rc, 1, "store_claim(%s) gave %d, want a job: %s", worker, rc,
		     rc < 0 ? err->msg : "nothing to do");
	cr_assert_not_null(j.payload);
	return j;
}

static void claim_none(struct store *s, const char *worker, int max_attempts)
{
	err_t err = {0};
	struct store_job j;
	int rc = store_claim(s, worker, 30000, max_attempts, &j, err);
	cr_assert_eq(rc, 0, "store_claim(%s) gave %d (job %lld), want nothing: %s", worker, rc,
		     (long long)j.id, rc < 0 ? err->msg : "");
	cr_expect_null(j.payload);
	store_job_clear(&j);
}

static int64_t pending(struct store *s)
{
	err_t err = {0};
	int64_t n = -1;
	cr_assert_eq(store_pending(s, &n, err), 0, "store_pending: %s", err->msg);
	return n;
}

/* A jobs row as the file holds it. */
struct jobrow {
	char kind[16], state[16], payload[128], worker[32], last_error[256];
	bool has_worker, has_lease, has_error;
	int priority, attempts;
	int64_t not_before, lease_until;
};

static struct jobrow job_row(struct store *s, int64_t id)
{
	struct db_stmt *st = db_prepare(s, "SELECT kind, state, payload, worker, last_error, priority,"
					   " attempts, not_before, lease_until FROM jobs WHERE id = ?1");
	cr_assert_not_null(st);
	db_bind_int(st, 1, id);
	cr_assert_eq(db_step(st), 1, "no job %lld", (long long)id);
	struct jobrow r = { 0 };
	snprintf(r.kind, sizeof r.kind, "%s", db_col_text(st, 0));
	snprintf(r.state, sizeof r.state, "%s", db_col_text(st, 1));
	snprintf(r.payload, sizeof r.payload, "%s", db_col_text(st, 2));
	r.has_worker = !db_col_null(st, 3);
	if (r.has_worker)
		snprintf(r.worker, sizeof r.worker, "%s", db_col_text(st, 3));
	r.has_error = !db_col_null(st, 4);
	if (r.has_error)
		snprintf(r.last_error, sizeof r.last_error, "%s", db_col_text(st, 4));
	r.priority = (int)db_col_int(st, 5);
	r.attempts = (int)db_col_int(st, 6);
	r.not_before = db_col_int(st, 7);
	r.has_lease = !db_col_null(st, 8);
	r.lease_until = db_col_int(st, 8);
	db_finish(st);
	return r;
}

/* The message a worker gets once another one took its job. */
static void expect_lost(int rc, const char *err, int64_t job, const char *what)
{
	char want[64];
	snprintf(want, sizeof want, "job %lld is no longer ours", (long long)job);
	cr_expect_eq(rc, -1, "%s by the worker that lost the lease gave %d, want -1", what, rc);
	cr_expect_not_null(strstr(err, want), "%s: got \"%s\", want it to say \"%s\"", what, err,
			   want);
	cr_expect_not_null(strstr(err, "lease expired"), "%s: got \"%s\"", what, err);
}

/* ---- opening -------------------------------------------------------------- */

Test(store_open, fresh_file_gets_the_schema)
{
	struct stat sb;
	cr_assert_eq(stat(dbpath, &sb), -1);
	struct store *s = teststore_open(dbpath, true);
	cr_assert_eq(stat(dbpath, &sb), 0, "store_open(create) made no file at %s", dbpath);
	sqlite3 *db = store_db(s);
	char text[64];

	testdb_text(db, text, sizeof text, "SELECT value FROM meta WHERE key = 'application'");
	cr_expect_str_eq(text, "judge");
	cr_expect_eq(testdb_int(db, "PRAGMA user_version"), latest_version());
	testdb_text(db, text, sizeof text, "PRAGMA journal_mode");
	cr_expect_str_eq(text, "wal");
	cr_expect_eq(testdb_int(db, "PRAGMA foreign_keys"), 1);
	cr_expect_geq(testdb_int(db, "PRAGMA busy_timeout"), 1000, "no busy timeout: workers "
		      "sharing the file would fail at once on a lock");
	static const char *const tables[] = { "meta", "names", "submissions", "jobs", "matches",
					      "match_players", "ratings", "events" };
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
		char sql[128];
		snprintf(sql, sizeof sql,
			 "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '%s'",
			 tables[i]);
		cr_expect_eq(testdb_int(db, "%s", sql), 1, "no table %s", tables[i]);
	}
	cr_expect_eq(count(s, "jobs"), 0);
	cr_expect_eq(count(s, "submissions"), 0);

	/* Foreign keys are not only switched on, they are enforced. */
	int rc = sqlite3_exec(db,
			      "INSERT INTO submissions (game, author, name, source, source_sha256,"
			      " state, created_at, updated_at)"
			      " VALUES ('dominator', 'alice', 'Nobody', x'00', 'h', 'queued', 0, 0)",
			      NULL, NULL, NULL);
	cr_expect_eq(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_FOREIGNKEY,
		     "a submission with an unclaimed name gave %d (%s)", rc, sqlite3_errmsg(db));
	store_close(s);

	/* WAL is the file's own mode, not only this connection's. */
	sqlite3 *raw = raw_open(dbpath);
	testdb_text(raw, text, sizeof text, "PRAGMA journal_mode");
	cr_expect_str_eq(text, "wal");
	sqlite3_close(raw);
}

BOTH(store_open, reopening_keeps_everything)
{
	struct store *s = teststore_open(target, true);
	int64_t id = submit_ok(s, "dominator", "alice", "Bot");
	store_close(s);

	s = teststore_open(target, false);
	err_t err = {0};
	struct store_submission got;
	cr_assert_eq(store_get_submission(s, id, &got, err), 1, "%s", err->msg);
	cr_expect_str_eq(got.author, "alice");
	cr_expect_eq(count(s, "submissions"), 1);
	cr_expect_eq(count(s, "jobs"), 1);
	cr_expect_eq(q_int(s, "SELECT count(*) FROM meta WHERE key = 'application'"), 1);
	cr_expect_eq(stored_version(s), latest_version());
	if (backend == DB_SQLITE)
		cr_expect_eq(testdb_int(store_db(s), "PRAGMA foreign_keys"), 1);

	/* create=true on an existing judge file opens it, it does not start over;
	 * and two connections may hold the file at once. */
	struct store *t = teststore_open(target, true);
	cr_expect_eq(count(t, "submissions"), 1);
	cr_expect_eq(count(t, "names"), 1);
	store_close(t);
	store_close(s);
}

Test(store_open, missing_file_without_create_names_the_path)
{
	err_t err = {0};
	struct store *s = store_open(dbpath, false, err);
	cr_assert_null(s, "store_open(create=false) opened a missing file");
	cr_expect_not_null(strstr(err->msg, dbpath), "the error does not name the path: \"%s\"",
			   err->msg);
	cr_expect_not_null(strstr(err->msg, strerror(ENOENT)), "the error does not say why: \"%s\"",
			   err->msg);
	struct stat sb;
	cr_expect_eq(stat(dbpath, &sb), -1, "store_open(create=false) created %s", dbpath);
	cr_expect_eq(dir_entries(), 0);
}

/* Runs store_open(dbpath, create) in a child, so that a store that crashes
 * on a strange file fails the test (and the directory is still removed)
 * instead of killing it.  unprivileged: the child first gives up any power
 * over the file's mode (root ignores it, so a root child becomes nobody).
 * out gets "opened|err", "refused|err", "crashed|how", or "skip|why". */
static void open_in_child(bool create, bool unprivileged, char *out, size_t n)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		close(p[0]);
		char msg[ERR_LEN + 64];
		if (unprivileged && geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		     setresuid(65534, 65534, 65534) < 0)) {
			snprintf(msg, sizeof msg, "skip|cannot become nobody: %s", strerror(errno));
		} else if (unprivileged && access(dbpath, W_OK) == 0) {
			snprintf(msg, sizeof msg, "skip|uid %d may still write %s", (int)geteuid(),
				 dbpath);
		} else if (unprivileged && access(dbpath, R_OK) < 0) {
			snprintf(msg, sizeof msg, "crashed|uid %d cannot even read %s: %s",
				 (int)geteuid(), dbpath, strerror(errno));
		} else {
			err_t err = {0};
			struct store *s = store_open(dbpath, create, err);
			snprintf(msg, sizeof msg, "%s|%s", s ? "opened" : "refused", err->msg);
			store_close(s);
		}
		ssize_t w = write(p[1], msg, strlen(msg));
		_exit(w < 0);
	}
	close(p[1]);
	size_t got = 0;
	ssize_t r;
	while (got + 1 < n && (r = read(p[0], out + got, n - 1 - got)) > 0)
		got += (size_t)r;
	out[got] = '\0';
	close(p[0]);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		snprintf(out, n, "crashed|store_open died of signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) != 0 || got == 0)
		snprintf(out, n, "crashed|store_open exited with status %d (a sanitizer report?)",
			 WEXITSTATUS(status));
}

/* Expects store_open to refuse dbpath with an error that names it and says
 * want, leaving the file byte-identical and nothing next to it. */
static void expect_refused(bool create, const char *want, const char *what)
{
	size_t len;
	char *before = slurp(dbpath, &len);
	char got[ERR_LEN + 64];
	open_in_child(create, false, got, sizeof got);
	cr_expect(strncmp(got, "refused|", 8) == 0, "store_open(create=%d) of %s: %s", create,
		  what, got);
	cr_expect_not_null(strstr(got, dbpath), "\"%s\" does not name the file", got);
	cr_expect_not_null(strstr(got, want), "got \"%s\", want it to say \"%s\"", got, want);
	expect_unchanged(dbpath, before, len);
	cr_expect_eq(dir_entries(), 1, "store_open left files next to %s", what);
}

Test(store_open, text_file_is_refused)
{
	write_file(dbpath, "# judge configuration\n"
			   "games = dominator\n"
			   "workers = 2\n"
			   "This is a text file that merely has the database's name; a judge must\n"
			   "refuse it and leave every byte of it where it was.\n");
	expect_refused(false, "not a judge database", "a text file");
	expect_refused(true, "not a judge database", "a text file");
}

/* Another program's SQLite file: refused with create false or true, and
 * never written (not even switched to WAL, which rewrites its header). */
static void expect_foreign_refused(void)
{
	expect_refused(false, "not a judge", "another program's database");
	expect_refused(true, "not a judge", "another program's database");
	sqlite3 *raw = raw_open(dbpath);
	char mode[16];
	testdb_text(raw, mode, sizeof mode, "PRAGMA journal_mode");
	cr_expect_str_eq(mode, "delete", "the other program's file is now in %s mode", mode);
	cr_expect_eq(testdb_int(raw, "SELECT count(*) FROM sqlite_schema WHERE name = 'jobs'"), 0);
	sqlite3_close(raw);
}

Test(store_open, another_programs_sqlite_file_is_refused_untouched)
{
	sqlite3 *raw = raw_open(dbpath);
	raw_exec(raw, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
		      "INSERT INTO notes (body) VALUES ('buy milk'), ('call Bob');");
	sqlite3_close(raw);
	expect_foreign_refused();
}

Test(store_open, a_meta_table_of_another_application_is_refused)
{
	sqlite3 *raw = raw_open(dbpath);
	raw_exec(raw, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		      "INSERT INTO meta VALUES ('application', 'wiki');");
	sqlite3_close(raw);
	expect_foreign_refused();
}

Test(store_open, a_meta_table_with_a_null_application_is_refused)
{
	sqlite3 *raw = raw_open(dbpath);
	raw_exec(raw, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		      "INSERT INTO meta VALUES ('application', NULL);");
	sqlite3_close(raw);
	expect_foreign_refused();
}

Test(store_open, read_only_file_is_refused)
{
	store_close(teststore_open(dbpath, true));
	cr_assert_eq(chmod(dbpath, 0444), 0);
	cr_assert_eq(chmod(tmpdir, 0755), 0); /* nobody may reach it, not write it */
	size_t len;
	char *before = slurp(dbpath, &len);

	char got[ERR_LEN + 64];
	open_in_child(false, true, got, sizeof got);
	if (strncmp(got, "skip|", 5) == 0) {
		free(before);
		cr_skip_test("%s", got + 5);
	}
	cr_expect(strncmp(got, "refused|", 8) == 0, "a read-only file: \"%s\"", got);
	cr_expect_not_null(strstr(got, "read-only"), "got \"%s\"", got);
	cr_expect_not_null(strstr(got, dbpath), "\"%s\" does not name the file", got);
	expect_unchanged(dbpath, before, len);
	cr_expect_eq(dir_entries(), 1);
}

/* One statement text serves both backends: ?N are its parameters, in any
 * order and used more than once, but a ? inside quotes is text. */
BOTH(store_open, parameters_are_numbered_and_quotes_are_text)
{
	struct store *s = teststore_open(target, true);
	struct db_stmt *st = db_prepare(s, "SELECT 'a?1' || ?2 || \"?\" || ?1 || ?2 FROM"
					   " (SELECT 'q' AS \"?\") AS t");
	cr_assert_not_null(st);
	db_bind_text(st, 1, "x");
	db_bind_text(st, 2, "y");
	cr_assert_eq(db_step(st), 1);
	cr_expect_str_eq(db_col_text(st, 0), "a?1yqxy");
	db_finish(st);
	store_close(s);
}

static int read_two_texts(struct db_stmt *st, void *ctx, err_t err)
{
	int *seen = ctx;
	if (strcmp(db_col_text(st, 0), "stop") == 0) {
		err_set(err, "a row it cannot read");
		return -1;
	}
	return ++*seen == 2 ? 1 : 0;
}

/* db_run, db_changed and db_query, the store's one way to run a statement:
 * a blob bound from the spec comes back byte for byte, a reader stops the
 * rows when it says so, changes are counted, and a failure says what was
 * being done, in front of the backend's or the reader's words. */
BOTH(store_open, one_statement_binds_reads_rows_and_counts_changes)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	const char bytes[] = { 'a', 0, 'b', (char)0xff };
	cr_assert_eq(db_run(s, "storing", err, "INSERT INTO binaries (sha256, bytes, created_at)"
			    " VALUES (?1, ?2, ?3)", "tbi", "h1", bytes, sizeof bytes, (int64_t)7),
		     0, "%s", err->msg);
	struct db_bytes got = { 0 };
	cr_assert_eq(db_query(s, "reading", err, "SELECT bytes FROM binaries WHERE sha256 = ?1",
			      db_row_bytes, &got, "t", "h1"), 1, "%s", err->msg);
	cr_expect_eq(got.len, sizeof bytes);
	cr_expect_eq(memcmp(got.bytes, bytes, sizeof bytes), 0);
	free(got.bytes);

	for (int i = 2; i <= 4; i++) {
		char sha[8];
		snprintf(sha, sizeof sha, "h%d", i);
		cr_assert_eq(db_run(s, "storing", err, "INSERT INTO binaries (sha256, bytes,"
				    " created_at) VALUES (?1, ?2, ?3)", "tbi", sha, "x", (size_t)1,
				    (int64_t)i), 0, "%s", err->msg);
	}
	int seen = 0;
	cr_expect_eq(db_query(s, "reading", err, "SELECT sha256 FROM binaries ORDER BY sha256",
			      read_two_texts, &seen, ""), 2, "the reader stopped at its second row");
	cr_expect_eq(db_query(s, "counting", err, "SELECT 1 FROM binaries", NULL, NULL, ""), 4);
	cr_expect_eq(db_changed(s, "ageing", err, "UPDATE binaries SET created_at = ?1"
				" WHERE created_at < ?2", "ii", (int64_t)0, (int64_t)4), 2);

	cr_expect_eq(db_query(s, "reading", err, "SELECT 'stop'", read_two_texts, &seen, ""), -1);
	cr_expect_str_eq(err->msg, "reading: a row it cannot read");
	cr_expect_eq(db_run(s, "storing a copy", err, "INSERT INTO no_such_table VALUES (1)", ""),
		     -1);
	cr_expect_eq(strncmp(err->msg, "storing a copy: ", 16), 0, "\"%s\"", err->msg);
	cr_expect_not_null(strstr(err->msg, "no_such_table"), "\"%s\"", err->msg);
	store_close(s);
}

/* ---- opening a PostgreSQL database ------------------------------------------ */

/* Runs sql on the test's database through a connection of its own. */
static void pg_raw_exec(const char *sql)
{
	PGconn *pg = PQconnectdb(target);
	cr_assert_eq(PQstatus(pg), CONNECTION_OK, "%s: %s", target, PQerrorMessage(pg));
	PGresult *r = PQexec(pg, sql);
	ExecStatusType st = PQresultStatus(r);
	cr_assert(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK, "%s: %s", sql,
		  PQerrorMessage(pg));
	PQclear(r);
	PQfinish(pg);
}

static int64_t pg_raw_int(const char *sql)
{
	PGconn *pg = PQconnectdb(target);
	cr_assert_eq(PQstatus(pg), CONNECTION_OK, "%s: %s", target, PQerrorMessage(pg));
	PGresult *r = PQexec(pg, sql);
	cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s: %s", sql, PQerrorMessage(pg));
	cr_assert_eq(PQntuples(r), 1, "%s: no row", sql);
	int64_t v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	PQfinish(pg);
	return v;
}

static int64_t pg_tables(void)
{
	return pg_raw_int("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'");
}

/* The PostgreSQL migrations the build wrote from the one source of each
 * (db/dialect.awk): one version means one schema on both. */
static int latest_pg_version(void)
{
	glob_t g;
	int n = glob("build/db/postgres/migrations/*.sql", 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
	globfree(&g);
	return 1 + n;
}

static void expect_open_refused(bool create, const char *want)
{
	err_t err = {0};
	struct store *s = store_open(target, create, err);
	cr_expect_null(s, "store_open(create=%d) opened it", create);
	store_close(s);
	cr_expect_not_null(strstr(err->msg, want), "got \"%s\", want it to say \"%s\"", err->msg,
			   want);
}

Test(store_open_pg, fresh_database_gets_the_schema)
{
	cr_assert_eq(pg_tables(), 0);
	struct store *s = teststore_open(target, true);
	char text[64];
	q_text(s, text, sizeof text, "SELECT value FROM meta WHERE key = 'application'");
	cr_expect_str_eq(text, "judge");
	cr_expect_eq(latest_pg_version(), latest_version(), "build/db/postgres/migrations and "
		     "db/migrations do not reach the same version");
	cr_expect_eq(stored_version(s), latest_version());
	static const char *const tables[] = { "meta", "names", "submissions", "jobs", "matches",
					      "match_players", "ratings", "events", "plag_docs",
					      "plag_index", "plag_pairs" };
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		cr_expect_eq(q_int(s, "SELECT count(*) FROM pg_tables WHERE tablename = '%s'",
				   tables[i]), 1, "no table %s", tables[i]);
	cr_expect_eq(q_int(s, "SELECT count(*) FROM pg_indexes WHERE indexname ="
			      " 'events_by_submission'"), 1, "migration 002 was not applied");
	/* The claim's index serves only what may be claimed. */
	q_text(s, text, sizeof text, "SELECT count(*) FROM pg_indexes WHERE indexname ="
	       " 'jobs_claimable' AND indexdef LIKE '%%WHERE%%'");
	cr_expect_str_eq(text, "1");

	/* Foreign keys hold. */
	err_t err = {0};
	cr_expect_eq(db_run(s, "inserting", err,
			    "INSERT INTO submissions (game, author, name, source, source_sha256,"
			    " state, created_at, updated_at) VALUES ('dominator', 'alice',"
			    " 'Nobody', '\\x00', 'h', 'queued', 0, 0)", ""), -1,
		     "a submission with an unclaimed name was stored");
	cr_expect_not_null(strstr(err->msg, "foreign key"), "got \"%s\"", err->msg);
	/* json_extract reads a job's payload as SQLite's does. */
	enqueue(s, "match", "{\"kind\":\"ranked\",\"game\":\"ants\"}", SCHED_RANKED, 0);
	q_text(s, text, sizeof text, "SELECT json_extract(payload, '$.game') FROM jobs");
	cr_expect_str_eq(text, "ants");
	store_close(s);
}

Test(store_open_pg, an_empty_database_without_create_is_refused_untouched)
{
	expect_open_refused(false, "is empty, not a judge database");
	cr_expect_eq(pg_tables(), 0, "store_open(create=false) wrote tables");
}

Test(store_open_pg, another_applications_database_is_refused_untouched)
{
	pg_raw_exec("CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL);"
		    "INSERT INTO notes (body) VALUES ('buy milk'), ('call Bob')");
	expect_open_refused(false, "not a judge's");
	expect_open_refused(true, "not a judge's");
	cr_expect_eq(pg_tables(), 1, "the other application's database was written");
	cr_expect_eq(pg_raw_int("SELECT count(*) FROM notes"), 2);
}

Test(store_open_pg, a_newer_judges_database_is_refused)
{
	store_close(teststore_open(target, true));
	pg_raw_exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
	expect_open_refused(false, "newer judge");
	cr_expect_eq(pg_raw_int("SELECT value::int FROM meta WHERE key = 'schema_version'"), 99);
}

/* A database at version 1 (schema.sql only) is brought to the latest
 * version on open, its rows kept. */
Test(store_open_pg, an_older_database_is_migrated)
{
	size_t len;
	char *schema = slurp("build/db/postgres/schema.sql", &len);
	schema = realloc(schema, len + 1);
	cr_assert_not_null(schema);
	schema[len] = '\0';
	pg_raw_exec(schema);
	free(schema);
	pg_raw_exec("INSERT INTO meta (key, value) VALUES ('schema_version', '1');"
		    "INSERT INTO jobs (kind, payload, state, created_at, updated_at)"
		    " VALUES ('notify', '{}', 'queued', 1, 1)");
	struct store *s = teststore_open(target, false);
	cr_expect_eq(stored_version(s), latest_version());
	cr_expect_eq(count(s, "jobs"), 1);
	cr_expect_eq(count(s, "plag_docs"), 0);
	store_close(s);
}

Test(store_open_pg, an_unreachable_server_is_named)
{
	err_t err = {0};
	snprintf(target, sizeof target, "postgresql://judge@/judge?host=%s/no-server", tmpdir);
	struct store *s = store_open(target, true, err);
	cr_expect_null(s);
	store_close(s);
	cr_expect_not_null(strstr(err->msg, "cannot reach PostgreSQL at"), "got \"%s\"", err->msg);
	cr_expect_not_null(strstr(err->msg, "is the server running?"), "got \"%s\"", err->msg);
	cr_expect_not_null(strstr(err->msg, "no-server"), "\"%s\" does not say where", err->msg);
}

/* The server ends the store's session, as a restart would; returns once
 * the session is gone. */
static void kill_session(struct store *s)
{
	char sql[96];
	snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%lld, 10000)",
		 (long long)q_int(s, "SELECT pg_backend_pid()"));
	pg_raw_exec(sql);
}

/* A session lost between transactions: the statement that finds it out
 * fails, saying so, and the next one runs on a new session. */
Test(store_open_pg, a_lost_connection_is_said_then_opened_again)
{
	struct store *s = teststore_open(target, true);
	enqueue(s, "match", "{}", SCHED_RANKED, 0); /* its statement is prepared on the session */
	kill_session(s);
	err_t err = {0};
	cr_expect_eq(store_enqueue(s, "match", "{}", SCHED_RANKED, 0, NULL, err), -1);
	cr_expect_not_null(strstr(err->msg, "lost the connection to PostgreSQL at"), "got \"%s\"",
			   err->msg);
	cr_expect_not_null(strstr(err->msg, "is the server running?"), "got \"%s\"", err->msg);
	enqueue(s, "match", "{}", SCHED_RANKED, 0);
	cr_expect_eq(count(s, "jobs"), 2);
	store_close(s);
}

/* A session lost inside a transaction: nothing of the transaction is
 * recorded, no statement after it runs until the rollback, and none is
 * replayed on its own on a new session. */
Test(store_open_pg, a_transaction_cut_by_a_lost_connection_leaves_nothing)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	enqueue(s, "match", "{\"first\":1}", SCHED_RANKED, 0);
	kill_session(s);
	cr_expect_eq(store_enqueue(s, "match", "{\"second\":1}", SCHED_RANKED, 0, NULL, err), -1);
	err->msg[0] = '\0';
	cr_expect_eq(store_enqueue(s, "match", "{\"third\":1}", SCHED_RANKED, 0, NULL, err), -1,
		     "a statement ran on a new session in the middle of a lost transaction");
	cr_expect_not_null(strstr(err->msg, "nothing of it was recorded"), "got \"%s\"", err->msg);
	cr_expect_eq(store_commit(s, err), -1, "the lost transaction committed");
	store_rollback(s);
	cr_expect_eq(count(s, "jobs"), 0, "a part of the lost transaction was recorded");
	enqueue(s, "match", "{}", SCHED_RANKED, 0);
	cr_expect_eq(count(s, "jobs"), 1);
	store_close(s);
}

/* ---- submissions ---------------------------------------------------------- */

BOTH(store_submit, stores_the_submission_and_one_compile_job)
{
	struct store *s = teststore_open(target, true);
	int64_t t0 = store_now_ms();
	int64_t id = submit_ok(s, "dominator", "alice", "Bot");
	int64_t t1 = store_now_ms();

	cr_expect_eq(count(s, "submissions"), 1);
	cr_expect_eq(count(s, "names"), 1);
	cr_expect_eq(count(s, "jobs"), 1);
	char text[64];
	q_text(s, text, sizeof text,
		"SELECT game || '/' || name || '=' || author FROM names");
	cr_expect_str_eq(text, "dominator/Bot=alice");

	int64_t job = q_int(s, "SELECT id FROM jobs");
	struct jobrow r = job_row(s, job);
	char want[64];
	snprintf(want, sizeof want, "{\"submission\":%lld}", (long long)id);
	cr_expect_str_eq(r.kind, "compile");
	cr_expect_str_eq(r.state, "queued");
	cr_expect_str_eq(r.payload, want);
	cr_expect_eq(r.attempts, 0);
	cr_expect_leq(r.not_before, t1, "a new submission's compile job waits until %lld",
		      (long long)r.not_before);
	cr_expect_not(r.has_worker);

	err_t err = {0};
	struct store_submission got;
	cr_assert_eq(store_get_submission(s, id, &got, err), 1, "%s", err->msg);
	cr_expect_eq(got.id, id);
	cr_expect_str_eq(got.game, "dominator");
	cr_expect_str_eq(got.author, "alice");
	cr_expect_str_eq(got.name, "Bot");
	cr_expect_str_eq(got.state, "queued");
	cr_expect_str_eq(got.source_sha256, SHA);
	cr_expect_str_eq(got.binary_path, "");
	cr_expect(got.created_at >= t0 && got.created_at <= t1, "created_at %lld not in [%lld, %lld]",
		  (long long)got.created_at, (long long)t0, (long long)t1);
	cr_expect_eq(got.updated_at, got.created_at);

	char *src = NULL;
	size_t len = 0;
	cr_assert_eq(store_get_source(s, id, &src, &len, err), 0, "%s", err->msg);
	cr_expect_eq(len, sizeof SOURCE - 1);
	cr_expect_eq(memcmp(src, SOURCE, sizeof SOURCE - 1), 0, "the source came back changed");
	free(src);
	cr_expect_eq(store_get_submission(s, id + 1000, &got, err), 0);

	/* The compile job is what a worker claims next. */
	struct store_job j = claim_ok(s, "w1", 30000, 3);
	cr_expect_eq(j.id, job);
	cr_expect_str_eq(j.kind, "compile");
	cr_expect_str_eq(j.payload, want);
	store_job_clear(&j);
	store_close(s);
}

BOTH(store_submit, a_binary_is_stored_once_by_its_hash_byte_for_byte)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	/* Every byte value, NUL and high bytes included. */
	uint8_t bytes[512];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(i * 7);
	const char *sha = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	cr_assert_eq(store_put_binary(s, sha, bytes, sizeof bytes, err), 0, "%s", err->msg);
	/* Again (another machine compiled the same bytes): nothing changes. */
	cr_assert_eq(store_put_binary(s, sha, bytes, sizeof bytes, err), 0, "%s", err->msg);
	uint8_t *got;
	size_t len;
	cr_assert_eq(store_get_binary(s, sha, &got, &len, err), 1, "%s", err->msg);
	cr_expect_eq(len, sizeof bytes);
	cr_expect_eq(memcmp(got, bytes, sizeof bytes), 0);
	free(got);
	cr_expect_eq(store_get_binary(s, "ff", &got, &len, err), 0, "%s", err->msg);
	cr_expect_null(got);
	store_close(s);
}

BOTH(store_submit, submission_and_job_are_one_transaction)
{
	struct store *s = teststore_open(target, true);
	/* This connection (only) cannot queue a job: the submission must not be
	 * stored without it. */
	script(s, "CREATE TEMP TRIGGER no_jobs BEFORE INSERT ON main.jobs"
		  " BEGIN SELECT RAISE(ABORT, 'the queue is closed'); END",
		  "CREATE FUNCTION no_jobs() RETURNS trigger LANGUAGE plpgsql"
		  " AS $$ BEGIN RAISE EXCEPTION 'the queue is closed'; END $$;"
		  "CREATE TRIGGER no_jobs BEFORE INSERT ON jobs"
		  " FOR EACH ROW EXECUTE FUNCTION no_jobs()");
	err_t err = {0};
	struct store_new_submission sub = new_sub("dominator", "alice", "Bot");
	int64_t id = -1;
	cr_expect_eq(store_submit(s, &sub, &id, err), -1, "a submission without its job was stored");
	cr_expect_not_null(strstr(err->msg, "the queue is closed"), "got \"%s\"", err->msg);
	cr_expect_eq(count(s, "submissions"), 0);
	cr_expect_eq(count(s, "names"), 0);
	cr_expect_eq(count(s, "jobs"), 0);
	cr_expect_eq(in_transaction(s), false, "a transaction was left open");

	script(s, "DROP TRIGGER temp.no_jobs", "DROP TRIGGER no_jobs ON jobs");
	submit_ok(s, "dominator", "alice", "Bot");
	cr_expect_eq(count(s, "submissions"), 1);
	cr_expect_eq(count(s, "jobs"), 1);
	store_close(s);
}

BOTH(store_submit, a_name_of_another_author_is_refused)
{
	struct store *s = teststore_open(target, true);
	submit_ok(s, "dominator", "alice", "Bot");
	int64_t subs = count(s, "submissions"), jobs = count(s, "jobs"), names = count(s, "names");

	err_t err = {0};
	struct store_new_submission sub = new_sub("dominator", "bob", "Bot");
	int64_t id = -1;
	cr_expect_eq(store_submit(s, &sub, &id, err), -1, "bob took alice's name");
	cr_expect_not_null(strstr(err->msg, "Bot"), "\"%s\" does not name the name", err->msg);
	cr_expect_not_null(strstr(err->msg, "taken"), "got \"%s\"", err->msg);
	cr_expect_eq(count(s, "submissions"), subs);
	cr_expect_eq(count(s, "jobs"), jobs);
	cr_expect_eq(count(s, "names"), names);
	cr_expect_eq(q_int(s, "SELECT count(*) FROM submissions WHERE author = 'bob'"), 0);
	cr_expect_eq(in_transaction(s), false, "a transaction was left open");

	/* A name belongs to its author per game only. */
	submit_ok(s, "othergame", "bob", "Bot");
	cr_expect_eq(count(s, "names"), names + 1);
	store_close(s);
}

BOTH(store_submit, the_same_author_may_resubmit)
{
	struct store *s = teststore_open(target, true);
	int64_t first = submit_ok(s, "dominator", "alice", "Bot");
	int64_t second = submit_ok(s, "dominator", "alice", "Bot");
	cr_expect_gt(second, first);
	cr_expect_eq(count(s, "submissions"), 2);
	cr_expect_eq(count(s, "names"), 1);
	cr_expect_eq(count(s, "jobs"), 2);
	char sql[128];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM jobs WHERE kind = 'compile' AND payload = '{\"submission\":%lld}'",
		 (long long)second);
	cr_expect_eq(q_int(s, "%s", sql), 1, "no compile job for the second submission");
	store_close(s);
}

/* The same file sent again while its submission is current changes
 * nothing; once it failed, it may be sent again. */
BOTH(store_submit, the_same_file_again_is_the_current_submission_until_it_fails)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	struct store_new_submission sub = new_sub("dominator", "alice", "Bot");
	int64_t first = -1, again = -1;
	cr_assert_eq(store_submit(s, &sub, &first, err), 0, "%s", err->msg);
	cr_expect_eq(store_submit(s, &sub, &again, err), 1, "%s", err->msg);
	cr_expect_eq(again, first);
	cr_expect_eq(count(s, "submissions"), 1);
	cr_expect_eq(count(s, "jobs"), 1);
	/* each way of failing lets the same file be tried again */
	static const char *const failed[] = { "not_qualified", "compile_failed" };
	int64_t last = first;
	for (int i = 0; i < 2; i++) {
		char sql[96];
		snprintf(sql, sizeof sql, "UPDATE submissions SET state = '%s' WHERE id = %lld",
			 failed[i], (long long)last);
		script(s, sql, sql);
		int64_t retry = -1;
		cr_expect_eq(store_submit(s, &sub, &retry, err), 0, "after %s: %s", failed[i],
			     err->msg);
		cr_expect_gt(retry, last, "after %s", failed[i]);
		cr_expect_eq(count(s, "jobs"), 2 + i, "after %s", failed[i]);
		last = retry;
	}
	store_close(s);
}

static struct store_submission get_sub(struct store *s, int64_t id)
{
	err_t err = {0};
	struct store_submission sub;
	cr_assert_eq(store_get_submission(s, id, &sub, err), 1, "%s", err->msg);
	return sub;
}

/* A qualified submission enters the ranked pool rated and supersedes its
 * player's older one; ratings are read and written back; ranked matches
 * waiting are counted per game from their payload; events are kept. */
BOTH(store_submit, qualification_ratings_and_events)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	int64_t old = submit_ok(s, "dominator", "alice", "Bot");
	int64_t bob = submit_ok(s, "dominator", "bob", "Rival");
	int64_t now = submit_ok(s, "dominator", "alice", "Bot");
	struct store_submission sub = get_sub(s, old);
	cr_assert_eq(store_conclude_qualification(s, &sub, true, 20.5, 6.25, err), 0, "%s",
		     err->msg);
	sub = get_sub(s, bob);
	cr_assert_eq(store_conclude_qualification(s, &sub, false, 0, 0, err), 0, "%s", err->msg);
	cr_expect_str_eq(get_sub(s, bob).state, "not_qualified");
	sub = get_sub(s, now);
	cr_assert_eq(store_set_state(s, now, "qualifying", "/bin/x", "ab", "ok", err), 0, "%s", err->msg);
	cr_assert_eq(store_conclude_qualification(s, &sub, true, 25, 8.25, err), 0, "%s", err->msg);
	cr_expect_str_eq(get_sub(s, old).state, "superseded");
	cr_expect_str_eq(get_sub(s, now).binary_path, "/bin/x");

	struct store_rated *pool = NULL;
	size_t n = 0;
	cr_assert_eq(store_ranked_pool(s, "dominator", &pool, &n, err), 0, "%s", err->msg);
	cr_assert_eq(n, 1, "the pool holds %zu players, want only the newest Bot", n);
	cr_expect_eq(pool[0].id, now);
	cr_expect_float_eq(pool[0].mu, 25.0, 1e-12);
	cr_expect_float_eq(pool[0].sigma, 8.25, 1e-12);
	free(pool);

	struct store_rated r = { .id = now, .mu = 27.123456789012345, .sigma = 7.5, .games = 3,
				 .wins = 2 }, back;
	cr_assert_eq(store_put_rating(s, &r, err), 0, "%s", err->msg);
	cr_assert_eq(store_get_rating(s, now, &back, err), 1, "%s", err->msg);
	cr_expect_eq(back.mu, r.mu, "mu came back as %.17g", back.mu); /* exactly */
	cr_expect_eq(back.games, 3);
	cr_expect_eq(back.wins, 2);
	cr_expect_eq(store_get_rating(s, bob, &back, err), 0);
	int64_t *ids = NULL;
	cr_assert_eq(store_rated_players(s, "dominator", &ids, &n, err), 0, "%s", err->msg);
	cr_expect_eq(n, 2, "rated: %zu", n); /* the superseded one keeps its rating */
	free(ids);

	enqueue(s, "match", "{\"kind\":\"ranked\",\"game\":\"dominator\"}", SCHED_RANKED, 0);
	enqueue(s, "match", "{\"kind\":\"ranked\",\"game\":\"ants\"}", SCHED_RANKED, 0);
	enqueue(s, "match", "{\"kind\":\"qualifying\",\"game\":\"dominator\"}", SCHED_RANKED, 0);
	int waiting[3] = { -1, -1, -1 };
	cr_assert_eq(store_ranked_queued(s, (const char *[]){ "dominator", "ants", "blitz" }, 3,
					 waiting, err), 0, "%s", err->msg);
	cr_expect(waiting[0] == 1 && waiting[1] == 1 && waiting[2] == 0, "%d %d %d", waiting[0],
		  waiting[1], waiting[2]);

	cr_assert_eq(store_add_event(s, "submission.qualified", now, "{\"n\":1}", err), 0, "%s",
		     err->msg);
	cr_expect_eq(q_int(s, "SELECT count(*) FROM events WHERE submission_id = %lld"
			      " AND kind = 'submission.qualified'", (long long)now), 1);
	store_close(s);
}

/* ---- the queue ------------------------------------------------------------ */

BOTH(store_jobs, claim_takes_the_most_urgent_then_oldest)
{
	struct store *s = teststore_open(target, true);
	int64_t a = enqueue(s, "match", "{\"n\":\"a\"}", SCHED_RANKED, 0);
	int64_t b = enqueue(s, "match", "{\"n\":\"b\"}", SCHED_QUALIFYING, 0);
	int64_t c = enqueue(s, "match", "{\"n\":\"c\"}", SCHED_QUALIFYING, 0);
	int64_t d = enqueue(s, "compile", "{\"n\":\"d\"}", SCHED_COMPILE, 0);
	int64_t later = enqueue(s, "notify", "{\"n\":\"later\"}", SCHED_NOTIFY,
				store_now_ms() + 600000);

	int64_t t0 = store_now_ms();
	struct store_job j = claim_ok(s, "w1", 30000, 3);
	int64_t t1 = store_now_ms();
	cr_expect_eq(j.id, b, "claimed job %lld first, want %lld", (long long)j.id, (long long)b);
	cr_expect_str_eq(j.kind, "match");
	cr_expect_str_eq(j.payload, "{\"n\":\"b\"}");
	cr_expect_eq(j.attempts, 1);
	struct jobrow r = job_row(s, b);
	cr_expect_str_eq(r.state, "running");
	cr_expect_str_eq(r.worker, "w1");
	cr_expect_eq(r.attempts, 1);
	cr_expect(r.has_lease && r.lease_until >= t0 + 30000 && r.lease_until <= t1 + 30000,
		  "lease_until %lld, want now + 30 s in [%lld, %lld]", (long long)r.lease_until,
		  (long long)(t0 + 30000), (long long)(t1 + 30000));
	store_job_clear(&j);

	int64_t want[] = { c, d, a };
	for (size_t i = 0; i < 3; i++) {
		j = claim_ok(s, "w1", 30000, 3);
		cr_expect_eq(j.id, want[i], "claim %zu gave job %lld, want %lld", i + 2,
			     (long long)j.id, (long long)want[i]);
		store_job_clear(&j);
	}
	/* Only the job not due yet is left. */
	claim_none(s, "w1", 3);
	struct jobrow l = job_row(s, later);
	cr_expect_str_eq(l.state, "queued");
	cr_expect_eq(l.attempts, 0);
	store_close(s);
}

BOTH(store_jobs, complete_and_claim_ends_one_job_and_takes_the_next_at_once)
{
	struct store *s = teststore_open(target, true);
	int64_t a = enqueue(s, "match", "{\"n\":\"a\"}", SCHED_QUALIFYING, 0);
	int64_t b = enqueue(s, "match", "{\"n\":\"b\"}", SCHED_RANKED, 0);
	err_t err = {0};
	struct store_job j = claim_ok(s, "w1", 30000, 3), next;
	cr_assert_eq(j.id, a);
	cr_assert_eq(store_complete_claim(s, a, "w1", 30000, 3, &next, err), 1, "%s", err->msg);
	cr_expect_eq(next.id, b);
	cr_expect_str_eq(next.payload, "{\"n\":\"b\"}");
	cr_expect_eq(next.attempts, 1);
	cr_expect_str_eq(job_row(s, a).state, "done");
	cr_expect_str_eq(job_row(s, b).state, "running");
	store_job_clear(&j);
	store_job_clear(&next);

	/* Another worker's job is not ours to end: nothing ends, nothing is
	 * claimed. */
	int64_t c = enqueue(s, "match", "{\"n\":\"c\"}", SCHED_RANKED, 0);
	cr_expect_eq(store_complete_claim(s, b, "w2", 30000, 3, &next, err), -1);
	cr_expect(strstr(err->msg, "no longer ours"), "%s", err->msg);
	cr_expect_str_eq(job_row(s, b).state, "running");
	cr_expect_str_eq(job_row(s, c).state, "queued");

	/* The last one ended, none left: 0. */
	cr_assert_eq(store_complete_claim(s, b, "w1", 30000, 3, &next, err), 1, "%s", err->msg);
	cr_expect_eq(next.id, c);
	store_job_clear(&next);
	cr_expect_eq(store_complete_claim(s, c, "w1", 30000, 3, &next, err), 0, "%s", err->msg);
	cr_expect_str_eq(job_row(s, c).state, "done");
	store_close(s);
}

BOTH(store_jobs, a_held_lease_is_not_claimed_twice)
{
	struct store *s = teststore_open(target, true);
	int64_t one = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	int64_t two = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	struct store_job j1 = claim_ok(s, "w1", 30000, 3);
	struct store_job j2 = claim_ok(s, "w2", 30000, 3);
	cr_expect_eq(j1.id, one);
	cr_expect_eq(j2.id, two);
	claim_none(s, "w3", 3);
	cr_expect_str_eq(job_row(s, one).worker, "w1");
	cr_expect_str_eq(job_row(s, two).worker, "w2");
	cr_expect_eq(job_row(s, one).attempts, 1);

	/* Holding it through a second connection changes nothing. */
	struct store *t = teststore_open(target, false);
	claim_none(t, "w4", 3);
	store_close(t);
	store_job_clear(&j1);
	store_job_clear(&j2);
	store_close(s);
}

BOTH(store_jobs, an_expired_lease_goes_to_another_worker)
{
	struct store *s = teststore_open(target, true);
	int64_t id = enqueue(s, "match", "{\"m\":1}", SCHED_RANKED, 0);
	struct store_job j = claim_ok(s, "w1", 0, 5);
	cr_expect_eq(j.attempts, 1);
	store_job_clear(&j);
	sleep_ms(20);

	j = claim_ok(s, "w2", 30000, 5);
	cr_expect_eq(j.id, id, "the expired job was not handed out again");
	cr_expect_eq(j.attempts, 2);
	cr_expect_str_eq(j.payload, "{\"m\":1}");
	store_job_clear(&j);

	err_t err = {0};
	expect_lost(store_complete(s, id, "w1", err), err->msg, id, "store_complete");
	err->msg[0] = '\0';
	expect_lost(store_renew(s, id, "w1", 30000, err), err->msg, id, "store_renew");
	err->msg[0] = '\0';
	expect_lost(store_fail(s, id, "w1", "boom", 0, 5, err), err->msg, id, "store_fail");
	err->msg[0] = '\0';
	expect_lost(store_release(s, id, "w1", err), err->msg, id, "store_release");
	struct jobrow r = job_row(s, id);
	cr_expect_str_eq(r.state, "running");
	cr_expect_str_eq(r.worker, "w2");
	cr_expect_eq(r.attempts, 2);
	cr_expect_not(r.has_error, "the loser's store_fail wrote \"%s\"", r.last_error);

	int64_t t0 = store_now_ms();
	cr_expect_eq(store_renew(s, id, "w2", 60000, err), 0, "%s", err->msg);
	cr_expect_geq(job_row(s, id).lease_until, t0 + 60000);
	cr_expect_eq(store_complete(s, id, "w2", err), 0, "%s", err->msg);
	cr_expect_str_eq(job_row(s, id).state, "done");
	claim_none(s, "w3", 5);
	store_close(s);
}

BOTH(store_jobs, fail_requeues_for_later_then_parks)
{
	struct store *s = teststore_open(target, true);
	int64_t id = enqueue(s, "compile", "{\"submission\":1}", SCHED_COMPILE, 0);
	err_t err = {0};

	struct store_job j = claim_ok(s, "w1", 30000, 2);
	store_job_clear(&j);
	int64_t retry_at = store_now_ms() + 500;
	cr_assert_eq(store_fail(s, id, "w1", "the compiler crashed", retry_at, 2, err), 0, "%s",
		     err->msg);
	struct jobrow r = job_row(s, id);
	cr_expect_str_eq(r.state, "queued");
	cr_expect_eq(r.not_before, retry_at);
	cr_expect_str_eq(r.last_error, "the compiler crashed");
	cr_expect_not(r.has_worker);
	cr_expect_not(r.has_lease);
	cr_expect_eq(r.attempts, 1);
	claim_none(s, "w2", 2); /* not before retry_at */
	cr_expect_eq(pending(s), 1, "a compile job waiting for its retry is still to do");

	while (store_now_ms() <= retry_at)
		sleep_ms(20);
	j = claim_ok(s, "w2", 30000, 2);
	cr_expect_eq(j.id, id);
	cr_expect_eq(j.attempts, 2);
	store_job_clear(&j);
	cr_assert_eq(store_fail(s, id, "w2", "the compiler crashed again", store_now_ms(), 2, err),
		     0, "%s", err->msg);
	r = job_row(s, id);
	cr_expect_str_eq(r.state, "parked", "a job that failed max_attempts times is %s", r.state);
	cr_expect_str_eq(r.last_error, "the compiler crashed again");
	cr_expect_not(r.has_worker);
	cr_expect_eq(r.attempts, 2);
	claim_none(s, "w3", 2);
	cr_expect_eq(pending(s), 0);
	store_close(s);
}

BOTH(store_jobs, a_job_whose_workers_keep_dying_is_parked_on_claim)
{
	struct store *s = teststore_open(target, true);
	int64_t doomed = enqueue(s, "match", "{\"doomed\":1}", SCHED_QUALIFYING, 0);
	int64_t next = enqueue(s, "match", "{\"next\":1}", SCHED_RANKED, 0);
	char worker[16];
	for (int i = 1; i <= 3; i++) {
		snprintf(worker, sizeof worker, "w%d", i);
		struct store_job j = claim_ok(s, worker, 0, 3); /* dies at once */
		cr_expect_eq(j.id, doomed);
		cr_expect_eq(j.attempts, i);
		store_job_clear(&j);
		sleep_ms(10);
	}
	struct store_job j = claim_ok(s, "w4", 30000, 3);
	cr_expect_eq(j.id, next, "claim gave job %lld, want the next one %lld", (long long)j.id,
		     (long long)next);
	cr_expect_eq(j.attempts, 1);
	store_job_clear(&j);

	struct jobrow r = job_row(s, doomed);
	cr_expect_str_eq(r.state, "parked");
	cr_expect_eq(r.attempts, 3);
	cr_expect_not(r.has_worker);
	cr_expect_not(r.has_lease);
	cr_expect(r.has_error && strstr(r.last_error, "stopped before finishing it 3 times"),
		  "last_error \"%s\" does not say why it was parked", r.last_error);
	err_t err = {0};
	expect_lost(store_complete(s, doomed, "w3", err), err->msg, doomed, "store_complete");
	claim_none(s, "w5", 3);
	store_close(s);
}

BOTH(store_jobs, release_gives_the_job_back_uncounted)
{
	struct store *s = teststore_open(target, true);
	int64_t id = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	err_t err = {0};
	struct store_job j = claim_ok(s, "w1", 30000, 1);
	store_job_clear(&j);
	cr_expect_eq(store_release(s, id, "w2", err), -1, "a worker released a job it does not hold");
	cr_expect_str_eq(job_row(s, id).worker, "w1");

	cr_assert_eq(store_release(s, id, "w1", err), 0, "%s", err->msg);
	struct jobrow r = job_row(s, id);
	cr_expect_str_eq(r.state, "queued");
	cr_expect_eq(r.attempts, 0);
	cr_expect_not(r.has_worker);
	cr_expect_not(r.has_lease);
	/* With max_attempts 1, released jobs are still handed out every time. */
	for (int i = 0; i < 5; i++) {
		j = claim_ok(s, "w2", 30000, 1);
		cr_expect_eq(j.id, id);
		cr_expect_eq(j.attempts, 1);
		store_job_clear(&j);
		cr_assert_eq(store_release(s, id, "w2", err), 0, "%s", err->msg);
	}
	cr_expect_str_eq(job_row(s, id).state, "queued");
	store_close(s);
}

BOTH(store_jobs, pending_counts_what_is_left_to_do)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	int64_t future = store_now_ms() + 600000;
	cr_expect_eq(pending(s), 0);

	int64_t done = enqueue(s, "match", "{}", SCHED_NOTIFY, 0);
	struct store_job j = claim_ok(s, "w1", 30000, 3);
	cr_assert_eq(j.id, done);
	store_job_clear(&j);
	cr_assert_eq(store_complete(s, done, "w1", err), 0, "%s", err->msg);
	cr_expect_eq(pending(s), 0, "a done job is pending");

	int64_t parked = enqueue(s, "match", "{}", SCHED_QUALIFYING, 0);
	j = claim_ok(s, "w1", 30000, 1);
	cr_assert_eq(j.id, parked);
	store_job_clear(&j);
	cr_assert_eq(store_fail(s, parked, "w1", "no", 0, 1, err), 0, "%s", err->msg);
	cr_assert_str_eq(job_row(s, parked).state, "parked");
	cr_expect_eq(pending(s), 0, "a parked job is pending");

	enqueue(s, "compile", "{}", SCHED_COMPILE, 0);
	cr_expect_eq(pending(s), 1);
	enqueue(s, "match", "{}", SCHED_RANKED, future); /* a match not due yet is still to do */
	cr_expect_eq(pending(s), 2);
	int64_t running = enqueue(s, "match", "{}", SCHED_QUALIFYING, 0);
	j = claim_ok(s, "w1", 30000, 3);
	cr_assert_eq(j.id, running);
	store_job_clear(&j);
	cr_expect_eq(pending(s), 3, "a running match is still to do");
	enqueue(s, "notify", "{}", SCHED_NOTIFY, 0);
	cr_expect_eq(pending(s), 4);
	enqueue(s, "notify", "{}", SCHED_NOTIFY, future); /* a webhook's later retry */
	cr_expect_eq(pending(s), 4, "a notify retry due later counts as pending");
	store_close(s);
}

/* ---- the scheduling policy (judge/store/sched.h) -------------------------- */

/* A store whose classes a worker has published. */
static struct store *policy_store(void)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	cr_assert_eq(store_publish_classes(s, err), 0, "%s", err->msg);
	return s;
}

/* The clock moved on by ms for the queued jobs of cls: they were queued
 * that much earlier. */
static void age_jobs(struct store *s, enum sched_class cls, int64_t ms)
{
	char sql[160];
	snprintf(sql, sizeof sql, "UPDATE jobs SET due_at = due_at - %lld, created_at = created_at"
		 " - %lld WHERE priority = %d AND state = 'queued'", (long long)ms, (long long)ms,
		 sched_classes[cls].priority);
	script(s, sql, sql);
}

/* Nothing of cls was claimed for the last ms. */
static void served_ago(struct store *s, enum sched_class cls, int64_t ms)
{
	char sql[160];
	snprintf(sql, sizeof sql, "UPDATE job_classes SET served_at = %lld WHERE priority = %d",
		 (long long)(store_now_ms() - ms), sched_classes[cls].priority);
	script(s, sql, sql);
}

static int64_t claim_id(struct store *s)
{
	struct store_job j = claim_ok(s, "w1", 30000, 3);
	int64_t id = j.id;
	store_job_clear(&j);
	return id;
}

static const char *class_of(struct store *s, int64_t job)
{
	int p = (int)q_int(s, "SELECT priority FROM jobs WHERE id = %lld", (long long)job);
	for (int c = 0; c < SCHED_CLASSES; c++)
		if (sched_classes[c].priority == p)
			return sched_classes[c].name;
	return "none";
}

BOTH(store_sched, the_classes_are_claimed_in_priority_order_oldest_first)
{
	struct store *s = policy_store();
	int64_t id[SCHED_CLASSES + 1];
	/* Queued from the least urgent up, ranked twice. */
	for (int c = SCHED_CLASSES - 1; c >= 0; c--)
		id[c] = enqueue(s, c == SCHED_COMPILE ? "compile" : c == SCHED_NOTIFY ? "notify"
			       : "match", "{}", (enum sched_class)c, 0);
	id[SCHED_CLASSES] = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	static const int order[] = { SCHED_NOTIFY, SCHED_QUALIFYING, SCHED_COMPILE,
				     SCHED_TOURNAMENT, SCHED_RANKED, SCHED_CLASSES,
				     SCHED_COMPARISON, SCHED_CHALLENGE };
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		int64_t got = claim_id(s);
		cr_expect_eq(got, id[order[i]], "claim %zu took a %s job, want %s", i + 1,
			     class_of(s, got), order[i] < SCHED_CLASSES ? sched_classes[order[i]].name
									: "the newer ranked");
	}
	claim_none(s, "w1", 3);
	store_close(s);
}

/* A burst of uploads runs first, yet the ladder gets a match once its
 * oldest has waited its pause and none was played for as long. */
BOTH(store_sched, an_overdue_ranked_job_is_served_before_qualifying_work)
{
	struct store *s = policy_store();
	int64_t q[4];
	for (int i = 0; i < 4; i++)
		q[i] = enqueue(s, "match", "{\"kind\":\"qualifying\"}", SCHED_QUALIFYING, 0);
	int64_t r1 = enqueue(s, "match", "{\"kind\":\"ranked\"}", SCHED_RANKED, 0);
	cr_expect_eq(claim_id(s), q[0], "a ranked job within its pause went first");

	age_jobs(s, SCHED_RANKED, 5001);
	cr_expect_eq(claim_id(s), r1, "the overdue ranked job waited behind qualifying work");
	cr_expect_str_eq(job_row(s, r1).state, "running");

	/* Served just now: the next overdue one waits its turn again... */
	int64_t r2 = enqueue(s, "match", "{\"kind\":\"ranked\"}", SCHED_RANKED, 0);
	age_jobs(s, SCHED_RANKED, 60000);
	cr_expect_eq(claim_id(s), q[1], "the ladder was served twice within its pause");
	/* ...until nothing of the ladder was claimed for 5 s; and the claim
	 * that ends a job follows the rule too. */
	served_ago(s, SCHED_RANKED, 5001);
	err_t err = {0};
	struct store_job next;
	cr_assert_eq(store_complete_claim(s, q[1], "w1", 30000, 3, &next, err), 1, "%s", err->msg);
	cr_expect_eq(next.id, r2, "complete+claim took a %s job, want the overdue ranked one",
		     class_of(s, next.id));
	store_job_clear(&next);
	cr_expect_eq(claim_id(s), q[2]);
	store_close(s);
}

/* Challenges queued in bulk never take a run of claims: one per pause. */
BOTH(store_sched, a_flood_of_overdue_challenges_takes_one_claim_per_pause)
{
	struct store *s = policy_store();
	err_t err = {0};
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	int64_t first = enqueue(s, "match", "{\"kind\":\"challenge\"}", SCHED_CHALLENGE, 0);
	for (int i = 1; i < 30; i++)
		enqueue(s, "match", "{\"kind\":\"challenge\"}", SCHED_CHALLENGE, 0);
	for (int i = 0; i < 10; i++)
		enqueue(s, "match", "{\"kind\":\"qualifying\"}", SCHED_QUALIFYING, 0);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	age_jobs(s, SCHED_CHALLENGE, 31000);

	int challenges = 0;
	for (int i = 0; i < 11; i++) {
		int64_t got = claim_id(s);
		bool challenge = strcmp(class_of(s, got), "challenge") == 0;
		if (i == 0)
			cr_expect_eq(got, first, "the oldest overdue challenge was not served first");
		challenges += challenge;
	}
	cr_expect_eq(challenges, 1, "%d of 11 claims went to challenges, want 1 per 30 s",
		     challenges);
	served_ago(s, SCHED_CHALLENGE, 30001);
	cr_expect_eq(claim_id(s), first + 1, "30 s later the next challenge waited still");
	store_close(s);
}

BOTH(store_sched, of_two_starved_classes_the_one_starved_longest_goes_first)
{
	struct store *s = policy_store();
	int64_t q = enqueue(s, "match", "{}", SCHED_QUALIFYING, 0);
	int64_t r = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	int64_t c = enqueue(s, "match", "{}", SCHED_CHALLENGE, 0);
	age_jobs(s, SCHED_RANKED, 200000);
	age_jobs(s, SCHED_CHALLENGE, 200000);
	served_ago(s, SCHED_RANKED, 6000);     /* starved for 1 s */
	served_ago(s, SCHED_CHALLENGE, 100000); /* starved for 70 s */
	cr_expect_eq(claim_id(s), c);
	cr_expect_eq(claim_id(s), r);
	cr_expect_eq(claim_id(s), q);
	store_close(s);
}

BOTH(store_sched, publishing_the_classes_keeps_when_each_was_served)
{
	struct store *s = policy_store();
	cr_expect_eq(q_int(s, "SELECT count(*) FROM job_classes"), SCHED_CLASSES);
	cr_expect_eq(q_int(s, "SELECT max_pause_ms FROM job_classes WHERE name = 'ranked'"),
		     sched_classes[SCHED_RANKED].max_pause_ms);
	cr_expect_eq(q_int(s, "SELECT served_at FROM job_classes WHERE name = 'ranked'"), 0);
	enqueue(s, "match", "{}", SCHED_RANKED, 0);
	int64_t t0 = store_now_ms();
	claim_id(s);
	int64_t served = q_int(s, "SELECT served_at FROM job_classes WHERE name = 'ranked'");
	cr_expect_geq(served, t0, "claiming a ranked job did not mark the ladder served");
	err_t err = {0};
	cr_assert_eq(store_publish_classes(s, err), 0, "%s", err->msg);
	cr_expect_eq(q_int(s, "SELECT served_at FROM job_classes WHERE name = 'ranked'"), served,
		     "a worker starting made the ladder look never served");
	cr_expect_eq(q_int(s, "SELECT count(*) FROM job_classes"), SCHED_CLASSES);
	store_close(s);
}

/* ---- processes sharing the file ------------------------------------------- */

#define SHARED_JOBS 500

/* A worker process: claims and completes until the queue is empty,
 * writing each job's id to fd, or -1 and the error. */
static void worker_process(const char *name, int ready, int go, int fd)
{
	err_t err = {0};
	struct store *s = store_open(target, false, err);
	char c = 'r';
	/* Connected (or failed): told, so that nobody starts before the
	 * slowest has its connection, and the claims race from the start. */
	if (write(ready, &c, 1) != 1)
		_exit(3);
	close(ready);
	if (read(go, &c, 1) < 0) /* EOF: everybody starts at once */
		_exit(3);
	int64_t rec;
	while (s) {
		struct store_job j;
		int rc = store_claim(s, name, 60000, 3, &j, err);
		if (rc == 0)
			break;
		if (rc == 1) {
			rec = j.id;
			store_job_clear(&j);
			usleep(200); /* the work: the lock is free meanwhile */
			if (store_complete(s, rec, name, err) == 0) {
				if (write(fd, &rec, sizeof rec) != sizeof rec)
					_exit(4);
				continue;
			}
		}
		break;
	}
	if (!s || err->msg[0]) {
		rec = -1;
		if (write(fd, &rec, sizeof rec) < 0 || write(fd, err->msg, strlen(err->msg)) < 0)
			_exit(4);
	}
	store_close(s);
	_exit(0);
}

/* Reads everything a worker process wrote. */
static size_t read_all(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	while (n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	return n;
}

#define MAX_WORKERS 4

/* SHARED_JOBS queued, then nworkers processes claim and complete them all
 * at once: every job done exactly once, by one of them, none lost. */
static void workers_claim_every_job_exactly_once(int nworkers)
{
	struct store *s = teststore_open(target, true);
	err_t err = {0};
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	int64_t first = 0;
	for (int i = 0; i < SHARED_JOBS; i++) {
		char payload[32];
		snprintf(payload, sizeof payload, "{\"i\":%d}", i);
		int64_t id = enqueue(s, "match", payload, (enum sched_class)(i % 3), 0);
		if (i == 0)
			first = id;
	}
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	store_close(s);

	int ready[2], go[2], out[MAX_WORKERS][2];
	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(go), 0);
	pid_t pid[MAX_WORKERS];
	static const char *const names[MAX_WORKERS] = { "worker-a", "worker-b", "worker-c",
							"worker-d" };
	for (int w = 0; w < nworkers; w++) {
		cr_assert_eq(pipe(out[w]), 0);
		pid[w] = fork();
		cr_assert_neq(pid[w], -1);
		if (pid[w] == 0) {
			close(ready[0]);
			close(go[1]);
			for (int v = 0; v <= w; v++)
				close(out[v][0]);
			worker_process(names[w], ready[1], go[0], out[w][1]);
		}
		close(out[w][1]);
	}
	close(ready[1]);
	char c;
	for (int w = 0; w < nworkers; w++)
		cr_assert_eq(read(ready[0], &c, 1), 1, "a worker died before it was ready");
	close(ready[0]);
	close(go[0]);
	close(go[1]); /* go */

	static int seen[SHARED_JOBS];
	int claimed[MAX_WORKERS] = { 0 }, total = 0;
	for (int w = 0; w < nworkers; w++) {
		static char buf[SHARED_JOBS * sizeof(int64_t) + ERR_LEN + 64];
		size_t n = read_all(out[w][0], buf, sizeof buf - 1);
		close(out[w][0]);
		int status;
		cr_assert_eq(waitpid(pid[w], &status, 0), pid[w]);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s died: %#x", names[w],
			  status);
		for (size_t off = 0; off + sizeof(int64_t) <= n; off += sizeof(int64_t)) {
			int64_t id;
			memcpy(&id, buf + off, sizeof id);
			if (id == -1) {
				buf[n] = '\0';
				cr_assert_fail("%s failed: %s", names[w], buf + off + sizeof id);
			}
			cr_assert(id >= first && id < first + SHARED_JOBS, "%s claimed job %lld",
				  names[w], (long long)id);
			seen[id - first]++;
			claimed[w]++;
		}
		total += claimed[w];
	}
	for (int i = 0; i < SHARED_JOBS; i++)
		cr_expect_eq(seen[i], 1, "job %lld was claimed %d times", (long long)(first + i),
			     seen[i]);
	cr_expect_eq(total, SHARED_JOBS);
	int idle = 0;
	for (int w = 0; w < nworkers; w++)
		idle += claimed[w] == 0;
	cr_expect_eq(idle, 0, "a process did nothing (claimed %d, %d, %d, %d)", claimed[0],
		     claimed[1], nworkers > 2 ? claimed[2] : 0, nworkers > 3 ? claimed[3] : 0);

	s = teststore_open(target, false);
	cr_expect_eq(q_int(s, "SELECT count(*) FROM jobs WHERE state = 'done'"), SHARED_JOBS);
	cr_expect_eq(q_int(s, "SELECT max(attempts) FROM jobs"), 1);
	for (int w = 0; w < nworkers; w++)
		cr_expect_eq(q_int(s, "SELECT count(*) FROM jobs WHERE worker = '%s'", names[w]),
			     claimed[w]);
	cr_expect_eq(pending(s), 0);
	store_close(s);
}

Test(store_concurrent, two_processes_claim_every_job_exactly_once)
{
	workers_claim_every_job_exactly_once(2);
}

/* Four processes standing for four machines sharing the queue: a claim
 * skips the rows others hold locked. */
Test(store_concurrent_pg, four_processes_claim_every_job_exactly_once)
{
	workers_claim_every_job_exactly_once(4);
}

/* Opens target with create in a child once go closes: 0, or 1 with the
 * error written to out. */
static pid_t open_when_told(int go[2], int out[2], int w)
{
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		close(go[1]);
		close(out[0]);
		char c;
		err_t err = {0};
		if (read(go[0], &c, 1) < 0)
			_exit(3);
		struct store *s = store_open(target, true, err);
		if (!s) {
			char msg[ERR_LEN + 16];
			int n = snprintf(msg, sizeof msg, "%d: %s\n", w, err->msg);
			_exit(write(out[1], msg, (size_t)n) < 0 ? 4 : 1);
		}
		store_close(s);
		_exit(0);
	}
	return pid;
}

/* Two processes open target with create at the same instant: both must
 * succeed, whatever the order. */
static void two_open_at_once(int round)
{
	int go[2], out[2];
	cr_assert_eq(pipe(go), 0);
	cr_assert_eq(pipe(out), 0);
	pid_t pid[2];
	for (int w = 0; w < 2; w++)
		pid[w] = open_when_told(go, out, w);
	close(go[0]);
	close(out[1]);
	close(go[1]);
	char msgs[2 * ERR_LEN + 64];
	size_t n = read_all(out[0], msgs, sizeof msgs - 1);
	msgs[n] = '\0';
	close(out[0]);
	for (int w = 0; w < 2; w++) {
		int status;
		cr_assert_eq(waitpid(pid[w], &status, 0), pid[w]);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "round %d: a process could not open the new database: %s", round, msgs);
	}
}

/* Two workers started at once on a new database: one creates the schema
 * (under its advisory lock), the other waits and uses it. */
Test(store_concurrent_pg, two_processes_create_the_same_database_at_once)
{
	for (int round = 0; round < 10; round++) {
		err_t err = {0};
		if (round > 0)
			cr_assert_eq(pg_test_database(target, sizeof target, err), 0, "%s",
				     err->msg);
		two_open_at_once(round);
		struct store *s = teststore_open(target, false);
		cr_expect_eq(count(s, "meta"), 2); /* application, schema_version */
		store_close(s);
	}
}

/* Two workers started at once on a file that does not exist yet: both must
 * open it (one creates the schema, the other waits and uses it). */
Test(store_concurrent, two_processes_create_the_same_file_at_once)
{
	for (int round = 0; round < 200; round++) {
		char side[160];
		unlink(dbpath);
		snprintf(side, sizeof side, "%s-wal", dbpath);
		unlink(side);
		snprintf(side, sizeof side, "%s-shm", dbpath);
		unlink(side);
		two_open_at_once(round);
		struct store *s = teststore_open(dbpath, false);
		cr_expect_eq(testdb_int(store_db(s), "SELECT count(*) FROM meta"), 1);
		store_close(s);
	}
}

static struct store_activity activity(struct store *s)
{
	err_t err = {0};
	struct store_activity a;
	cr_assert_eq(store_activity(s, &a, err), 0, "store_activity: %s", err->msg);
	return a;
}

BOTH(store_jobs, activity_tells_a_stalled_queue_from_a_busy_one)
{
	struct store *s = teststore_open(target, true);
	struct store_activity a = activity(s);
	cr_expect(a.waiting == 0 && a.running == 0 && a.oldest_wait_ms == 0);
	int64_t old = enqueue(s, "match", "{}", SCHED_RANKED, 0);
	enqueue(s, "match", "{}", SCHED_RANKED, store_now_ms() + 600000); /* not yet claimable */
	enqueue(s, "notify", "{}", SCHED_NOTIFY, 0);                       /* webhooks do not count */
	script(s, "UPDATE jobs SET created_at = created_at - 90000 WHERE kind = 'match'",
	       "UPDATE jobs SET created_at = created_at - 90000 WHERE kind = 'match'");
	a = activity(s);
	cr_expect_eq(a.waiting, 1);
	cr_expect_eq(a.running, 0);
	cr_expect(a.oldest_wait_ms >= 90000 && a.oldest_wait_ms < 100000, "%lld",
		  (long long)a.oldest_wait_ms);
	cr_expect(store_stalled(&a));

	struct store_job j = claim_ok(s, "w1", 30000, 3);
	cr_expect_str_eq(j.kind, "notify"); /* the most urgent class */
	store_job_clear(&j);
	j = claim_ok(s, "w1", 30000, 3);
	cr_expect_eq(j.id, old);
	store_job_clear(&j);
	a = activity(s);
	cr_expect_eq(a.waiting, 0);
	cr_expect_eq(a.running, 1);
	cr_expect_not(store_stalled(&a), "a held lease is a worker at work");
	store_close(s);
}

/* The two schemas (each dialect of db/schema.sql and its migrations, as
 * db/dialect.awk writes them): fresh, they must hold the same tables with
 * the same columns, column by column. */
Test(store_schemas, sqlite_and_postgresql_have_the_same_columns)
{
	err_t err;
	struct store *pg = store_open(target, true, err), *lite = NULL;
	cr_assert_not_null(pg, "%s", err->msg);
	lite = store_open(dbpath, true, err);
	cr_assert_not_null(lite, "%s", err->msg);
	json_t *a = store_schema_columns(lite, err), *b = store_schema_columns(pg, err);
	cr_assert(a && b, "%s", err->msg);
	size_t i = 0, j = 0;
	while (i < json_array_size(a) || j < json_array_size(b)) {
		const char *x = json_string_value(json_object_get(json_array_get(a, i), "column")),
			   *y = json_string_value(json_object_get(json_array_get(b, j), "column"));
		int order = !x ? 1 : !y ? -1 : strcmp(x, y);
		cr_expect_eq(order, 0, "%s only in %s", order < 0 ? x : y,
			     order < 0 ? "SQLite" : "PostgreSQL");
		i += order <= 0;
		j += order >= 0;
	}
	cr_expect_gt(json_array_size(a), 100, "the schema's columns were not read");
	json_decref(a);
	json_decref(b);
	store_close(lite);
	store_close(pg);
}
