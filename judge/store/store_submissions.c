/* store_submissions.c - the submissions side of the store (store.h). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/store.h"

static int fail_sql(struct store *s, const char *what, char err[STORE_ERRLEN])
{
	snprintf(err, STORE_ERRLEN, "%s: %s", what, sqlite3_errmsg(store_db(s)));
	return -1;
}

/* The author who owns name in game: 1 and owner filled, 0 nobody yet. */
static int name_owner(struct store *s, const char *game, const char *name, char owner[64],
		      char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s), "SELECT author FROM names WHERE game = ? AND name = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, "checking the name", err);
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(owner, 64, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail_sql(s, "checking the name", err);
}

static int run(struct store *s, const char *sql, const char *what, char err[STORE_ERRLEN],
	       const char *t1, const char *t2, const char *t3)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, what, err);
	const char *texts[] = { t1, t2, t3 };
	for (int i = 0; i < 3 && texts[i]; i++)
		sqlite3_bind_text(st, i + 1, texts[i], -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail_sql(s, what, err);
}

static int insert_submission(struct store *s, const struct store_new_submission *sub,
			     int64_t *id, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s),
			       "INSERT INTO submissions (game, author, name, source, source_sha256,"
			       " state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, "storing the submission", err);
	int64_t now = store_now_ms();
	sqlite3_bind_text(st, 1, sub->game, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sub->author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, sub->name, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, sub->source, (int)sub->source_len, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, sub->source_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, now);
	sqlite3_bind_int64(st, 7, now);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail_sql(s, "storing the submission", err);
	*id = sqlite3_last_insert_rowid(store_db(s));
	return 0;
}

static int submit_in_tx(struct store *s, const struct store_new_submission *sub, int64_t *id,
			char err[STORE_ERRLEN])
{
	char owner[64];
	int owned = name_owner(s, sub->game, sub->name, owner, err);
	if (owned < 0)
		return -1;
	if (owned && strcmp(owner, sub->author) != 0) {
		snprintf(err, STORE_ERRLEN,
			 "the player name %s is taken in %s by another author: choose another "
			 "PLAYER_NAME", sub->name, sub->game);
		return -1;
	}
	if (!owned && run(s, "INSERT INTO names (game, name, author) VALUES (?, ?, ?)",
			  "claiming the name", err, sub->game, sub->name, sub->author) < 0)
		return -1;
	if (insert_submission(s, sub, id, err) < 0)
		return -1;
	char payload[64];
	snprintf(payload, sizeof payload, "{\"submission\":%lld}", (long long)*id);
	return store_enqueue(s, "compile", payload, 10, 0, NULL, err);
}

int store_submit(struct store *s, const struct store_new_submission *sub, int64_t *id,
		 char err[STORE_ERRLEN])
{
	if (store_begin(s, err) < 0)
		return -1;
	if (submit_in_tx(s, sub, id, err) < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}

int store_get_submission(struct store *s, int64_t id, struct store_submission *out,
			 char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s),
			       "SELECT game, author, name, state, source_sha256,"
			       " coalesce(binary_path, ''), created_at, updated_at"
			       " FROM submissions WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, "reading a submission", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		memset(out, 0, sizeof *out);
		out->id = id;
		snprintf(out->game, sizeof out->game, "%s", sqlite3_column_text(st, 0));
		snprintf(out->author, sizeof out->author, "%s", sqlite3_column_text(st, 1));
		snprintf(out->name, sizeof out->name, "%s", sqlite3_column_text(st, 2));
		snprintf(out->state, sizeof out->state, "%s", sqlite3_column_text(st, 3));
		snprintf(out->source_sha256, sizeof out->source_sha256, "%s",
			 sqlite3_column_text(st, 4));
		snprintf(out->binary_path, sizeof out->binary_path, "%s",
			 sqlite3_column_text(st, 5));
		out->created_at = sqlite3_column_int64(st, 6);
		out->updated_at = sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail_sql(s, "reading a submission", err);
}

int store_get_source(struct store *s, int64_t id, char **src, size_t *len, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s), "SELECT source FROM submissions WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return fail_sql(s, "reading a source", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	*src = NULL;
	if (rc == SQLITE_ROW) {
		*len = (size_t)sqlite3_column_bytes(st, 0);
		*src = malloc(*len + 1);
		if (*src) {
			memcpy(*src, sqlite3_column_blob(st, 0), *len);
			(*src)[*len] = '\0';
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		snprintf(err, STORE_ERRLEN, "no submission %lld", (long long)id);
	else if (rc == SQLITE_ROW && !*src)
		snprintf(err, STORE_ERRLEN, "out of memory");
	else if (rc != SQLITE_ROW)
		return fail_sql(s, "reading a source", err);
	return *src ? 0 : -1;
}

int store_set_state(struct store *s, int64_t id, const char *state, const char *binary_path,
		    const char *binary_sha256, const char *compile_log, char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s),
			       "UPDATE submissions SET state = ?2,"
			       " binary_path = coalesce(?3, binary_path),"
			       " binary_sha256 = coalesce(?4, binary_sha256),"
			       " compile_log = coalesce(?5, compile_log), updated_at = ?6"
			       " WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, "updating a submission", err);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, binary_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, binary_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, compile_log, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, store_now_ms());
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail_sql(s, "updating a submission", err);
}

/* One statement binding (game, name, id or submission, then numbers). */
static int run_rating_row(struct store *s, const char *sql, const char *what,
			  const struct store_submission *sub, double mu, double sigma,
			  char err[STORE_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail_sql(s, what, err);
	sqlite3_bind_text(st, 1, sub->game, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sub->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, sub->id);
	sqlite3_bind_int64(st, 4, store_now_ms());
	sqlite3_bind_double(st, 5, mu);
	sqlite3_bind_double(st, 6, sigma);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail_sql(s, what, err);
}

int store_conclude_qualification(struct store *s, const struct store_submission *sub,
				 bool passed, double mu, double sigma, char err[STORE_ERRLEN])
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
	return run_rating_row(s, "INSERT OR IGNORE INTO ratings (submission_id, game, mu, sigma,"
				 " updated_at) VALUES (?3, ?1, ?5, ?6, ?4)",
			      "rating a new player", sub, mu, sigma, err);
}
