/* webhook.h - telling other programs what the judge did, by HTTP POST.
 *
 * Promises.  The configured endpoints (config/judge.json "webhooks") are
 * checked when read: only http:// and https:// URLs, only the events below,
 * at most HOOK_MAX_ENDPOINTS; a bad entry is an error naming it.  An event
 * is one JSON object {"event", "time", "data"}, built once when it happens,
 * so every endpoint and every retry gets the same bytes.  One delivery is
 * one POST with short connect and total timeouts, no redirects, no proxy,
 * no signals, the answer's body read at most HOOK_ANSWER_MAX bytes and
 * thrown away; its result is "delivered" (a 2xx answer) or a reason a
 * person understands ("connection refused", "timed out after 2000 ms",
 * "HTTP 500").  Retries are the caller's: hook_retry() is a pure schedule.
 *
 * A dead endpoint never blocks judging: each delivery is its own "notify"
 * job in the store, done in one attempt of at most timeout_ms; a failure
 * goes back to the queue with a not_before from hook_retry(), and the
 * compile and match jobs are claimed in between.  Nothing here waits for
 * a retry.
 *
 * Process state: libcurl's global set-up is not thread-safe, so the
 * program calls hook_global_init() once at start, before it starts any
 * thread, and hook_global_cleanup() once at exit.  Nothing else here keeps
 * state between calls; every function may be called from any thread.
 */
#ifndef JUDGE_WEBHOOK_H
#define JUDGE_WEBHOOK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOOK_ERRLEN 256           /* same as CFG_ERRLEN: config.c passes its buffer */
#define HOOK_REASONLEN 256
#define HOOK_MAX_ENDPOINTS 32
#define HOOK_URL_MAX 1024         /* including the terminating NUL */
#define HOOK_ANSWER_MAX (64 * 1024)
#define HOOK_CONNECT_MS 3000      /* longest TCP (+ TLS) set-up, within the timeout */
#define HOOK_USER_AGENT "judge-webhook/1 (AI game tournament judge)"

/* Defaults and the ranges config/judge.json "webhook_delivery" accepts. */
#define HOOK_DEFAULT_TIMEOUT_MS 5000
#define HOOK_MIN_TIMEOUT_MS 100
#define HOOK_MAX_TIMEOUT_MS 60000
#define HOOK_DEFAULT_ATTEMPTS 8
#define HOOK_MAX_ATTEMPTS 100

/* The schedule: attempt 1 at once, attempt n >= 2 after 1 s * 2^(n-2),
 * never more than 10 minutes. */
#define HOOK_BACKOFF_FIRST_MS 1000
#define HOOK_BACKOFF_MAX_MS (10 * 60 * 1000)

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

struct hook_result {
	bool delivered;  /* the endpoint answered 2xx */
	bool permanent;  /* retrying cannot help (a malformed notify payload) */
	long status;     /* the HTTP status, 0 when there was no answer */
	char reason[HOOK_REASONLEN]; /* "delivered (HTTP 204)", "connection refused", ... */
};

/* ---- process ------------------------------------------------------------ */

/* Once at start, before any thread; 0, or -1 with err filled. */
int hook_global_init(char err[HOOK_ERRLEN]);
void hook_global_cleanup(void);

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
int hook_parse_endpoints(struct hook_config *hc, const json_t *array, char err[HOOK_ERRLEN]);

/* Reads the "webhook_delivery" object: {"timeout_ms": .., "max_attempts": ..}. */
int hook_parse_delivery(struct hook_config *hc, const json_t *obj, char err[HOOK_ERRLEN]);

/* Does ep want ev? */
bool hook_wants(const struct hook_endpoint *ep, enum hook_event ev);

/* The indexes of the endpoints that want ev, in config order, into out;
 * returns how many. */
size_t hook_select(const struct hook_config *hc, enum hook_event ev,
		   size_t out[HOOK_MAX_ENDPOINTS]);

/* ---- bodies and notify jobs ---------------------------------------------- */

/* A new event object {"event": name, "time": "2024-05-01T12:00:00.123Z",
 * "data": data}; time_ms is Unix time in milliseconds (store_now_ms()).
 * Takes the reference to data (NULL gives {}).  NULL when out of memory or
 * ev is not an event. */
json_t *hook_event_new(enum hook_event ev, int64_t time_ms, json_t *data);

/* The bytes POSTed for an event: compact JSON, keys in insertion order.
 * malloc'd; NULL when out of memory. */
char *hook_event_text(const json_t *event);

/* A notify job's payload, {"url": url, "body": event}, malloc'd JSON text
 * for store_enqueue(s, "notify", payload, ...).  NULL when out of memory. */
char *hook_job_payload(const char *url, const json_t *event);

/* Does one notify job: one POST of its body to its url.  A payload that is
 * not one hook_job_payload() made fails with permanent set. */
void hook_job_deliver(const char *payload, unsigned timeout_ms, struct hook_result *r);

/* ---- delivery ------------------------------------------------------------ */

/* POSTs body (JSON text) to url, giving up after timeout_ms in all (0 is
 * taken as 1 ms, never as "no limit").  Fills r; returns r->delivered. */
bool hook_post(const char *url, const char *body, unsigned timeout_ms, struct hook_result *r);

/* ---- retries ------------------------------------------------------------- */

/* The wait before attempt n (1-based): 0 for the first, then 1 s, 2 s,
 * 4 s ..., at most HOOK_BACKOFF_MAX_MS. */
int64_t hook_backoff_ms(unsigned attempt);

/* After attempt `failed` (1-based, the store's jobs.attempts) failed: true
 * with *delay_ms the wait before the next one, or false (*delay_ms 0) when
 * max_attempts are used up and the job should be parked. */
bool hook_retry(unsigned failed, unsigned max_attempts, int64_t *delay_ms);

#endif
