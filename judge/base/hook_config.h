/* hook_config.h - which programs the judge tells what, read from
 * config/judge.json ("webhooks" and "webhook_delivery").
 *
 * Promises.  The configured endpoints are checked when read: only http://
 * and https:// URLs that libcurl's own parser takes (so what passes here is
 * what judge/notify/webhook.c can send to), only the events below, at most
 * HOOK_MAX_ENDPOINTS; a bad entry is an error naming it.  The delivery
 * settings are checked against the ranges below.  Plain data and pure
 * functions, any thread.  Sending is judge/notify/webhook.h's.
 */
#ifndef JUDGE_HOOK_CONFIG_H
#define JUDGE_HOOK_CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "judge/base/error.h"

#define HOOK_MAX_ENDPOINTS 32
#define HOOK_URL_MAX 1024         /* including the terminating NUL */

/* Defaults and the ranges config/judge.json "webhook_delivery" accepts. */
#define HOOK_DEFAULT_TIMEOUT_MS 5000
#define HOOK_MIN_TIMEOUT_MS 100
#define HOOK_MAX_TIMEOUT_MS 60000
#define HOOK_DEFAULT_ATTEMPTS 8
#define HOOK_MAX_ATTEMPTS 100

enum hook_event {
	HOOK_SUBMISSION_COMPILED,
	HOOK_SUBMISSION_FAILED,
	HOOK_SUBMISSION_QUALIFIED,
	HOOK_SUBMISSION_NOT_QUALIFIED,
	HOOK_RANK_CHANGED,
	HOOK_PLAGIARISM_FLAGGED,
	HOOK_EVENT_COUNT
};

struct hook_endpoint {
	char url[HOOK_URL_MAX];
	unsigned events; /* bit (1u << enum hook_event) per event it wants */
};

struct hook_config {
	struct hook_endpoint endpoints[HOOK_MAX_ENDPOINTS];
	size_t count;
	unsigned timeout_ms;   /* one delivery, connect included */
	unsigned max_attempts; /* deliveries tried before a notify job is parked */
};

/* ---- events -------------------------------------------------------------- */

/* "submission.compiled", ...; NULL for a value outside the enum. */
const char *hook_event_name(enum hook_event ev);
/* The enum for a name, or -1 when it is not one of the events. */
int hook_event_parse(const char *name);

/* ---- configuration ------------------------------------------------------- */

/* No endpoints, the default timeout and attempt cap. */
void hook_defaults(struct hook_config *hc);

/* Replaces the endpoints with the "webhooks" array.  0, or -1 with err
 * naming the entry ("config: webhooks[1].events[0]: unknown event ...");
 * on error hc keeps no endpoint (half a list would be a surprise). */
int hook_parse_endpoints(struct hook_config *hc, const json_t *array, err_t err);

/* Reads the "webhook_delivery" object: {"timeout_ms": .., "max_attempts": ..}. */
int hook_parse_delivery(struct hook_config *hc, const json_t *obj, err_t err);

/* Does ep want ev? */
bool hook_wants(const struct hook_endpoint *ep, enum hook_event ev);

/* The indexes of the endpoints that want ev, in config order, into out;
 * returns how many. */
size_t hook_select(const struct hook_config *hc, enum hook_event ev,
		   size_t out[HOOK_MAX_ENDPOINTS]);

#endif
