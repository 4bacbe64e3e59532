/* events.h - what happened to a submission, as the events table keeps it
 * and the webhooks hear of it.
 *
 * Promise: inside the caller's write transaction, the event row and one
 * notify job per endpoint that wants the event are stored together, so an
 * event is delivered exactly when it is recorded.
 */
#ifndef JUDGE_EVENTS_H
#define JUDGE_EVENTS_H

#include <jansson.h>
#include <stdint.h>

#include "judge/store/store.h"
#include "judge/notify/webhook.h"

/* Records kind (a hook event name) for submission with data (borrowed). */
int events_record(struct store *s, const struct hook_config *hc, const char *kind,
		  int64_t submission, json_t *data, err_t err);

#endif
