/* hash.h - SHA-256 digests as lowercase hex, through OpenSSL's EVP API.
 *
 * Promises: a digest is 64 lowercase hex digits and a NUL.  hash_field()
 * frames each input with a tag and its length, so two different lists of
 * fields never hash alike just because their concatenations do (the cache
 * keys of the compiler depend on that).  No global state.
 */
#ifndef JUDGE_HASH_H
#define JUDGE_HASH_H

#include <stddef.h>

#define HASH_HEXLEN 64

struct hash {
	void *ctx; /* EVP_MD_CTX; opaque so callers need no OpenSSL headers */
};

/* For a process that will use no TLS (no PostgreSQL, no HTTP client):
 * starts OpenSSL without the system's configuration file and the legacy
 * tables of every cipher and digest, which SHA-256 does not need; that is
 * most of what the first digest would cost.  Call it first thing, or not
 * at all: whoever starts OpenSSL first decides for the whole process. */
void hash_start_lean(void);

/* Starts a SHA-256 digest.  Returns 0, or -1 if OpenSSL refused. */
int hash_init(struct hash *h);

void hash_update(struct hash *h, const void *data, size_t len);

/* Hashes `tag`, a NUL, len as 8 little-endian bytes, then the data. */
void hash_field(struct hash *h, const char *tag, const void *data, size_t len);

/* Writes the hex digest and frees the context.  Returns 0 or -1. */
int hash_final(struct hash *h, char hex[HASH_HEXLEN + 1]);

/* Frees a context that will not be finished (an error path). */
void hash_abort(struct hash *h);

/* One call: the digest of one buffer.  Returns 0 or -1. */
int hash_hex(const void *data, size_t len, char hex[HASH_HEXLEN + 1]);

/* The digest of a file's bytes.  Returns 0, or -1 with errno set. */
int hash_file(const char *path, char hex[HASH_HEXLEN + 1]);

#endif
