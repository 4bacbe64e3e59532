/* work_plag.c - a compile job's plagiarism check: the submission's
 * fingerprints are taken before its transaction (CPU only), then stored,
 * indexed and compared with every earlier file of the game inside it, so a
 * submission is fingerprinted exactly when its compile job ends.  Files
 * fingerprinted by an older version of the method are fingerprinted again
 * first, in the same transaction. */
#include <stdio.h>
#include <string.h>

#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_event.h"
#include "judge/plag/plag_store.h"
#include "judge/worker/slot.h"
#include "judge/worker/work.h"

void work_plag_fingerprint(struct work *w, const char *game, const char *src, size_t len,
			   struct plag_fps *fps, err_t fp_error)
{
	struct plag_hashset base;
	*fps = (struct plag_fps){ 0 };
	fp_error->msg[0] = 0;
	if (plag_base_load(w->o->cfg->data_dir, game, w->o->cfg->plag.k, &base, fp_error))
		return;
	if (plag_fingerprint(&w->o->cfg->plag, &base, src, len, fps, fp_error))
		*fps = (struct plag_fps){ 0 };
	plag_hashset_free(&base);
}

/* One line per flagged pair, both files named, so the organiser learns of
 * it from the worker's log as well as from the page. */
static void log_flags(struct work *w, const struct store_submission *sub,
		      const struct plag_matches *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct plag_match *p = &m->v[i];
		char other[96];
		if (!p->flagged)
			continue;
		if (p->submission)
			snprintf(other, sizeof other, "submission %lld", (long long)p->submission);
		else
			snprintf(other, sizeof other, "archived doc:%lld (%.60s)", (long long)p->doc,
				 p->label);
		worker_log(w->o, "plagiarism flagged: submission %lld %s by %s shares %.0f%% with "
			   "%s %s by %s%s; `judge plagiarism --game %s`", (long long)sub->id, sub->name,
			   sub->author, p->similarity * 100, other, p->name, p->author,
			   p->fragment ? " (a long fragment)" : "", sub->game);
	}
}

int work_plag_record(struct work *w, const struct store_submission *sub,
		     const struct plag_fps *fps, const char *fp_error, err_t err)
{
	struct store *s = w->store;
	bool suspected;
	err_t serr;
	int done = store_plag_fingerprinted(s, sub->id, &suspected, serr);
	if (done < 0) {
		err_set(err, "plagiarism: %.230s", serr->msg);
		return -1;
	}
	if (done)
		return 0;
	struct plag_doc doc = { .game = sub->game, .author = sub->author, .name = sub->name,
				.submission = sub->id };
	struct plag_matches m;
	err_t perr;
	int64_t id;
	size_t refreshed;
	bool have = !fp_error[0];
	if (plag_store_refresh(s, &w->o->cfg->plag, w->o->cfg->data_dir, sub->game, &refreshed,
			       perr) < 0) {
		err_set(err, "plagiarism: fingerprinting earlier files again: %.190s",
			 perr->msg);
		return -1;
	}
	if (plag_store_add(s, &w->o->cfg->plag, &doc, have ? fps : NULL, fp_error, &id, &m,
			   perr) < 0) {
		err_set(err, "plagiarism: %.230s", perr->msg);
		return -1;
	}
	log_flags(w, sub, &m);
	json_t *data = plag_event_data(sub->name, sub->author, m.v, m.n);
	plag_matches_free(&m);
	int rc = data ? work_event(w, "plagiarism.flagged", sub->id, data, err) : 0;
	json_decref(data);
	return rc;
}
