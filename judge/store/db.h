/* db.h - the store's statements, written once whatever the backend.
 *
 * For judge/store/ alone: no other part of the judge speaks SQL.  SQL text
 * numbers its parameters ?1 .. ?N, so one text serves SQLite and
 * PostgreSQL (which the PostgreSQL backend turns into $1 .. $N once per
 * text).  The store's files run a statement one way: db_run, db_changed
 * or db_query (below) prepare it, bind its parameters from a letter spec,
 * hand each row to a reader and finish it, wording a failure for a person
 * (db_fail); the calls under them are for the rare statement those cannot
 * serve (parameters bound in a loop, a copy between two stores).
 * No global state: a statement belongs to its store's connection, and
 * carries the backend that prepared it.
 */
#ifndef JUDGE_STORE_DB_H
#define JUDGE_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/db_backend.h"
#include "judge/store/store.h"

/* The backend a store_open() target names: a postgresql:// or postgres://
 * URL is PostgreSQL, anything else a SQLite file. */
const struct db_ops *db_backend_for(const char *target);

/* NULL when the statement cannot be prepared (db_fail says why). */
struct db_stmt *db_prepare(struct store *s, const char *sql);
/* The statement kept in slot (0 .. DB_KEPT_MAX-1) for the store's life,
 * prepared on first use, then handed out again with no bindings.  A slot
 * always holds the same text. */
struct db_stmt *db_prepare_kept(struct store *s, int slot, const char *sql);
void db_bind_int(struct db_stmt *st, int i, int64_t v);
void db_bind_double(struct db_stmt *st, int i, double v);
void db_bind_text(struct db_stmt *st, int i, const char *v); /* NULL binds NULL */
void db_bind_blob(struct db_stmt *st, int i, const void *v, size_t len);
/* 1: a row is there to read; 0: no more rows; -1: failed. */
int db_step(struct db_stmt *st);
/* Starts the statement over, bindings kept, for another run. */
void db_reset(struct db_stmt *st);
/* Rows the last run of an INSERT, UPDATE or DELETE changed. */
int64_t db_changes(struct db_stmt *st);
int64_t db_col_int(struct db_stmt *st, int col);
double db_col_double(struct db_stmt *st, int col);
const char *db_col_text(struct db_stmt *st, int col); /* "" for NULL */
/* Valid until the next step, reset or finish. */
const void *db_col_blob(struct db_stmt *st, int col, size_t *len);
bool db_col_null(struct db_stmt *st, int col);
/* Frees a statement; a kept one is only reset. */
void db_finish(struct db_stmt *st);

/* "what: the backend's last message" into err; returns -1. */
int db_fail(struct store *s, const char *what, err_t err);

/* Runs a script of statements without parameters (a schema). */
int db_exec(struct store *s, const char *sql, const char *what, err_t err);

/* The one way to run a statement: prepare, bind, step, finish, and say
 * what failed.  Parameters are bound from fmt, one letter each: i
 * (int64_t), d (double), t (const char *, NULL: NULL), b (const void *,
 * then size_t: a blob).  Errors read "what: the backend's message". */

/* A statement that returns no rows: 0, or -1 with err. */
int db_run(struct store *s, const char *what, err_t err, const char *sql,
	   const char *fmt, ...);
/* As db_run, and the rows an INSERT, UPDATE or DELETE changed, or -1. */
int64_t db_changed(struct store *s, const char *what, err_t err, const char *sql,
		   const char *fmt, ...);

/* Reads the current row of a query into ctx: 0 to go on to the next row,
 * 1 to stop after this one, -1 when it failed (err says why; db_query
 * puts "what: " in front). */
typedef int db_row_fn(struct db_stmt *st, void *ctx, err_t err);
/* Runs a query, handing each row to row(st, ctx, err) until it stops: the
 * rows handed (0: none), or -1 with err. */
int64_t db_query(struct store *s, const char *what, err_t err, const char *sql,
		 db_row_fn *row, void *ctx, const char *fmt, ...);
/* db_changed and db_query on the statement kept in slot for the store's
 * life (db_prepare_kept): for the few a worker runs for every job. */
int64_t db_changed_kept(struct store *s, int slot, const char *sql, const char *what,
			err_t err, const char *fmt, ...);
int64_t db_query_kept(struct store *s, int slot, const char *sql, const char *what,
		      err_t err, db_row_fn *row, void *ctx, const char *fmt, ...);

/* Row readers for db_query.  db_row_int: the first column into *(int64_t
 * *)ctx, and stop (a count, an id RETURNING, a yes/no). */
db_row_fn db_row_int;
/* db_row_bytes: the first column's bytes (db_col_dup) into *(struct
 * db_bytes *)ctx, and stop. */
struct db_bytes {
	uint8_t *bytes;
	size_t len;
};
db_row_fn db_row_bytes;

/* Column col's text into buf, cut to size. */
void db_col_copy(struct db_stmt *st, int col, char *buf, size_t size);
/* Column col's bytes malloc'd into *bytes (with a NUL after them, so a
 * text may be read as a string) and their number into *len: 0, or -1
 * with err "out of memory". */
int db_col_dup(struct db_stmt *st, int col, uint8_t **bytes, size_t *len, err_t err);

/* The current row as a JSON object, its columns named and typed by spec:
 * "id:i name:t mu:d", one word per column in order; i integer, d double,
 * t text (its bytes as stored, not checked as UTF-8), b 0/1 as true/false; an upper-case letter gives
 * null for a NULL column.  NULL when out of memory. */
struct json_t *db_row_json(struct db_stmt *st, const char *spec);
/* Runs one query as db_query, and gives every row as db_row_json(spec)
 * in a new array; NULL with err. */
struct json_t *db_query_json(struct store *s, const char *what, err_t err,
			     const char *sql, const char *spec, const char *fmt, ...);
/* The first row of db_query_json's rows (consumed) into *out: 1; 0 when
 * there is none; -1 when rows is NULL (the query failed). */
int db_one_json(struct json_t *rows, struct json_t **out);

#endif
