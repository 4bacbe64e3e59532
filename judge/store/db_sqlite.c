/* db_sqlite.c - db.h over SQLite: the file, its settings and statements.
 *
 * A statement is an sqlite3_stmt; a kept one is prepared persistent.  The
 * file runs in WAL mode (several workers read while one writes) with a
 * busy timeout and foreign keys; it is private to the judge (0600). */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/store/db_backend.h"

#define BUSY_TIMEOUT_MS 30000

/* db/schema.sql (version 1) and db/migrations/NNN.sql (versions 2, 3...)
 * as SQLite's, compiled in by the Makefile; the migrations end with NULL. */
extern const char store_schema_sql[];
extern const char *const store_migrations[];

struct lite_stmt {
	struct db_stmt base;
	sqlite3_stmt *st;
};

static sqlite3 *conn(struct store *s)
{
	return s->conn;
}

static sqlite3_stmt *raw(struct db_stmt *st)
{
	return ((struct lite_stmt *)st)->st;
}

struct sqlite3 *store_db(struct store *s)
{
	return s->ops == &db_sqlite_ops ? conn(s) : NULL;
}

static int lite_fail(struct store *s, const char *what, err_t err)
{
	int code = sqlite3_extended_errcode(conn(s));
	if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
		err_set(err, 
			 "%s: the database %s stayed locked by another process for %d s",
			 what, s->where, BUSY_TIMEOUT_MS / 1000);
	else if ((code & 0xff) == SQLITE_READONLY)
		err_set(err, "%s: the database %s is read-only", what, s->where);
	else
		err_set(err, "%s: %s", what, sqlite3_errmsg(conn(s)));
	return -1;
}

static int lite_exec(struct store *s, const char *sql, const char *what, err_t err)
{
	return sqlite3_exec(conn(s), sql, NULL, NULL, NULL) == SQLITE_OK ? 0
									 : lite_fail(s, what, err);
}

/* ---- opening ------------------------------------------------------------- */

/* The queue holds every contestant's source: it is the judge's alone
 * (0600, whatever the umask), and so are the journal and WAL files, which
 * SQLite creates with the database file's mode.  An older queue created
 * world-readable is made private when the judge owns it.
 *
 * The file is never opened and closed here once it exists: closing any
 * descriptor of a file drops every POSIX lock this process holds on it,
 * and another connection of the process (a worker's lease renewer beside
 * the job's own) may be in the middle of a transaction.  A new file is
 * made with O_EXCL, so no connection of ours can have it open yet. */
/* A fresh working directory has no db/ yet: the file's own folder (one
 * level, private) is made, so every program may be the first to run there. */
static void make_folder(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return;
	char dir[4096];
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	mkdir(dir, 0700); /* EEXIST is fine; any other failure shows at the open */
}

static int make_private(const char *path, bool create, err_t err)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT || !create)
			return 0; /* SQLite says what is wrong, or what it can do */
		make_folder(path);
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0 && fchmod(fd, 0600) == 0) {
			close(fd);
			return 0;
		}
		if (fd < 0 && errno == EEXIST)
			return 0; /* another process made it meanwhile: SQLite opens it */
		err_set(err, "cannot create the database %s: %s; give --queue a "
			 "file in a folder you may write", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || !(st.st_mode & 077))
		return 0;
	if (chmod(path, st.st_mode & 0700) < 0) {
		err_set(err, "cannot make the database %s private: %s", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int check_writable(struct store *s, err_t err)
{
	if (sqlite3_db_readonly(conn(s), "main") != 1)
		return 0;
	err_set(err, 
		 "the database %s is read-only: the judge needs to write to it (and to its folder)",
		 s->where);
	return -1;
}

static int lite_open(struct store *s, const char *path, bool create, err_t err)
{
	struct stat st;
	if (!create && stat(path, &st) < 0) {
		err_set(err, "no judge database at %s (%s): upload a submission or "
			 "start judge-worker to create one, or pass --queue", path, strerror(errno));
		return -1;
	}
	snprintf(s->where, sizeof s->where, "%s", path);
	if (make_private(path, create, err) < 0)
		return -1;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
		    SQLITE_OPEN_NOMUTEX;
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, flags, NULL);
	s->conn = db;
	if (rc != SQLITE_OK) {
		err_set(err, "cannot open the database %s: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		return -1;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	return check_writable(s, err);
}

/* WAL, foreign keys, and synchronous NORMAL unless told otherwise: only
 * for a file known ours. */
static int lite_configure(struct store *s, err_t err)
{
	/* Switching to WAL takes an exclusive lock without calling the busy
	 * handler: another process opening the new file at the same moment
	 * makes it fail at once with SQLITE_BUSY, so wait here. */
	for (int waited = 0;; waited += 5) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(conn(s), "PRAGMA journal_mode = WAL", -1, &st, NULL) !=
		    SQLITE_OK)
			return lite_fail(s, "open", err);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			break;
		if ((rc & 0xff) != SQLITE_BUSY || waited >= BUSY_TIMEOUT_MS)
			return lite_fail(s, "open", err);
		usleep(5000);
	}
	/* The plagiarism index of many years is far larger than SQLite's
	 * default 2 MiB cache; 64 MiB keeps its upper levels in memory. */
	return lite_exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;"
			    " PRAGMA cache_size = -65536", "open", err);
}

static void lite_close(struct store *s)
{
	sqlite3_close(conn(s));
}

static int lite_set_sync(struct store *s, enum store_sync mode, err_t err)
{
	return lite_exec(s, mode == STORE_SYNC_FULL ? "PRAGMA synchronous = FULL"
						    : "PRAGMA synchronous = NORMAL",
			 "synchronous", err);
}

/* One integer from a statement without parameters; -1 when it fails. */
static int one_int(struct store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(conn(s), sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int lite_has_tables(struct store *s, err_t err)
{
	int n;
	if (one_int(s, "SELECT count(*) FROM sqlite_schema", &n) == 0)
		return n > 0;
	/* "file is not a database" comes from here */
	err_set(err, "%s is not a judge database (%s)", s->where,
		 sqlite3_errmsg(conn(s)));
	return -1;
}

static int lite_get_version(struct store *s, int *version, err_t err)
{
	return one_int(s, "PRAGMA user_version", version) == 0 ? 0 : lite_fail(s, "open", err);
}

static int lite_set_version(struct store *s, int version, err_t err)
{
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", version);
	return lite_exec(s, sql, "setting the schema version", err);
}

static bool lite_in_transaction(struct store *s)
{
	return !sqlite3_get_autocommit(conn(s));
}

/* ---- statements ------------------------------------------------------------ */

static struct db_stmt *lite_prepare(struct store *s, const char *sql, bool kept)
{
	struct lite_stmt *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->base = (struct db_stmt){ .s = s, .kept = kept };
	if (sqlite3_prepare_v3(conn(s), sql, -1, kept ? SQLITE_PREPARE_PERSISTENT : 0, &d->st,
			       NULL) != SQLITE_OK) {
		sqlite3_finalize(d->st);
		free(d);
		return NULL;
	}
	return &d->base;
}

static void lite_bind_int(struct db_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(raw(st), i, v);
}

static void lite_bind_double(struct db_stmt *st, int i, double v)
{
	sqlite3_bind_double(raw(st), i, v);
}

static void lite_bind_text(struct db_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(raw(st), i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(raw(st), i);
}

static void lite_bind_blob(struct db_stmt *st, int i, const void *v, size_t len)
{
	sqlite3_bind_blob64(raw(st), i, v, len, SQLITE_TRANSIENT);
}

static int lite_step(struct db_stmt *st)
{
	int rc = sqlite3_step(raw(st));
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void lite_reset(struct db_stmt *st)
{
	sqlite3_reset(raw(st));
	if (st->kept)
		sqlite3_clear_bindings(raw(st));
}

static int64_t lite_changes(struct db_stmt *st)
{
	return sqlite3_changes64(conn(st->s));
}

static int64_t lite_col_int(struct db_stmt *st, int col)
{
	return sqlite3_column_int64(raw(st), col);
}

static double lite_col_double(struct db_stmt *st, int col)
{
	return sqlite3_column_double(raw(st), col);
}

static const char *lite_col_text(struct db_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(raw(st), col);
	return t ? (const char *)t : "";
}

static const void *lite_col_blob(struct db_stmt *st, int col, size_t *len)
{
	const void *b = sqlite3_column_blob(raw(st), col);
	*len = (size_t)sqlite3_column_bytes(raw(st), col);
	return b;
}

static bool lite_col_null(struct db_stmt *st, int col)
{
	return sqlite3_column_type(raw(st), col) == SQLITE_NULL;
}

static void lite_finish(struct db_stmt *st)
{
	sqlite3_finalize(raw(st));
	free(st);
}

/* A file is always there: its failures are not the kind that pass. */
static bool lite_unreachable(struct store *s)
{
	(void)s;
	return false;
}

const struct db_ops db_sqlite_ops = {
	.kind = DB_SQLITE,
	.name = "SQLite",
	.schema = store_schema_sql,
	.migrations = store_migrations,
	.columns_sql = "SELECT m.name, c.name FROM sqlite_schema m, pragma_table_info(m.name) c"
		       " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%'",
	/* Deferred: the snapshot is the one the first read takes (WAL). */
	.snapshot_begin = "BEGIN",
	.schema_lock = NULL, /* BEGIN IMMEDIATE takes the write lock */
	.open = lite_open,
	.configure = lite_configure,
	.close = lite_close,
	.set_sync = lite_set_sync,
	.has_tables = lite_has_tables,
	.get_version = lite_get_version,
	.set_version = lite_set_version,
	.unreachable = lite_unreachable,
	.in_transaction = lite_in_transaction,
	.exec = lite_exec,
	.fail = lite_fail,
	.prepare = lite_prepare,
	.bind_int = lite_bind_int,
	.bind_double = lite_bind_double,
	.bind_text = lite_bind_text,
	.bind_blob = lite_bind_blob,
	.step = lite_step,
	.reset = lite_reset,
	.changes = lite_changes,
	.col_int = lite_col_int,
	.col_double = lite_col_double,
	.col_text = lite_col_text,
	.col_blob = lite_col_blob,
	.col_null = lite_col_null,
	.finish = lite_finish,
};
