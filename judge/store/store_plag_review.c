/* store_plag_review.c - flags of similar pairs and the organiser's
 * decisions on them (store_plag_review.h). */
#include "judge/store/store_plag_review.h"

#include <stdio.h>
#include <string.h>

#include "judge/store/db.h"

/* A file is suspected while an open or confirmed flag names it the later. */
#define SET_SUSPECTED "UPDATE plag_docs SET suspected = CASE WHEN EXISTS" \
	" (SELECT 1 FROM plag_flags f WHERE f.later_doc = plag_docs.id" \
	" AND (f.review IS NULL OR f.review <> 'dismissed')) THEN 1 ELSE 0 END WHERE id = ?1"

int store_plag_flag(struct store *s, const struct store_plag_pair *p, err_t err)
{
	/* An archived file is of an earlier year, whenever it was imported. */
	if (db_run(s, "numbering a flagged pair", err,
		   "INSERT INTO plag_flags (game, doc_a, doc_b, later_doc, similarity, created_at)"
		   " SELECT CAST(?3 AS TEXT), a.id, b.id, CASE WHEN a.label IS NOT NULL"
		   " AND b.label IS NULL THEN b.id ELSE a.id END, CAST(?4 AS DOUBLE PRECISION),"
		   " CAST(?5 AS BIGINT) FROM plag_docs a, plag_docs b"
		   " WHERE a.id = ?1 AND b.id = ?2 ON CONFLICT (doc_a, doc_b) DO NOTHING", "iitdi",
		   p->doc_a, p->doc_b, p->game, p->similarity, store_now_ms()) < 0)
		return -1;
	return db_run(s, "marking a suspected file", err,
		      "UPDATE plag_docs SET suspected = 1 WHERE id = (SELECT later_doc"
		      " FROM plag_flags WHERE doc_a = ?1 AND doc_b = ?2)", "ii", p->doc_a, p->doc_b);
}

int store_plag_dismissed_share(struct store *s, const char *game, const char *author_a,
			       const char *author_b, double *share, err_t err)
{
	json_t *rows = db_query_json(s, "reading dismissed pairs", err,
		"SELECT max(f.review_share) FROM plag_flags f JOIN plag_docs a ON a.id = f.doc_a"
		" JOIN plag_docs b ON b.id = f.doc_b WHERE f.game = ?1 AND f.review = 'dismissed'"
		" AND ((a.author = ?2 AND b.author = ?3) OR (a.author = ?3 AND b.author = ?2))",
		"share:D", "ttt", game, author_a, author_b);
	json_t *row;
	int rc = db_one_json(rows, &row);
	if (rc <= 0)
		return rc;
	json_t *v = json_object_get(row, "share");
	rc = json_is_number(v);
	if (rc)
		*share = json_number_value(v);
	json_decref(row);
	return rc;
}

/* ---- listing */

#define FLAG_COLS "SELECT f.id, f.game, f.similarity, f.review, f.review_share," \
	" f.reviewed_by, f.reviewed_at, f.note, CASE WHEN f.seen_at IS NULL THEN 0 ELSE 1 END," \
	" f.created_at, e.id, e.submission_id, e.author, e.name, e.label, se.created_at," \
	" l.id, l.submission_id, l.author, l.name, l.label, sl.created_at" \
	" FROM plag_flags f JOIN plag_docs l ON l.id = f.later_doc" \
	" JOIN plag_docs e ON e.id = CASE WHEN f.later_doc = f.doc_a THEN f.doc_b ELSE f.doc_a END" \
	" LEFT JOIN submissions sl ON sl.id = l.submission_id" \
	" LEFT JOIN submissions se ON se.id = e.submission_id"
#define FLAG_SPEC "id:i game:t similarity:d review:T review_share:D reviewed_by:T" \
	" reviewed_at:I note:T seen:b flagged_at:i" \
	" e_doc:i e_submission:I e_author:t e_player:t e_label:T e_uploaded_at:I" \
	" l_doc:i l_submission:I l_author:t l_player:t l_label:T l_uploaded_at:I"

/* The row's keys that start with prefix moved into a new object. */
static json_t *side(json_t *row, const char *prefix)
{
	json_t *out = json_object(), *v;
	const char *key;
	void *tmp;
	size_t n = strlen(prefix);
	json_object_foreach_safe(row, tmp, key, v) {
		if (strncmp(key, prefix, n) != 0)
			continue;
		json_object_set(out, key + n, v);
		json_object_del(row, key);
	}
	return out;
}

static json_t *nest_sides(json_t *rows)
{
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		json_object_set_new(row, "earlier", side(row, "e_"));
		json_object_set_new(row, "later", side(row, "l_"));
	}
	return rows;
}

int store_plag_flags(struct store *s, const char *game, json_t **out, err_t err)
{
	json_t *rows = db_query_json(s, "reading the flagged pairs", err,
		FLAG_COLS " WHERE f.game = ?1 OR ?1 IS NULL"
		" ORDER BY CASE WHEN f.seen_at IS NULL THEN 0 ELSE 1 END, f.id DESC LIMIT 500",
		FLAG_SPEC, "t", game);
	*out = rows ? nest_sides(rows) : NULL;
	return rows ? 0 : -1;
}

int store_plag_flag_get(struct store *s, int64_t flag, json_t **out, err_t err)
{
	json_t *rows = db_query_json(s, "reading a flagged pair", err, FLAG_COLS " WHERE f.id = ?1",
				     FLAG_SPEC, "i", flag);
	return db_one_json(rows ? nest_sides(rows) : NULL, out);
}

int store_plag_history(struct store *s, int64_t flag, json_t **out, err_t err)
{
	*out = db_query_json(s, "reading a flag's history", err,
		"SELECT action, share, decided_by, note, created_at FROM plag_reviews"
		" WHERE flag_id = ?1 ORDER BY id", "action:t share:d by:t note:T at:i", "i", flag);
	return *out ? 0 : -1;
}

int store_plag_flags_seen(struct store *s, const char *game, int64_t *n,
			  err_t err)
{
	*n = db_changed(s, "marking flags seen", err, "UPDATE plag_flags SET seen_at = ?2"
			" WHERE seen_at IS NULL AND (game = ?1 OR ?1 IS NULL)", "ti", game,
			store_now_ms());
	if (*n >= 0)
		return 0;
	*n = 0;
	return -1;
}

int store_plag_news(struct store *s, json_t **out, err_t err)
{
	*out = db_query_json(s, "reading the plagiarism news", err,
		"SELECT game, count(*) FROM plag_flags WHERE seen_at IS NULL GROUP BY game"
		" ORDER BY game", "game:t unseen:i", "");
	return *out ? 0 : -1;
}

int store_plag_confirmed_authors(struct store *s, const char *game, json_t **out,
				 err_t err)
{
	json_t *rows = db_query_json(s, "reading the confirmed copies", err,
		"SELECT DISTINCT d.author FROM plag_flags f JOIN plag_docs d ON d.id = f.later_doc"
		" WHERE f.game = ?1 AND f.review = 'confirmed' ORDER BY d.author", "author:t", "t",
		game);
	*out = rows ? json_array() : NULL;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
		json_array_append(*out, json_object_get(row, "author"));
	json_decref(rows);
	return *out ? 0 : -1;
}

/* ---- deciding */

/* The review an action leaves (NULL: open again); 0 when it is unknown. */
static int review_of(const char *action, const char **review)
{
	static const char *const actions[][2] = {
		{ "confirm", "confirmed" }, { "dismiss", "dismissed" }, { "clear", NULL },
	};
	for (size_t i = 0; i < sizeof actions / sizeof *actions; i++)
		if (strcmp(action, actions[i][0]) == 0) {
			*review = actions[i][1];
			return 1;
		}
	return 0;
}

/* What a review changed: the later file, and the flag's share. */
struct reviewed {
	int64_t later;
	double share;
};

static int read_reviewed(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct reviewed *r = ctx;
	r->later = db_col_int(st, 0);
	r->share = db_col_double(st, 1);
	return 1;
}

static int review_in(struct store *s, int64_t flag, const char *action, const char *review,
		     const char *by, const char *note, err_t err)
{
	int64_t now = store_now_ms();
	struct reviewed r = { 0, 0 };
	int rc = (int)db_query(s, "reviewing a flag", err,
		"UPDATE plag_flags SET review = CAST(?2 AS TEXT),"
		" review_share = CASE WHEN CAST(?2 AS TEXT) IS NULL THEN NULL ELSE similarity END,"
		" reviewed_by = ?3, reviewed_at = ?4, note = ?5, seen_at = coalesce(seen_at, ?4)"
		" WHERE id = ?1 RETURNING later_doc, similarity", read_reviewed, &r, "ittit", flag,
		review, by, now, note);
	if (rc != 1)
		return rc;
	if (db_run(s, "keeping a flag's history", err, "INSERT INTO plag_reviews (flag_id, action,"
		   " share, decided_by, note, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "itdtti",
		   flag, action, r.share, by, note, now) < 0 ||
	    db_run(s, "marking a suspected file", err, SET_SUSPECTED, "i", r.later) < 0)
		return -1;
	return 1;
}

int store_plag_review(struct store *s, int64_t flag, const char *action, const char *by,
		      const char *note, json_t **out, err_t err)
{
	const char *review;
	if (!review_of(action, &review)) {
		err_set(err, "a flag is confirmed, dismissed or cleared, not \"%.40s\"",
			 action);
		return -1;
	}
	if (store_begin(s, err) < 0)
		return -1;
	int rc = review_in(s, flag, action, review, by, note, err);
	if (rc != 1) {
		store_rollback(s);
		return rc;
	}
	if (store_commit(s, err) < 0)
		return -1;
	return out ? store_plag_flag_get(s, flag, out, err) : 1;
}
