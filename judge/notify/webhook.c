#include "judge/notify/webhook.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "judge/notify/lazy_curl.h"

/* ---- process ------------------------------------------------------------ */

int hook_global_init(err_t err)
{
	if (curl_require(err) < 0)
		return -1;
	CURLcode c = curl_global_init(CURL_GLOBAL_DEFAULT);
	if (c != CURLE_OK) {
		err_set(err, "webhooks: libcurl would not start: %s",
			 curl_easy_strerror(c));
		return -1;
	}
	return 0;
}

void hook_global_cleanup(void)
{
	curl_global_cleanup();
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

bool hook_request(void *h, const struct hook_request *r)
{
	bool bad = curl_easy_setopt(h, CURLOPT_ERRORBUFFER, r->errbuf) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_URL, r->url) != CURLE_OK;
	/* A URL that slipped past the checks still goes nowhere else. */
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK;
	if (r->body) {
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDS, r->body) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(r->body)) != CURLE_OK;
	}
	bad |= curl_easy_setopt(h, CURLOPT_HTTPHEADER, r->headers) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_USERAGENT, r->user_agent) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, r->connect_ms) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, r->timeout_ms) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	/* "" ignores http_proxy and friends. */
	if (r->direct)
		bad |= curl_easy_setopt(h, CURLOPT_PROXY, "") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, r->take_body) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_WRITEDATA, r->ctx) != CURLE_OK;
	if (r->take_header) {
		bad |= curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, r->take_header) != CURLE_OK;
		bad |= curl_easy_setopt(h, CURLOPT_HEADERDATA, r->ctx) != CURLE_OK;
	}
	return !bad;
}

/* An event goes where the config says: never a redirect's target, nor
 * where a stray http_proxy points. */
static bool set_options(CURL *h, const char *url, const char *body, unsigned timeout_ms,
			struct curl_slist *headers, struct answer *a, char *errbuf)
{
	unsigned connect_ms = timeout_ms < HOOK_CONNECT_MS ? timeout_ms : HOOK_CONNECT_MS;
	return hook_request(h, &(struct hook_request){ .url = url, .body = body,
		.headers = headers, .user_agent = HOOK_USER_AGENT, .connect_ms = connect_ms,
		.timeout_ms = timeout_ms, .direct = true, .take_body = discard, .ctx = a,
		.errbuf = errbuf });
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
