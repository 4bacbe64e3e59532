/* serve.h - `judge serve`: the judge's HTTP API and pages over its store.
 *
 * Promises.  One process answers many clients at once (a pool of threads,
 * each request with its own store connection) over the same store the
 * workers use.  Hostile clients get a clear HTTP error and nothing more:
 * a request whose framing is ambiguous (RFC 9112) is refused and its
 * connection closed, headers and bodies are capped before they are read,
 * connections are limited in number (in all and per address, with a
 * reserve for addresses holding few: gate.h), closed when idle and cut
 * when a request takes longer than its deadline to arrive, however it
 * trickles, each token (or, without one, each address) has a request rate, a
 * path with dot segments, encoded dots or slashes, NUL or control bytes is
 * refused, and no request path ever reaches the filesystem (the pages are
 * compiled in).  Contestants' text reaches the pages as JSON strings that
 * the pages insert as text, never as markup.  Uploads go through the same
 * gate as `judge submit` (upload_check, then store_submit).
 */
#ifndef JUDGE_SERVE_H
#define JUDGE_SERVE_H

#include <stdint.h>
#include <stdio.h>

#include "judge/base/config.h"
#include "judge/base/error.h"


struct serve_options {
	const char *queue;      /* the store: a SQLite file or a postgresql:// URL */
	const char *host;       /* the address to listen on ("127.0.0.1") */
	uint16_t port;          /* 0: any free port (serve_port says which) */
	struct cfg_serve limits;
	struct cfg_contest contest; /* challenges: the limit, the freeze */
	const char *data_dir;   /* where the game kits are (for the commands shown) */
	/* The settings the student kits carry (/kits/GAME.tar.gz: data
	 * directory, CPU budget, parameters); NULL: the built-in defaults. */
	const struct judge_config *settings;
	FILE *access_log;       /* a line per request answered, or NULL */
};

struct serve;

/* Starts answering in threads of its own; NULL with err when the store
 * cannot be opened or the address cannot be bound. */
struct serve *serve_start(const struct serve_options *o, err_t err);
uint16_t serve_port(const struct serve *sv);
/* Stops listening, waits for the requests being answered, frees all. */
void serve_stop(struct serve *sv);

/* "127.0.0.1:8080", "[::1]:80", ":8080" into host (NUL-terminated) and
 * port: 0, or -1 with err. */
int serve_parse_listen(const char *spec, char *host, size_t host_len, uint16_t *port,
		       err_t err);

/* A new token: 43 characters of base64url from 32 bytes of getrandom(). */
int serve_token_new(char token[44], err_t err);
/* The SHA-256 (hex) of a token, as the store keeps it: 0 or -1. */
int serve_token_hash(const char *token, char hex[65]);

#endif
