/* serve_testlib.h - a test's talk with a real `judge serve`: tokens put
 * into its store, and requests sent with curl, as a contestant sends
 * them; and a whole contest run as its people run it (struct contest).
 * A failure fails the test. */
#ifndef SERVE_TESTLIB_H
#define SERVE_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "tests/unit/db_testlib.h"

struct serve;

/* A new token for author (an organiser's when organiser) in the store at
 * where, into token. */
void serve_test_token(const char *where, const char *author, bool organiser, char token[44]);

/* METHOD path on server with token (NULL: none) and a JSON body (NULL:
 * none): the HTTP status, the reply's body in out (cap bytes at most);
 * dir: a folder for the reply's file. */
int serve_test_call(const struct serve *server, const char *dir, const char *method,
		    const char *path, const char *token, const char *body, char *out, size_t cap);

/* A contest on a test target (SQLite or PostgreSQL): its settings file,
 * players uploaded with scripts/upload, the real worker run until idle,
 * a real `judge serve` on its store.  out holds the last command's
 * output or the last reply's body. */
struct contest {
	struct test_target t;
	char cfg[160];
	char out[65536];
	struct serve *server;
};

/* Opens the target (pg: PostgreSQL) and writes settings (JSON) as the
 * settings file every command of the contest reads. */
void contest_open(struct contest *c, bool pg, const char *prefix, const char *settings);

/* The shipped dominator player AI<shipped>.c renamed <name> (with a last
 * line "version N" when version > 0, so that each version's file is new)
 * written to the contest's folder as AI<name>.c, its path in file; and
 * that file uploaded by author with scripts/upload. */
void contest_player_file(struct contest *c, const char *shipped, const char *name, int version,
			 char file[160]);
void contest_upload(struct contest *c, const char *shipped, const char *name,
		    const char *author, int version);

/* The worker, one job at a time, until nothing is left but ranked
 * matches past `ranked`. */
void contest_work(struct contest *c, int ranked);

/* `judge serve` on the contest's store (two threads; frozen: the
 * contest's freeze on). */
void contest_serve(struct contest *c, bool frozen);

/* serve_test_call() to the contest's server, the body into out. */
int contest_call(struct contest *c, const char *method, const char *path, const char *token,
		 const char *body);

/* Stops the server, if any, and removes the target. */
void contest_close(struct contest *c);

#endif
