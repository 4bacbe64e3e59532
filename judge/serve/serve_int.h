/* serve_int.h - what the parts of judge/serve/ share: one request, its
 * reply, and the routes.  For judge/serve/ alone.
 *
 * A request reaches a handler whole (its body read and capped, its path
 * checked, its token looked up, its rate counted); the handler fills the
 * reply (a status, a type, a body it allocates) and never writes to the
 * connection itself.
 */
#ifndef JUDGE_SERVE_INT_H
#define JUDGE_SERVE_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/serve/cache.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"

struct request {
	const struct serve_options *opt;
	const char *method;     /* "GET", "POST"... */
	const char *path;       /* decoded, without the query */
	const char *raw;        /* the path and query as the client sent them */
	struct MHD_Connection *conn;
	const char *body;       /* NUL-terminated; body_len bytes */
	size_t body_len;
	struct store *store;    /* this thread's connection to the store */
	struct cache *cache;    /* answers kept in memory (cache.h) */
	bool has_token;         /* an Authorization: Bearer header came */
	bool authed;            /* ... and names a working token: */
	struct store_token who;
};

struct reply {
	unsigned status;
	const char *type;       /* "application/json", "text/html"... */
	char *body;             /* malloc'd, or NULL with static_body */
	const char *static_body;
	size_t len;
	char allow[32];         /* for 405: the methods the path takes */
	bool page;              /* an HTML page: gets its security headers */
	const char *encoding;   /* Content-Encoding of the body ("gzip"), or NULL */
};

/* ---- replies and requests (reply.c) ----------------------------------------------------- */

/* The JSON value (stolen) as the reply, every string made valid UTF-8. */
void reply_json(struct reply *rp, unsigned status, json_t *value);
/* body (malloc'd, stolen) as the reply. */
void reply_bytes(struct reply *rp, unsigned status, const char *type, char *body, size_t len);
/* {"error": "..."} with status. */
void reply_error(struct reply *rp, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A query argument of rq, or NULL. */
const char *request_arg(const struct request *rq, const char *key);
/* rq's body as a JSON object: 0, or -1 with a 400 reply. */
int request_json(const struct request *rq, struct reply *rp, json_t **out);
/* 503: the store did not answer, with its message. */
void reply_store_error(struct reply *rp, const char *err);

/* ---- who may ask (auth.c) -------------------------------------------------- */

enum access { ACCESS_OPEN, ACCESS_PUBLIC, ACCESS_TOKEN, ACCESS_ORGANISER };

/* Reads the Authorization header and looks the token up: 0; -1 with the
 * reply filled (401 a malformed header or unknown token, 503 the store). */
int auth_identify(struct request *rq, struct reply *rp);
/* 0 when rq may use a route of this access, else -1 with the reply filled
 * (401 no token, 403 not an organiser). */
int auth_allow(const struct request *rq, enum access access, struct reply *rp);
/* May rq see a thing of this author (its own, or an organiser)? */
bool auth_owns(const struct request *rq, const char *author);

/* ---- routes (routes.c) ------------------------------------------------------ */

/* Finds the route of rq's method and path and runs it. */
void route_request(struct request *rq, struct reply *rp);
/* A request path the router refuses before anything else: NULL when fine,
 * else why (for a 400). */
const char *route_path_refused(const char *raw);

/* ---- handlers (api.c, api_organiser.c, pages.c) --------------------------- */

/* arg: the route's variable segment ("dominator", "12"), or NULL. */
typedef void handler_fn(struct request *rq, struct reply *rp, const char *arg);

handler_fn api_ping, api_games, api_me, api_leaderboard, api_match, api_match_replay, api_match_page,
	api_match_log,
	api_submission, api_submissions, api_submit, api_player;
handler_fn org_disqualify, org_rejudge, org_plagiarism, org_plagiarism_pair, org_tokens,
	org_token_revoke;
handler_fn page_static;


#endif
