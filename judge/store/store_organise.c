/* store_organise.c - the organisers' decisions: disqualifications,
 * rejudges, plagiarism pairs (store_serve.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/store_serve.h"

int store_disqualify(struct store *s, const char *game, const char *name, const char *reason,
		     const char *decided_by, err_t err)
{
	int rc = (int)db_query(s, "finding the player", err,
			       "SELECT 1 FROM names WHERE game = ?1 AND name = ?2", NULL, NULL, "tt",
			       game, name);
	if (rc <= 0)
		return rc;
	rc = db_run(s, "disqualifying a player", err,
		    "INSERT INTO disqualifications (game, name, reason, decided_by, created_at)"
		    " VALUES (?1, ?2, ?3, ?4, ?5)", "tttti", game, name, reason, decided_by,
		    store_now_ms());
	return rc < 0 ? -1 : 1;
}

int store_disqualifications(struct store *s, const char *game, json_t **out,
			    err_t err)
{
	*out = db_query_json(s, "reading the disqualifications", err,
		"SELECT game, name, reason, decided_by, created_at FROM disqualifications"
		" WHERE game = ?1 AND reinstated_at IS NULL ORDER BY id DESC",
		"game:t name:t reason:t decided_by:t created_at:i", "t", game);
	return *out ? 1 : -1;
}

int store_disqualification_history(struct store *s, const char *game, json_t **out,
				   err_t err)
{
	*out = db_query_json(s, "reading the disqualifications", err,
		"SELECT game, name, reason, decided_by, created_at, reinstated_at, reinstated_by"
		" FROM disqualifications WHERE game = ?1 ORDER BY id DESC",
		"game:t name:t reason:t decided_by:t created_at:i reinstated_at:I reinstated_by:T",
		"t", game);
	return *out ? 1 : -1;
}

int store_game_players(struct store *s, const char *game, json_t **out, err_t err)
{
	*out = db_query_json(s, "reading the players", err,
		"SELECT n.name, n.author, CASE WHEN EXISTS (SELECT 1 FROM disqualifications d"
		" WHERE d.game = n.game AND d.name = n.name AND d.reinstated_at IS NULL)"
		" THEN 1 ELSE 0 END FROM names n WHERE n.game = ?1 ORDER BY n.name",
		"name:t author:t disqualified:b", "t", game);
	return *out ? 1 : -1;
}

int store_reinstate(struct store *s, const char *game, const char *name, const char *decided_by,
		    err_t err)
{
	int64_t n = db_changed(s, "reinstating a player", err,
			       "UPDATE disqualifications SET reinstated_at = ?3, reinstated_by = ?4"
			       " WHERE game = ?1 AND name = ?2 AND reinstated_at IS NULL", "ttit", game,
			       name, store_now_ms(), decided_by);
	return n < 0 ? -1 : n > 0;
}

/* Inside a transaction: the submission back to the queue with a new
 * compile job, as store_submit queues a new one. */
static int requeue(struct store *s, int64_t id, err_t err)
{
	char payload[64];
	snprintf(payload, sizeof payload, "{\"submission\":%lld}", (long long)id);
	if (db_run(s, "rejudging a submission", err,
		   "UPDATE submissions SET state = 'queued', updated_at = ?2 WHERE id = ?1", "ii", id,
		   store_now_ms()) < 0)
		return -1;
	return store_enqueue(s, "compile", payload, SCHED_COMPILE, 0, NULL, err);
}

static int rejudge_one(struct store *s, int64_t id, err_t err)
{
	int rc = (int)db_query(s, "finding the submission", err,
			       "SELECT 1 FROM submissions WHERE id = ?1", NULL, NULL, "i", id);
	if (rc <= 0)
		return rc;
	if (db_run(s, "rejudging a submission", err,
		   "INSERT INTO rejudges (game, submission_id, decided_by, created_at)"
		   " SELECT game, id, 'organiser', ?2 FROM submissions WHERE id = ?1", "ii", id,
		   store_now_ms()) < 0 || requeue(s, id, err) < 0)
		return -1;
	return 1;
}

int store_rejudge_submission(struct store *s, int64_t id, err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	int rc = rejudge_one(s, id, err);
	if (rc <= 0) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s, err) < 0 ? -1 : 1;
}

static int rejudge_all(struct store *s, const char *game, const char *decided_by, int64_t *n,
		       err_t err)
{
	json_t *ids = db_query_json(s, "rejudging a game", err,
		"SELECT id FROM submissions WHERE game = ?1 AND state <> 'superseded'"
		" AND id IN (SELECT max(id) FROM submissions WHERE game = ?1 GROUP BY name)"
		" ORDER BY id", "id:i", "t", game);
	if (!ids)
		return -1;
	int rc = db_run(s, "rejudging a game", err,
			"INSERT INTO rejudges (game, submission_id, decided_by, created_at)"
			" VALUES (?1, NULL, ?2, ?3)", "tti", game, decided_by, store_now_ms());
	if (rc == 0)
		rc = db_run(s, "rejudging a game", err, "DELETE FROM rating_sizes WHERE game = ?1",
			    "t", game);
	if (rc == 0)
		rc = db_run(s, "rejudging a game", err, "DELETE FROM ratings WHERE game = ?1", "t",
			    game);
	size_t i;
	json_t *row;
	json_array_foreach(ids, i, row) {
		if (rc < 0)
			break;
		rc = requeue(s, json_integer_value(json_object_get(row, "id")), err);
	}
	*n = (int64_t)json_array_size(ids);
	json_decref(ids);
	return rc;
}

int store_rejudge_game(struct store *s, const char *game, const char *decided_by, int64_t *n,
		       err_t err)
{
	if (store_begin(s, err) < 0)
		return -1;
	if (rejudge_all(s, game, decided_by, n, err) < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}

struct doc_read {
	json_t *doc;
	int first, last;
};

static int read_doc(struct db_stmt *st, void *ctx, err_t err)
{
	struct doc_read *d = ctx;
	size_t len = 0;
	const char *src = db_col_null(st, 4) ? "" : db_col_blob(st, 4, &len);
	d->doc = db_row_json(st, "doc:i name:t author:t label:T");
	if (!d->doc || json_object_set_new(d->doc, "source", json_stringn_nocheck(src, len)) < 0 ||
	    json_object_set_new(d->doc, "first_line", json_integer(d->first)) < 0 ||
	    json_object_set_new(d->doc, "last_line", json_integer(d->last)) < 0) {
		err_set(err, "out of memory");
		return -1;
	}
	return 1;
}

/* A document's source: its own (archived) or its submission's. */
static json_t *doc_json(struct store *s, int64_t doc, int first, int last, err_t err)
{
	struct doc_read d = { NULL, first, last };
	int64_t rc = db_query(s, "reading a plagiarism document", err,
			      "SELECT d.id, d.name, d.author, d.label, coalesce(d.source, x.source)"
			      " FROM plag_docs d LEFT JOIN submissions x ON x.id = d.submission_id"
			      " WHERE d.id = ?1", read_doc, &d, "i", doc);
	if (rc == 0)
		err_set(err, "no plagiarism document %lld", (long long)doc);
	if (rc == 1)
		return d.doc;
	json_decref(d.doc);
	return NULL;
}

int store_plag_pair(struct store *s, int64_t a, int64_t b, json_t **out, err_t err)
{
	json_t *rows = db_query_json(s, "reading a plagiarism pair", err,
		"SELECT doc_a, doc_b, similarity, a_first_line, a_last_line, b_first_line,"
		" b_last_line FROM plag_pairs WHERE (doc_a = ?1 AND doc_b = ?2)"
		" OR (doc_a = ?2 AND doc_b = ?1)", "a:i b:i similarity:d af:i al:i bf:i bl:i", "ii",
		a, b);
	json_t *pair;
	int rc = db_one_json(rows, &pair);
	if (rc <= 0)
		return rc;
#define FIELD(k) (json_integer_value(json_object_get(pair, k)))
	json_t *da = doc_json(s, FIELD("a"), (int)FIELD("af"), (int)FIELD("al"), err);
	json_t *dbj = da ? doc_json(s, FIELD("b"), (int)FIELD("bf"), (int)FIELD("bl"), err) : NULL;
#undef FIELD
	*out = da && dbj ? json_pack("{s:O, s:o, s:o}", "similarity",
				     json_object_get(pair, "similarity"), "a", da, "b", dbj) : NULL;
	if (!*out) {
		json_decref(da);
		json_decref(dbj);
	}
	json_decref(pair);
	return *out ? 1 : -1;
}
