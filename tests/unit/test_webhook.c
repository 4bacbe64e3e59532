/* test_webhook.c - webhook config, bodies, delivery and retries
 * (judge/notify/webhook.c), against a real HTTP receiver on 127.0.0.1. */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "judge/notify/webhook.h"
#include "tests/unit/http_receiver.h"

/* ---- helpers ----------------------------------------------------------- */

static json_t *parse_json(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);
	cr_assert(v, "test JSON does not parse: %s: %s", e.text, text);
	return v;
}

/* hook_parse_endpoints on JSON text: its return, hc and err filled. */
static int parse_endpoints(const char *text, struct hook_config *hc, err_t err)
{
	json_t *v = parse_json(text);
	hook_defaults(hc);
	err->msg[0] = '\0';
	int rc = hook_parse_endpoints(hc, v, err);
	json_decref(v);
	return rc;
}

/* The text must be refused with an error containing every one of want. */
static void expect_refused(const char *text, const char *want1, const char *want2)
{
	struct hook_config hc;
	err_t err;
	cr_expect_eq(parse_endpoints(text, &hc, err), -1, "accepted: %s", text);
	cr_expect_eq(hc.count, 0, "an endpoint kept after an error in %s", text);
	cr_expect(strstr(err->msg, want1), "error for %s is \"%s\", no \"%s\"", text, err->msg,
		  want1);
	if (want2)
		cr_expect(strstr(err->msg, want2), "error for %s is \"%s\", no \"%s\"", text, err->msg, want2);
}

static int64_t mono_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void start(struct http_receiver *r, enum rcv_mode mode, int status)
{
	struct rcv_program p = { .mode = mode, .status = status };
	cr_assert_eq(rcv_start(r, &p), 0, "receiver: %m");
}

/* A loopback port that refuses connections: bound, never listening, and
 * held for the test so nobody else can take it meanwhile. */
static int closed_port(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert(fd >= 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind: %m");
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static void curl_up(void)
{
	err_t err;
	cr_assert_eq(hook_global_init(err), 0, "%s", err->msg);
}

static const char example_config[] =
	"[{\"url\": \"http://127.0.0.1:9000/hook\","
	"  \"events\": [\"submission.compiled\", \"rank.changed\"]},"
	" {\"url\": \"https://example.org/judge?token=abc\","
	"  \"events\": [\"submission.failed\", \"submission.qualified\","
	"              \"submission.not_qualified\", \"plagiarism.flagged\"]},"
	" {\"url\": \"HTTP://[::1]:8080/\", \"events\": [\"rank.changed\"]}]";

/* ---- config -------------------------------------------------------------- */

Test(webhook_config, event_names_round_trip)
{
	const char *names[] = { "submission.compiled", "submission.failed",
				"submission.qualified", "submission.not_qualified",
				"rank.changed", "plagiarism.flagged" };
	cr_assert_eq(sizeof names / sizeof *names, HOOK_EVENT_COUNT);
	for (int i = 0; i < HOOK_EVENT_COUNT; i++) {
		cr_expect_str_eq(hook_event_name(i), names[i]);
		cr_expect_eq(hook_event_parse(names[i]), i);
	}
	cr_expect_null(hook_event_name(HOOK_EVENT_COUNT));
	cr_expect_eq(hook_event_parse("rank.Changed"), -1);
	cr_expect_eq(hook_event_parse(""), -1);
	cr_expect_eq(hook_event_parse(NULL), -1);
}

Test(webhook_config, parses_endpoints)
{
	struct hook_config hc;
	err_t err;
	cr_assert_eq(parse_endpoints(example_config, &hc, err), 0, "%s", err->msg);
	cr_assert_eq(hc.count, 3);
	cr_expect_str_eq(hc.endpoints[0].url, "http://127.0.0.1:9000/hook");
	cr_expect_str_eq(hc.endpoints[1].url, "https://example.org/judge?token=abc");
	cr_expect_eq(hc.endpoints[0].events,
		     1u << HOOK_SUBMISSION_COMPILED | 1u << HOOK_RANK_CHANGED);
	cr_expect_eq(hc.endpoints[1].events,
		     1u << HOOK_SUBMISSION_FAILED | 1u << HOOK_SUBMISSION_QUALIFIED |
		     1u << HOOK_SUBMISSION_NOT_QUALIFIED | 1u << HOOK_PLAGIARISM_FLAGGED);
	cr_expect_eq(hc.endpoints[2].events, 1u << HOOK_RANK_CHANGED);
	cr_expect_eq(hc.timeout_ms, HOOK_DEFAULT_TIMEOUT_MS);
	cr_expect_eq(hc.max_attempts, 8);

	cr_expect_eq(parse_endpoints("[]", &hc, err), 0, "%s", err->msg);
	cr_expect_eq(hc.count, 0);
}

Test(webhook_config, refuses_urls_that_are_not_http)
{
	expect_refused("[{\"url\": \"ftp://127.0.0.1/x\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url", "only http:// and https://");
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": [\"rank.changed\"]},"
		       " {\"url\": \"file:///etc/passwd\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[1].url", "only http:// and https://");
	expect_refused("[{\"url\": \"127.0.0.1:9000/hook\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url", "only http:// and https://");
	expect_refused("[{\"url\": \"http://exa mple.org/\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url", "not a valid URL");
	expect_refused("[{\"url\": \"http://\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url", "not a valid URL");
	expect_refused("[{\"url\": \"\", \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url", "1 to 1023 characters");
	expect_refused("[{\"url\": 9000, \"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url must be a string", NULL);
	expect_refused("[{\"events\": [\"rank.changed\"]}]",
		       "webhooks[0].url must be a string", NULL);
}

Test(webhook_config, refuses_a_url_too_long)
{
	char text[2 * HOOK_URL_MAX];
	char path[HOOK_URL_MAX];
	memset(path, 'a', sizeof path - 1);
	path[sizeof path - 1 - strlen("http://h/")] = '\0'; /* exactly 1023 in all */
	snprintf(text, sizeof text, "[{\"url\": \"http://h/%s\", \"events\": [\"rank.changed\"]}]",
		 path);
	struct hook_config hc;
	err_t err;
	cr_expect_eq(parse_endpoints(text, &hc, err), 0, "%s", err->msg);
	cr_expect_eq(strlen(hc.endpoints[0].url), HOOK_URL_MAX - 1);

	snprintf(text, sizeof text, "[{\"url\": \"http://h/a%s\", \"events\": [\"rank.changed\"]}]",
		 path);
	expect_refused(text, "webhooks[0].url", "1 to 1023 characters");
}

Test(webhook_config, refuses_unknown_events)
{
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": [\"rank.changed\"]},"
		       " {\"url\": \"http://127.0.0.1/\","
		       "  \"events\": [\"submission.compiled\", \"submission.exploded\"]}]",
		       "webhooks[1].events[1]: unknown event \"submission.exploded\"",
		       "plagiarism.flagged");
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": [7]}]",
		       "webhooks[0].events[0]: unknown event", NULL);
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": []}]",
		       "webhooks[0].events must be a list of at least one", NULL);
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": \"rank.changed\"}]",
		       "webhooks[0].events must be a list", NULL);
	expect_refused("[{\"url\": \"http://127.0.0.1/\"}]",
		       "webhooks[0].events must be a list", NULL);
}

Test(webhook_config, refuses_other_shapes)
{
	expect_refused("{\"url\": \"http://127.0.0.1/\"}", "webhooks must be a list", NULL);
	expect_refused("[\"http://127.0.0.1/\"]", "webhooks[0] must be an object", NULL);
	expect_refused("[{\"url\": \"http://127.0.0.1/\", \"events\": [\"rank.changed\"],"
		       "  \"secret\": \"x\"}]", "unknown setting webhooks[0].secret", NULL);
}

static void endpoints_text(char *text, size_t size, int n)
{
	size_t len = (size_t)snprintf(text, size, "[");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, size - len, "%s{\"url\": \"http://127.0.0.1:%d/\","
					" \"events\": [\"rank.changed\"]}", i ? "," : "", 9000 + i);
	snprintf(text + len, size - len, "]");
}

Test(webhook_config, caps_the_number_of_endpoints)
{
	char text[8192];
	struct hook_config hc;
	err_t err;
	endpoints_text(text, sizeof text, HOOK_MAX_ENDPOINTS);
	cr_expect_eq(parse_endpoints(text, &hc, err), 0, "%s", err->msg);
	cr_expect_eq(hc.count, HOOK_MAX_ENDPOINTS);
	cr_expect_str_eq(hc.endpoints[31].url, "http://127.0.0.1:9031/");

	endpoints_text(text, sizeof text, HOOK_MAX_ENDPOINTS + 1);
	expect_refused(text, "lists 33 endpoints", "at most 32");
}

static int parse_delivery(const char *text, struct hook_config *hc, err_t err)
{
	json_t *v = parse_json(text);
	hook_defaults(hc);
	err->msg[0] = '\0';
	int rc = hook_parse_delivery(hc, v, err);
	json_decref(v);
	return rc;
}

Test(webhook_config, delivery_settings)
{
	struct hook_config hc;
	err_t err;
	cr_assert_eq(parse_delivery("{\"timeout_ms\": 2000, \"max_attempts\": 12}", &hc, err), 0,
		     "%s", err->msg);
	cr_expect_eq(hc.timeout_ms, 2000);
	cr_expect_eq(hc.max_attempts, 12);

	cr_expect_eq(parse_delivery("{\"timeout_ms\": 50}", &hc, err), -1);
	cr_expect_str_eq(err->msg, "config: webhook_delivery.timeout_ms = 50 is out of range "
			 "[100, 60000]");
	cr_expect_eq(parse_delivery("{\"max_attempts\": 0}", &hc, err), -1);
	cr_expect(strstr(err->msg, "webhook_delivery.max_attempts = 0 is out of range"), "%s",
		  err->msg);
	cr_expect_eq(parse_delivery("{\"max_attempts\": \"8\"}", &hc, err), -1);
	cr_expect(strstr(err->msg, "max_attempts must be a non-negative integer"), "%s", err->msg);
	cr_expect_eq(parse_delivery("{\"retries\": 3}", &hc, err), -1);
	cr_expect_str_eq(err->msg, "config: unknown setting webhook_delivery.retries");
	cr_expect_eq(parse_delivery("[]", &hc, err), -1);
	cr_expect(strstr(err->msg, "webhook_delivery must be an object"), "%s", err->msg);
}

/* ---- selection ----------------------------------------------------------- */

Test(webhook_select, endpoints_by_event)
{
	struct hook_config hc;
	err_t err;
	size_t idx[HOOK_MAX_ENDPOINTS];
	cr_assert_eq(parse_endpoints(example_config, &hc, err), 0, "%s", err->msg);

	cr_assert_eq(hook_select(&hc, HOOK_RANK_CHANGED, idx), 2);
	cr_expect_eq(idx[0], 0);
	cr_expect_eq(idx[1], 2);
	cr_assert_eq(hook_select(&hc, HOOK_SUBMISSION_COMPILED, idx), 1);
	cr_expect_eq(idx[0], 0);
	cr_assert_eq(hook_select(&hc, HOOK_PLAGIARISM_FLAGGED, idx), 1);
	cr_expect_eq(idx[0], 1);
	cr_assert_eq(hook_select(&hc, HOOK_SUBMISSION_NOT_QUALIFIED, idx), 1);
	cr_expect_eq(idx[0], 1);
	cr_expect_eq(hook_select(&hc, HOOK_EVENT_COUNT, idx), 0);

	cr_expect(hook_wants(&hc.endpoints[0], HOOK_SUBMISSION_COMPILED));
	cr_expect_not(hook_wants(&hc.endpoints[0], HOOK_SUBMISSION_FAILED));
	cr_expect_not(hook_wants(&hc.endpoints[2], HOOK_EVENT_COUNT));
	cr_expect_not(hook_wants(&hc.endpoints[2], (enum hook_event)-1));

	hook_defaults(&hc);
	cr_expect_eq(hook_select(&hc, HOOK_RANK_CHANGED, idx), 0);
}

/* ---- retries ------------------------------------------------------------- */

Test(webhook_backoff, schedule)
{
	const int64_t want[] = { 0, 0, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000,
				 256000, 512000, 600000, 600000 };
	for (unsigned n = 0; n < sizeof want / sizeof *want; n++)
		cr_expect_eq(hook_backoff_ms(n), want[n], "attempt %u: %lld ms, want %lld", n,
			     (long long)hook_backoff_ms(n), (long long)want[n]);
	cr_expect_eq(hook_backoff_ms(64), HOOK_BACKOFF_MAX_MS);
	cr_expect_eq(hook_backoff_ms(UINT_MAX), HOOK_BACKOFF_MAX_MS);
}

Test(webhook_backoff, retry_until_the_cap)
{
	struct hook_config hc;
	int64_t d = -1;
	hook_defaults(&hc);
	cr_assert_eq(hc.max_attempts, 8);
	for (unsigned failed = 1; failed < 8; failed++) {
		cr_expect(hook_retry(failed, hc.max_attempts, &d), "gave up after %u", failed);
		cr_expect_eq(d, 1000LL << (failed - 1), "after attempt %u: %lld ms", failed,
			     (long long)d);
	}
	cr_expect_not(hook_retry(8, hc.max_attempts, &d));
	cr_expect_eq(d, 0);
	cr_expect_not(hook_retry(9, hc.max_attempts, &d));
	cr_expect_not(hook_retry(1, 1, &d));
	cr_expect(hook_retry(99, 100, &d));
	cr_expect_eq(d, HOOK_BACKOFF_MAX_MS);
	cr_expect_not(hook_retry(UINT_MAX, UINT_MAX, &d));
}

/* ---- bodies ---------------------------------------------------------------- */

Test(webhook_body, event_text_is_exact)
{
	json_t *ev = hook_event_new(HOOK_RANK_CHANGED, 1714564800123LL,
				    json_pack("{s:i, s:s, s:i}", "submission", 42, "name", "Sauron",
					      "rank", 3));
	cr_assert_not_null(ev);
	char *text = hook_event_text(ev);
	cr_expect_str_eq(text, "{\"event\":\"rank.changed\",\"time\":\"2024-05-01T12:00:00.123Z\","
			 "\"data\":{\"submission\":42,\"name\":\"Sauron\",\"rank\":3}}");
	free(text);
	json_decref(ev);

	ev = hook_event_new(HOOK_SUBMISSION_FAILED, -1, NULL);
	text = hook_event_text(ev);
	cr_expect_str_eq(text, "{\"event\":\"submission.failed\",\"time\":"
			 "\"1969-12-31T23:59:59.999Z\",\"data\":{}}");
	free(text);
	json_decref(ev);

	cr_expect_null(hook_event_new(HOOK_EVENT_COUNT, 0, json_object()));
}

Test(webhook_body, job_payload)
{
	json_t *ev = hook_event_new(HOOK_PLAGIARISM_FLAGGED, 0, json_pack("{s:f}", "score", 0.5));
	char *payload = hook_job_payload("http://127.0.0.1:9/x", ev);
	cr_expect_str_eq(payload, "{\"url\":\"http://127.0.0.1:9/x\",\"body\":{\"event\":"
			 "\"plagiarism.flagged\",\"time\":\"1970-01-01T00:00:00.000Z\","
			 "\"data\":{\"score\":0.5}}}");
	free(payload);
	json_decref(ev);
}

Test(webhook_body, malformed_payload_is_permanent)
{
	const char *bad[] = { NULL, "", "nonsense", "{\"url\": \"http://127.0.0.1:9/\"}",
			      "{\"body\": {}}", "{\"url\": 5, \"body\": {}}",
			      "{\"url\": \"http://127.0.0.1:9/\", \"body\": \"{}\"}" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct hook_result r;
		hook_job_deliver(bad[i], 1000, &r);
		cr_expect_not(r.delivered, "payload %zu delivered", i);
		cr_expect(r.permanent, "payload %zu: not permanent (%s)", i, r.reason);
		cr_expect(strstr(r.reason, "payload"), "payload %zu: %s", i, r.reason);
	}
}

/* ---- delivery ------------------------------------------------------------ */

TestSuite(webhook_post, .init = curl_up, .fini = hook_global_cleanup, .timeout = 20);

Test(webhook_post, delivered_with_exact_body_and_headers)
{
	struct http_receiver rcv;
	char url[128], value[256];
	struct hook_result r;
	start(&rcv, RCV_ANSWER, 204);
	rcv_url(&rcv, "/hook?x=1", url, sizeof url);
	json_t *ev = hook_event_new(HOOK_SUBMISSION_COMPILED, 1714564800123LL,
				    json_pack("{s:i, s:s}", "submission", 7, "game", "dominator"));
	char *body = hook_event_text(ev);

	bool ok = hook_post(url, body, 2000, &r);
	rcv_stop(&rcv);

	cr_expect(ok, "not delivered: %s", r.reason);
	cr_expect(r.delivered);
	cr_expect_not(r.permanent);
	cr_expect_eq(r.status, 204);
	cr_expect_str_eq(r.reason, "delivered (HTTP 204)");
	cr_assert_eq(rcv.requests, 1);
	cr_expect_str_eq(rcv.first.method, "POST");
	cr_expect_str_eq(rcv.first.path, "/hook?x=1");
	cr_expect_str_eq(rcv.first.body, body);
	cr_expect_eq(rcv.first.body_len, strlen(body));
	cr_expect(rcv_header(&rcv.first, "Content-Type", value, sizeof value));
	cr_expect_str_eq(value, "application/json");
	cr_expect(rcv_header(&rcv.first, "User-Agent", value, sizeof value));
	cr_expect_str_eq(value, HOOK_USER_AGENT);
	cr_expect(strstr(value, "judge"), "%s", value);
	cr_expect_str_eq(rcv.first.body, "{\"event\":\"submission.compiled\",\"time\":"
			 "\"2024-05-01T12:00:00.123Z\",\"data\":{\"submission\":7,"
			 "\"game\":\"dominator\"}}");
	free(body);
	json_decref(ev);
}

Test(webhook_post, job_delivers_its_body)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	start(&rcv, RCV_ANSWER, 299); /* any 2xx is a yes */
	rcv_url(&rcv, "/jobs", url, sizeof url);
	json_t *ev = hook_event_new(HOOK_SUBMISSION_QUALIFIED, 1000, json_pack("{s:b}", "ok", 1));
	char *payload = hook_job_payload(url, ev);

	hook_job_deliver(payload, 2000, &r);
	rcv_stop(&rcv);

	cr_expect(r.delivered, "%s", r.reason);
	cr_assert_eq(rcv.requests, 1);
	cr_expect_str_eq(rcv.first.path, "/jobs");
	cr_expect_str_eq(rcv.first.body, "{\"event\":\"submission.qualified\",\"time\":"
			 "\"1970-01-01T00:00:01.000Z\",\"data\":{\"ok\":true}}");
	free(payload);
	json_decref(ev);
}

Test(webhook_post, http_500_is_a_failure)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	start(&rcv, RCV_ANSWER, 500);
	rcv_url(&rcv, "/hook", url, sizeof url);

	cr_expect_not(hook_post(url, "{}", 2000, &r));
	rcv_stop(&rcv);

	cr_expect_not(r.delivered);
	cr_expect_not(r.permanent);
	cr_expect_eq(r.status, 500);
	cr_expect_str_eq(r.reason, "HTTP 500");
	cr_expect_eq(rcv.requests, 1);
	cr_expect_str_eq(rcv.first.body, "{}");
}

Test(webhook_post, redirect_is_not_followed)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	/* A followed redirect would show as a second request. */
	struct rcv_program p = { .mode = RCV_ANSWER, .status = 307,
				 .extra_headers = "Location: /hook2\r\n" };
	cr_assert_eq(rcv_start(&rcv, &p), 0, "receiver: %m");
	rcv_url(&rcv, "/hook", url, sizeof url);

	hook_post(url, "{}", 2000, &r);
	rcv_stop(&rcv);

	cr_expect_not(r.delivered);
	cr_expect_eq(r.status, 307);
	cr_expect_str_eq(r.reason, "HTTP 307 (redirects are not followed)");
	cr_expect_eq(rcv.requests, 1);
}

Test(webhook_post, silent_receiver_times_out)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	start(&rcv, RCV_SILENT, 0);
	rcv_url(&rcv, "/slow", url, sizeof url);

	int64_t t0 = mono_ms();
	hook_post(url, "{\"a\":1}", 300, &r);
	int64_t took = mono_ms() - t0;
	rcv_stop(&rcv);

	cr_expect_not(r.delivered);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.reason, "timed out after 300 ms");
	cr_expect(took >= 290 && took < 800, "took %lld ms for a 300 ms timeout",
		  (long long)took);
	cr_expect_eq(rcv.requests, 1, "the request never arrived whole");
	cr_expect_str_eq(rcv.first.body, "{\"a\":1}");
}

Test(webhook_post, closed_port_is_refused_quickly)
{
	uint16_t port;
	char url[128];
	struct hook_result r;
	int fd = closed_port(&port);
	snprintf(url, sizeof url, "http://127.0.0.1:%u/hook", (unsigned)port);

	int64_t t0 = mono_ms();
	hook_post(url, "{}", 5000, &r);
	int64_t took = mono_ms() - t0;
	close(fd);

	cr_expect_not(r.delivered);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.reason, "connection refused");
	cr_expect(took < 1000, "took %lld ms to be refused", (long long)took);
}

/* A listener whose queue is full: the kernel drops further SYNs, so a
 * connect to it hangs, like one to a host that is down. */
static int full_listener(uint16_t *port, int *filler)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert(fd >= 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind: %m");
	cr_assert_eq(listen(fd, 0), 0, "listen: %m");
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	*filler = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_eq(connect(*filler, (struct sockaddr *)&a, sizeof a), 0, "connect: %m");
	return fd;
}

Test(webhook_post, connect_that_hangs_times_out)
{
	uint16_t port;
	int filler;
	char url[128];
	struct hook_result r;
	int fd = full_listener(&port, &filler);
	snprintf(url, sizeof url, "http://127.0.0.1:%u/hook", (unsigned)port);

	int64_t t0 = mono_ms();
	hook_post(url, "{}", 300, &r);
	int64_t took = mono_ms() - t0;
	close(filler);
	close(fd);

	cr_expect_not(r.delivered);
	cr_expect_str_eq(r.reason, "timed out after 300 ms while connecting");
	cr_expect(took >= 290 && took < 800, "took %lld ms for a 300 ms timeout",
		  (long long)took);
}

Test(webhook_post, hang_up_without_an_answer)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	start(&rcv, RCV_HANGUP, 0);
	rcv_url(&rcv, "/", url, sizeof url);

	hook_post(url, "{}", 2000, &r);
	rcv_stop(&rcv);

	cr_expect_not(r.delivered);
	cr_expect_str_eq(r.reason, "the endpoint closed the connection without answering");
}

/* Over 1 MiB, libcurl would by default ask "Expect: 100-continue" and wait
 * a second for an answer that a plain server never sends. */
Test(webhook_post, large_body_goes_at_once)
{
	enum { SIZE = 3 << 19 }; /* 1.5 MiB */
	struct http_receiver rcv;
	char url[128], value[64];
	struct hook_result r;
	char *body = malloc(SIZE + 1);
	cr_assert_not_null(body);
	memset(body, ' ', SIZE);
	body[0] = '{';
	body[SIZE - 1] = '}';
	body[SIZE] = '\0';
	start(&rcv, RCV_ANSWER, 202);
	rcv_url(&rcv, "/big", url, sizeof url);

	int64_t t0 = mono_ms();
	hook_post(url, body, 5000, &r);
	int64_t took = mono_ms() - t0;
	rcv_stop(&rcv);

	cr_expect(r.delivered, "%s", r.reason);
	cr_expect(took < 700, "took %lld ms", (long long)took);
	cr_expect_not(rcv_header(&rcv.first, "Expect", value, sizeof value), "Expect: %s", value);
	cr_expect_eq(rcv.first.body_len, SIZE);
	cr_expect_eq(memcmp(rcv.first.body, body, RCV_BODY_MAX), 0);
	free(body);
}

Test(webhook_post, long_answer_is_cut_off)
{
	struct http_receiver rcv;
	char url[128];
	struct hook_result r;
	/* Far more than the socket buffers hold: if the client read it all,
	 * the receiver would see all of it go. */
	struct rcv_program p = { .mode = RCV_ANSWER, .status = 200, .answer_bytes = 64 << 20 };
	cr_assert_eq(rcv_start(&rcv, &p), 0, "receiver: %m");
	rcv_url(&rcv, "/", url, sizeof url);
	hook_post(url, "{}", 5000, &r);
	rcv_stop(&rcv);
	cr_expect(r.delivered, "%s", r.reason);
	cr_expect_eq(r.status, 200);
	cr_expect(rcv.answer_sent < 32 << 20, "the client took %zu bytes of answer",
		  rcv.answer_sent);

	p.status = 503;
	cr_assert_eq(rcv_start(&rcv, &p), 0, "receiver: %m");
	rcv_url(&rcv, "/", url, sizeof url);
	hook_post(url, "{}", 5000, &r);
	rcv_stop(&rcv);
	cr_expect_not(r.delivered);
	cr_expect_str_eq(r.reason, "HTTP 503");
}

Test(webhook_post, proxy_variables_are_ignored)
{
	uint16_t dead_port;
	int dead = closed_port(&dead_port);
	char proxy[64], url[128];
	struct http_receiver rcv;
	struct hook_result r;
	snprintf(proxy, sizeof proxy, "http://127.0.0.1:%u", (unsigned)dead_port);
	setenv("http_proxy", proxy, 1);
	setenv("HTTPS_PROXY", proxy, 1);
	setenv("ALL_PROXY", proxy, 1);
	unsetenv("no_proxy");
	unsetenv("NO_PROXY");
	start(&rcv, RCV_ANSWER, 200);
	rcv_url(&rcv, "/direct", url, sizeof url);

	hook_post(url, "{}", 2000, &r);
	rcv_stop(&rcv);
	close(dead);

	cr_expect(r.delivered, "went to the proxy? %s", r.reason);
	cr_expect_str_eq(rcv.first.path, "/direct");
}

Test(webhook_post, only_http_and_https)
{
	struct hook_result r;
	cr_expect_not(hook_post("file:///etc/hostname", "{}", 1000, &r));
	cr_expect_str_eq(r.reason, "only http:// and https:// URLs may be used");
	cr_expect_not(hook_post("gopher://127.0.0.1:9/", "{}", 1000, &r));
	cr_expect_str_eq(r.reason, "only http:// and https:// URLs may be used");
}
