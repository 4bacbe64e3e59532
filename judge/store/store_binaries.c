/* store_binaries.c - compiled binaries by their SHA-256 (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

int store_put_binary(struct store *s, const char *sha256, const void *bytes, size_t len,
		     char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "INSERT INTO binaries (sha256, bytes, created_at)"
					   " VALUES (?1, ?2, ?3) ON CONFLICT (sha256) DO NOTHING");
	if (!st)
		return db_fail(s, "storing a binary", err);
	db_bind_text(st, 1, sha256);
	db_bind_blob(st, 2, bytes, len);
	db_bind_int(st, 3, store_now_ms());
	int rc = db_step(st) == 0 ? 0 : db_fail(s, "storing a binary", err);
	db_finish(st);
	return rc;
}

int store_get_binary(struct store *s, const char *sha256, uint8_t **bytes, size_t *len,
		     char err[ERR_LEN])
{
	*bytes = NULL;
	*len = 0;
	struct db_stmt *st = db_prepare(s, "SELECT bytes FROM binaries WHERE sha256 = ?1");
	if (!st)
		return db_fail(s, "reading a binary", err);
	db_bind_text(st, 1, sha256);
	int rc = db_step(st);
	if (rc == 1) {
		const void *b = db_col_blob(st, 0, len);
		*bytes = malloc(*len ? *len : 1);
		if (*bytes && *len)
			memcpy(*bytes, b, *len);
		if (!*bytes) {
			snprintf(err, ERR_LEN, "reading a binary: out of memory");
			rc = -1;
		}
	} else if (rc < 0) {
		db_fail(s, "reading a binary", err);
	}
	db_finish(st);
	return rc;
}
