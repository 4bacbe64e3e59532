/* webhook.h - telling other programs what the judge did, by HTTP POST.
 *
 * Promises.  The endpoints and the events they want are the settings'
 * (judge/base/hook_config.h, checked when the config is read).  An event
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

#include "judge/base/hook_config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOOK_REASONLEN 256
#define HOOK_ANSWER_MAX (64 * 1024)
#define HOOK_CONNECT_MS 3000      /* longest TCP (+ TLS) set-up, within the timeout */
#define HOOK_USER_AGENT "judge-webhook/1 (AI game tournament judge)"

/* The schedule: attempt 1 at once, attempt n >= 2 after 1 s * 2^(n-2),
 * never more than 10 minutes. */
#define HOOK_BACKOFF_FIRST_MS 1000
#define HOOK_BACKOFF_MAX_MS (10 * 60 * 1000)

struct hook_result {
	bool delivered;  /* the endpoint answered 2xx */
	bool permanent;  /* retrying cannot help (a malformed notify payload) */
	long status;     /* the HTTP status, 0 when there was no answer */
	char reason[HOOK_REASONLEN]; /* "delivered (HTTP 204)", "connection refused", ... */
};

/* ---- process ------------------------------------------------------------ */

/* Once at start, before any thread: libcurl loaded (lazy_curl.h) and set
 * up; 0, or -1 with err filled. */
int hook_global_init(err_t err);
void hook_global_cleanup(void);

/* One request the judge sends (a webhook, an upload): what hook_request()
 * sets on a libcurl handle.  Whatever is asked, it speaks only http and
 * https, follows no redirect (what is sent goes only where it was told)
 * and raises no signal (the judge has threads and handlers of its own). */
struct hook_request {
	const char *url;
	const char *body;                /* a POST of these bytes; NULL: a GET */
	struct curl_slist *headers;
	const char *user_agent;
	long connect_ms, timeout_ms;
	bool direct;                     /* no proxy, whatever the environment says */
	size_t (*take_body)(char *bytes, size_t size, size_t n, void *ctx);
	size_t (*take_header)(char *bytes, size_t size, size_t n, void *ctx); /* or NULL */
	void *ctx;                       /* for take_body and take_header */
	char *errbuf;                    /* CURL_ERROR_SIZE bytes: libcurl's words */
};
/* Sets r on the libcurl handle h: false when libcurl refused an option. */
bool hook_request(void *h, const struct hook_request *r);

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
