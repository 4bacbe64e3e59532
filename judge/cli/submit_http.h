/* submit_http.h - `judge submit --server URL`: the upload over HTTP.
 *
 * Promises.  submit_http_post() sends one already checked source as
 *   POST URL/api/submissions   Authorization: Bearer TOKEN
 *   Content-Type: application/json   {"game": G, "source": TEXT}
 * and submit_http_status() reads GET URL/api/submissions/ID; both give up
 * after SUBMIT_HTTP_TIMEOUT_S, follow no redirect, speak only http and
 * https, read at most SUBMIT_HTTP_ANSWER_MAX bytes of answer, and turn
 * every outcome into one line a contestant can act on (the server's
 * {"error": ...} line, with control characters replaced, or what the
 * status means: token refused, file too large, retry after N seconds,
 * server unreachable).  The token never appears in a message.
 */
#ifndef JUDGE_SUBMIT_HTTP_H
#define JUDGE_SUBMIT_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include "judge/base/error.h"

#define SUBMIT_HTTP_TIMEOUT_S 60
#define SUBMIT_HTTP_ANSWER_MAX (64 * 1024)
#define SUBMIT_HTTP_STATE_MAX 32
#define SUBMIT_HTTP_LOG_LINES 60

struct submit_http_target {
	const char *server; /* "https://judge.example.org" (a trailing / is fine) */
	const char *token;
};

/* 0 with *id set; 1 with the id of the author's current submission when
 * it has the same source already (the server stored nothing); -1 with err
 * filled. */
int submit_http_post(const struct submit_http_target *t, const char *game, const char *src,
		     size_t len, int64_t *id, err_t err);

/* 0 with state filled ("queued", "qualified", ...) and, when log is not
 * NULL, the compile log so far in log: each line labelled "compile: ",
 * made printable, at most SUBMIT_HTTP_LOG_LINES lines ("" when none).  -1
 * with err filled. */
int submit_http_status(const struct submit_http_target *t, int64_t id,
		       char state[SUBMIT_HTTP_STATE_MAX], char *log, size_t log_size,
		       err_t err);

#endif
