#include "judge/notify/events.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

static int insert_event(struct store *s, const char *kind, int64_t submission,
			const char *text, char err[STORE_ERRLEN])
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;
	if (sqlite3_prepare_v2(db, "INSERT INTO events (kind, submission_id, payload, created_at)"
				   " VALUES (?, ?, ?, ?)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, submission);
		sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, store_now_ms());
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc == SQLITE_DONE)
		return 0;
	snprintf(err, STORE_ERRLEN, "recording an event: %s", sqlite3_errmsg(db));
	return -1;
}

/* One notify job per endpoint that wants the event: each delivery is
 * tried on its own, with a short timeout, so a dead endpoint only delays
 * its own deliveries. */
static int queue_deliveries(struct store *s, const struct hook_config *hc, const char *kind,
			    json_t *data, char err[STORE_ERRLEN])
{
	int ev = hook_event_parse(kind);
	size_t idx[HOOK_MAX_ENDPOINTS], n = ev < 0 ? 0 : hook_select(hc, ev, idx);
	if (n == 0)
		return 0;
	json_t *event = hook_event_new(ev, store_now_ms(), json_incref(data));
	int rc = event ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *payload = hook_job_payload(hc->endpoints[idx[i]].url, event);
		char serr[STORE_ERRLEN] = "out of memory";
		rc = payload ? store_enqueue(s, "notify", payload, 1, 0, NULL, serr) : -1;
		if (rc < 0)
			snprintf(err, STORE_ERRLEN, "queueing a webhook: %.200s", serr);
		free(payload);
	}
	if (!event)
		snprintf(err, STORE_ERRLEN, "queueing a webhook: out of memory");
	json_decref(event);
	return rc;
}

int events_record(struct store *s, const struct hook_config *hc, const char *kind,
		  int64_t submission, json_t *data, char err[STORE_ERRLEN])
{
	char *text = json_dumps(data, JSON_COMPACT);
	if (!text) {
		snprintf(err, STORE_ERRLEN, "recording an event: out of memory");
		return -1;
	}
	int rc = insert_event(s, kind, submission, text, err);
	free(text);
	return rc < 0 ? -1 : queue_deliveries(s, hc, kind, data, err);
}
