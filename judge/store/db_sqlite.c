/* db_sqlite.c - db.h over SQLite: a statement is an sqlite3_stmt. */
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/store/db.h"

struct db_stmt {
	struct store *s;
	sqlite3_stmt *st;
};

struct db_stmt *db_prepare(struct store *s, const char *sql)
{
	struct db_stmt *d = malloc(sizeof *d);
	if (!d)
		return NULL;
	d->s = s;
	if (sqlite3_prepare_v2(store_db(s), sql, -1, &d->st, NULL) != SQLITE_OK) {
		sqlite3_finalize(d->st);
		free(d);
		return NULL;
	}
	return d;
}

void db_bind_int(struct db_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(st->st, i, v);
}

void db_bind_double(struct db_stmt *st, int i, double v)
{
	sqlite3_bind_double(st->st, i, v);
}

void db_bind_text(struct db_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st->st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st->st, i);
}

void db_bind_blob(struct db_stmt *st, int i, const void *v, size_t len)
{
	sqlite3_bind_blob64(st->st, i, v, len, SQLITE_TRANSIENT);
}

int db_step(struct db_stmt *st)
{
	int rc = sqlite3_step(st->st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

void db_reset(struct db_stmt *st)
{
	sqlite3_reset(st->st);
}

int64_t db_int(struct db_stmt *st, int col)
{
	return sqlite3_column_int64(st->st, col);
}

double db_double(struct db_stmt *st, int col)
{
	return sqlite3_column_double(st->st, col);
}

const char *db_text(struct db_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st->st, col);
	return t ? (const char *)t : "";
}

const void *db_blob(struct db_stmt *st, int col, size_t *len)
{
	const void *b = sqlite3_column_blob(st->st, col);
	*len = (size_t)sqlite3_column_bytes(st->st, col);
	return b;
}

bool db_is_null(struct db_stmt *st, int col)
{
	return sqlite3_column_type(st->st, col) == SQLITE_NULL;
}

void db_finish(struct db_stmt *st)
{
	if (!st)
		return;
	sqlite3_finalize(st->st);
	free(st);
}

int db_fail(struct store *s, const char *what, char err[STORE_ERRLEN])
{
	snprintf(err, STORE_ERRLEN, "%s: %s", what, sqlite3_errmsg(store_db(s)));
	return -1;
}

int db_run(struct store *s, const char *what, char err[STORE_ERRLEN], const char *sql,
	   const char *fmt, ...)
{
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		return db_fail(s, what, err);
	va_list ap;
	va_start(ap, fmt);
	for (int i = 1; fmt[i - 1]; i++) {
		switch (fmt[i - 1]) {
		case 'i':
			db_bind_int(st, i, va_arg(ap, int64_t));
			break;
		case 'd':
			db_bind_double(st, i, va_arg(ap, double));
			break;
		default:
			db_bind_text(st, i, va_arg(ap, const char *));
			break;
		}
	}
	va_end(ap);
	int rc = db_step(st);
	int out = rc == 0 ? 0 : db_fail(s, what, err);
	db_finish(st);
	return out;
}
