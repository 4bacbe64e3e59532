#include "judge/base/hook_config.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "judge/base/lazy_curl_url.h"

static const char *const event_names[HOOK_EVENT_COUNT] = {
	[HOOK_SUBMISSION_COMPILED] = "submission.compiled",
	[HOOK_SUBMISSION_FAILED] = "submission.failed",
	[HOOK_SUBMISSION_QUALIFIED] = "submission.qualified",
	[HOOK_SUBMISSION_NOT_QUALIFIED] = "submission.not_qualified",
	[HOOK_RANK_CHANGED] = "rank.changed",
	[HOOK_PLAGIARISM_FLAGGED] = "plagiarism.flagged",
};

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
static int check_url(const char *s, size_t i, err_t err)
{
	if (!*s || strlen(s) >= HOOK_URL_MAX) {
		err_set(err, "config: webhooks[%zu].url must be a URL of 1 to %d "
			 "characters", i, HOOK_URL_MAX - 1);
		return -1;
	}
	if (!has_web_scheme(s)) {
		err_set(err, "config: webhooks[%zu].url: only http:// and https:// "
			 "URLs may be used, not \"%.80s\"", i, s);
		return -1;
	}
	if (curl_url_require(err) < 0) {
		err_prefix(err, "config: webhooks[%zu].url cannot be checked", i);
		return -1;
	}
	CURLU *u = curl_url();
	if (!u) {
		err_set(err, "config: webhooks[%zu].url: out of memory", i);
		return -1;
	}
	CURLUcode c = curl_url_set(u, CURLUPART_URL, s, 0);
	curl_url_cleanup(u);
	if (c != CURLUE_OK) {
		err_set(err, "config: webhooks[%zu].url \"%.80s\" is not a valid URL: "
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

static int parse_events(const json_t *arr, size_t i, unsigned *events, err_t err)
{
	if (!json_is_array(arr) || json_array_size(arr) == 0) {
		err_set(err, "config: webhooks[%zu].events must be a list of at least "
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
			err_set(err, "config: webhooks[%u].events[%u]: unknown event "
				 "\"%.40s\" (known: %s)", (unsigned)i, (unsigned)j,
				 json_is_string(v) ? json_string_value(v) : "(not a string)", known);
			return -1;
		}
		*events |= 1u << ev;
	}
	return 0;
}

static int parse_endpoint(struct hook_endpoint *ep, const json_t *obj, size_t i,
			  err_t err)
{
	if (!json_is_object(obj)) {
		err_set(err, "config: webhooks[%zu] must be an object "
			 "{\"url\": ..., \"events\": [...]}", i);
		return -1;
	}
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		if (strcmp(key, "url") != 0 && strcmp(key, "events") != 0) {
			err_set(err, "config: unknown setting webhooks[%zu].%.60s", i, key);
			return -1;
		}
	}
	const char *url = json_string_value(json_object_get(obj, "url"));
	if (!url) {
		err_set(err, "config: webhooks[%zu].url must be a string", i);
		return -1;
	}
	if (check_url(url, i, err) < 0 ||
	    parse_events(json_object_get(obj, "events"), i, &ep->events, err) < 0)
		return -1;
	strcpy(ep->url, url);
	return 0;
}

int hook_parse_endpoints(struct hook_config *hc, const json_t *array, err_t err)
{
	hc->count = 0;
	if (!json_is_array(array)) {
		err_set(err, "config: webhooks must be a list of "
			 "{\"url\": ..., \"events\": [...]}");
		return -1;
	}
	if (json_array_size(array) > HOOK_MAX_ENDPOINTS) {
		err_set(err, "config: webhooks lists %zu endpoints; at most %d are "
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
		      unsigned *out, err_t err)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		err_set(err, "config: webhook_delivery.%s must be a non-negative "
			 "integer", key);
		return -1;
	}
	json_int_t x = json_integer_value(v);
	if (x < min || x > max) {
		err_set(err, "config: webhook_delivery.%s = %lld is out of range "
			 "[%u, %u]", key, (long long)x, min, max);
		return -1;
	}
	*out = (unsigned)x;
	return 0;
}

int hook_parse_delivery(struct hook_config *hc, const json_t *obj, err_t err)
{
	if (!json_is_object(obj)) {
		err_set(err, "config: webhook_delivery must be an object");
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
			err_set(err, "config: unknown setting webhook_delivery.%.60s",
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
