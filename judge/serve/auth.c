/* auth.c - tokens and who may see what (serve_int.h).  A token is 32
 * random bytes from getrandom(), shown once as base64url; the store keeps
 * its SHA-256 only. */
#include <microhttpd.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "judge/base/hash.h"
#include "judge/serve/serve_int.h"

#define TOKEN_BYTES 32
#define TOKEN_CHARS 43

int serve_token_hash(const char *token, char hex[65])
{
	return hash_hex(token, strlen(token), hex);
}

int serve_token_new(char token[44], err_t err)
{
	static const char b64url[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	unsigned char raw[TOKEN_BYTES + 1] = { 0 };
	if (getrandom(raw, TOKEN_BYTES, 0) != TOKEN_BYTES) {
		err_set(err, "the kernel gave no random bytes for the token");
		return -1;
	}
	/* 6 bits per character; the last character takes the last 4 bits. */
	for (int i = 0; i < TOKEN_CHARS; i++) {
		int bit = i * 6, byte = bit / 8, shift = bit % 8;
		unsigned v = ((unsigned)raw[byte] << 8 | raw[byte + 1]) >> (10 - shift);
		token[i] = b64url[v & 63];
	}
	token[TOKEN_CHARS] = 0;
	return 0;
}

static bool token_chars_ok(const char *t)
{
	size_t n = strlen(t);
	if (n < 16 || n > 128)
		return false;
	for (; *t; t++)
		if (!(*t >= 'A' && *t <= 'Z') && !(*t >= 'a' && *t <= 'z') &&
		    !(*t >= '0' && *t <= '9') && *t != '-' && *t != '_')
			return false;
	return true;
}

int auth_identify(struct request *rq, struct reply *rp)
{
	const char *h = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
						    MHD_HTTP_HEADER_AUTHORIZATION);
	if (!h)
		return 0;
	rq->has_token = true;
	if (strncasecmp(h, "Bearer ", 7) != 0 || !token_chars_ok(h + 7)) {
		reply_error(rp, 401, "the Authorization header must be \"Bearer TOKEN\" with the "
			    "token the organisers gave you");
		return -1;
	}
	char hex[65];
	err_t err;
	if (serve_token_hash(h + 7, hex) < 0) {
		reply_error(rp, 500, "cannot hash the token");
		return -1;
	}
	int rc = store_token_find(rq->store, hex, &rq->who, err);
	if (rc < 0) {
		reply_store_error(rp, err->msg);
		return -1;
	}
	if (rc == 0) {
		reply_error(rp, 401, "this token is unknown or revoked: ask the organisers for a "
			    "new one");
		return -1;
	}
	rq->authed = true;
	return 0;
}

int auth_allow(const struct request *rq, enum access access, struct reply *rp)
{
	bool ok = access == ACCESS_OPEN || rq->authed ||
		  (access == ACCESS_PUBLIC && rq->opt->limits.public_pages);
	if (!ok) {
		reply_error(rp, 401, access == ACCESS_PUBLIC
			? "the organisers have made these pages private: send your token "
			  "(Authorization: Bearer TOKEN)"
			: "this needs your token: send Authorization: Bearer TOKEN");
		return -1;
	}
	if (access == ACCESS_ORGANISER && !rq->who.organiser) {
		reply_error(rp, 403, "only organisers may do this; your token is a contestant's");
		return -1;
	}
	return 0;
}

bool auth_owns(const struct request *rq, const char *author)
{
	return rq->authed && (rq->who.organiser || strcmp(rq->who.author, author) == 0);
}
