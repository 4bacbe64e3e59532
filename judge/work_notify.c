/* work_notify.c - events, and the webhook deliveries they cause. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/webhook.h"
#include "judge/work.h"

/* One notify job per endpoint that wants the event: each delivery is
 * tried on its own, with a short timeout, so a dead endpoint only delays
 * its own deliveries. */
static int queue_deliveries(struct work *w, const char *kind, json_t *data,
			    char err[WORKER_ERRLEN])
{
	const struct hook_config *hc = &w->o->cfg->hooks;
	int ev = hook_event_parse(kind);
	size_t idx[HOOK_MAX_ENDPOINTS], n = ev < 0 ? 0 : hook_select(hc, ev, idx);
	if (n == 0)
		return 0;
	json_t *event = hook_event_new(ev, store_now_ms(), json_incref(data));
	int rc = event ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *payload = hook_job_payload(hc->endpoints[idx[i]].url, event);
		char serr[STORE_ERRLEN] = "out of memory";
		rc = payload ? store_enqueue(w->store, "notify", payload, 1, 0, NULL, serr) : -1;
		if (rc < 0)
			snprintf(err, WORKER_ERRLEN, "queueing a webhook: %s", serr);
		free(payload);
	}
	json_decref(event);
	return rc;
}

int work_event(struct work *w, const char *kind, int64_t submission, json_t *data,
	       char err[WORKER_ERRLEN])
{
	char *text = json_dumps(data, JSON_COMPACT);
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;
	if (text && sqlite3_prepare_v2(store_db(w->store),
				       "INSERT INTO events (kind, submission_id, payload, created_at)"
				       " VALUES (?, ?, ?, ?)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, submission);
		sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, store_now_ms());
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(text);
	if (rc != SQLITE_DONE) {
		snprintf(err, WORKER_ERRLEN, "recording an event: %s", sqlite3_errmsg(store_db(w->store)));
		return -1;
	}
	return queue_deliveries(w, kind, data, err);
}

/* Delivers outside any transaction (the POST may take its whole timeout),
 * then ends the job. */
int work_notify(struct work *w, char err[WORKER_ERRLEN])
{
	struct hook_result r;
	hook_job_deliver(w->job.payload, w->o->cfg->hooks.timeout_ms, &r);
	if (!r.delivered) {
		snprintf(err, WORKER_ERRLEN, "webhook: %.240s", r.reason);
		w->permanent = r.permanent;
		return -1;
	}
	char serr[STORE_ERRLEN];
	if (store_begin(w->store, serr) < 0 || work_done(w, err) < 0 ||
	    store_commit(w->store, serr) < 0) {
		if (!err[0])
			snprintf(err, WORKER_ERRLEN, "%s", serr);
		store_rollback(w->store);
		return -1;
	}
	snprintf(w->outcome, sizeof w->outcome, "%s", r.reason);
	return 0;
}
