/* pg_testlib.h - a private PostgreSQL 15 server for tests and benchmarks.
 *
 * The server lives in a folder of its own: initdb writes the cluster
 * there, pg_ctl starts it listening only on a Unix socket in that folder
 * (no TCP), trust authentication for its one role.  initdb refuses root,
 * so as root the server runs as the `postgres` system user (made if
 * missing).  The binaries are found under /usr/lib/postgresql/15/bin (or
 * PG_BINDIR).  Nothing here uses Criterion: every call returns 0, or -1
 * with err saying what failed.
 *
 * For the unit suite, one server serves the whole run: the first test that
 * asks for a database starts it (under a lock, whichever test process comes
 * first), each test gets a new database, and pg_test_run_end() (a
 * Criterion hook, in test_store.c) stops it and removes its folder.
 */
#ifndef PG_TESTLIB_H
#define PG_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include "judge/base/error.h"


struct pg_server {
	char dir[256];  /* the cluster is dir/data, its socket in dir */
	bool running;
	bool durable;
};

/* initdb into srv->dir/data (dir must exist, empty but for what this
 * writes), then starts the server.  durable false turns fsync off: for
 * tests, whose data dies with them. */
int pg_server_start(struct pg_server *srv, const char *dir, bool durable, err_t err);
/* Stops the server (fast shutdown: sessions cut), keeping its folder; and
 * starts it again: a restart, as an organiser's. */
int pg_server_pause(struct pg_server *srv, err_t err);
int pg_server_resume(struct pg_server *srv, err_t err);
/* Stops the server (fast shutdown) and removes its folder. */
void pg_server_stop(struct pg_server *srv);
/* A new, empty database called name, and the URL a store opens it by. */
int pg_server_createdb(const struct pg_server *srv, const char *name, char *url, size_t n,
		       err_t err);

/* The unit suite's shared server: set up by pg_test_run_begin() in the
 * runner, started on first use, and a new database per call. */
void pg_test_run_begin(void);
void pg_test_run_end(void);
int pg_test_database(char *url, size_t n, err_t err);

#endif
