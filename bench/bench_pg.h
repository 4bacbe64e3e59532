/* bench_pg.h - a benchmark's private PostgreSQL 15 server
 * (tests/unit/pg_testlib.h) in a folder of its own under build/, made
 * readable by the server's user, and removed with everything in it. */
#ifndef BENCH_PG_H
#define BENCH_PG_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench.h"
#include "tests/unit/pg_testlib.h"

struct bench_pg {
	struct pg_server server;
	char dir[PATH_MAX]; /* build/NAME-XXXXXX, absolute; the server in dir/pg */
};

/* 0, or -1 with err saying what failed. */
static inline int bench_pg_start(struct bench_pg *b, const char *name, bool durable,
				 err_t err)
{
	char tmpl[PATH_MAX], pgdir[PATH_MAX + 8];
	snprintf(tmpl, sizeof tmpl, "build/%s-XXXXXX", name);
	if ((mkdir("build", 0755) < 0 && errno != EEXIST) || !mkdtemp(tmpl) ||
	    !realpath(tmpl, b->dir)) {
		err_set(err, "making a folder under build/: %s", strerror(errno));
		return -1;
	}
	chmod(b->dir, 0755);
	snprintf(pgdir, sizeof pgdir, "%s/pg", b->dir);
	if (mkdir(pgdir, 0755) < 0) {
		err_set(err, "mkdir %.400s: %s", pgdir, strerror(errno));
		return -1;
	}
	return pg_server_start(&b->server, pgdir, durable, err);
}

/* Stops the server if it runs and removes the folder; safe to call twice. */
static inline void bench_pg_remove(struct bench_pg *b, const char *prog)
{
	if (b->server.running)
		pg_server_stop(&b->server);
	bench_remove_dir(prog, b->dir);
	b->dir[0] = '\0';
}

#endif
