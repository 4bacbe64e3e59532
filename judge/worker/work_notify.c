/* work_notify.c - events, and the webhook deliveries they cause. */
#include <stdio.h>
#include <stdlib.h>

#include "judge/notify/events.h"
#include "judge/notify/webhook.h"
#include "judge/worker/work.h"

/* Delivers outside any transaction (the POST may take its whole timeout),
 * then ends the job. */
int work_notify(struct work *w, err_t err)
{
	struct hook_result r;
	hook_job_deliver(w->job.payload, w->o->cfg->hooks.timeout_ms, &r);
	if (!r.delivered) {
		err_set(err, "webhook: %.240s", r.reason);
		w->permanent = r.permanent;
		return -1;
	}
	if (store_begin(w->store, err) < 0 || work_done(w, err) < 0 ||
	    store_commit(w->store, err) < 0) {
		store_rollback(w->store);
		return -1;
	}
	snprintf(w->outcome, sizeof w->outcome, "%s", r.reason);
	return 0;
}
