/* serve_testlib.h - a test's talk with a real `judge serve`: tokens put
 * into its store, and requests sent with curl, as a contestant sends
 * them.  A failure fails the test. */
#ifndef SERVE_TESTLIB_H
#define SERVE_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>

struct serve;

/* A new token for author (an organiser's when organiser) in the store at
 * where, into token. */
void serve_test_token(const char *where, const char *author, bool organiser, char token[44]);

/* METHOD path on server with token (NULL: none) and a JSON body (NULL:
 * none): the HTTP status, the reply's body in out (cap bytes at most);
 * dir: a folder for the reply's file. */
int serve_test_call(const struct serve *server, const char *dir, const char *method,
		    const char *path, const char *token, const char *body, char *out, size_t cap);

#endif
