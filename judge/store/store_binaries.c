/* store_binaries.c - compiled binaries by their SHA-256 (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

int store_put_binary(struct store *s, const char *sha256, const void *bytes, size_t len,
		     err_t err)
{
	return db_run(s, "storing a binary", err,
		      "INSERT INTO binaries (sha256, bytes, created_at) VALUES (?1, ?2, ?3)"
		      " ON CONFLICT (sha256) DO NOTHING", "tbi", sha256, bytes, len, store_now_ms());
}

int store_get_binary(struct store *s, const char *sha256, uint8_t **bytes, size_t *len,
		     err_t err)
{
	struct db_bytes b = { 0 };
	int rc = (int)db_query(s, "reading a binary", err,
			       "SELECT bytes FROM binaries WHERE sha256 = ?1", db_row_bytes, &b, "t",
			       sha256);
	*bytes = b.bytes;
	*len = b.len;
	return rc;
}
