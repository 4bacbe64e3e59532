#include "judge/notify/events.h"

#include <stdio.h>
#include <stdlib.h>

/* One notify job per endpoint that wants the event: each delivery is
 * tried on its own, with a short timeout, so a dead endpoint only delays
 * its own deliveries. */
static int queue_deliveries(struct store *s, const struct hook_config *hc, const char *kind,
			    json_t *data, err_t err)
{
	int ev = hook_event_parse(kind);
	size_t idx[HOOK_MAX_ENDPOINTS], n = ev < 0 ? 0 : hook_select(hc, ev, idx);
	if (n == 0)
		return 0;
	json_t *event = hook_event_new(ev, store_now_ms(), json_incref(data));
	int rc = event ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *payload = hook_job_payload(hc->endpoints[idx[i]].url, event);
		err_t serr = {0};
		rc = payload ? store_enqueue(s, "notify", payload, SCHED_NOTIFY, 0, NULL, serr) : -1;
		if (rc < 0)
			err_set(err, "queueing a webhook: %.200s", serr->msg);
		free(payload);
	}
	if (!event)
		err_set(err, "queueing a webhook: out of memory");
	json_decref(event);
	return rc;
}

int events_record(struct store *s, const struct hook_config *hc, const char *kind,
		  int64_t submission, json_t *data, err_t err)
{
	char *text = json_dumps(data, JSON_COMPACT);
	if (!text) {
		err_set(err, "recording an event: out of memory");
		return -1;
	}
	int rc = store_add_event(s, kind, submission, text, err);
	free(text);
	return rc < 0 ? -1 : queue_deliveries(s, hc, kind, data, err);
}
