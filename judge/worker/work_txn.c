/* work_txn.c - what a job of any kind does inside its transaction: keep
 * hold of the job and mark it done, record an event, end a submission's
 * qualification.  Under every job handler, so that no handler calls
 * another and none calls back into the worker's loop. */
#include <stdio.h>

#include "judge/event/compare.h"
#include "judge/notify/events.h"
#include "judge/rating/rating.h"
#include "judge/store/store_compare.h"
#include "judge/worker/work.h"

/* One statement: done only while this worker still holds the job (else
 * the lease was lost, and the transaction is rolled back). */
int work_done(struct work *w, err_t err)
{
	return store_complete(w->store, w->job.id, w->o->name, err);
}

int work_event(struct work *w, const char *kind, int64_t submission, json_t *data,
	       err_t err)
{
	return events_record(w->store, &w->o->cfg->hooks, kind, submission, data, err) == 0 ? 0
											    : -1;
}

/* A version that qualified and replaced an older one is compared with it
 * (worker.compare_pairs), so its author learns whether it is better
 * without asking.  A comparison refused (the older one no longer
 * compiled, say) is no failure of the job. */
static int compare_with_previous(struct work *w, const struct store_submission *sub,
				 err_t err)
{
	unsigned pairs = w->o->cfg->worker.compare_pairs;
	err_t cerr;
	int64_t old, id;
	int found = pairs ? store_previous_version(w->store, sub, &old, err) : 0;
	if (found < 0)
		return -1;
	if (found && compare_queue_within(w->store, sub->author, sub->id, old, (int)pairs, &id,
					  cerr) < 0) {
		err_set(err, "comparing with the previous version: %.200s", cerr->msg);
		return -1;
	}
	return 0;
}

int work_conclude(struct work *w, int64_t submission, bool passed, const char *note,
		  err_t err)
{
	struct store_submission sub;
	struct rating_params p = rating_params_default();
	int found = store_get_submission(w->store, submission, &sub, err);
	if (found == 0)
		err_set(err, "no submission %lld", (long long)submission);
	if (found <= 0 ||
	    store_conclude_qualification(w->store, &sub, passed, p.mu, p.sigma, err) < 0 ||
	    store_set_qualify_note(w->store, submission, note, err) < 0)
		return -1;
	if (passed && compare_with_previous(w, &sub, err) < 0)
		return -1;
	json_t *data = json_pack("{s:s, s:s}", "player", sub.name, "author", sub.author);
	int rc = work_event(w, passed ? "submission.qualified" : "submission.not_qualified",
			    submission, data, err);
	json_decref(data);
	return rc;
}
