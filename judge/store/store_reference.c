/* store_reference.c - the organiser's reference players (store_reference.h). */
#include "judge/store/store_reference.h"

#include <stdio.h>
#include <string.h>

#include "judge/store/db.h"

static int claim_name(struct store *s, const char *game, const char *name,
		      err_t err)
{
	char owner[64] = "";
	int rc = store_name_owner(s, game, name, owner, err);
	if (rc < 0)
		return -1;
	if (rc && strcmp(owner, STORE_REFERENCE_AUTHOR) != 0) {
		err_set(err, "the player name %s is taken in %s by %s, a contestant: "
			"name the reference player otherwise", name, game, owner);
		return -1;
	}
	return rc ? 0 : db_run(s, "claiming the name", err,
			       "INSERT INTO names (game, name, author) VALUES (?1, ?2, ?3)", "ttt",
			       game, name, STORE_REFERENCE_AUTHOR);
}

int store_reference_put(struct store *s, const struct store_new_reference *r,
			err_t err)
{
	if (claim_name(s, r->game, r->name, err) < 0)
		return -1;
	return db_run(s, "storing the reference player", err,
		"INSERT INTO reference_players (game, name, source, binary_sha256, object_sha256,"
		" created_at, updated_at, source_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)"
		" ON CONFLICT (game, name) DO UPDATE SET source = excluded.source,"
		" source_sha256 = excluded.source_sha256,"
		" binary_sha256 = excluded.binary_sha256, object_sha256 = excluded.object_sha256,"
		" updated_at = excluded.updated_at", "ttbttit", r->game, r->name,
		(const void *)r->source, r->source_len, r->binary_sha256, r->object_sha256,
		store_now_ms(), r->source_sha256);
}

static int read_reference(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct store_reference *out = ctx;
	db_col_copy(st, 0, out->binary_sha256, sizeof out->binary_sha256);
	db_col_copy(st, 1, out->object_sha256, sizeof out->object_sha256);
	out->created_at = db_col_int(st, 2);
	out->updated_at = db_col_int(st, 3);
	db_col_copy(st, 4, out->source_sha256, sizeof out->source_sha256);
	return 1;
}

int store_reference_get(struct store *s, const char *game, const char *name,
			struct store_reference *out, err_t err)
{
	struct store_reference found = { 0 };
	int rc = (int)db_query(s, "reading a reference player", err,
		"SELECT binary_sha256, object_sha256, created_at, updated_at, source_sha256"
		" FROM reference_players WHERE game = ?1 AND name = ?2", read_reference, &found,
		"tt", game, name);
	if (rc != 1)
		return rc;
	snprintf(found.game, sizeof found.game, "%s", game);
	snprintf(found.name, sizeof found.name, "%s", name);
	*out = found;
	return 1;
}

int store_reference_source(struct store *s, const char *game, const char *name, char **src,
			   size_t *len, err_t err)
{
	struct db_bytes b = { 0 };
	int rc = (int)db_query(s, "reading a reference player", err,
			       "SELECT source FROM reference_players WHERE game = ?1 AND name = ?2",
			       db_row_bytes, &b, "tt", game, name);
	*src = (char *)b.bytes;
	*len = b.len;
	return rc;
}

int store_reference_list(struct store *s, const char *game, json_t **out,
			 err_t err)
{
	*out = db_query_json(s, "listing the reference players", err,
			     "SELECT game, name, created_at, updated_at FROM reference_players"
			     " WHERE game = coalesce(?1, game) ORDER BY game, name",
			     "game:t name:t created_at:i updated_at:i", "t", game);
	return *out ? 0 : -1;
}
