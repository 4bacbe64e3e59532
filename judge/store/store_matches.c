/* store_matches.c - what the read side asks of a stored match (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

int store_match_replay(struct store *s, int64_t id, uint8_t **bytes, size_t *len, bool *exists,
		       char err[STORE_ERRLEN])
{
	*bytes = NULL;
	*len = 0;
	*exists = false;
	struct db_stmt *st = db_prepare(s, "SELECT replay FROM matches WHERE id = ?1");
	if (!st)
		return db_fail(s, "reading a replay", err);
	db_bind_int(st, 1, id);
	int rc = db_step(st);
	if (rc == 1) {
		*exists = true;
		size_t n;
		const void *b = db_is_null(st, 0) ? NULL : db_blob(st, 0, &n);
		if (db_is_null(st, 0)) {
			rc = 0;
		} else if ((*bytes = malloc(n ? n : 1))) {
			if (n)
				memcpy(*bytes, b, n);
			*len = n;
		} else {
			rc = -1;
			snprintf(err, STORE_ERRLEN, "reading a replay: out of memory");
		}
	} else if (rc < 0) {
		db_fail(s, "reading a replay", err);
	}
	db_finish(st);
	return rc;
}

int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT seat, reason FROM match_players"
					   " WHERE match_id = ?1 AND reason IS NOT NULL");
	if (!st)
		return db_fail(s, "reading a match's players", err);
	db_bind_int(st, 1, match);
	int rc;
	while ((rc = db_step(st)) == 1)
		each(ctx, (int)db_int(st, 0), db_text(st, 1));
	rc = rc < 0 ? db_fail(s, "reading a match's players", err) : 0;
	db_finish(st);
	return rc;
}
