/* store_reference.c - the organiser's reference players (store_reference.h). */
#include "judge/store/store_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

static int claim_name(struct store *s, const char *game, const char *name,
		      char err[ERR_LEN])
{
	json_t *row = NULL;
	int rc = db_one_json(db_query_json(s, "checking the name", err,
					   "SELECT author FROM names WHERE game = ?1 AND name = ?2",
					   "author:t", "tt", game, name), &row);
	if (rc < 0)
		return -1;
	const char *owner = rc ? json_string_value(json_object_get(row, "author")) : NULL;
	bool other = owner && strcmp(owner, STORE_REFERENCE_AUTHOR) != 0;
	if (other)
		snprintf(err, ERR_LEN, "the player name %s is taken in %s by %s, a contestant: "
			 "name the reference player otherwise", name, game, owner);
	json_decref(row);
	if (other)
		return -1;
	return rc ? 0 : db_run(s, "claiming the name", err,
			       "INSERT INTO names (game, name, author) VALUES (?1, ?2, ?3)", "ttt",
			       game, name, STORE_REFERENCE_AUTHOR);
}

int store_reference_put(struct store *s, const struct store_new_reference *r,
			char err[ERR_LEN])
{
	if (claim_name(s, r->game, r->name, err) < 0)
		return -1;
	struct db_stmt *st = db_prepare(s,
		"INSERT INTO reference_players (game, name, source, binary_sha256, object_sha256,"
		" created_at, updated_at, source_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)"
		" ON CONFLICT (game, name) DO UPDATE SET source = excluded.source,"
		" source_sha256 = excluded.source_sha256,"
		" binary_sha256 = excluded.binary_sha256, object_sha256 = excluded.object_sha256,"
		" updated_at = excluded.updated_at");
	if (!st)
		return db_fail(s, "storing the reference player", err);
	db_bind_text(st, 1, r->game);
	db_bind_text(st, 2, r->name);
	db_bind_blob(st, 3, r->source, r->source_len);
	db_bind_text(st, 4, r->binary_sha256);
	db_bind_text(st, 5, r->object_sha256);
	db_bind_int(st, 6, store_now_ms());
	db_bind_text(st, 7, r->source_sha256);
	int rc = db_step(st) < 0 ? db_fail(s, "storing the reference player", err) : 0;
	db_finish(st);
	return rc;
}

int store_reference_get(struct store *s, const char *game, const char *name,
			struct store_reference *out, char err[ERR_LEN])
{
	json_t *row = NULL;
	int rc = db_one_json(db_query_json(s, "reading a reference player", err,
		"SELECT binary_sha256, object_sha256, created_at, updated_at, source_sha256"
		" FROM reference_players WHERE game = ?1 AND name = ?2",
		"binary:t object:T created_at:i updated_at:i source:t",
		"tt", game, name), &row);
	if (rc != 1)
		return rc;
	memset(out, 0, sizeof *out);
	snprintf(out->game, sizeof out->game, "%s", game);
	snprintf(out->name, sizeof out->name, "%s", name);
	snprintf(out->binary_sha256, sizeof out->binary_sha256, "%s",
		 json_string_value(json_object_get(row, "binary")));
	snprintf(out->source_sha256, sizeof out->source_sha256, "%s",
		 json_string_value(json_object_get(row, "source")));
	const char *object = json_string_value(json_object_get(row, "object"));
	snprintf(out->object_sha256, sizeof out->object_sha256, "%s", object ? object : "");
	out->created_at = json_integer_value(json_object_get(row, "created_at"));
	out->updated_at = json_integer_value(json_object_get(row, "updated_at"));
	json_decref(row);
	return 1;
}

int store_reference_source(struct store *s, const char *game, const char *name, char **src,
			   size_t *len, char err[ERR_LEN])
{
	*src = NULL;
	struct db_stmt *st = db_prepare(s, "SELECT source FROM reference_players"
					   " WHERE game = ?1 AND name = ?2");
	if (!st)
		return db_fail(s, "reading a reference player", err);
	db_bind_text(st, 1, game);
	db_bind_text(st, 2, name);
	int rc = db_step(st);
	if (rc == 1) {
		const void *b = db_col_blob(st, 0, len);
		*src = malloc(*len + 1);
		if (*src && *len)
			memcpy(*src, b, *len);
		if (*src)
			(*src)[*len] = '\0';
		else
			rc = -1, snprintf(err, ERR_LEN, "reading a reference player: out of memory");
	} else if (rc < 0) {
		db_fail(s, "reading a reference player", err);
	}
	db_finish(st);
	return rc;
}

int store_reference_list(struct store *s, const char *game, json_t **out,
			 char err[ERR_LEN])
{
	*out = db_query_json(s, "listing the reference players", err,
			     "SELECT game, name, created_at, updated_at FROM reference_players"
			     " WHERE game = coalesce(?1, game) ORDER BY game, name",
			     "game:t name:t created_at:i updated_at:i", "t", game);
	return *out ? 0 : -1;
}
