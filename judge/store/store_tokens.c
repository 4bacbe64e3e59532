/* store_tokens.c - the service's tokens, known by their SHA-256
 * (store_serve.h). */
#include <stdio.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/store_serve.h"

static int count_working(struct store *s, const char *author, int64_t *n,
			 err_t err)
{
	*n = 0;
	return db_query(s, "counting an author's tokens", err,
			"SELECT count(*) FROM tokens WHERE author = ?1 AND revoked_at IS NULL",
			db_row_int, n, "t", author) < 0 ? -1 : 0;
}

int store_token_add(struct store *s, const struct store_new_token *t, int64_t *id,
		    int64_t *others, err_t err)
{
	if (others && count_working(s, t->author, others, err) < 0)
		return -1;
	return db_query(s, "storing a token", err,
			"INSERT INTO tokens (sha256, author, organiser, label, grp, created_at)"
			" VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", db_row_int, id, "ttitti",
			t->sha256, t->author, (int64_t)t->organiser, t->label, t->group,
			store_now_ms()) == 1 ? 0 : -1;
}

static int read_token(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct store_token *out = ctx;
	out->id = db_col_int(st, 0);
	db_col_copy(st, 1, out->author, sizeof out->author);
	out->organiser = db_col_int(st, 2) != 0;
	return 1;
}

int store_token_find(struct store *s, const char *sha256, struct store_token *out,
		     err_t err)
{
	return (int)db_query(s, "checking a token", err,
			     "SELECT id, author, organiser FROM tokens"
			     " WHERE sha256 = ?1 AND revoked_at IS NULL", read_token, out, "t", sha256);
}

int store_token_revoke(struct store *s, int64_t id, err_t err)
{
	int64_t n = db_changed(s, "revoking a token", err,
			       "UPDATE tokens SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
			       "ii", id, store_now_ms());
	return n < 0 ? -1 : n > 0;
}

int store_token_list(struct store *s, json_t **out, err_t err)
{
	*out = db_query_json(s, "listing the tokens", err,
		"SELECT id, author, organiser, label, grp, created_at, revoked_at FROM tokens"
		" ORDER BY id DESC",
		"id:i author:t organiser:b label:T group:T created_at:i revoked_at:I", "");
	return *out ? 1 : -1;
}
