/* db.c - db.h: every call goes to the backend that made the statement. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
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

int db_fail(struct store *s, const char *what, char err[ERR_LEN])
{
	return s->ops->fail(s, what, err);
}

int db_exec(struct store *s, const char *sql, const char *what, char err[ERR_LEN])
{
	return s->ops->exec(s, sql, what, err);
}

static void bind_args(struct db_stmt *st, const char *fmt, va_list ap)
{
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
}

int db_run(struct store *s, const char *what, char err[ERR_LEN], const char *sql,
	   const char *fmt, ...)
{
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		return db_fail(s, what, err);
	va_list ap;
	va_start(ap, fmt);
	bind_args(st, fmt, ap);
	va_end(ap);
	int rc = db_step(st);
	int out = rc == 0 ? 0 : db_fail(s, what, err);
	db_finish(st);
	return out;
}

json_t *db_query_json(struct store *s, const char *what, char err[ERR_LEN], const char *sql,
		      const char *spec, const char *fmt, ...)
{
	struct db_stmt *st = db_prepare(s, sql);
	if (!st) {
		db_fail(s, what, err);
		return NULL;
	}
	va_list ap;
	va_start(ap, fmt);
	bind_args(st, fmt, ap);
	va_end(ap);
	json_t *rows = json_array();
	if (!rows || db_rows_json(st, spec, rows, what, err) < 0) {
		if (!rows)
			snprintf(err, ERR_LEN, "%s: out of memory", what);
		json_decref(rows);
		rows = NULL;
	}
	db_finish(st);
	return rows;
}

static json_t *column_json(struct db_stmt *st, int col, char type)
{
	if (type >= 'A' && type <= 'Z') {
		if (db_col_null(st, col))
			return json_null();
		type = (char)(type - 'A' + 'a');
	}
	switch (type) {
	case 'i': return json_integer(db_col_int(st, col));
	case 'd': return json_real(db_col_double(st, col));
	case 'b': return json_boolean(db_col_int(st, col) != 0);
	default: {
		/* The bytes as stored: whoever shows them checks their UTF-8. */
		const char *text = db_col_text(st, col);
		return json_stringn_nocheck(text, strlen(text));
	}
	}
}

json_t *db_row_json(struct db_stmt *st, const char *spec)
{
	json_t *row = json_object();
	int col = 0;
	for (const char *p = spec; row && *p; col++) {
		const char *colon = strchr(p, ':');
		if (!colon)
			break;
		char name[48];
		snprintf(name, sizeof name, "%.*s", (int)(colon - p), p);
		if (json_object_set_new(row, name, column_json(st, col, colon[1])) < 0) {
			json_decref(row);
			return NULL;
		}
		p = colon + 2;
		while (*p == ' ')
			p++;
	}
	return row;
}

int db_rows_json(struct db_stmt *st, const char *spec, json_t *array, const char *what,
		 char err[ERR_LEN])
{
	int rc;
	while ((rc = db_step(st)) == 1)
		if (json_array_append_new(array, db_row_json(st, spec)) < 0) {
			snprintf(err, ERR_LEN, "%s: out of memory", what);
			return -1;
		}
	return rc < 0 ? db_fail(st->s, what, err) : 0;
}

int db_one_json(json_t *rows, json_t **out)
{
	*out = NULL;
	if (!rows)
		return -1;
	*out = json_array_size(rows) ? json_incref(json_array_get(rows, 0)) : NULL;
	json_decref(rows);
	return *out ? 1 : 0;
}
