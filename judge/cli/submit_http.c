/* submit_http.c - see submit_http.h. */
#include "judge/cli/submit_http.h"

#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "judge/base/safe_text.h"
#include "judge/notify/webhook.h"

#define USER_AGENT "judge-upload/1"
#define CONNECT_TIMEOUT_S 10
#define SERVER_LINE_MAX 300 /* bytes of the server's error line shown */

struct answer {
	long status;
	char body[SUBMIT_HTTP_ANSWER_MAX + 1];
	size_t len;
	bool cut;
	char retry_after[32];
};

static size_t take_body(char *p, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t len = size * n;
	if (len > SUBMIT_HTTP_ANSWER_MAX - a->len) {
		a->cut = true;
		return 0; /* stops the transfer: no judge answers that much */
	}
	memcpy(a->body + a->len, p, len);
	a->len += len;
	a->body[a->len] = '\0';
	return len;
}

static size_t take_header(char *p, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t len = size * n;
	static const char name[] = "Retry-After:";
	if (len > sizeof name && strncasecmp(p, name, sizeof name - 1) == 0) {
		const char *v = p + sizeof name - 1;
		size_t k = 0;
		while (v < p + len && (*v == ' ' || *v == '\t'))
			v++;
		while (v < p + len && *v >= '0' && *v <= '9' && k + 1 < sizeof a->retry_after)
			a->retry_after[k++] = *v++;
		a->retry_after[k] = '\0';
	}
	return len;
}

/* A line from the server, safe for a terminal: only well-formed UTF-8,
 * no control characters (C0, DEL, C1), at most SERVER_LINE_MAX bytes. */
static void printable_line(const char *s, char *out, size_t size)
{
	size_t o = 0, n = strlen(s);
	for (size_t i = 0; i < n && o + 5 < size && o < SERVER_LINE_MAX;) {
		bool ok;
		size_t k = text_char((const unsigned char *)s + i, n - i, &ok);
		if (ok)
			memcpy(out + o, s + i, k);
		else
			out[o] = '?';
		o += ok ? k : 1;
		i += k;
	}
	out[o] = '\0';
}

/* The "error" of a {"error": "..."} answer, made printable; "" if none. */
static void server_error(const struct answer *a, char *out, size_t size)
{
	json_t *j = json_loadb(a->body, a->len, 0, NULL);
	const char *e = json_string_value(json_object_get(j, "error"));
	printable_line(e ? e : "", out, size);
	json_decref(j);
}

static void explain_curl(CURL *h, CURLcode c, const char *server, const char *detail,
			 err_t err)
{
	long os_errno = 0;
	switch (c) {
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &os_errno);
		err_set(err, 
			 "cannot reach the judge at %s: %s; check --server, or try again later",
			 server, os_errno == ECONNREFUSED ? "connection refused" : detail);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		err_set(err, 
			 "cannot reach the judge at %s: unknown host; check --server", server);
		break;
	case CURLE_OPERATION_TIMEDOUT:
		err_set(err, 
			 "the judge at %s did not answer within %d s; try again later", server,
			 SUBMIT_HTTP_TIMEOUT_S);
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
		err_set(err, 
			 "--server must be an http:// or https:// URL, not '%s'", server);
		break;
	case CURLE_GOT_NOTHING:
		err_set(err, 
			 "the judge at %s closed the connection without answering; try again later",
			 server);
		break;
	case CURLE_WRITE_ERROR:
		err_set(err, 
			 "the server at %s answered more than %d KiB: is it the judge?", server,
			 SUBMIT_HTTP_ANSWER_MAX / 1024);
		break;
	default:
		err_set(err, "cannot talk to the judge at %s: %s", server,
			 detail);
	}
}

/* What a refusal (3xx, 4xx, 5xx) means, with the server's own line. */
static void explain_status(const struct answer *a, const char *server,
			   err_t err)
{
	char line[SERVER_LINE_MAX + 8];
	server_error(a, line, sizeof line);
	const char *sep = *line ? ": " : "";
	long st = a->status;
	if (st == 401)
		/* the judge's own 401s already say to ask the organisers */
		err_set(err, 
			 "the server refused your token (401)%s%s; check --token or JUDGE_TOKEN%s",
			 sep, line, *line ? "" : ", or ask the organiser for a new token");
	else if (st == 413)
		err_set(err, "the file is too large for the server (413)%s%s",
			 sep, line);
	else if (st == 429)
		err_set(err, "too many requests (429)%s%s; try again in %s "
			 "seconds", sep, line, *a->retry_after ? a->retry_after : "a few");
	else if (st >= 500)
		err_set(err, "the server failed (HTTP %ld)%s%s; try again "
			 "later, or tell the organiser", st, sep, line);
	else if (st >= 300 && st < 400)
		err_set(err, "the server at %s redirects (HTTP %ld); give "
			 "--server the URL it redirects to", server, st);
	else if (*line)
		err_set(err, "%s (HTTP %ld)", line, st);
	else
		err_set(err, "the server refused the request (HTTP %ld)", st);
}

static struct curl_slist *request_headers(const char *token, bool has_body)
{
	char auth[1024];
	if ((size_t)snprintf(auth, sizeof auth, "Authorization: Bearer %s", token) >= sizeof auth)
		return NULL;
	struct curl_slist *l = curl_slist_append(NULL, auth);
	const char *more[] = { "Accept: application/json", "Expect:",
			       has_body ? "Content-Type: application/json" : NULL };
	for (size_t i = 0; l && i < sizeof more / sizeof *more && more[i]; i++) {
		struct curl_slist *next = curl_slist_append(l, more[i]);
		if (!next)
			curl_slist_free_all(l);
		l = next;
	}
	return l;
}

/* The token goes to the server given, never to one a redirect names; a
 * contestant behind a proxy reaches the server through it. */
static bool prepare(CURL *h, const char *url, const char *body, struct curl_slist *headers,
		    struct answer *a, char *errbuf)
{
	return hook_request(h, &(struct hook_request){ .url = url, .body = body,
		.headers = headers, .user_agent = USER_AGENT,
		.connect_ms = CONNECT_TIMEOUT_S * 1000L, .timeout_ms = SUBMIT_HTTP_TIMEOUT_S * 1000L,
		.take_body = take_body, .take_header = take_header, .ctx = a, .errbuf = errbuf });
}

/* One request: POST body (JSON text) when body is set, else GET.  0 when
 * the server answered (any status, in a->status), -1 with err filled when
 * it could not be asked. */
static int exchange(const struct submit_http_target *t, const char *path, const char *body,
		    struct answer *a, err_t err)
{
	char url[2048], errbuf[CURL_ERROR_SIZE] = "";
	size_t base = strlen(t->server);
	while (base > 0 && t->server[base - 1] == '/')
		base--;
	if ((size_t)snprintf(url, sizeof url, "%.*s%s", (int)base, t->server, path) >= sizeof url) {
		err_set(err, "the --server URL is too long");
		return -1;
	}
	struct curl_slist *headers = request_headers(t->token, body != NULL);
	CURL *h = curl_easy_init();
	int rc = -1;
	if (!headers || !h || !prepare(h, url, body, headers, a, errbuf)) {
		err_set(err, "cannot set up the request (out of memory, or a "
			 "token longer than 1000 characters)");
	} else {
		CURLcode c = curl_easy_perform(h);
		if (c == CURLE_OK) {
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &a->status);
			rc = 0;
		} else {
			explain_curl(h, c, t->server, *errbuf ? errbuf : curl_easy_strerror(c), err);
		}
	}
	curl_easy_cleanup(h);
	curl_slist_free_all(headers);
	return rc;
}

/* The JSON object of a 2xx answer with the expected status, or NULL with
 * err filled (a refusal explained, or an answer that is not the API's). */
static json_t *expect_answer(const struct submit_http_target *t, const struct answer *a,
			     long want, err_t err)
{
	if (a->status != want) {
		if (a->status >= 200 && a->status < 300)
			err_set(err, "the server at %s answered HTTP %ld, not "
				 "%ld: is it the judge?", t->server, a->status, want);
		else
			explain_status(a, t->server, err);
		return NULL;
	}
	json_t *j = json_loadb(a->body, a->len, 0, NULL);
	if (!json_is_object(j)) {
		json_decref(j);
		err_set(err, "the server at %s answered something that is "
			 "not JSON: is it the judge?", t->server);
		return NULL;
	}
	return j;
}

static char *request_body(const char *game, const char *src, size_t len)
{
	json_t *source = json_stringn(src, len);
	json_t *o = source ? json_pack("{s:s, s:o}", "game", game, "source", source) : NULL;
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return text;
}

int submit_http_post(const struct submit_http_target *t, const char *game, const char *src,
		     size_t len, int64_t *id, err_t err)
{
	char *body = request_body(game, src, len);
	if (!body) {
		err_set(err, "the file is not valid UTF-8 text: save it as "
			 "UTF-8 (or plain ASCII) to upload it over the network");
		return -1;
	}
	struct answer *a = calloc(1, sizeof *a);
	json_t *j = NULL;
	if (!a)
		err_set(err, "out of memory");
	else if (exchange(t, "/api/submissions", body, a, err) == 0)
		j = expect_answer(t, a, a->status == 200 ? 200 : 201, err);
	json_t *jid = json_object_get(j, "id");
	if (j && !json_is_integer(jid))
		err_set(err, "the server's answer has no submission id");
	else if (j)
		*id = json_integer_value(jid);
	int rc = !j || !json_is_integer(jid) ? -1 : a->status == 200 ? 1 : 0;
	json_decref(j);
	free(a);
	free(body);
	return rc;
}

/* The compile log, each of its lines labelled "compile: " and made
 * printable, at most SUBMIT_HTTP_LOG_LINES of them. */
static void labelled_log(const char *text, char *out, size_t size)
{
	size_t o = 0;
	int lines = 0;
	char line[SERVER_LINE_MAX + 8];
	*out = '\0';
	while (*text && o + 1 < size) {
		size_t n = strcspn(text, "\n");
		char *raw = strndup(text, n);
		if (!raw)
			return;
		printable_line(raw, line, sizeof line);
		free(raw);
		text += n + (text[n] == '\n');
		if (++lines > SUBMIT_HTTP_LOG_LINES) {
			snprintf(out + o, size - o, "compile: ... (more on the submission's page)\n");
			return;
		}
		o += (size_t)snprintf(out + o, size - o, "compile: %s\n", line);
	}
}

int submit_http_status(const struct submit_http_target *t, int64_t id,
		       char state[SUBMIT_HTTP_STATE_MAX], char *log, size_t log_size,
		       err_t err)
{
	char path[64];
	snprintf(path, sizeof path, "/api/submissions/%" PRId64, id);
	struct answer *a = calloc(1, sizeof *a);
	json_t *j = NULL;
	if (!a)
		err_set(err, "out of memory");
	else if (exchange(t, path, NULL, a, err) == 0)
		j = expect_answer(t, a, 200, err);
	/* The API's field is "state", as `judge status` and the pages call it. */
	const char *s = json_string_value(json_object_get(j, "state"));
	if (j && !s)
		err_set(err, "the server's answer has no \"state\": is it "
			 "the judge?");
	else if (j)
		printable_line(s, state, SUBMIT_HTTP_STATE_MAX);
	if (s && log)
		labelled_log(json_string_value(json_object_get(j, "compile_log")) ?: "", log,
			     log_size);
	int rc = s ? 0 : -1;
	json_decref(j);
	free(a);
	return rc;
}
