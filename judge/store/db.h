/* db.h - the store's statements, written once whatever the backend.
 *
 * For judge/store/ alone: no other part of the judge speaks SQL.  SQL text
 * numbers its parameters ?1 .. ?N, so one text can serve every backend.  A
 * statement is prepared, bound, stepped row by row and finished; when a
 * call fails, db_fail() words the backend's message for a person.  No
 * global state: a statement belongs to its store's connection.
 */
#ifndef JUDGE_STORE_DB_H
#define JUDGE_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/store.h"

struct db_stmt;

/* NULL when the statement cannot be prepared (db_fail says why). */
struct db_stmt *db_prepare(struct store *s, const char *sql);
void db_bind_int(struct db_stmt *st, int i, int64_t v);
void db_bind_double(struct db_stmt *st, int i, double v);
void db_bind_text(struct db_stmt *st, int i, const char *v); /* NULL binds NULL */
void db_bind_blob(struct db_stmt *st, int i, const void *v, size_t len);
/* 1: a row is there to read; 0: no more rows; -1: failed. */
int db_step(struct db_stmt *st);
/* Starts the statement over, bindings kept, for another run. */
void db_reset(struct db_stmt *st);
int64_t db_int(struct db_stmt *st, int col);
double db_double(struct db_stmt *st, int col);
const char *db_text(struct db_stmt *st, int col); /* "" for NULL */
const void *db_blob(struct db_stmt *st, int col, size_t *len);
bool db_is_null(struct db_stmt *st, int col);
void db_finish(struct db_stmt *st);

/* "what: the backend's last message" into err; returns -1. */
int db_fail(struct store *s, const char *what, char err[STORE_ERRLEN]);

/* Runs one statement that returns no rows, its parameters bound from fmt,
 * one letter each: i (int64_t), d (double), t (const char *, NULL: NULL).
 * 0, or -1 with err "what: ...". */
int db_run(struct store *s, const char *what, char err[STORE_ERRLEN], const char *sql,
	   const char *fmt, ...);

#endif
