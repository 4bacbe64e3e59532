/* db.c - db.h: every call goes to the backend that made the statement. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

int db_fail(struct store *s, const char *what, err_t err)
{
	return s->ops->fail(s, what, err);
}

int db_exec(struct store *s, const char *sql, const char *what, err_t err)
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
		case 'b': {
			const void *bytes = va_arg(ap, const void *);
			db_bind_blob(st, i, bytes, va_arg(ap, size_t));
			break;
		}
		default:
			db_bind_text(st, i, va_arg(ap, const char *));
			break;
		}
	}
}

/* Steps through the rows, handing each to row (none: the rows are
 * passed over) until it stops: the rows handed, or -1 with err. */
static int64_t step_rows(struct db_stmt *st, const char *what, db_row_fn *row, void *ctx,
			 err_t err)
{
	int64_t rows = 0;
	int rc;
	while ((rc = db_step(st)) == 1) {
		rows++;
		int more = row ? row(st, ctx, err) : 0;
		if (more < 0) {
			err_prefix(err, "%s", what);
			return -1;
		}
		if (more > 0)
			return rows;
	}
	return rc < 0 ? db_fail(st->s, what, err) : rows;
}

/* The one body behind db_run, db_changed and db_query, on a statement
 * prepared (NULL: its preparing failed), which it finishes: the rows
 * handed to row, and with changes (not NULL) the rows it changed. */
static int64_t run_v(struct store *s, struct db_stmt *st, const char *what, err_t err,
		     db_row_fn *row, void *ctx, int64_t *changes, const char *fmt, va_list ap)
{
	if (!st)
		return db_fail(s, what, err);
	bind_args(st, fmt, ap);
	int64_t rc = step_rows(st, what, row, ctx, err);
	if (rc >= 0 && changes)
		*changes = db_changes(st);
	db_finish(st);
	return rc;
}

int db_run(struct store *s, const char *what, err_t err, const char *sql,
	   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare(s, sql), what, err, NULL, NULL, NULL, fmt, ap);
	va_end(ap);
	return rc < 0 ? -1 : 0;
}

int64_t db_changed(struct store *s, const char *what, err_t err, const char *sql,
		   const char *fmt, ...)
{
	int64_t changes = 0;
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare(s, sql), what, err, NULL, NULL, &changes, fmt, ap);
	va_end(ap);
	return rc < 0 ? -1 : changes;
}

int64_t db_query(struct store *s, const char *what, err_t err, const char *sql,
		 db_row_fn *row, void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare(s, sql), what, err, row, ctx, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int64_t db_changed_kept(struct store *s, int slot, const char *sql, const char *what,
			err_t err, const char *fmt, ...)
{
	int64_t changes = 0;
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare_kept(s, slot, sql), what, err, NULL, NULL, &changes, fmt,
			   ap);
	va_end(ap);
	return rc < 0 ? -1 : changes;
}

int64_t db_query_kept(struct store *s, int slot, const char *sql, const char *what,
		      err_t err, db_row_fn *row, void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare_kept(s, slot, sql), what, err, row, ctx, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int db_row_int(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	*(int64_t *)ctx = db_col_int(st, 0);
	return 1;
}

int db_row_bytes(struct db_stmt *st, void *ctx, err_t err)
{
	struct db_bytes *b = ctx;
	return db_col_dup(st, 0, &b->bytes, &b->len, err) < 0 ? -1 : 1;
}

void db_col_copy(struct db_stmt *st, int col, char *buf, size_t size)
{
	snprintf(buf, size, "%s", db_col_text(st, col));
}

int db_col_dup(struct db_stmt *st, int col, uint8_t **bytes, size_t *len, err_t err)
{
	size_t n;
	const void *b = db_col_blob(st, col, &n);
	if (!(*bytes = malloc(n + 1))) {
		err_set(err, "out of memory");
		return -1;
	}
	if (n)
		memcpy(*bytes, b, n);
	(*bytes)[n] = 0;
	*len = n;
	return 0;
}

struct json_rows {
	json_t *array;
	const char *spec;
};

/* db_query_json's rows: each appended to the array. */
static int append_row_json(struct db_stmt *st, void *ctx, err_t err)
{
	struct json_rows *rows = ctx;
	if (json_array_append_new(rows->array, db_row_json(st, rows->spec)) == 0)
		return 0;
	err_set(err, "out of memory");
	return -1;
}

json_t *db_query_json(struct store *s, const char *what, err_t err, const char *sql,
		      const char *spec, const char *fmt, ...)
{
	struct json_rows rows = { json_array(), spec };
	if (!rows.array) {
		err_set(err, "%s: out of memory", what);
		return NULL;
	}
	va_list ap;
	va_start(ap, fmt);
	int64_t rc = run_v(s, db_prepare(s, sql), what, err, append_row_json, &rows, NULL, fmt, ap);
	va_end(ap);
	if (rc >= 0)
		return rows.array;
	json_decref(rows.array);
	return NULL;
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

int db_one_json(json_t *rows, json_t **out)
{
	*out = NULL;
	if (!rows)
		return -1;
	*out = json_array_size(rows) ? json_incref(json_array_get(rows, 0)) : NULL;
	json_decref(rows);
	return *out ? 1 : 0;
}
