/* store_tokens.c - the service's tokens, known by their SHA-256
 * (store_serve.h). */
#include <stdio.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/store_serve.h"

static int count_working(struct store *s, const char *author, int64_t *n,
			 char err[ERR_LEN])
{
	json_t *one, *rows = db_query_json(s, "counting an author's tokens", err,
		"SELECT count(*) FROM tokens WHERE author = ?1 AND revoked_at IS NULL", "n:i", "t",
		author);
	int rc = db_one_json(rows, &one);
	*n = rc == 1 ? json_integer_value(json_object_get(one, "n")) : 0;
	json_decref(one);
	return rc < 0 ? -1 : 0;
}

int store_token_add(struct store *s, const struct store_new_token *t, int64_t *id,
		    int64_t *others, char err[ERR_LEN])
{
	if (others && count_working(s, t->author, others, err) < 0)
		return -1;
	struct db_stmt *st = db_prepare(s, "INSERT INTO tokens (sha256, author, organiser, label,"
					   " grp, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
					   " RETURNING id");
	if (!st)
		return db_fail(s, "storing a token", err);
	db_bind_text(st, 1, t->sha256);
	db_bind_text(st, 2, t->author);
	db_bind_int(st, 3, t->organiser);
	db_bind_text(st, 4, t->label);
	db_bind_text(st, 5, t->group);
	db_bind_int(st, 6, store_now_ms());
	int rc = db_step(st);
	if (rc == 1)
		*id = db_col_int(st, 0);
	rc = rc == 1 ? 0 : db_fail(s, "storing a token", err);
	db_finish(st);
	return rc;
}

int store_token_find(struct store *s, const char *sha256, struct store_token *out,
		     char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT id, author, organiser FROM tokens"
					   " WHERE sha256 = ?1 AND revoked_at IS NULL");
	if (!st)
		return db_fail(s, "checking a token", err);
	db_bind_text(st, 1, sha256);
	int rc = db_step(st);
	if (rc == 1) {
		out->id = db_col_int(st, 0);
		snprintf(out->author, sizeof out->author, "%s", db_col_text(st, 1));
		out->organiser = db_col_int(st, 2) != 0;
	} else if (rc < 0) {
		db_fail(s, "checking a token", err);
	}
	db_finish(st);
	return rc;
}

int store_token_revoke(struct store *s, int64_t id, char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "UPDATE tokens SET revoked_at = ?2"
					   " WHERE id = ?1 AND revoked_at IS NULL");
	if (!st)
		return db_fail(s, "revoking a token", err);
	db_bind_int(st, 1, id);
	db_bind_int(st, 2, store_now_ms());
	int rc = db_step(st);
	rc = rc < 0 ? db_fail(s, "revoking a token", err) : db_changes(st) > 0;
	db_finish(st);
	return rc;
}

int store_token_list(struct store *s, json_t **out, char err[ERR_LEN])
{
	*out = db_query_json(s, "listing the tokens", err,
		"SELECT id, author, organiser, label, grp, created_at, revoked_at FROM tokens"
		" ORDER BY id DESC",
		"id:i author:t organiser:b label:T group:T created_at:i revoked_at:I", "");
	return *out ? 1 : -1;
}
