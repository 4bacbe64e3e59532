/* work_plag.c - a compile job's plagiarism check: the submission's
 * fingerprints are taken before its transaction (CPU only), then stored,
 * indexed and compared with every earlier file of the game inside it, so a
 * submission is fingerprinted exactly when its compile job ends. */
#include <stdio.h>
#include <string.h>

#include "judge/plag_doc.h"
#include "judge/plag_store.h"
#include "judge/work.h"

/* The events name at most this many similar files (the most similar). */
#define FLAG_EVENT_MAX 10

void work_plag_fingerprint(struct work *w, const char *game, const char *src, size_t len,
			   struct plag_fps *fps, char fp_error[PLAG_ERRLEN])
{
	struct plag_hashset base;
	*fps = (struct plag_fps){ 0 };
	fp_error[0] = 0;
	if (plag_base_load(game, w->o->cfg->plag.k, &base, fp_error))
		return;
	if (plag_fingerprint(&w->o->cfg->plag, &base, src, len, fps, fp_error))
		*fps = (struct plag_fps){ 0 };
	plag_hashset_free(&base);
}

static int already_fingerprinted(sqlite3 *db, int64_t submission, bool *yes,
				 char err[WORKER_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM plag_docs WHERE submission_id = ?", -1, &st,
			       NULL) != SQLITE_OK) {
		snprintf(err, WORKER_ERRLEN, "plagiarism: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, submission);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	*yes = rc == SQLITE_ROW;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		snprintf(err, WORKER_ERRLEN, "plagiarism: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

static json_t *match_json(const struct plag_match *m)
{
	json_t *j = json_pack("{s:s, s:s, s:f, s:f, s:f, s:I, s:[I, I], s:[I, I]}",
			      "author", m->author, "player", m->name, "similarity", m->similarity,
			      "a_in_b", m->pair.a_in_b, "b_in_a", m->pair.b_in_a,
			      "longest_tokens", (json_int_t)plag_longest_tokens(&m->pair),
			      "lines", (json_int_t)m->pair.longest_a.first_line,
			      (json_int_t)m->pair.longest_a.last_line,
			      "their_lines", (json_int_t)m->pair.longest_b.first_line,
			      (json_int_t)m->pair.longest_b.last_line);
	if (m->submission)
		json_object_set_new(j, "submission", json_integer(m->submission));
	else
		json_object_set_new(j, "archive", json_string(m->label));
	return j;
}

/* One plagiarism.flagged event for the new submission, naming the files it
 * resembles over the flag threshold. */
static int flag_event(struct work *w, const struct store_submission *sub,
		      const struct plag_matches *m, char err[WORKER_ERRLEN])
{
	json_t *list = json_array();
	for (size_t i = 0; i < m->n && json_array_size(list) < FLAG_EVENT_MAX; i++)
		if (m->v[i].flagged)
			json_array_append_new(list, match_json(&m->v[i]));
	if (json_array_size(list) == 0) {
		json_decref(list);
		return 0;
	}
	json_t *data = json_pack("{s:s, s:s, s:f, s:o}", "player", sub->name, "author",
				 sub->author, "similarity", m->v[0].similarity, "similar", list);
	int rc = work_event(w, "plagiarism.flagged", sub->id, data, err);
	json_decref(data);
	return rc;
}

int work_plag_record(struct work *w, const struct store_submission *sub,
		     const struct plag_fps *fps, const char *fp_error, char err[WORKER_ERRLEN])
{
	sqlite3 *db = store_db(w->store);
	bool done;
	if (already_fingerprinted(db, sub->id, &done, err) < 0)
		return -1;
	if (done)
		return 0;
	struct plag_doc doc = { .game = sub->game, .author = sub->author, .name = sub->name,
				.submission = sub->id };
	struct plag_matches m;
	char perr[PLAG_ERRLEN];
	int64_t id;
	bool have = !fp_error[0];
	if (plag_store_add(db, &w->o->cfg->plag, &doc, have ? fps : NULL, fp_error, &id, &m,
			   perr) < 0) {
		snprintf(err, WORKER_ERRLEN, "plagiarism: %.230s", perr);
		return -1;
	}
	int rc = flag_event(w, sub, &m, err);
	plag_matches_free(&m);
	return rc;
}
