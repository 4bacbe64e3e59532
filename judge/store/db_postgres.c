/* db_postgres.c - db.h over PostgreSQL (libpq), for many machines.
 *
 * Each statement text is turned from ?N into $N once per connection and
 * prepared on the server under a name the connection remembers, so a text
 * run again costs one round trip and no parsing.  Parameters go as text
 * (blobs as binary bytes), results come back as text.  A connection lost
 * outside a transaction is opened again on the next statement; one lost
 * inside a transaction makes every statement fail until the store rolls
 * back, so no half of a transaction is ever replayed on its own.
 */
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db_backend.h"
#include "judge/store/lazy_pq.h"

/* db/schema.sql and db/migrations/NNN.sql as PostgreSQL's, compiled in. */
extern const char store_pg_schema_sql[];
extern const char *const store_pg_migrations[];

#define TEXTOID 25
#define BYTEAOID 17
#define BUCKETS 256
#define MAX_TEXTS 4096 /* past this many texts, statements go unnamed */

/* One statement text, prepared (or to be prepared) on the connection. */
struct pg_text {
	char *sql, *translated;
	int nparams;
	Oid *types; /* 0: the server infers it; TEXTOID for a number not used */
	char name[16];
	bool prepared; /* on the current session */
	bool cached;   /* in the connection's table (else its statement owns it) */
	struct pg_text *next;
};

struct pg_conn {
	PGconn *pg;
	err_t last_err;         /* the last error, one line */
	bool tx_lost;           /* the connection died inside a transaction */
	bool was_idle;          /* no transaction open after the last statement */
	bool refused;           /* the server answered, and said no: retrying won't help */
	struct pg_text *texts[BUCKETS];
	int ntexts;
};

struct pg_stmt {
	struct db_stmt base;
	struct pg_text *text;
	char **values;
	int *lengths, *formats;
	PGresult *res;
	int row, nrows;
	bool ran, ok; /* run on the server; and it succeeded */
	int64_t changes;
	unsigned char *blob; /* the last bytea column read */
};

/* snprintf into err, cutting a long message (the server's may be long). */
__attribute__((format(printf, 2, 3)))
static void say(err_t err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

static struct pg_conn *conn(struct store *s)
{
	return s->conn;
}

static struct pg_stmt *pst(struct db_stmt *st)
{
	return (struct pg_stmt *)st;
}

/* libpq's message on one line, without its "ERROR:  " prefix. */
static void keep_message(struct pg_conn *c, const char *m)
{
	if (!m || !*m)
		m = "unknown error";
	if (strncmp(m, "ERROR:  ", 8) == 0)
		m += 8;
	err_set(c->last_err, "%s", m);
	for (char *p = c->last_err->msg; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = (p[1] ? ' ' : '\0');
}

static bool lost(struct pg_conn *c)
{
	return c->tx_lost || PQstatus(c->pg) == CONNECTION_BAD;
}

static int pg_fail(struct store *s, const char *what, err_t err)
{
	struct pg_conn *c = conn(s);
	if (lost(c))
		say(err, "%s: lost the connection to PostgreSQL at %s: is the server running? (%s)",
		    what, s->where, c->last_err->msg);
	else
		say(err, "%s: %s", what, c->last_err->msg);
	return -1;
}

static void forget_prepared(struct pg_conn *c)
{
	for (int b = 0; b < BUCKETS; b++)
		for (struct pg_text *t = c->texts[b]; t; t = t->next)
			t->prepared = false;
}

/* The connection is usable for the next statement: opened again when it
 * was lost between transactions (its prepared statements went with it). */
static bool usable(struct pg_conn *c)
{
	if (PQstatus(c->pg) == CONNECTION_OK && !c->tx_lost)
		return true;
	if (c->tx_lost || !c->was_idle) {
		c->tx_lost = true;
		keep_message(c, "the transaction in progress was lost; nothing of it was recorded");
		return false;
	}
	PQreset(c->pg);
	if (PQstatus(c->pg) != CONNECTION_OK) {
		keep_message(c, PQerrorMessage(c->pg));
		return false;
	}
	forget_prepared(c);
	return true;
}

/* Checks a result; on failure keeps its message (and notes a connection
 * that died inside a transaction).  Frees nothing. */
static bool result_ok(struct pg_conn *c, PGresult *r)
{
	ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
	if (!ok) {
		keep_message(c, r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg));
		if (PQstatus(c->pg) == CONNECTION_BAD && !c->was_idle)
			c->tx_lost = true;
	}
	if (PQstatus(c->pg) == CONNECTION_OK)
		c->was_idle = PQtransactionStatus(c->pg) == PQTRANS_IDLE;
	return ok;
}

static int pg_exec(struct store *s, const char *sql, const char *what, err_t err)
{
	struct pg_conn *c = conn(s);
	if (c->tx_lost && strcmp(sql, "ROLLBACK") == 0) {
		c->tx_lost = false; /* the server rolled it back when it lost us */
		c->was_idle = true;
		return 0;
	}
	if (!usable(c))
		return pg_fail(s, what, err);
	PGresult *r = PQexec(c->pg, sql);
	bool ok = result_ok(c, r);
	PQclear(r);
	return ok ? 0 : pg_fail(s, what, err);
}

/* ---- statement texts --------------------------------------------------------- */

/* ?N becomes $N (a bare ? takes the next number), outside quotes. */
static struct pg_text *translate(const char *sql)
{
	size_t len = strlen(sql);
	struct pg_text *t = calloc(1, sizeof *t);
	char *out = t ? malloc(len * 2 + 1) : NULL;
	char *copy = out ? strdup(sql) : NULL;
	if (!copy) {
		free(out);
		free(t);
		return NULL;
	}
	t->sql = copy;
	t->translated = out;
	bool used[100] = { false };
	int next = 0, max = 0;
	char quote = 0;
	for (const char *p = sql; *p; p++) {
		if (quote) {
			quote = *p == quote ? 0 : quote;
			*out++ = *p;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			*out++ = *p;
		} else if (*p == '?') {
			int n = 0;
			while (p[1] >= '0' && p[1] <= '9')
				n = n * 10 + (*++p - '0');
			if (n == 0)
				n = next + 1;
			next = n;
			if (n < (int)(sizeof used / sizeof *used))
				used[n] = true;
			max = n > max ? n : max;
			out += sprintf(out, "$%d", n);
		} else {
			*out++ = *p;
		}
	}
	*out = '\0';
	t->nparams = max;
	t->types = calloc((size_t)max + 1, sizeof *t->types);
	for (int i = 1; t->types && i <= max; i++)
		t->types[i - 1] = i < (int)(sizeof used / sizeof *used) && used[i] ? 0 : TEXTOID;
	return t;
}

static void free_text(struct pg_text *t)
{
	if (!t)
		return;
	free(t->sql);
	free(t->translated);
	free(t->types);
	free(t);
}

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The connection's entry for sql, made (unprepared) on first sight. */
static struct pg_text *text_for(struct pg_conn *c, const char *sql)
{
	unsigned b = hash(sql) % BUCKETS;
	for (struct pg_text *t = c->texts[b]; t; t = t->next)
		if (strcmp(t->sql, sql) == 0)
			return t;
	struct pg_text *t = translate(sql);
	if (!t || !t->types) {
		free_text(t);
		return NULL;
	}
	if (c->ntexts >= MAX_TEXTS)
		return t; /* unnamed: its statement frees it */
	t->cached = true;
	snprintf(t->name, sizeof t->name, "j%d", c->ntexts++);
	t->next = c->texts[b];
	c->texts[b] = t;
	return t;
}

/* ---- statements ------------------------------------------------------------------ */

static struct db_stmt *pg_prepare(struct store *s, const char *sql, bool kept)
{
	struct pg_conn *c = conn(s);
	struct pg_stmt *d = calloc(1, sizeof *d);
	if (!d || !(d->text = text_for(c, sql))) {
		free(d);
		keep_message(c, "out of memory");
		return NULL;
	}
	d->base = (struct db_stmt){ .s = s, .kept = kept };
	int n = d->text->nparams ? d->text->nparams : 1;
	d->values = calloc((size_t)n, sizeof *d->values);
	d->lengths = calloc((size_t)n, sizeof *d->lengths);
	d->formats = calloc((size_t)n, sizeof *d->formats);
	if (!d->values || !d->lengths || !d->formats) {
		keep_message(c, "out of memory");
		free(d->values);
		free(d->lengths);
		free(d->formats);
		if (!d->text->cached)
			free_text(d->text);
		free(d);
		return NULL;
	}
	return &d->base;
}

/* The result of the last run, and the last bytea read, are let go. */
static void drop_result(struct pg_stmt *d)
{
	PQclear(d->res);
	d->res = NULL;
	PQfreemem(d->blob);
	d->blob = NULL;
	d->ran = d->ok = false;
	d->row = -1;
	d->nrows = 0;
}

static void clear_bindings(struct pg_stmt *d)
{
	for (int i = 0; i < d->text->nparams; i++) {
		free(d->values[i]);
		d->values[i] = NULL;
		d->lengths[i] = 0;
		d->formats[i] = 0;
	}
}

/* Parameter i (1-based) takes a copy of len bytes; numbers past the
 * text's own are ignored, as SQLite does. */
static void bind(struct db_stmt *st, int i, const void *v, size_t len, int format)
{
	struct pg_stmt *d = pst(st);
	if (i < 1 || i > d->text->nparams)
		return;
	free(d->values[i - 1]);
	d->values[i - 1] = NULL;
	if (v) {
		d->values[i - 1] = malloc(len + 1);
		if (d->values[i - 1]) {
			memcpy(d->values[i - 1], v, len);
			d->values[i - 1][len] = '\0';
		}
	}
	d->lengths[i - 1] = (int)len;
	d->formats[i - 1] = format;
}

static void pg_bind_int(struct db_stmt *st, int i, int64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
	bind(st, i, buf, (size_t)n, 0);
}

static void pg_bind_double(struct db_stmt *st, int i, double v)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%.17g", v);
	bind(st, i, buf, (size_t)n, 0);
}

static void pg_bind_text(struct db_stmt *st, int i, const char *v)
{
	bind(st, i, v, v ? strlen(v) : 0, 0);
}

static void pg_bind_blob(struct db_stmt *st, int i, const void *v, size_t len)
{
	bind(st, i, v ? v : "", len, 1);
}

/* Runs the statement on the server: prepared once per session when its
 * text has a name, else sent with its parameters. */
static PGresult *run(struct pg_conn *c, struct pg_stmt *d)
{
	struct pg_text *t = d->text;
	const char *const *values = (const char *const *)d->values;
	if (!t->cached)
		return PQexecParams(c->pg, t->translated, t->nparams, t->types, values, d->lengths,
				    d->formats, 0);
	if (!t->prepared) {
		PGresult *r = PQprepare(c->pg, t->name, t->translated, t->nparams, t->types);
		bool ok = result_ok(c, r);
		if (!ok)
			return r;
		PQclear(r);
		t->prepared = true;
	}
	return PQexecPrepared(c->pg, t->name, t->nparams, values, d->lengths, d->formats, 0);
}

static int pg_step(struct db_stmt *st)
{
	struct pg_stmt *d = pst(st);
	struct pg_conn *c = conn(st->s);
	if (!d->ran) {
		d->ran = true;
		d->ok = usable(c) && result_ok(c, d->res = run(c, d));
		if (d->ok) {
			d->nrows = PQntuples(d->res);
			d->changes = strtoll(PQcmdTuples(d->res), NULL, 10);
			d->row = -1;
		}
	}
	if (!d->ok)
		return -1;
	PQfreemem(d->blob);
	d->blob = NULL;
	return ++d->row < d->nrows ? 1 : 0;
}

static void pg_reset(struct db_stmt *st)
{
	drop_result(pst(st));
	if (st->kept)
		clear_bindings(pst(st));
}

static int64_t pg_changes(struct db_stmt *st)
{
	return pst(st)->changes;
}

static const char *value(struct db_stmt *st, int col)
{
	struct pg_stmt *d = pst(st);
	if (!d->res || d->row < 0 || d->row >= d->nrows || col >= PQnfields(d->res))
		return "";
	return PQgetvalue(d->res, d->row, col);
}

static int64_t pg_col_int(struct db_stmt *st, int col)
{
	return strtoll(value(st, col), NULL, 10);
}

static double pg_col_double(struct db_stmt *st, int col)
{
	return strtod(value(st, col), NULL);
}

static const char *pg_col_text(struct db_stmt *st, int col)
{
	return value(st, col);
}

static const void *pg_col_blob(struct db_stmt *st, int col, size_t *len)
{
	struct pg_stmt *d = pst(st);
	const char *v = value(st, col);
	if (!d->res || PQftype(d->res, col) != BYTEAOID) {
		*len = strlen(v);
		return v;
	}
	PQfreemem(d->blob);
	d->blob = PQunescapeBytea((const unsigned char *)v, len);
	if (!d->blob)
		*len = 0;
	return d->blob;
}

static bool pg_col_null(struct db_stmt *st, int col)
{
	struct pg_stmt *d = pst(st);
	return !d->res || d->row < 0 || d->row >= d->nrows || PQgetisnull(d->res, d->row, col);
}

static void pg_finish(struct db_stmt *st)
{
	struct pg_stmt *d = pst(st);
	drop_result(d);
	clear_bindings(d);
	if (!d->text->cached)
		free_text(d->text);
	free(d->values);
	free(d->lengths);
	free(d->formats);
	free(d);
}

/* ---- opening ------------------------------------------------------------------- */

static void quiet(void *arg, const char *message)
{
	(void)arg; /* NOTICEs ("relation already exists, skipping") are not for users */
	(void)message;
}

/* "host:port/database" (or the socket's folder), never the password. */
static void describe(struct store *s, const char *url)
{
	PGconn *pg = conn(s)->pg;
	const char *host = pg ? PQhost(pg) : NULL, *db = pg ? PQdb(pg) : NULL;
	if (host && *host && db)
		snprintf(s->where, sizeof s->where, "%s:%s/%s", host, PQport(pg), db);
	else
		snprintf(s->where, sizeof s->where, "%.*s", (int)strcspn(url, "@?"), url);
}

static int pg_open(struct store *s, const char *url, bool create, err_t err)
{
	(void)create; /* PostgreSQL creates no database from a URL: an organiser does */
	if (pq_require(err) < 0)
		return -1;
	struct pg_conn *c = calloc(1, sizeof *c);
	if (!c) {
		say(err, "out of memory");
		return -1;
	}
	s->conn = c;
	c->was_idle = true;
	c->pg = PQconnectdb(url);
	describe(s, url);
	if (!c->pg) {
		say(err, "out of memory");
		return -1;
	}
	if (PQstatus(c->pg) == CONNECTION_OK) {
		PQsetNoticeProcessor(c->pg, quiet, NULL);
		return 0;
	}
	keep_message(c, PQerrorMessage(c->pg));
	const char *why = c->last_err->msg;
	c->refused = true;
	if (PQconnectionNeedsPassword(c->pg))
		say(err, "PostgreSQL at %s wants a password: put it in ~/.pgpass or in the URL "
		    "(postgresql://user:password@host/db)", s->where);
	else if (strstr(why, "does not exist") || strstr(why, "authentication") ||
		 strstr(why, "permission denied") || strstr(why, "no pg_hba.conf"))
		say(err, "PostgreSQL at %s refused the judge: %s (see README: Many machines)",
		    s->where, why);
	else
		c->refused = false;
	if (!c->refused)
		say(err, "cannot reach PostgreSQL at %s: is the server running? (%s)", s->where,
		    why);
	return -1;
}

static int pg_configure(struct store *s, err_t err)
{
	(void)s;
	(void)err;
	return 0; /* the server's durability (synchronous_commit) unless told */
}

static void pg_close(struct store *s)
{
	struct pg_conn *c = conn(s);
	if (!c)
		return;
	for (int b = 0; b < BUCKETS; b++)
		for (struct pg_text *t = c->texts[b], *next; t; t = next) {
			next = t->next;
			free_text(t);
		}
	PQfinish(c->pg);
	free(c);
}

/* FULL: a commit returns once it is on disk.  NORMAL: the server may lose
 * the last commits if it crashes (never a half of one), as SQLite's
 * NORMAL may on a power cut. */
static int pg_set_sync(struct store *s, enum store_sync mode, err_t err)
{
	return pg_exec(s, mode == STORE_SYNC_FULL ? "SET synchronous_commit = on"
						  : "SET synchronous_commit = off",
		       "synchronous", err);
}

/* One integer from a query without parameters; -1 with err on failure. */
static int one_int(struct store *s, const char *sql, const char *what, int64_t *out,
		   err_t err)
{
	struct pg_conn *c = conn(s);
	if (!usable(c))
		return pg_fail(s, what, err);
	PGresult *r = PQexec(c->pg, sql);
	bool ok = result_ok(c, r) && PQntuples(r) == 1;
	if (ok)
		*out = PQgetisnull(r, 0, 0) ? 0 : strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return ok ? 0 : pg_fail(s, what, err);
}

static int pg_has_tables(struct store *s, err_t err)
{
	int64_t n;
	if (one_int(s, "SELECT count(*) FROM pg_catalog.pg_tables"
		       " WHERE schemaname = current_schema()", "open", &n, err) < 0)
		return -1;
	return n > 0;
}

static int pg_get_version(struct store *s, int *version, err_t err)
{
	int64_t has_meta, v = 0;
	if (one_int(s, "SELECT count(*) FROM pg_catalog.pg_tables"
		       " WHERE schemaname = current_schema() AND tablename = 'meta'", "open",
		    &has_meta, err) < 0)
		return -1;
	if (has_meta && one_int(s, "SELECT max(value::int) FROM meta WHERE key = 'schema_version'",
				"reading the schema version", &v, err) < 0)
		return -1;
	*version = (int)v;
	return 0;
}

static int pg_set_version(struct store *s, int version, err_t err)
{
	char sql[160];
	snprintf(sql, sizeof sql, "INSERT INTO meta (key, value) VALUES ('schema_version', '%d')"
		 " ON CONFLICT (key) DO UPDATE SET value = excluded.value", version);
	return pg_exec(s, sql, "setting the schema version", err);
}

static bool pg_in_transaction(struct store *s)
{
	struct pg_conn *c = conn(s);
	if (c->tx_lost)
		return true;
	PGTransactionStatusType t = PQtransactionStatus(c->pg);
	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

static bool pg_unreachable(struct store *s)
{
	struct pg_conn *c = conn(s);
	return c && c->pg && !c->refused && lost(c);
}

const struct db_ops db_postgres_ops = {
	.kind = DB_POSTGRES,
	.name = "PostgreSQL",
	.schema = store_pg_schema_sql,
	.migrations = store_pg_migrations,
	/* Two workers opening a new database at once: one creates the
	 * schema, the other waits here and finds it. */
	.schema_lock = "SELECT pg_advisory_xact_lock(7316822)",
	/* A generated column is computed, not copied (SQLite's table_info
	 * leaves them out too). */
	.columns_sql = "SELECT table_name, column_name FROM information_schema.columns"
		       " WHERE table_schema = current_schema() AND is_generated = 'NEVER'",
	.snapshot_begin = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
	/* Under READ COMMITTED two results would each read a rating the other
	 * is about to change; held until the transaction ends. */
	.results_lock = "SELECT pg_advisory_xact_lock(7316823)",
	.challenge_lock = "SELECT pg_advisory_xact_lock(7316824)",
	.identity_reset = "SELECT setval(pg_get_serial_sequence('%s', 'id'),"
			  " coalesce(max(id), 0) + 1, false) FROM %s",
	.open = pg_open,
	.configure = pg_configure,
	.close = pg_close,
	.set_sync = pg_set_sync,
	.has_tables = pg_has_tables,
	.get_version = pg_get_version,
	.set_version = pg_set_version,
	.in_transaction = pg_in_transaction,
	.unreachable = pg_unreachable,
	.exec = pg_exec,
	.fail = pg_fail,
	.prepare = pg_prepare,
	.bind_int = pg_bind_int,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.step = pg_step,
	.reset = pg_reset,
	.changes = pg_changes,
	.col_int = pg_col_int,
	.col_double = pg_col_double,
	.col_text = pg_col_text,
	.col_blob = pg_col_blob,
	.col_null = pg_col_null,
	.finish = pg_finish,
};
