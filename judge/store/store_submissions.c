/* store_submissions.c - the submissions side of the store (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

/* The author who owns name in game: 1 and owner filled, 0 nobody yet. */
static int name_owner(struct store *s, const char *game, const char *name, char owner[64],
		      char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT author FROM names WHERE game = ?1 AND name = ?2");
	if (!st)
		return db_fail(s, "checking the name", err);
	db_bind_text(st, 1, game);
	db_bind_text(st, 2, name);
	int rc = db_step(st);
	if (rc == 1)
		snprintf(owner, 64, "%s", db_col_text(st, 0));
	else if (rc < 0)
		db_fail(s, "checking the name", err);
	db_finish(st);
	return rc;
}

static int insert_submission(struct store *s, const struct store_new_submission *sub,
			     int64_t *id, char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s,
		"INSERT INTO submissions (game, author, name, source, source_sha256,"
		" state, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?6)"
		" RETURNING id");
	if (!st)
		return db_fail(s, "storing the submission", err);
	db_bind_text(st, 1, sub->game);
	db_bind_text(st, 2, sub->author);
	db_bind_text(st, 3, sub->name);
	db_bind_blob(st, 4, sub->source, sub->source_len);
	db_bind_text(st, 5, sub->source_sha256);
	db_bind_int(st, 6, store_now_ms());
	int rc = db_step(st);
	if (rc == 1)
		*id = db_col_int(st, 0);
	rc = rc == 1 ? 0 : db_fail(s, "storing the submission", err);
	db_finish(st);
	return rc;
}

/* 1 with *id when the newest submission of the name has this very source
 * and has not failed: an upload sent twice (a double click, a script run
 * again) would otherwise start its rating over for nothing.  A failed one
 * may be tried again: qualification draws seeds. */
static int same_as_current(struct store *s, const struct store_new_submission *sub,
			   int64_t *id, char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT id, source_sha256, state FROM submissions"
					   " WHERE game = ?1 AND name = ?2 ORDER BY id DESC LIMIT 1");
	if (!st)
		return db_fail(s, "reading the current submission", err);
	db_bind_text(st, 1, sub->game);
	db_bind_text(st, 2, sub->name);
	int rc = db_step(st);
	if (rc == 1) {
		const char *state = db_col_text(st, 2);
		rc = strcmp(db_col_text(st, 1), sub->source_sha256) == 0 &&
		     strcmp(state, "compile_failed") != 0 && strcmp(state, "not_qualified") != 0;
		if (rc)
			*id = db_col_int(st, 0);
	} else if (rc < 0) {
		db_fail(s, "reading the current submission", err);
	}
	db_finish(st);
	return rc;
}

static int submit_in_tx(struct store *s, const struct store_new_submission *sub, int64_t *id,
			char err[ERR_LEN])
{
	char owner[64];
	int owned = name_owner(s, sub->game, sub->name, owner, err);
	if (owned < 0)
		return -1;
	if (owned && strcmp(owner, sub->author) != 0) {
		snprintf(err, ERR_LEN,
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
		 char err[ERR_LEN])
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

int store_get_submission(struct store *s, int64_t id, struct store_submission *out,
			 char err[ERR_LEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT game, author, name, state, source_sha256,"
					   " coalesce(binary_path, ''), created_at, updated_at,"
					   " coalesce(binary_sha256, '') FROM submissions WHERE id = ?1");
	if (!st)
		return db_fail(s, "reading a submission", err);
	db_bind_int(st, 1, id);
	int rc = db_step(st);
	if (rc == 1) {
		memset(out, 0, sizeof *out);
		out->id = id;
		snprintf(out->game, sizeof out->game, "%s", db_col_text(st, 0));
		snprintf(out->author, sizeof out->author, "%s", db_col_text(st, 1));
		snprintf(out->name, sizeof out->name, "%s", db_col_text(st, 2));
		snprintf(out->state, sizeof out->state, "%s", db_col_text(st, 3));
		snprintf(out->source_sha256, sizeof out->source_sha256, "%s", db_col_text(st, 4));
		snprintf(out->binary_path, sizeof out->binary_path, "%s", db_col_text(st, 5));
		out->created_at = db_col_int(st, 6);
		out->updated_at = db_col_int(st, 7);
		snprintf(out->binary_sha256, sizeof out->binary_sha256, "%s", db_col_text(st, 8));
	} else if (rc < 0) {
		db_fail(s, "reading a submission", err);
	}
	db_finish(st);
	return rc;
}

int store_get_source(struct store *s, int64_t id, char **src, size_t *len, char err[ERR_LEN])
{
	*src = NULL;
	struct db_stmt *st = db_prepare(s, "SELECT source FROM submissions WHERE id = ?1");
	if (!st)
		return db_fail(s, "reading a source", err);
	db_bind_int(st, 1, id);
	int rc = db_step(st);
	if (rc == 1) {
		const void *b = db_col_blob(st, 0, len);
		*src = malloc(*len + 1);
		if (*src) {
			if (*len)
				memcpy(*src, b, *len);
			(*src)[*len] = '\0';
		}
	}
	if (rc == 0)
		snprintf(err, ERR_LEN, "no submission %lld", (long long)id);
	else if (rc == 1 && !*src)
		snprintf(err, ERR_LEN, "out of memory");
	else if (rc < 0)
		db_fail(s, "reading a source", err);
	db_finish(st);
	return *src ? 0 : -1;
}

int store_set_state(struct store *s, int64_t id, const char *state, const char *binary_path,
		    const char *binary_sha256, const char *compile_log, char err[ERR_LEN])
{
	return db_run(s, "updating a submission", err,
		      "UPDATE submissions SET state = ?2,"
		      " binary_path = coalesce(?3, binary_path),"
		      " binary_sha256 = coalesce(?4, binary_sha256),"
		      " compile_log = coalesce(?5, compile_log), updated_at = ?6"
		      " WHERE id = ?1", "itttti", id, state, binary_path, binary_sha256,
		      compile_log, store_now_ms());
}

int store_set_qualify_note(struct store *s, int64_t id, const char *note, char err[ERR_LEN])
{
	return db_run(s, "noting the qualification", err,
		      "UPDATE submissions SET qualify_note = ?2 WHERE id = ?1", "it", id, note);
}

/* One statement binding (game, name, id or submission, then numbers). */
static int run_rating_row(struct store *s, const char *sql, const char *what,
			  const struct store_submission *sub, double mu, double sigma,
			  char err[ERR_LEN])
{
	return db_run(s, what, err, sql, "ttiidd", sub->game, sub->name, sub->id, store_now_ms(),
		      mu, sigma);
}

int store_conclude_qualification(struct store *s, const struct store_submission *sub,
				 bool passed, double mu, double sigma, char err[ERR_LEN])
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
