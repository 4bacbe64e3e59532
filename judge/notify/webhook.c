#include "judge/notify/webhook.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const event_names[HOOK_EVENT_COUNT] = {
	[HOOK_SUBMISSION_COMPILED] = "submission.compiled",
	[HOOK_SUBMISSION_FAILED] = "submission.failed",
	[HOOK_SUBMISSION_QUALIFIED] = "submission.qualified",
	[HOOK_SUBMISSION_NOT_QUALIFIED] = "submission.not_qualified",
	[HOOK_RANK_CHANGED] = "rank.changed",
	[HOOK_PLAGIARISM_FLAGGED] = "plagiarism.flagged",
};

/* ---- process ------------------------------------------------------------ */

int hook_global_init(char err[HOOK_ERRLEN])
{
	CURLcode c = curl_global_init(CURL_GLOBAL_DEFAULT);
	if (c != CURLE_OK) {
		snprintf(err, HOOK_ERRLEN, "webhooks: libcurl would not start: %s",
			 curl_easy_strerror(c));
		return -1;
	}
	return 0;
}

void hook_global_cleanup(void)
{
	curl_global_cleanup();
}

/* ---- events -------------------------------------------------------------- */

const char *hook_event_name(enum hook_event ev)
{
	if ((unsigned)ev >= HOOK_EVENT_COUNT)
		return NULL;
	return event_names[ev];
}

int hook_event_parse(const char *name)
{
	for (int i = 0; i < HOOK_EVENT_COUNT; i++)
		if (name && strcmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* ---- configuration ------------------------------------------------------- */

void hook_defaults(struct hook_config *hc)
{
	hc->count = 0;
	hc->timeout_ms = HOOK_DEFAULT_TIMEOUT_MS;
	hc->max_attempts = HOOK_DEFAULT_ATTEMPTS;
}

static bool has_web_scheme(const char *s)
{
	return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

/* Lets libcurl's own parser judge the rest, so that what passes here is
 * what hook_post() will be able to send to. */
static int check_url(const char *s, size_t i, char err[HOOK_ERRLEN])
{
	if (!*s || strlen(s) >= HOOK_URL_MAX) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].url must be a URL of 1 to %d "
			 "characters", i, HOOK_URL_MAX - 1);
		return -1;
	}
	if (!has_web_scheme(s)) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].url: only http:// and https:// "
			 "URLs may be used, not \"%.80s\"", i, s);
		return -1;
	}
	CURLU *u = curl_url();
	if (!u) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].url: out of memory", i);
		return -1;
	}
	CURLUcode c = curl_url_set(u, CURLUPART_URL, s, 0);
	curl_url_cleanup(u);
	if (c != CURLUE_OK) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].url \"%.80s\" is not a valid URL: "
			 "%s", i, s, curl_url_strerror(c));
		return -1;
	}
	return 0;
}

/* "submission.compiled, ...": the list an error message offers. */
static void known_events(char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < HOOK_EVENT_COUNT && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? ", " : "",
					event_names[i]);
}

static int parse_events(const json_t *arr, size_t i, unsigned *events, char err[HOOK_ERRLEN])
{
	if (!json_is_array(arr) || json_array_size(arr) == 0) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].events must be a list of at least "
			 "one event name", i);
		return -1;
	}
	size_t j;
	const json_t *v;
	*events = 0;
	json_array_foreach(arr, j, v) {
		int ev = hook_event_parse(json_string_value(v));
		if (ev < 0) {
			char known[128]; /* the list is 120 characters */
			known_events(known, sizeof known);
			snprintf(err, HOOK_ERRLEN, "config: webhooks[%u].events[%u]: unknown event "
				 "\"%.40s\" (known: %s)", (unsigned)i, (unsigned)j,
				 json_is_string(v) ? json_string_value(v) : "(not a string)", known);
			return -1;
		}
		*events |= 1u << ev;
	}
	return 0;
}

static int parse_endpoint(struct hook_endpoint *ep, const json_t *obj, size_t i,
			  char err[HOOK_ERRLEN])
{
	if (!json_is_object(obj)) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu] must be an object "
			 "{\"url\": ..., \"events\": [...]}", i);
		return -1;
	}
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		if (strcmp(key, "url") != 0 && strcmp(key, "events") != 0) {
			snprintf(err, HOOK_ERRLEN, "config: unknown setting webhooks[%zu].%.60s", i, key);
			return -1;
		}
	}
	const char *url = json_string_value(json_object_get(obj, "url"));
	if (!url) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks[%zu].url must be a string", i);
		return -1;
	}
	if (check_url(url, i, err) < 0 ||
	    parse_events(json_object_get(obj, "events"), i, &ep->events, err) < 0)
		return -1;
	strcpy(ep->url, url);
	return 0;
}

int hook_parse_endpoints(struct hook_config *hc, const json_t *array, char err[HOOK_ERRLEN])
{
	hc->count = 0;
	if (!json_is_array(array)) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks must be a list of "
			 "{\"url\": ..., \"events\": [...]}");
		return -1;
	}
	if (json_array_size(array) > HOOK_MAX_ENDPOINTS) {
		snprintf(err, HOOK_ERRLEN, "config: webhooks lists %zu endpoints; at most %d are "
			 "allowed", json_array_size(array), HOOK_MAX_ENDPOINTS);
		return -1;
	}
	size_t i;
	const json_t *v;
	json_array_foreach(array, i, v) {
		if (parse_endpoint(&hc->endpoints[i], v, i, err) < 0) {
			hc->count = 0;
			return -1;
		}
		hc->count = i + 1;
	}
	return 0;
}

static int parse_uint(const json_t *v, const char *key, unsigned min, unsigned max,
		      unsigned *out, char err[HOOK_ERRLEN])
{
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(err, HOOK_ERRLEN, "config: webhook_delivery.%s must be a non-negative "
			 "integer", key);
		return -1;
	}
	json_int_t x = json_integer_value(v);
	if (x < min || x > max) {
		snprintf(err, HOOK_ERRLEN, "config: webhook_delivery.%s = %lld is out of range "
			 "[%u, %u]", key, (long long)x, min, max);
		return -1;
	}
	*out = (unsigned)x;
	return 0;
}

int hook_parse_delivery(struct hook_config *hc, const json_t *obj, char err[HOOK_ERRLEN])
{
	if (!json_is_object(obj)) {
		snprintf(err, HOOK_ERRLEN, "config: webhook_delivery must be an object");
		return -1;
	}
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		int rc;
		if (strcmp(key, "timeout_ms") == 0)
			rc = parse_uint(v, key, HOOK_MIN_TIMEOUT_MS, HOOK_MAX_TIMEOUT_MS,
					&hc->timeout_ms, err);
		else if (strcmp(key, "max_attempts") == 0)
			rc = parse_uint(v, key, 1, HOOK_MAX_ATTEMPTS, &hc->max_attempts, err);
		else {
			snprintf(err, HOOK_ERRLEN, "config: unknown setting webhook_delivery.%.60s",
				 key);
			rc = -1;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

bool hook_wants(const struct hook_endpoint *ep, enum hook_event ev)
{
	return (unsigned)ev < HOOK_EVENT_COUNT && (ep->events & (1u << ev));
}

size_t hook_select(const struct hook_config *hc, enum hook_event ev,
		   size_t out[HOOK_MAX_ENDPOINTS])
{
	size_t n = 0;
	for (size_t i = 0; i < hc->count && i < HOOK_MAX_ENDPOINTS; i++)
		if (hook_wants(&hc->endpoints[i], ev))
			out[n++] = i;
	return n;
}

/* ---- bodies and notify jobs ---------------------------------------------- */

/* RFC 3339 in UTC with milliseconds: what receivers in any language parse. */
static int format_time(int64_t ms, char out[40])
{
	int64_t sec = ms / 1000, frac = ms % 1000;
	if (frac < 0) {
		frac += 1000;
		sec -= 1;
	}
	time_t t = (time_t)sec;
	struct tm tm;
	if (!gmtime_r(&t, &tm))
		return -1;
	size_t n = strftime(out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n == 0)
		return -1;
	snprintf(out + n, 40 - n, ".%03dZ", (int)frac);
	return 0;
}

json_t *hook_event_new(enum hook_event ev, int64_t time_ms, json_t *data)
{
	char when[40];
	const char *name = hook_event_name(ev);
	if (!data)
		data = json_object();
	if (!name || !data || format_time(time_ms, when) < 0) {
		json_decref(data);
		return NULL;
	}
	/* "o" hands our reference to data over to the new object. */
	return json_pack("{s:s, s:s, s:o}", "event", name, "time", when, "data", data);
}

char *hook_event_text(const json_t *event)
{
	return json_dumps(event, JSON_COMPACT);
}

char *hook_job_payload(const char *url, const json_t *event)
{
	/* jansson counts references even on values nobody changes, hence the
	 * cast; the payload only reads event. */
	json_t *job = json_pack("{s:s, s:O}", "url", url, "body", (json_t *)event);
	if (!job)
		return NULL;
	char *text = json_dumps(job, JSON_COMPACT);
	json_decref(job);
	return text;
}

static void set_reason(struct hook_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_reason(struct hook_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof r->reason, fmt, ap);
	va_end(ap);
}

void hook_job_deliver(const char *payload, unsigned timeout_ms, struct hook_result *r)
{
	*r = (struct hook_result){ 0 };
	json_t *job = payload ? json_loads(payload, 0, NULL) : NULL;
	const char *url = json_string_value(json_object_get(job, "url"));
	json_t *body = json_object_get(job, "body");
	char *text = json_is_object(body) ? hook_event_text(body) : NULL;
	if (!url || !text) {
		r->permanent = true;
		set_reason(r, "the notify job's payload is not {\"url\": ..., \"body\": {...}}");
	} else {
		hook_post(url, text, timeout_ms, r);
	}
	free(text);
	json_decref(job);
}

/* ---- delivery ------------------------------------------------------------ */

/* The answer's body is of no use to the judge; it is counted, not kept,
 * and an endpoint that sends too much is cut off. */
struct answer {
	size_t bytes;
	bool cut;
};

static size_t discard(char *p, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t len = size * n;
	(void)p;
	if (len > HOOK_ANSWER_MAX - a->bytes) {
		a->cut = true;
		return 0; /* anything but len stops the transfer */
	}
	a->bytes += len;
	return len;
}

static bool set_options(CURL *h, const char *url, const char *body, unsigned timeout_ms,
			struct curl_slist *headers, struct answer *a, char *errbuf)
{
	unsigned connect_ms = timeout_ms < HOOK_CONNECT_MS ? timeout_ms : HOOK_CONNECT_MS;
	bool bad = false;
	bad |= curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_URL, url) != CURLE_OK;
	/* A URL that slipped past the config check still goes nowhere else. */
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDS, body) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body)) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_USERAGENT, HOOK_USER_AGENT) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)connect_ms) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout_ms) != CURLE_OK;
	/* A redirect would re-send the event somewhere the config never named. */
	bad |= curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK;
	/* The judge has threads and signal handlers of its own: no SIGALRM. */
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	/* "" ignores http_proxy and friends: an event goes where the config
	 * says, and nowhere a stray environment variable points. */
	bad |= curl_easy_setopt(h, CURLOPT_PROXY, "") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEDATA, a) != CURLE_OK;
	return !bad;
}

/* Content-Type is the point; "Expect:" stops libcurl from waiting up to a
 * second for a "100 Continue" before sending a body over 1 MiB. */
static struct curl_slist *make_headers(void)
{
	struct curl_slist *list = curl_slist_append(NULL, "Content-Type: application/json");
	struct curl_slist *more = list ? curl_slist_append(list, "Expect:") : NULL;
	if (!more)
		curl_slist_free_all(list);
	return more;
}

static void explain_status(long status, struct hook_result *r)
{
	r->status = status;
	r->delivered = status >= 200 && status <= 299;
	if (r->delivered)
		set_reason(r, "delivered (HTTP %ld)", status);
	else if (status >= 300 && status <= 399)
		set_reason(r, "HTTP %ld (redirects are not followed)", status);
	else
		set_reason(r, "HTTP %ld", status);
}

/* Which limit ran out: the connect one covers TCP and, for https, the TLS
 * handshake; after that only the total one is left. */
static void explain_timeout(CURL *h, unsigned timeout_ms, struct hook_result *r)
{
	curl_off_t tcp_us = 0, tls_us = 0;
	const char *scheme = NULL;
	curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &tcp_us);
	curl_easy_getinfo(h, CURLINFO_APPCONNECT_TIME_T, &tls_us);
	curl_easy_getinfo(h, CURLINFO_SCHEME, &scheme);
	bool https = scheme && strcasecmp(scheme, "https") == 0;
	if (tcp_us > 0 && (tls_us > 0 || !https))
		set_reason(r, "timed out after %u ms", timeout_ms);
	else
		set_reason(r, "timed out after %u ms while connecting",
			   timeout_ms < HOOK_CONNECT_MS ? timeout_ms : HOOK_CONNECT_MS);
}

static void explain_error(CURL *h, CURLcode c, const char *errbuf, unsigned timeout_ms,
			  struct hook_result *r)
{
	const char *detail = *errbuf ? errbuf : curl_easy_strerror(c);
	long os_errno = 0;
	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
		explain_timeout(h, timeout_ms, r);
		break;
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &os_errno);
		if (os_errno == ECONNREFUSED)
			set_reason(r, "connection refused");
		else
			set_reason(r, "could not connect: %s", detail);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		set_reason(r, "unknown host: %s", detail);
		break;
	case CURLE_GOT_NOTHING:
		set_reason(r, "the endpoint closed the connection without answering");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		set_reason(r, "only http:// and https:// URLs may be used");
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
		set_reason(r, "TLS failed: %s", detail);
		break;
	default:
		set_reason(r, "%s", detail);
	}
}

bool hook_post(const char *url, const char *body, unsigned timeout_ms, struct hook_result *r)
{
	*r = (struct hook_result){ 0 };
	/* To libcurl 0 means "no limit": never that. */
	if (timeout_ms == 0)
		timeout_ms = 1;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct answer a = { 0 };
	struct curl_slist *headers = make_headers();
	CURL *h = curl_easy_init();
	if (!url || !body || !headers || !h ||
	    !set_options(h, url, body, timeout_ms, headers, &a, errbuf)) {
		set_reason(r, "libcurl could not be set up (out of memory?)");
	} else {
		CURLcode c = curl_easy_perform(h);
		long status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		/* The status line is the endpoint's verdict; what becomes of the
		 * body after it (cut off, slow) changes nothing. */
		if (status > 0)
			explain_status(status, r);
		else
			explain_error(h, c, errbuf, timeout_ms, r);
	}
	curl_easy_cleanup(h);
	curl_slist_free_all(headers);
	return r->delivered;
}

/* ---- retries ------------------------------------------------------------- */

int64_t hook_backoff_ms(unsigned attempt)
{
	if (attempt <= 1)
		return 0;
	int64_t d = HOOK_BACKOFF_FIRST_MS;
	for (unsigned n = 2; n < attempt && d < HOOK_BACKOFF_MAX_MS; n++)
		d *= 2;
	return d < HOOK_BACKOFF_MAX_MS ? d : HOOK_BACKOFF_MAX_MS;
}

bool hook_retry(unsigned failed, unsigned max_attempts, int64_t *delay_ms)
{
	if (failed >= max_attempts) {
		*delay_ms = 0;
		return false;
	}
	*delay_ms = hook_backoff_ms(failed + 1);
	return true;
}
