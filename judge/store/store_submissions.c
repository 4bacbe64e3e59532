/* store_submissions.c - the submissions side of the store (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

static int read_owner(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	db_col_copy(st, 0, ctx, 64);
	return 1;
}

int store_name_owner(struct store *s, const char *game, const char *name, char owner[64],
		      err_t err)
{
	return (int)db_query(s, "checking the name", err,
			     "SELECT author FROM names WHERE game = ?1 AND name = ?2", read_owner,
			     owner, "tt", game, name);
}

static int insert_submission(struct store *s, const struct store_new_submission *sub,
			     int64_t *id, err_t err)
{
	return db_query(s, "storing the submission", err,
			"INSERT INTO submissions (game, author, name, source, source_sha256,"
			" state, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?6)"
			" RETURNING id", db_row_int, id, "tttbti", sub->game, sub->author, sub->name,
			(const void *)sub->source, sub->source_len, sub->source_sha256,
			store_now_ms()) == 1 ? 0 : -1;
}

struct current_read {
	const struct store_new_submission *sub;
	int64_t *id;
	bool same;
};

static int read_current(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct current_read *c = ctx;
	const char *state = db_col_text(st, 2);
	c->same = strcmp(db_col_text(st, 1), c->sub->source_sha256) == 0 &&
		  strcmp(state, "compile_failed") != 0 && strcmp(state, "not_qualified") != 0;
	if (c->same)
		*c->id = db_col_int(st, 0);
	return 1;
}

/* 1 with *id when the newest submission of the name has this very source
 * and has not failed: an upload sent twice (a double click, a script run
 * again) would otherwise start its rating over for nothing.  A failed one
 * may be tried again: qualification draws seeds. */
static int same_as_current(struct store *s, const struct store_new_submission *sub,
			   int64_t *id, err_t err)
{
	struct current_read c = { sub, id, false };
	if (db_query(s, "reading the current submission", err,
		     "SELECT id, source_sha256, state FROM submissions"
		     " WHERE game = ?1 AND name = ?2 ORDER BY id DESC LIMIT 1", read_current, &c,
		     "tt", sub->game, sub->name) < 0)
		return -1;
	return c.same;
}

static int submit_in_tx(struct store *s, const struct store_new_submission *sub, int64_t *id,
			err_t err)
{
	char owner[64];
	int owned = store_name_owner(s, sub->game, sub->name, owner, err);
	if (owned < 0)
		return -1;
	if (owned && strcmp(owner, sub->author) != 0) {
		err_set(err, 
			 "the player name %s is taken in %s by another author: choose another "
			 "PLAYER_NAME", sub->name, sub->game);
		return -1;
	}
	if (owned) {
		int same = same_as_current(s, sub, id, err);
		if (same != 0)
			return same;
	}
	if (!owned && db_run(s, "claiming the name", err,
			     "INSERT INTO names (game, name, author) VALUES (?1, ?2, ?3)", "ttt",
			     sub->game, sub->name, sub->author) < 0)
		return -1;
	if (insert_submission(s, sub, id, err) < 0)
		return -1;
	char payload[64];
	snprintf(payload, sizeof payload, "{\"submission\":%lld}", (long long)*id);
	return store_enqueue(s, "compile", payload, SCHED_COMPILE, 0, NULL, err);
}

int store_submit(struct store *s, const struct store_new_submission *sub, int64_t *id,
		 err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	int rc = submit_in_tx(s, sub, id, err);
	if (rc != 0) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s, err);
}

static int read_submission(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct store_submission *out = ctx;
	db_col_copy(st, 0, out->game, sizeof out->game);
	db_col_copy(st, 1, out->author, sizeof out->author);
	db_col_copy(st, 2, out->name, sizeof out->name);
	db_col_copy(st, 3, out->state, sizeof out->state);
	db_col_copy(st, 4, out->source_sha256, sizeof out->source_sha256);
	db_col_copy(st, 5, out->binary_path, sizeof out->binary_path);
	out->created_at = db_col_int(st, 6);
	out->updated_at = db_col_int(st, 7);
	db_col_copy(st, 8, out->binary_sha256, sizeof out->binary_sha256);
	return 1;
}

int store_get_submission(struct store *s, int64_t id, struct store_submission *out,
			 err_t err)
{
	struct store_submission found = { .id = id };
	int rc = (int)db_query(s, "reading a submission", err,
			       "SELECT game, author, name, state, source_sha256,"
			       " coalesce(binary_path, ''), created_at, updated_at,"
			       " coalesce(binary_sha256, '') FROM submissions WHERE id = ?1",
			       read_submission, &found, "i", id);
	if (rc == 1)
		*out = found;
	return rc;
}

int store_get_source(struct store *s, int64_t id, char **src, size_t *len, err_t err)
{
	struct db_bytes b = { 0 };
	int64_t rc = db_query(s, "reading a source", err,
			      "SELECT source FROM submissions WHERE id = ?1", db_row_bytes, &b, "i",
			      id);
	if (rc == 0)
		err_set(err, "no submission %lld", (long long)id);
	*src = (char *)b.bytes;
	*len = b.len;
	return rc == 1 ? 0 : -1;
}

int store_set_state(struct store *s, int64_t id, const char *state, const char *binary_path,
		    const char *binary_sha256, const char *compile_log, err_t err)
{
	return db_run(s, "updating a submission", err,
		      "UPDATE submissions SET state = ?2,"
		      " binary_path = coalesce(?3, binary_path),"
		      " binary_sha256 = coalesce(?4, binary_sha256),"
		      " compile_log = coalesce(?5, compile_log), updated_at = ?6"
		      " WHERE id = ?1", "itttti", id, state, binary_path, binary_sha256,
		      compile_log, store_now_ms());
}

int store_set_qualify_note(struct store *s, int64_t id, const char *note, err_t err)
{
	return db_run(s, "noting the qualification", err,
		      "UPDATE submissions SET qualify_note = ?2 WHERE id = ?1", "it", id, note);
}

/* One statement binding (game, name, id or submission, then numbers). */
static int run_rating_row(struct store *s, const char *sql, const char *what,
			  const struct store_submission *sub, double mu, double sigma,
			  err_t err)
{
	return db_run(s, what, err, sql, "ttiidd", sub->game, sub->name, sub->id, store_now_ms(),
		      mu, sigma);
}

int store_conclude_qualification(struct store *s, const struct store_submission *sub,
				 bool passed, double mu, double sigma, err_t err)
{
	if (store_set_state(s, sub->id, passed ? "qualified" : "not_qualified", NULL, NULL, NULL,
			    err) < 0)
		return -1;
	if (!passed)
		return 0;
	/* A newer submission of the same player replaces the older ones in
	 * the ranked pool. */
	if (run_rating_row(s, "UPDATE submissions SET state = 'superseded', updated_at = ?4"
			      " WHERE game = ?1 AND name = ?2 AND id < ?3"
			      " AND state IN ('qualified', 'qualifying')",
			   "superseding", sub, mu, sigma, err) < 0)
		return -1;
	return run_rating_row(s, "INSERT INTO ratings (submission_id, game, mu, sigma, updated_at)"
				 " VALUES (?3, ?1, ?5, ?6, ?4) ON CONFLICT DO NOTHING",
			      "rating a new player", sub, mu, sigma, err);
}
