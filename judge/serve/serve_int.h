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
#include <microhttpd.h>
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
	const char *viewer_policy; /* csp_viewer_policy(), made at start */
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
	const char *policy;     /* an HTML page's Content-Security-Policy, or NULL */
	const char *encoding;   /* Content-Encoding of the body ("gzip"), or NULL */
	char filename[32];      /* a download's name (letters, digits, '.'), or "" */
};

/* ---- replies and requests (reply.c) ----------------------------------------------------- */

/* The JSON value (stolen) as the reply, every string made valid UTF-8. */
void reply_json(struct reply *rp, unsigned status, json_t *value);
/* Every string of v made valid UTF-8 (reply_json does it to what it sends). */
void reply_safe_strings(json_t *v);
/* body (malloc'd, stolen) as the reply. */
void reply_bytes(struct reply *rp, unsigned status, const char *type, char *body, size_t len);
/* {"error": "..."} with status. */
void reply_error(struct reply *rp, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A query argument of rq, or NULL. */
const char *request_arg(const struct request *rq, const char *key);
/* Query argument key as a decimal number from min to max: digits, and
 * with fraction one point between digits ("12", "0.25"), nothing else (no
 * sign, exponent, nan, inf or space).  1 with *out, 0 when absent, -1 when
 * it is something else. */
int request_number(const struct request *rq, const char *key, bool fraction, double min,
		   double max, double *out);
/* The game of that name, or NULL with a 404 naming the games there are. */
const struct game *request_game(const char *name, struct reply *rp);
/* The settings the service runs with, or the defaults (put in *defaults)
 * when it was given none. */
const struct judge_config *request_settings(const struct request *rq,
					    struct judge_config *defaults);
/* rq's body as a JSON object: 0, or -1 with a 400 reply. */
int request_json(const struct request *rq, struct reply *rp, json_t **out);
/* 503: the store did not answer, with its message. */
void reply_store_error(struct reply *rp, const char *err);
/* What a store call answered (rc, j its JSON, err its message): j with
 * 200, or the 503 of err when rc < 0. */
void reply_stored(struct reply *rp, int rc, json_t *j, const char *err);
/* The list read(store, &list, err) gives, as reply_stored answers it. */
void reply_store_list(struct request *rq, struct reply *rp,
		      int (*read)(struct store *s, json_t **list, err_t err));

/* ---- the listening socket (door.c) ------------------------------------------------ */

struct gate_limits;
struct door;
struct game;

/* Binds and listens on host:port (0: any free port); NULL with err. */
struct door *door_open(const char *host, uint16_t port, const struct gate_limits *limits,
		       err_t err);
uint16_t door_port(const struct door *d);
/* Starts taking connections for daemon (an MHD daemon listening on
 * nothing, with door_notify as its MHD_OPTION_NOTIFY_CONNECTION): 0 or -1. */
int door_start(struct door *d, struct MHD_Daemon *daemon, err_t err);
/* Takes no more connections (those taken stay MHD's). */
void door_stop(struct door *d);
/* Stops, closes the socket and frees; after the daemon is stopped. */
void door_close(struct door *d);
void door_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		 enum MHD_ConnectionNotificationCode code);
/* c's request has come whole (its deadline stops) / c's answer is sent
 * (the next request's deadline starts). */
void door_answering(struct door *d, struct MHD_Connection *c);
void door_waiting(struct door *d, struct MHD_Connection *c);

/* ---- the pages' policies (csp.c) ---------------------------------------------------- */

/* The policy of a page that runs no inline script. */
extern const char csp_page[];
/* The policy of the viewer's page, and of a page showing it in a frame
 * (a srcdoc frame lives under its parent's policy): its inline scripts
 * allowed by their SHA-256.  malloc'd; NULL with err. */
char *csp_viewer_policy(err_t err);

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

/* ---- debug marks in replays (marks.c) ---------------------------------------- */

/* Does the replay's text hold debug marks (judge/play/debug.h)? */
bool marks_in_replay(const char *text, size_t len);
/* Empties in replay, match's, the marks of each seat whose player rq may
 * not see them of (auth_owns its author, or serve.public_debug_marks),
 * and lists those seats in debug.hidden: 0, or -1 with err. */
int marks_hide(struct request *rq, int64_t match, json_t *replay, err_t err);
/* Who rq is as far as marks go, for the key of a cached page: "*" (sees
 * every seat's), an author (sees that author's), "" (sees none). */
void marks_viewer_key(const struct request *rq, char *key, size_t n);

/* ---- routes (routes.c) ------------------------------------------------------ */

/* Finds the route of rq's method and path and runs it. */
void route_request(struct request *rq, struct reply *rp);
/* A request path the router refuses before anything else: NULL when fine,
 * else why (for a 400). */
const char *route_path_refused(const char *raw);

/* ---- handlers (api.c, api_tournament.c, api_organiser.c, pages.c) --------------------------- */

/* arg: the route's variable segment ("dominator", "12"), or NULL. */
typedef void handler_fn(struct request *rq, struct reply *rp, const char *arg);

handler_fn api_ping, api_games, api_game, api_me, api_leaderboard, api_match, api_match_replay, api_match_page,
	api_match_log, api_match_fault,
	api_submission, api_submission_source, api_submissions, api_submit, api_player,
	api_tournaments, api_tournament;
handler_fn api_challenge, api_compare, api_comparison, api_match_params;
handler_fn org_disqualify, org_reinstate, org_players, org_rejudge, org_plagiarism,
	org_plagiarism_pair, org_tokens, org_token_revoke, api_reference, org_flags, org_flags_seen,
	org_flag_review;
handler_fn page_static, page_kit;
/* The 404 page of an address that is no page: words and links, not JSON. */
void page_missing(struct request *rq, struct reply *rp);

/* ---- who sees unrated matches (api_challenge.c) ----------------------------- */

/* Is match one rq may not see (a challenge of others)?  Then true, with a
 * 404 as for a match that does not exist (or a 503 when the store did
 * not answer). */
bool match_hidden(struct request *rq, struct reply *rp, int64_t match);
/* Whose eyes rq's lists are for, as store_player_view takes it: NULL an
 * organiser, "" nobody in particular, else the author. */
const char *match_viewer(const struct request *rq);

/* ---- pseudonyms (pseudonyms.c) ---------------------------------------------- */

/* Replaces the "author" of items (an object, or an array of objects) by
 * the author's public name when a pseudonymous tournament of game says so
 * (judge/event/pseudonym.h).  reader as match_viewer() gives it: NULL (an
 * organiser) hides nothing; an author still sees its own name.  0, or -1
 * with err when the store did not answer. */
int pseudonyms_hide(struct request *rq, const char *game, json_t *items, const char *reader,
		    err_t err);
/* The same for the rows of a leaderboard read for the public. */
struct board;
int pseudonyms_board(struct request *rq, struct board *b, err_t err);

#endif
