/* db.c - db.h: every call goes to the backend that made the statement. */
#include <stdarg.h>
#include <string.h>

#include "judge/store/db.h"

const struct db_ops *db_backend_for(const char *target)
{
	if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0)
		return &db_postgres_ops;
	return &db_sqlite_ops;
}

struct db_stmt *db_prepare(struct store *s, const char *sql)
{
	return s->ops->prepare(s, sql, false);
}

struct db_stmt *db_prepare_kept(struct store *s, int slot, const char *sql)
{
	struct db_stmt *st = s->kept[slot];
	if (!st)
		return s->kept[slot] = s->ops->prepare(s, sql, true);
	s->ops->reset(st);
	return st;
}

void db_bind_int(struct db_stmt *st, int i, int64_t v)
{
	st->s->ops->bind_int(st, i, v);
}

void db_bind_double(struct db_stmt *st, int i, double v)
{
	st->s->ops->bind_double(st, i, v);
}

void db_bind_text(struct db_stmt *st, int i, const char *v)
{
	st->s->ops->bind_text(st, i, v);
}

void db_bind_blob(struct db_stmt *st, int i, const void *v, size_t len)
{
	st->s->ops->bind_blob(st, i, v, len);
}

int db_step(struct db_stmt *st)
{
	return st->s->ops->step(st);
}

void db_reset(struct db_stmt *st)
{
	st->s->ops->reset(st);
}

int64_t db_changes(struct db_stmt *st)
{
	return st->s->ops->changes(st);
}

int64_t db_col_int(struct db_stmt *st, int col)
{
	return st->s->ops->col_int(st, col);
}

double db_col_double(struct db_stmt *st, int col)
{
	return st->s->ops->col_double(st, col);
}

const char *db_col_text(struct db_stmt *st, int col)
{
	return st->s->ops->col_text(st, col);
}

const void *db_col_blob(struct db_stmt *st, int col, size_t *len)
{
	return st->s->ops->col_blob(st, col, len);
}

bool db_col_null(struct db_stmt *st, int col)
{
	return st->s->ops->col_null(st, col);
}

void db_finish(struct db_stmt *st)
{
	if (!st)
		return;
	if (st->kept)
		st->s->ops->reset(st);
	else
		st->s->ops->finish(st);
}

int db_fail(struct store *s, const char *what, char err[STORE_ERRLEN])
{
	return s->ops->fail(s, what, err);
}

int db_exec(struct store *s, const char *sql, const char *what, char err[STORE_ERRLEN])
{
	return s->ops->exec(s, sql, what, err);
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
