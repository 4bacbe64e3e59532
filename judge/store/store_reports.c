/* store_reports.c - what `judge status`, `matches` and `jobs` show, read
 * from the store as JSON (store.h).  Texts become JSON through the
 * caller's store_json_text, so a stored name or log in any bytes can make
 * valid JSON. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "judge/store/db.h"

static json_t *col_text(store_json_text *text, struct db_stmt *st, int i)
{
	return text(db_col_null(st, i) ? NULL : db_col_text(st, i));
}

static json_t *col_int(struct db_stmt *st, int i)
{
	return db_col_null(st, i) ? json_null() : json_integer(db_col_int(st, i));
}

/* One seat of a match, columns seat..reason of SEAT_COLS from col on. */
#define SEAT_COLS "p.seat, p.submission_id, p.name, p.score, p.rank, p.frozen_round," \
		  " p.verdict, p.reason"

static json_t *seat_json(store_json_text *text, struct db_stmt *st, int col)
{
	return json_pack("{s:i, s:o, s:o, s:I, s:i, s:o, s:o, s:o}",
			 "seat", (int)db_col_int(st, col), "submission", col_int(st, col + 1),
			 "name", col_text(text, st, col + 2), "score", (json_int_t)db_col_int(st, col + 3),
			 "rank", (int)db_col_int(st, col + 4), "frozen_round", col_int(st, col + 5),
			 "verdict", col_text(text, st, col + 6), "reason", col_text(text, st, col + 7));
}

/* Rows read into a list as JSON, their texts made by text. */
struct report_rows {
	store_json_text *text;
	json_t *list;
	int won;     /* report_qualifying: the matches it won */
	int64_t now; /* report_job_list: the time the leases are measured from */
};

/* ---- a submission ------------------------------------------------------------ */

static int read_qualifying(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct report_rows *r = ctx;
	json_t *seat = seat_json(r->text, st, 2);
	json_object_set_new(seat, "match", json_integer(db_col_int(st, 0)));
	json_object_set_new(seat, "created_at", json_integer(db_col_int(st, 1)));
	r->won += db_col_int(st, 6) == 1;
	json_array_append_new(r->list, seat);
	return 0;
}

/* Its qualifying matches, oldest first. */
static int report_qualifying(struct store *s, store_json_text *text, int64_t id, json_t *sub,
			     err_t err)
{
	struct report_rows r = { .text = text, .list = json_array() };
	int64_t rc = db_query(s, "reading its qualifying matches", err,
			      "SELECT m.id, m.created_at, " SEAT_COLS
			      " FROM match_players p JOIN matches m ON m.id = p.match_id"
			      " WHERE p.submission_id = ?1 AND m.kind = 'qualifying' ORDER BY m.id",
			      read_qualifying, &r, "i", id);
	json_object_set_new(sub, "qualifying",
			    json_pack("{s:i, s:i, s:o}", "played", (int)json_array_size(r.list),
				      "won", r.won, "matches", r.list));
	return rc < 0 ? -1 : 0;
}

static int read_rating(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	*(json_t **)ctx = json_pack("{s:f, s:f, s:i, s:i}", "mu", db_col_double(st, 0), "sigma",
				    db_col_double(st, 1), "games", (int)db_col_int(st, 2), "wins",
				    (int)db_col_int(st, 3));
	return 1;
}

/* Its rating while (or since) it is in the ranked pool; null before. */
static int report_rating(struct store *s, int64_t id, json_t *sub, err_t err)
{
	json_t *rating = NULL;
	int64_t rc = db_query(s, "reading its rating", err,
			      "SELECT mu, sigma, games, wins FROM ratings WHERE submission_id = ?1",
			      read_rating, &rating, "i", id);
	json_object_set_new(sub, "rating", rating ? rating : json_null());
	return rc < 0 ? -1 : 0;
}

/* "suspected", "clear", or null while it is not fingerprinted yet. */
static int report_plagiarism(struct store *s, int64_t id, json_t *sub, err_t err)
{
	bool suspected;
	int found = store_plag_fingerprinted(s, id, &suspected, err);
	if (found < 0)
		return -1;
	json_object_set_new(sub, "plagiarism", !found ? json_null()
			    : json_string(suspected ? "suspected" : "clear"));
	return 0;
}

static int read_submission(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct report_rows *r = ctx;
	store_json_text *text = r->text;
	r->list = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o}", "submission",
			    (json_int_t)db_col_int(st, 0), "game", col_text(text, st, 1),
			    "player", col_text(text, st, 2), "author", col_text(text, st, 3), "state",
			    col_text(text, st, 4), "compile_log", col_text(text, st, 5), "created_at",
			    (json_int_t)db_col_int(st, 6), "updated_at",
			    (json_int_t)db_col_int(st, 7), "source_sha256", col_text(text, st, 8),
			    "qualify_note", db_col_null(st, 9) ? json_null() : col_text(text, st, 9));
	return 1;
}

int store_report_submission(struct store *s, store_json_text *text, int64_t id,
			    struct json_t **out, err_t err)
{
	struct report_rows r = { .text = text };
	int64_t rc = db_query(s, "reading the submission", err,
			      "SELECT id, game, name, author, state, compile_log, created_at,"
			      " updated_at, source_sha256, qualify_note FROM submissions WHERE id = ?1",
			      read_submission, &r, "i", id);
	*out = rc == 1 ? r.list : NULL;
	if (rc <= 0)
		return (int)rc;
	if (report_qualifying(s, text, id, *out, err) < 0 || report_rating(s, id, *out, err) < 0 ||
	    report_plagiarism(s, id, *out, err) < 0) {
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 1;
}

/* ---- matches ----------------------------------------------------------------------- */

static int read_seat(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct report_rows *r = ctx;
	json_array_append_new(r->list, seat_json(r->text, st, 0));
	return 0;
}

static int match_seats(struct store *s, store_json_text *text, json_t *match,
		       err_t err)
{
	struct report_rows r = { .text = text, .list = json_array() };
	int64_t rc = db_query(s, "reading a match's players", err,
			      "SELECT " SEAT_COLS " FROM match_players p WHERE p.match_id = ?1"
			      " ORDER BY p.seat", read_seat, &r, "i",
			      (int64_t)json_integer_value(json_object_get(match, "match")));
	json_object_set_new(match, "players", r.list);
	return rc < 0 ? -1 : 0;
}

static int read_match(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct report_rows *r = ctx;
	json_array_append_new(r->list, json_pack("{s:I, s:o, s:o, s:b, s:I}", "match",
						 (json_int_t)db_col_int(st, 0), "game",
						 col_text(r->text, st, 1), "kind",
						 col_text(r->text, st, 2), "rated",
						 (int)db_col_int(st, 3), "created_at",
						 (json_int_t)db_col_int(st, 4)));
	return 0;
}

int store_report_matches(struct store *s, store_json_text *text, const char *game,
			 const char *player, int64_t limit, struct json_t **out,
			 err_t err)
{
	*out = NULL;
	struct report_rows r = { .text = text, .list = json_array() };
	int rc = db_query(s, "reading the matches", err,
		"SELECT m.id, m.game, m.kind, m.rated, m.created_at FROM matches m"
		" WHERE (CAST(?1 AS TEXT) IS NULL OR m.game = ?1) AND (CAST(?2 AS TEXT) IS NULL OR EXISTS"
		"  (SELECT 1 FROM match_players p WHERE p.match_id = m.id AND p.name = ?2))"
		" ORDER BY m.id DESC LIMIT ?3", read_match, &r, "tti", game, player,
		limit > 0 ? limit : INT64_MAX) < 0 ? -1 : 0;
	size_t i;
	json_t *m;
	json_array_foreach(r.list, i, m)
		if (rc == 0)
			rc = match_seats(s, text, m, err);
	if (rc < 0)
		json_decref(r.list);
	else
		*out = r.list;
	return rc;
}

int store_player_known(struct store *s, const char *player, const char *game,
		       err_t err)
{
	int64_t rc = db_query(s, "looking for a player", err,
		"SELECT 1 FROM names WHERE name = ?1 AND (CAST(?2 AS TEXT) IS NULL OR game = ?2)"
		" UNION ALL SELECT 1 FROM match_players p JOIN matches m ON m.id = p.match_id"
		" WHERE p.name = ?1 AND (?2 IS NULL OR m.game = ?2) LIMIT 1", NULL, NULL, "tt",
		player, game);
	return rc < 0 ? -1 : rc > 0;
}

/* ---- the queue ------------------------------------------------------------------------ */

static int read_job(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct report_rows *r = ctx;
	store_json_text *text = r->text;
	int64_t now = r->now;
	json_t *payload = json_loads(db_col_text(st, 3), 0, NULL);
	json_t *j = json_pack("{s:I, s:o, s:o, s:o, s:i, s:i, s:o, s:o, s:I, s:I}", "id",
			      (json_int_t)db_col_int(st, 0), "kind", col_text(text, st, 1),
			      "state", col_text(text, st, 2), "payload", payload ? payload : col_text(text, st, 3),
			      "priority", (int)db_col_int(st, 4), "attempts",
			      (int)db_col_int(st, 5), "worker", col_text(text, st, 6), "last_error",
			      col_text(text, st, 7), "created_at", (json_int_t)db_col_int(st, 8),
			      "updated_at", (json_int_t)db_col_int(st, 9));
	if (!db_col_null(st, 10))
		json_object_set_new(j, "lease_left_ms", json_integer(db_col_int(st, 10) - now));
	if (db_col_int(st, 11) > now)
		json_object_set_new(j, "waits_ms", json_integer(db_col_int(st, 11) - now));
	json_array_append_new(r->list, j);
	return 0;
}

/* Running first, then queued in the order a worker claims them, parked,
 * and (all) done. */
static int report_job_list(struct store *s, store_json_text *text, bool all, json_t *out,
			   err_t err)
{
	struct report_rows r = { .text = text, .list = json_array(), .now = store_now_ms() };
	int64_t rc = db_query(s, "reading the queue", err,
		"SELECT id, kind, state, payload, priority, attempts, worker, last_error,"
		" created_at, updated_at, lease_until, not_before FROM jobs"
		" WHERE state <> 'done' OR ?1 = 1"
		" ORDER BY CASE state WHEN 'running' THEN 0 WHEN 'queued' THEN 1"
		"  WHEN 'parked' THEN 2 ELSE 3 END,"
		" CASE state WHEN 'queued' THEN -priority ELSE 0 END, id", read_job, &r, "i",
		(int64_t)all);
	json_object_set_new(out, "jobs", r.list);
	return rc < 0 ? -1 : 0;
}

static int read_job_count(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	json_object_set_new(ctx, db_col_text(st, 0), json_integer(db_col_int(st, 1)));
	return 0;
}

static int report_job_counts(struct store *s, json_t *out, err_t err)
{
	json_t *counts = json_pack("{s:i, s:i, s:i, s:i}", "queued", 0, "running", 0, "parked", 0,
				   "done", 0);
	int64_t rc = db_query(s, "counting the jobs", err,
			      "SELECT state, count(*) FROM jobs GROUP BY state", read_job_count,
			      counts, "");
	json_object_set_new(out, "counts", counts);
	return rc < 0 ? -1 : 0;
}

int store_report_jobs(struct store *s, store_json_text *text, bool all, struct json_t **out,
		      err_t err)
{
	*out = json_object();
	if (report_job_list(s, text, all, *out, err) < 0 || report_job_counts(s, *out, err) < 0) {
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
