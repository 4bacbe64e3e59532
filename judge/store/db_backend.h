/* db_backend.h - what a backend of db.h implements, and the store's
 * connection.  For judge/store/ alone.
 *
 * A store holds one connection to one backend, chosen when it is opened:
 * its table of operations (ops) and the backend's own handle (conn).  Every
 * statement starts with a struct db_stmt naming its store, so db.h sends
 * each call to the backend that prepared the statement.  A backend never
 * calls the store or db.c: they sit above it.
 */
#ifndef JUDGE_STORE_DB_BACKEND_H
#define JUDGE_STORE_DB_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/store.h"

/* How many statements a store keeps prepared for its whole life. */
#define DB_KEPT_MAX 24

enum db_kind { DB_SQLITE, DB_POSTGRES };

struct db_stmt {
	struct store *s;
	bool kept; /* prepared for the store's life: db_finish leaves it */
};

struct db_ops {
	enum db_kind kind;
	const char *name; /* "SQLite", "PostgreSQL": for messages */
	/* The schema (version 1) and the migrations to versions 2, 3...,
	 * NULL-terminated; SQL a script may run whole (db_exec). */
	const char *schema;
	const char *const *migrations;
	/* Run first in the transaction that creates or migrates the schema,
	 * so that of two processes doing it at once one waits (NULL: the
	 * backend's BEGIN already locks the whole database). */
	const char *schema_lock;
	/* Run first when a match result is recorded, so that results (and
	 * the ratings they update) are recorded one at a time, in the order of
	 * their match ids, as a recompute replays them (NULL: the backend's
	 * BEGIN already takes the only write lock). */
	const char *results_lock;
	/* Run first when an author's challenges are counted and queued, so
	 * that two requests at once do not both fit under the limit (NULL:
	 * BEGIN already takes the only write lock). */
	const char *challenge_lock;
	/* After rows were copied in with their ids: the next id the backend
	 * hands out follows the largest (a format of the table's name, twice;
	 * NULL: the backend takes the largest id + 1 by itself). */
	const char *identity_reset;
	/* Every (table, column) of the schema, so that a copy can tell a
	 * column it does not know of. */
	const char *columns_sql;
	/* Starts a read-only transaction that sees one snapshot throughout. */
	const char *snapshot_begin;

	/* Fills s->conn; err says what is wrong and what to do. */
	int (*open)(struct store *s, const char *target, bool create, err_t err);
	/* After the schema is checked: the connection's settings. */
	int (*configure)(struct store *s, err_t err);
	void (*close)(struct store *s);
	int (*set_sync)(struct store *s, enum store_sync mode, err_t err);
	/* 1 if the database holds tables, 0 if it is empty, -1 error. */
	int (*has_tables)(struct store *s, err_t err);
	int (*get_version)(struct store *s, int *version, err_t err);
	int (*set_version)(struct store *s, int version, err_t err);
	bool (*in_transaction)(struct store *s);
	/* The last failure was the server out of reach (down, restarting):
	 * the same work may succeed later. */
	bool (*unreachable)(struct store *s);
	/* Runs a script of statements without parameters. */
	int (*exec)(struct store *s, const char *sql, const char *what, err_t err);
	int (*fail)(struct store *s, const char *what, err_t err);

	struct db_stmt *(*prepare)(struct store *s, const char *sql, bool kept);
	void (*bind_int)(struct db_stmt *st, int i, int64_t v);
	void (*bind_double)(struct db_stmt *st, int i, double v);
	void (*bind_text)(struct db_stmt *st, int i, const char *v);
	void (*bind_blob)(struct db_stmt *st, int i, const void *v, size_t len);
	int (*step)(struct db_stmt *st);
	void (*reset)(struct db_stmt *st);
	int64_t (*changes)(struct db_stmt *st);
	int64_t (*col_int)(struct db_stmt *st, int col);
	double (*col_double)(struct db_stmt *st, int col);
	const char *(*col_text)(struct db_stmt *st, int col);
	const void *(*col_blob)(struct db_stmt *st, int col, size_t *len);
	bool (*col_null)(struct db_stmt *st, int col);
	void (*finish)(struct db_stmt *st);
};

extern const struct db_ops db_sqlite_ops, db_postgres_ops;

struct store {
	const struct db_ops *ops;
	void *conn;      /* sqlite3 *, or the PostgreSQL backend's connection */
	char where[160]; /* the file, or the server and database: for messages */
	struct db_stmt *kept[DB_KEPT_MAX];
};

#endif
