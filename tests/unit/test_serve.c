/* test_serve.c - `judge serve` against hostile clients: a real server
 * (serve_start on a free port, a SQLite store in a temporary folder) and a
 * raw-socket HTTP client, so requests may be as broken as an attacker
 * makes them.  Each bad request must get a clear HTTP error, store
 * nothing, and leave the server answering. */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "judge/replay/replay_io.h"
#include "judge/serve/cache.h"
#include "judge/serve/gate.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/cli_testlib.h"

static char tmpdir[64], queue[128];
static struct serve *server;
static char contestant[44], other[44], organiser[44];

/* ---- the server -------------------------------------------------------------- */

static void add_token(const char *author, bool org, char token[44])
{
	char hex[65];
	err_t err = {0};
	struct store *s = store_open(queue, true, err);
	cr_assert_not_null(s, "%s", err->msg);
	int64_t id;
	cr_assert_eq(serve_token_new(token, err), 0, "%s", err->msg);
	cr_assert_eq(serve_token_hash(token, hex), 0);
	cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = hex, .author = author, .organiser = org }, &id, NULL, err), 0, "%s", err->msg);
	store_close(s);
}

static struct cfg_serve test_limits(void)
{
	struct judge_config cfg;
	cfg_defaults(&cfg);
	cfg.serve.body_bytes = 64 * 1024;
	cfg.serve.timeout_s = 1;
	cfg.serve.threads = 2;
	return cfg.serve;
}

static void start(struct cfg_serve limits)
{
	struct serve_options o = { .queue = queue, .host = "127.0.0.1", .port = 0,
				   .limits = limits };
	err_t err = {0};
	server = serve_start(&o, err);
	cr_assert_not_null(server, "serve_start: %s", err->msg);
}

static void setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test-serve-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(queue, sizeof queue, "%s/judge.sqlite", tmpdir);
	add_token("sauron", false, contestant);
	add_token("saruman", false, other);
	add_token("gandalf", true, organiser);
	start(test_limits());
}

static void teardown(void)
{
	serve_stop(server);
	server = NULL;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(serve_http, .init = setup, .fini = teardown, .timeout = 60);

/* ---- a raw HTTP client ------------------------------------------------------------ */

static int connect_server(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(serve_port(server)) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert(fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect: %s",
		  strerror(errno));
	return fd;
}

static void send_all(int fd, const char *data, size_t n)
{
	while (n) {
		ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
		if (w <= 0)
			return; /* the server may close early on a refused body */
		data += w;
		n -= (size_t)w;
	}
}

/* Reads until the server closes (or 10 s pass): the whole response. */
static char *read_all(int fd)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 10000) <= 0)
			break;
		if (len + 4096 + 1 > cap)
			buf = realloc(buf, cap *= 2);
		ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = 0;
	return buf;
}

/* Sends raw bytes as a request; the status, and the body in *body
 * (malloc'd) when asked. */
static int exchange(const char *req, size_t len, char **body)
{
	int fd = connect_server();
	send_all(fd, req, len);
	char *resp = read_all(fd);
	close(fd);
	int status = 0;
	sscanf(resp, "HTTP/1.%*d %d", &status);
	if (body) {
		const char *b = strstr(resp, "\r\n\r\n");
		*body = strdup(b ? b + 4 : "");
	}
	free(resp);
	return status;
}

static int request(const char *method, const char *path, const char *token, const char *json,
		   char **body)
{
	char head[2048];
	int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n",
			 method, path);
	if (token)
		n += snprintf(head + n, sizeof head - (size_t)n, "Authorization: Bearer %s\r\n", token);
	if (json)
		n += snprintf(head + n, sizeof head - (size_t)n,
			      "Content-Type: application/json\r\nContent-Length: %zu\r\n", strlen(json));
	n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
	size_t total = (size_t)n + (json ? strlen(json) : 0);
	char *req = malloc(total + 1);
	memcpy(req, head, (size_t)n);
	if (json)
		memcpy(req + n, json, strlen(json));
	int status = exchange(req, total, body);
	free(req);
	return status;
}

static int get(const char *path, const char *token)
{
	return request("GET", path, token, NULL, NULL);
}

/* ---- what must hold after every bad request ------------------------------------- */

static int64_t stored_submissions(void)
{
	err_t err = {0};
	struct store *s = store_open(queue, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	json_t *a, *b;
	cr_assert_eq(store_submissions_of(s, "sauron", &a, err), 1, "%s", err->msg);
	cr_assert_eq(store_submissions_of(s, "saruman", &b, err), 1, "%s", err->msg);
	int64_t n = (int64_t)(json_array_size(a) + json_array_size(b));
	json_decref(a);
	json_decref(b);
	store_close(s);
	return n;
}

static void still_answering(void)
{
	cr_expect_eq(get("/api/games", NULL), 200, "the server stopped answering");
}

static char *upload_json(const char *source)
{
	json_t *j = json_pack("{s:s, s:s}", "game", "dominator", "source", source);
	char *text = json_dumps(j, 0);
	json_decref(j);
	return text;
}

static const char good_source[] =
	"#include \"dominator.h\"\nPLAYER_NAME(Sauron)\nvoid play(void) {}\n";

/* An error reply: JSON with one "error" line saying what to do. */
/* good_source uploaded with the contestant's token: the new submission's id. */
static int64_t uploaded_id(void)
{
	char *json = upload_json(good_source), *body;
	cr_assert_eq(request("POST", "/api/submissions", contestant, json, &body), 201);
	free(json);
	json_t *j = json_loads(body, 0, NULL);
	int64_t id = json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	free(body);
	return id;
}

static void expect_error_json(const char *body)
{
	json_t *j = json_loads(body, 0, NULL);
	cr_expect(json_is_string(json_object_get(j, "error")), "not an error reply: %s", body);
	json_decref(j);
}

/* ---- the tests ---------------------------------------------------------------------- */

Test(serve_http, an_upload_with_a_token_is_stored_under_its_author)
{
	char *json = upload_json(good_source), *body;
	cr_assert_eq(request("POST", "/api/submissions", contestant, json, &body), 201, "%s", body);
	json_t *j = json_loads(body, 0, NULL);
	cr_expect_str_eq(json_string_value(json_object_get(j, "player")), "Sauron");
	cr_expect_str_eq(json_string_value(json_object_get(j, "game")), "dominator");
	cr_expect(json_integer_value(json_object_get(j, "id")) > 0);
	json_decref(j);
	free(body);
	free(json);
	cr_expect_eq(stored_submissions(), 1);
}

/* The upload client against the real server, not a stand-in: what --wait
 * reads must be what the API writes.  No worker runs, so it stays queued. */
Test(serve_http, the_upload_client_follows_its_submission_on_this_server)
{
	char file[160], cmd[1024], out[4096];
	snprintf(file, sizeof file, "%s/AISauron.c", tmpdir);
	FILE *f = fopen(file, "w");
	cr_assert_not_null(f);
	fputs(good_source, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "JUDGE_TOKEN=%s timeout 3 %s submit %s --game dominator "
		 "--server http://127.0.0.1:%d/ --wait 2>&1", contestant, cli_judge(), file,
		 serve_port(server));
	cli_run(cmd, out, sizeof out);
	cr_expect_str_eq(out, "submission 1: stored\nsubmission 1: queued\n");
	cr_expect_eq(stored_submissions(), 1);

	/* The same file again: the server keeps the one it has and says so. */
	char *json = upload_json(good_source), *body;
	cr_expect_eq(request("POST", "/api/submissions", contestant, json, &body), 200, "%s", body);
	json_t *j = json_loads(body, 0, NULL);
	cr_expect_eq(json_integer_value(json_object_get(j, "id")), 1, "%s", body);
	cr_expect(json_is_true(json_object_get(j, "unchanged")), "%s", body);
	json_decref(j);
	free(body);
	free(json);
	snprintf(cmd, sizeof cmd, "JUDGE_TOKEN=%s timeout 3 %s submit %s --game dominator "
		 "--server http://127.0.0.1:%d/ 2>&1", contestant, cli_judge(), file,
		 serve_port(server));
	cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "already your current submission 1, so nothing new was stored") &&
		  strstr(out, "\n1\n"), "%s", out);
	cr_expect_eq(stored_submissions(), 1);
}

Test(serve_http, an_upload_failing_the_checks_is_a_400_and_stores_nothing)
{
	char *json = upload_json("int main(void) { return 0; }\n"), *body;
	cr_expect_eq(request("POST", "/api/submissions", contestant, json, &body), 400);
	cr_expect(strstr(body, "PLAYER_NAME"), "the error must say what to write: %s", body);
	free(body);
	free(json);
	cr_expect_eq(request("POST", "/api/submissions", contestant, "{\"game\": 1}", NULL), 400);
	cr_expect_eq(request("POST", "/api/submissions", contestant, "not json", NULL), 400);
	cr_expect_eq(stored_submissions(), 0);
	still_answering();
}

/* A body the server takes (under max_body_kb) may still hold a source the
 * compile step refuses: refused at upload, not stored to fail later. */
Test(serve_http, a_source_over_the_compile_limit_is_refused_at_upload)
{
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.body_bytes = 1 << 20;
	start(limits);
	size_t n = 300 * 1024;
	char *src = malloc(n + 1);
	cr_assert_not_null(src);
	memset(src, ' ', n);
	memcpy(src, good_source, strlen(good_source));
	src[n] = '\0';
	char *json = upload_json(src), *body;
	cr_expect_eq(request("POST", "/api/submissions", contestant, json, &body), 400, "%s", body);
	cr_expect(strstr(body, "larger than 256 KiB"), "%s", body);
	expect_error_json(body);
	free(body);
	free(json);
	free(src);
	cr_expect_eq(stored_submissions(), 0);
}

Test(serve_http, an_oversized_body_is_refused_before_it_is_read)
{
	size_t n = 200 * 1024;
	char *big = malloc(n + 1);
	memset(big, 'x', n);
	big[n] = 0;
	char *json = upload_json(big), *body;
	cr_expect_eq(request("POST", "/api/submissions", contestant, json, &body), 413);
	expect_error_json(body);
	free(body);
	free(json);
	free(big);
	cr_expect_eq(stored_submissions(), 0);
	still_answering();
}

Test(serve_http, an_oversized_chunked_body_is_cut_at_the_cap)
{
	char head[512];
	snprintf(head, sizeof head, "POST /api/submissions HTTP/1.1\r\nHost: t\r\n"
		 "Authorization: Bearer %s\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
		 contestant);
	int fd = connect_server();
	send_all(fd, head, strlen(head));
	char chunk[8192 + 16];
	int k = snprintf(chunk, sizeof chunk, "2000\r\n");
	memset(chunk + k, 'y', 8192);
	memcpy(chunk + k + 8192, "\r\n", 2);
	for (int i = 0; i < 20; i++) /* 160 KiB, past the 64 KiB cap */
		send_all(fd, chunk, (size_t)k + 8192 + 2);
	send_all(fd, "0\r\n\r\n", 5);
	char *resp = read_all(fd);
	close(fd);
	int status = 0;
	sscanf(resp, "HTTP/1.%*d %d", &status);
	cr_expect_eq(status, 413, "%.200s", resp);
	free(resp);
	cr_expect_eq(stored_submissions(), 0);
	still_answering();
}

Test(serve_http, a_body_without_a_length_is_a_411)
{
	char req[512];
	int n = snprintf(req, sizeof req, "POST /api/submissions HTTP/1.0\r\nHost: t\r\n"
			 "Authorization: Bearer %s\r\n\r\n{}", contestant);
	cr_expect_eq(exchange(req, (size_t)n, NULL), 411);
	still_answering();
}

Test(serve_http, a_bad_or_missing_token_is_a_401_and_stores_nothing)
{
	char *json = upload_json(good_source), *body;
	cr_expect_eq(request("POST", "/api/submissions", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
			     json, &body), 401);
	expect_error_json(body);
	free(body);
	cr_expect_eq(request("POST", "/api/submissions", NULL, json, NULL), 401);
	cr_expect_eq(request("POST", "/api/submissions", "bad token!", json, NULL), 401);
	free(json);
	cr_expect_eq(stored_submissions(), 0);
	still_answering();
}

Test(serve_http, another_authors_submission_is_a_403)
{
	char path[64], *body;
	snprintf(path, sizeof path, "/api/submissions/%lld", (long long)uploaded_id());
	cr_expect_eq(get(path, contestant), 200, "the owner must see it");
	cr_expect_eq(request("GET", path, other, NULL, &body), 403);
	cr_expect(strstr(body, "another author"), "%s", body);
	free(body);
	cr_expect_eq(get(path, organiser), 200, "an organiser sees every submission");
	cr_expect_eq(get("/api/submissions/999", contestant), 404);
	still_answering();
}

Test(serve_http, organiser_endpoints_refuse_contestants)
{
	cr_expect_eq(get("/api/organiser/tokens", contestant), 403);
	cr_expect_eq(get("/api/organiser/tokens", NULL), 401);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", contestant, "{\"game\": \"dominator\"}",
			     NULL), 403);
	cr_expect_eq(get("/api/organiser/tokens", organiser), 200);
}

Test(serve_http, path_tricks_are_refused)
{
	static const char *const tricks[] = {
		"/static/../etc/passwd", "/../../etc/passwd", "/static/%2e%2e/serve.css",
		"/static/%2E%2E%2Fserve.css", "/static/serve.css%00.html", "/api/games%00",
		"/static/..%5cserve.css", "//etc/passwd", "/static/./serve.css", "/api/matches/1%0a",
	};
	for (size_t i = 0; i < sizeof tricks / sizeof *tricks; i++) {
		char *body;
		cr_expect_eq(request("GET", tricks[i], NULL, NULL, &body), 400, "%s", tricks[i]);
		expect_error_json(body);
		free(body);
	}
	static const char raw_nul[] = "GET /static/serve.css\0.html HTTP/1.1\r\nHost: t\r\n\r\n";
	int status = exchange(raw_nul, sizeof raw_nul - 1, NULL);
	cr_expect(status >= 400 && status < 500, "a raw NUL in the path: %d", status);
	cr_expect_eq(get("/static/nothing.css", NULL), 404);
	cr_expect_eq(get("/static/serve.css", NULL), 200);
	still_answering();
}

Test(serve_http, a_slow_client_is_cut_off_and_others_are_served_meanwhile)
{
	int slow = connect_server();
	send_all(slow, "GET /api/games HTTP/1.1\r\nHost: t\r\n", 34);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	still_answering();
	char *resp = read_all(slow); /* the server closes it: the timeout is 1 s */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_expect(waited < 5, "a slow client held its connection %.1f s", waited);
	cr_expect(strncmp(resp, "HTTP/1.1 200", 12) != 0, "the cut request was answered");
	free(resp);
	close(slow);
	still_answering();
}

Test(serve_http, headers_past_the_cap_are_refused)
{
	size_t n = 64 * 1024;
	char *req = malloc(n + 128);
	int k = snprintf(req, 128, "GET /api/games HTTP/1.1\r\nHost: t\r\nX-Big: ");
	memset(req + k, 'h', n);
	memcpy(req + k + n, "\r\n\r\n", 5);
	int status = exchange(req, (size_t)k + n + 4, NULL);
	free(req);
	cr_expect(status == 413 || status == 431 || status == 400, "status %d", status);
	still_answering();
}

Test(serve_http, each_token_has_a_request_rate)
{
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.per_minute = 5;
	start(limits);
	for (int i = 0; i < 5; i++)
		cr_expect_eq(get("/api/me", contestant), 200, "request %d", i + 1);
	char *body;
	cr_expect_eq(request("GET", "/api/me", contestant, NULL, &body), 429);
	expect_error_json(body);
	free(body);
	cr_expect_eq(get("/api/me", other), 200, "another token has its own count");
	for (int i = 0; i < 5; i++)
		get("/api/me", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	cr_expect_eq(get("/api/me", "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 429,
		     "guessing tokens must count against the guesser's address");
}

Test(serve_http, private_pages_need_a_token)
{
	cr_expect_eq(get("/api/leaderboard/dominator", NULL), 200);
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.public_pages = false;
	start(limits);
	cr_expect_eq(get("/api/leaderboard/dominator", NULL), 401);
	cr_expect_eq(get("/api/leaderboard/dominator", contestant), 200);
	cr_expect_eq(get("/api/leaderboard/nogame", contestant), 404);
}

Test(serve_http, a_wrong_method_is_a_405)
{
	cr_expect_eq(request("DELETE", "/api/games", NULL, NULL, NULL), 405);
	cr_expect_eq(request("PUT", "/api/submissions", contestant, "{}", NULL), 405);
	cr_expect_eq(get("/api/nothing", NULL), 404);
}

/* A match in the store with a shipped player and a submission whose name
 * (written straight into the store) would be shell syntax. */
static int64_t stored_match_with(const char *odd_name, const void *replay, size_t replay_len);

static int64_t stored_match(const char *odd_name)
{
	return stored_match_with(odd_name, NULL, 0);
}

static int64_t stored_match_with(const char *odd_name, const void *replay, size_t replay_len)
{
	err_t err = {0};
	struct store *s = store_open(queue, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	int64_t job, match;
	struct store_new_submission sub = { .game = "dominator", .author = "sauron", .name = "Sauron",
					    .source = "x", .source_len = 1, .source_sha256 = "0" };
	int64_t id;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "%s", err->msg);
	cr_assert_eq(store_enqueue(s, "match", "{}", SCHED_RANKED, 0, &job, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job, .game = "dominator", .kind = "ranked",
				     .seed = 9007199254740993LL, .replay = replay,
				     .replay_len = replay_len, .players = 2 };
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err->msg);
	const char *names[] = { "Dummy", odd_name };
	for (int seat = 0; seat < 2; seat++) {
		struct store_match_player p = { .seat = seat, .submission = seat ? id : 0,
						.name = names[seat], .rank = seat + 1 };
		cr_assert_eq(store_add_match_player(s, match, &p, err), 0, "%s", err->msg);
	}
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	store_close(s);
	return match;
}

Test(serve_http, a_match_gives_the_command_that_plays_it_again)
{
	char path[64], *body;
	snprintf(path, sizeof path, "/api/matches/%lld", (long long)stored_match("x';rm -rf ~;'"));
	cr_assert_eq(request("GET", path, NULL, NULL, &body), 200, "%s", body);
	json_t *j = json_loads(body, 0, NULL);
	cr_expect_str_eq(json_string_value(json_object_get(j, "seed")), "9007199254740993",
			 "a 64-bit seed must keep every digit");
	cr_expect_str_eq(json_string_value(json_object_get(j, "command")),
			 "judge play dominator Dummy 'AIx'\\'';rm -rf ~;'\\''.c' -s 9007199254740993");
	json_decref(j);
	free(body);
	cr_expect_eq(get("/api/matches/424242", NULL), 404);
}

/* ---- the in-memory cache (judge/serve/cache.h) -------------------------------- */

Test(serve_cache, keeps_copies_within_its_bounds)
{
	struct cache *c = cache_new(2, 10);
	size_t len;
	cache_put(c, "a", "1234", 4);
	char *got = cache_get(c, "a", 0, &len);
	cr_assert_not_null(got);
	cr_expect_eq(len, 4);
	cr_expect_str_eq(got, "1234");
	free(got);
	cache_put(c, "b", "xy", 2);
	cache_put(c, "c", "z", 1); /* a third entry: the oldest goes */
	cr_expect_null(cache_get(c, "a", 0, &len), "more entries than allowed");
	cache_put(c, "d", "123456789", 9); /* 12 bytes with b and c: b, the oldest, goes */
	cr_expect_null(cache_get(c, "b", 0, &len));
	got = cache_get(c, "c", 0, &len);
	cr_expect_not_null(got, "10 bytes fit");
	free(got);
	got = cache_get(c, "d", 0, &len);
	cr_expect_str_eq(got, "123456789");
	free(got);
	cache_put(c, "e", "12345678901", 11); /* larger than the whole cache: not kept */
	cr_expect_null(cache_get(c, "e", 0, &len));
	cache_free(c);
}

Test(serve_cache, an_old_entry_is_not_given_when_freshness_is_asked)
{
	struct cache *c = cache_new(4, 100);
	size_t len;
	cache_put(c, "k", "v", 1);
	usleep(30 * 1000);
	cr_expect_null(cache_get(c, "k", 10, &len), "an entry older than 10 ms");
	char *got = cache_get(c, "k", 10000, &len);
	cr_expect_not_null(got);
	free(got);
	cache_free(c);
}

Test(serve_http, bytes_that_are_not_utf8_are_sent_as_valid_json)
{
	int64_t id = uploaded_id();
	char path[64], *body;
	err_t err = {0};
	struct store *s = store_open(queue, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	cr_assert_eq(store_set_state(s, id, "compile_failed", NULL, NULL, "bad \xff\xfe</pre>", err),
		     0, "%s", err->msg);
	store_close(s);
	snprintf(path, sizeof path, "/api/submissions/%lld", (long long)id);
	cr_assert_eq(request("GET", path, contestant, NULL, &body), 200);
	json_error_t jerr;
	json_t *j = json_loads(body, 0, &jerr);
	cr_assert_not_null(j, "not valid JSON (%s): %s", jerr.text, body);
	cr_expect_str_eq(json_string_value(json_object_get(j, "compile_log")),
			 "bad \xef\xbf\xbd\xef\xbf\xbd</pre>");
	json_decref(j);
	free(body);
}

Test(serve_http, an_organiser_disqualifies_and_rejudges_and_the_board_says_so)
{
	char *body;
	uploaded_id();
	static const char dq[] = "{\"game\": \"dominator\", \"name\": \"Sauron\", \"reason\": \"<b>copied</b>\"}";
	cr_expect_eq(request("POST", "/api/organiser/disqualify", contestant, dq, NULL), 403);
	cr_expect_eq(request("POST", "/api/organiser/disqualify", organiser, dq, NULL), 200);
	cr_expect_eq(request("POST", "/api/organiser/disqualify", organiser,
			     "{\"game\": \"dominator\", \"name\": \"Nobody\", \"reason\": \"x\"}", NULL), 404);
	cr_expect_eq(request("POST", "/api/organiser/disqualify", organiser,
			     "{\"game\": \"dominator\", \"name\": \"Sauron\"}", NULL), 400, "no reason");
	cr_assert_eq(request("GET", "/api/leaderboard/dominator", organiser, NULL, &body), 200);
	json_t *j = json_loads(body, 0, NULL);
	json_t *first = json_array_get(json_object_get(j, "disqualified"), 0);
	cr_expect_str_eq(json_string_value(json_object_get(first, "reason")), "<b>copied</b>");
	json_decref(j);
	free(body);
	cr_assert_eq(request("GET", "/api/leaderboard/dominator", NULL, NULL, &body), 200);
	cr_expect_null(strstr(body, "disqualified"), "the public board shows no organiser marks");
	free(body);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", organiser, "{\"submission\": 1}", NULL),
		     200);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", organiser, "{\"submission\": 77}", NULL),
		     404);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", organiser, "{\"game\": \"dominator\"}",
			     NULL), 200);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", organiser, "{}", NULL), 400);
}

/* A JSON reply of path as the organiser sees it (a 200 asserted). */
static json_t *organiser_json(const char *path)
{
	char *body;
	cr_assert_eq(request("GET", path, organiser, NULL, &body), 200, "%s", path);
	json_t *j = json_loads(body, 0, NULL);
	cr_assert_not_null(j, "not JSON: %s", body);
	free(body);
	return j;
}

Test(serve_http, an_organiser_picks_a_player_disqualifies_reinstates_and_sees_the_history)
{
	uploaded_id();
	static const char dq[] = "{\"game\": \"dominator\", \"name\": \"Sauron\", \"reason\": \"copied\"}";
	static const char back[] = "{\"game\": \"dominator\", \"name\": \"Sauron\"}";
	cr_expect_eq(get("/api/organiser/players/dominator", contestant), 403);
	cr_expect_eq(get("/api/organiser/players/dominator", NULL), 401);
	cr_expect_eq(request("POST", "/api/organiser/reinstate", contestant, back, NULL), 403);
	cr_expect_eq(get("/api/organiser/players/nogame", organiser), 404);
	cr_expect_eq(request("POST", "/api/organiser/reinstate", organiser, back, NULL), 404,
		     "nothing to lift yet");
	cr_expect_eq(request("POST", "/api/organiser/reinstate", organiser, "{\"game\": \"dominator\"}",
			     NULL), 400);
	json_t *j = organiser_json("/api/organiser/players/dominator");
	json_t *p = json_array_get(json_object_get(j, "players"), 0);
	cr_expect_str_eq(json_string_value(json_object_get(p, "name")), "Sauron");
	cr_expect_str_eq(json_string_value(json_object_get(p, "author")), "sauron");
	cr_expect(json_is_false(json_object_get(p, "disqualified")));
	cr_expect_eq(json_array_size(json_object_get(j, "history")), 0);
	json_decref(j);

	cr_assert_eq(request("POST", "/api/organiser/disqualify", organiser, dq, NULL), 200);
	j = organiser_json("/api/organiser/players/dominator");
	cr_expect(json_is_true(json_object_get(json_array_get(json_object_get(j, "players"), 0),
					       "disqualified")));
	json_decref(j);
	cr_assert_eq(request("POST", "/api/organiser/reinstate", organiser, back, NULL), 200);
	j = organiser_json("/api/organiser/players/dominator");
	cr_expect(json_is_false(json_object_get(json_array_get(json_object_get(j, "players"), 0),
						"disqualified")), "reinstated: in the ranking again");
	json_t *h = json_array_get(json_object_get(j, "history"), 0);
	cr_expect_eq(json_array_size(json_object_get(j, "history")), 1, "the decision is kept");
	cr_expect_str_eq(json_string_value(json_object_get(h, "reason")), "copied");
	cr_expect_str_eq(json_string_value(json_object_get(h, "decided_by")), "gandalf");
	cr_expect_str_eq(json_string_value(json_object_get(h, "reinstated_by")), "gandalf");
	cr_expect(json_is_integer(json_object_get(h, "reinstated_at")));
	json_decref(j);
}

/* What a contestant compiles against and runs under, from the service. */
Test(serve_http, a_games_sheet_has_its_rules_header_and_the_limits_in_force)
{
	json_t *j = organiser_json("/api/games/dominator");
	struct judge_config cfg;
	cfg_defaults(&cfg);
	json_t *limits = json_object_get(j, "limits");
	cr_expect_eq(json_integer_value(json_object_get(limits, "cpu_ms")),
		     (json_int_t)(cfg.sandbox.cpu_ns / 1000000));
	cr_expect_eq(json_integer_value(json_object_get(limits, "memory_mb")),
		     (json_int_t)(cfg.sandbox.memory_bytes >> 20));
	cr_expect_eq(json_integer_value(json_object_get(limits, "rounds")), 200);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(limits, "params"), "farmers")),
		     20);
	const char *rules = json_string_value(json_object_get(j, "rules"));
	cr_expect(rules && strncmp(rules, "# Dominator", 11) == 0, "the rules page: %s", rules);
	json_t *header = json_object_get(j, "header");
	cr_expect_str_eq(json_string_value(json_object_get(header, "file")), "dominator.h");
	cr_expect_not_null(strstr(json_string_value(json_object_get(header, "text")) ?: "",
				  "PLAYER_NAME"), "the kit's header");
	json_decref(j);
	cr_expect_eq(get("/api/games/nogame", NULL), 404);
	cr_expect_eq(get("/games/dominator", NULL), 200, "the page");
	cr_expect_eq(get("/games/nogame", NULL), 404);
}

Test(serve_http, a_replay_is_sent_plain_or_as_the_stored_gzip)
{
	static const char text[] = "{\"rounds\": [1, 2, 3], \"name\": \"</script>\"}";
	uint8_t *gz;
	size_t gz_len;
	char path[64], *body;
	err_t err;
	cr_assert_eq(replay_gzip(text, strlen(text), &gz, &gz_len, err), 0, "%s", err->msg);
	snprintf(path, sizeof path, "/api/matches/%lld/replay",
		 (long long)stored_match_with("Bob", gz, gz_len));
	for (int twice = 0; twice < 2; twice++) { /* the second time from memory */
		cr_assert_eq(request("GET", path, NULL, NULL, &body), 200);
		cr_expect_str_eq(body, text);
		free(body);
	}
	char req[256];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip, br\r\n"
			 "Connection: close\r\n\r\n", path);
	int fd = connect_server();
	send_all(fd, req, (size_t)n);
	size_t cap = 1 << 16, len = 0;
	char *resp = malloc(cap);
	ssize_t r;
	while ((r = recv(fd, resp + len, cap - len, 0)) > 0)
		len += (size_t)r;
	close(fd);
	char *head_end = memmem(resp, len, "\r\n\r\n", 4);
	cr_assert_not_null(head_end);
	*head_end = 0;
	cr_expect(strcasestr(resp, "Content-Encoding: gzip"), "%s", resp);
	size_t body_len = len - (size_t)(head_end + 4 - resp);
	cr_expect_eq(body_len, gz_len);
	cr_expect_eq(memcmp(head_end + 4, gz, gz_len), 0, "not the stored gzip");
	free(resp);
	free(gz);
}

/* ---- debug marks: their player's author and organisers only -------------------- */

/* Seat 0 is the shipped Dummy, seat 1 sauron's Bob (stored_match_with). */
static const char marked_replay[] =
	"{\"format\": 2, \"game\": \"dominator\", \"seed\": 5, \"players\": [{\"name\": \"Dummy\"},"
	" {\"name\": \"Bob\"}], \"rounds\": [], \"cpu_us\": [[], []], \"debug\": {\"marks\":"
	" [[[0, [\"dot\", \"#ff0000\", 1, 1]]], [[0, [\"text\", \"#00ff00\", 2, 2, \"secret plan\"]]]],"
	" \"dropped\": [0, 3]}}";

static int64_t stored_marked_match(void)
{
	uint8_t *gz;
	size_t gz_len;
	err_t err;
	cr_assert_eq(replay_gzip(marked_replay, strlen(marked_replay), &gz, &gz_len, err), 0, "%s",
		     err->msg);
	int64_t match = stored_match_with("Bob", gz, gz_len);
	free(gz);
	return match;
}

/* The replay as token may read it: each seat's marks, then "hidden". */
static void expect_marks(int64_t match, const char *token, const char *want, const char *who)
{
	char path[64], *body;
	snprintf(path, sizeof path, "/api/matches/%lld/replay", (long long)match);
	cr_assert_eq(request("GET", path, token, NULL, &body), 200, "%s", body);
	json_t *r = json_loads(body, 0, NULL);
	cr_assert_not_null(r, "%s", body);
	json_t *debug = json_object_get(r, "debug");
	json_t *got = json_pack("[O, O]", json_object_get(debug, "marks"),
				json_object_get(debug, "hidden") ? json_object_get(debug, "hidden")
								 : json_null());
	char *text = json_dumps(got, JSON_COMPACT);
	cr_expect_str_eq(text, want, "%s", who);
	cr_expect_eq(json_integer_value(json_object_get(r, "seed")), 5, "the rest as stored");
	free(text);
	json_decref(got);
	json_decref(r);
	free(body);
}

Test(serve_http, debug_marks_go_to_their_authors_and_organisers_only)
{
	int64_t match = stored_marked_match();
	expect_marks(match, other, "[[[],[]],[0,1]]", "another contestant sees none");
	expect_marks(match, NULL, "[[[],[]],[0,1]]", "nor does a visitor without a token");
	expect_marks(match, contestant,
		     "[[[],[[0,[\"text\",\"#00ff00\",2,2,\"secret plan\"]]]],[0]]",
		     "Bob's author sees Bob's marks, not the shipped player's");
	for (int twice = 0; twice < 2; twice++) /* the second time from memory */
		expect_marks(match, organiser,
			     "[[[[0,[\"dot\",\"#ff0000\",1,1]]],[[0,[\"text\",\"#00ff00\",2,2,"
			     "\"secret plan\"]]]],[]]", "organisers see all");
	expect_marks(match, other, "[[[],[]],[0,1]]", "what organisers saw is not kept for others");
	char path[64], *page;
	snprintf(path, sizeof path, "/api/matches/%lld/page", (long long)match);
	cr_assert_eq(request("GET", path, contestant, NULL, &page), 200);
	cr_expect(strstr(page, "secret plan"), "the author's page draws the marks");
	free(page);
	cr_assert_eq(request("GET", path, other, NULL, &page), 200);
	cr_expect(!strstr(page, "secret plan"), "another's page has none, even after the author's");
	free(page);
}

Test(serve_http, debug_marks_go_to_everybody_when_the_setting_says_so)
{
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.public_marks = true;
	start(limits);
	expect_marks(stored_marked_match(), other,
		     "[[[[0,[\"dot\",\"#ff0000\",1,1]]],[[0,[\"text\",\"#00ff00\",2,2,"
		     "\"secret plan\"]]]],null]", "serve.public_debug_marks: all see all");
}

/* ---- a seat's stderr log: its owner and organisers only, always as text ------- */

/* Match `match`'s seat keeps log (gzip'd), as the worker stores it. */
static void stored_log(int64_t match, int seat, const char *log)
{
	err_t err = {0};
	uint8_t *gz;
	size_t gz_len;
	cr_assert_eq(replay_gzip(log, strlen(log), &gz, &gz_len, err), 0, "%s", err->msg);
	struct store *s = store_open(queue, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	cr_assert_eq(store_add_match_log(s, match, seat, gz, gz_len, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	store_close(s);
	free(gz);
}

/* GET path with token: the status; the whole response (head and body) in
 * *resp (malloc'd). */
static int get_whole(const char *path, const char *token, char **resp)
{
	char req[512];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n"
			 "Connection: close\r\n\r\n", path, token);
	int fd = connect_server();
	send_all(fd, req, (size_t)n);
	*resp = read_all(fd);
	close(fd);
	int status = 0;
	sscanf(*resp, "HTTP/1.%*d %d", &status);
	return status;
}

Test(serve_http, a_seats_log_goes_to_its_author_and_organisers_as_plain_text)
{
	int64_t match = stored_match("Sauron");
	stored_log(match, 1, "<script>alert(1)</script>\nbad byte \xff here\n");
	char path[64], *resp;
	snprintf(path, sizeof path, "/api/matches/%lld/logs/1", (long long)match);
	const char *readers[] = { contestant, organiser };
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(get_whole(path, readers[i], &resp), 200, "%s", resp);
		cr_expect(strcasestr(resp, "\r\nContent-Type: text/plain; charset=utf-8\r\n"), "%s", resp);
		cr_expect(strcasestr(resp, "\r\nX-Content-Type-Options: nosniff\r\n"), "%s", resp);
		const char *body = strstr(resp, "\r\n\r\n");
		cr_assert_not_null(body);
		cr_expect_str_eq(body + 4, "<script>alert(1)</script>\nbad byte \xef\xbf\xbd here\n",
				 "the log as written, its bad byte made U+FFFD");
		free(resp);
	}
	cr_expect_eq(get_whole(path, other, &resp), 403, "%s", resp);
	cr_expect(strstr(resp, "not yours"), "%s", resp);
	cr_expect(!strstr(resp, "<script>"), "a refused reader sees none of the log: %s", resp);
	free(resp);
	cr_expect_eq(get(path, NULL), 401, "no token, no log");
	/* Seat 0 is a shipped player's: organisers only; it wrote nothing. */
	snprintf(path, sizeof path, "/api/matches/%lld/logs/0", (long long)match);
	cr_expect_eq(get(path, contestant), 403);
	cr_expect_eq(get(path, organiser), 404);
	snprintf(path, sizeof path, "/api/matches/%lld/logs/7", (long long)match);
	cr_expect_eq(get(path, organiser), 404, "no such seat");
	cr_expect_eq(get("/api/matches/424242/logs/0", organiser), 404, "no such match");
	cr_expect_eq(get("/api/matches/1/logs/01", organiser), 404, "not a seat number");
	cr_expect_eq(get("/api/matches/1/logs/1a", organiser), 404, "not a seat number");
	/* The owner's submission view says which matches have a log. */
	char *body;
	cr_assert_eq(request("GET", "/api/submissions/1", contestant, NULL, &body), 200, "%s", body);
	json_t *v = json_loads(body, 0, NULL), *m = json_array_get(json_object_get(v, "matches"), 0);
	cr_expect(json_is_true(json_object_get(m, "has_log")), "%s", body);
	json_decref(v);
	free(body);
	still_answering();
}

/* ---- the access log ------------------------------------------------------------ */

static char *read_text_file(const char *path)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	char *text = calloc(1, 1 << 16);
	size_t n = fread(text, 1, (1 << 16) - 1, f);
	text[n] = 0;
	fclose(f);
	return text;
}

Test(serve_http, the_access_log_has_a_whole_line_per_request_and_no_client_bytes_raw)
{
	serve_stop(server);
	char path[192];
	snprintf(path, sizeof path, "%s/access.log", tmpdir);
	FILE *log = fopen(path, "a");
	cr_assert_not_null(log);
	char evil[44];
	add_token("mordor \x1b[2J\nforged 200", false, evil);
	struct serve_options o = { .queue = queue, .host = "127.0.0.1", .limits = test_limits(),
				   .access_log = log };
	err_t err = {0};
	server = serve_start(&o, err);
	cr_assert_not_null(server, "serve_start: %s", err->msg);

	cr_assert_eq(get("/api/games", contestant), 200);
	cr_assert_eq(get("/api/games", evil), 200);
	cr_assert_eq(get("/api/no-such-thing", NULL), 404);
	static const char raw[] = "GET /api/games\x1b[31m\"x\\y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
	int raw_status = exchange(raw, sizeof raw - 1, NULL);
	/* A path of exactly the 512 characters shown is whole; one more is cut. */
	char whole[513], longer[514];
	memset(whole, 'a', sizeof whole - 1);
	memset(longer, 'b', sizeof longer - 1);
	whole[0] = longer[0] = '/';
	whole[sizeof whole - 1] = longer[sizeof longer - 1] = '\0';
	get(whole, NULL);
	get(longer, NULL);
	/* The method is the client's too: escaped, and cut when long. */
	static const char odd_method[] = "G\x1b[2J\"T /api/games HTTP/1.1\r\nHost: t\r\n"
					 "Connection: close\r\n\r\n";
	static const char long_method[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ /api/games HTTP/1.1\r\n"
					  "Host: t\r\nConnection: close\r\n\r\n";
	cr_expect_gt(exchange(odd_method, sizeof odd_method - 1, NULL), 0);
	cr_expect_gt(exchange(long_method, sizeof long_method - 1, NULL), 0);
	serve_stop(server);
	server = NULL;
	fclose(log);

	char *text = read_text_file(path);
	int lines = 0;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	cr_expect_eq(lines, 8, "one line per request:\n%s", text);
	cr_expect(strstr(text, " GET /api/games 200 ") && strstr(text, "ms sauron\n"), "%s", text);
	cr_expect(strstr(text, "ms mordor\\x20\\x1b[2J\\x0aforged\\x20200\n"), "%s", text);
	cr_expect(strstr(text, " GET /api/no-such-thing 404 ") && strstr(text, "ms -\n"), "%s", text);
	char want[64];
	snprintf(want, sizeof want, "/api/games\\x1b[31m\\x22x\\x5cy %d ", raw_status);
	cr_expect(raw_status > 0 && strstr(text, want), "%s: %s", want, text);
	cr_expect_null(strchr(text, '\x1b'), "a raw escape byte reached the log:\n%s", text);
	char whole_shown[sizeof whole + 1], cut_shown[sizeof longer + 3];
	snprintf(whole_shown, sizeof whole_shown, "%s ", whole);
	snprintf(cut_shown, sizeof cut_shown, "%.512s... ", longer);
	cr_expect(strstr(text, whole_shown), "a path of 512 characters is not whole:\n%s", text);
	cr_expect(strstr(text, cut_shown), "a path of 513 characters is not cut:\n%s", text);
	cr_expect(strstr(text, " G\\x1b[2J\\x22T /api/games "), "the odd method:\n%s", text);
	cr_expect(strstr(text, " ABCDEFGHIJKLMNOP... /api/games "), "the long method:\n%s", text);
	cr_expect(strncmp(text, "20", 2) == 0 && strstr(text, "Z 127.0.0.1 GET "), "%s", text);
	free(text);
	start(test_limits());
}

/* ---- HTTP framing (RFC 9112, section 6) ------------------------------------------ */

/* How many responses a stream holds. */
static int answers_in(const char *resp)
{
	int n = 0;
	for (const char *p = resp; (p = strstr(p, "HTTP/1.1 ")); p++)
		n++;
	return n;
}

/* Sends req raw and reads until the server closes: the status, with the
 * whole stream in *resp (malloc'd). */
static int exchange_whole(const char *req, char **resp)
{
	int fd = connect_server();
	send_all(fd, req, strlen(req));
	*resp = read_all(fd);
	close(fd);
	int status = 0;
	sscanf(*resp, "HTTP/1.%*d %d", &status);
	return status;
}

Test(serve_http, a_request_framed_two_ways_is_a_400_and_its_connection_closed)
{
	/* Each carries a second request a proxy framing the other way would
	 * not see: it must never be answered. */
	static const char *const requests[] = {
		"POST /api/submissions HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
		"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/ping HTTP/1.1\r\nHost: t\r\n\r\n",
		"GET /api/ping HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n"
		"\r\n0\r\n\r\nGET /api/games HTTP/1.1\r\nHost: t\r\n\r\n",
		"POST /api/submissions HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 40\r\n"
		"\r\n{}GET /api/ping HTTP/1.1\r\nHost: t\r\n\r\n",
		"POST /api/submissions HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
		"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/ping HTTP/1.1\r\nHost: t\r\n\r\n",
		"POST /api/submissions HTTP/1.1\r\nHost: t\r\nTransfer-Encoding : chunked\r\n"
		"Content-Length: 2\r\n\r\n{}GET /api/ping HTTP/1.1\r\nHost: t\r\n\r\n",
		"POST /api/submissions HTTP/1.0\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
		"Connection: keep-alive\r\n\r\n0\r\n\r\nGET /api/ping HTTP/1.1\r\nHost: t\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof requests / sizeof *requests; i++) {
		char *resp;
		cr_expect_eq(exchange_whole(requests[i], &resp), 400, "request %zu:\n%s", i, resp);
		cr_expect(strcasestr(resp, "\r\nConnection: close\r\n"), "request %zu:\n%s", i, resp);
		cr_expect_eq(answers_in(resp), 1, "request %zu: the hidden request was answered:\n%s",
			     i, resp);
		free(resp);
	}
	cr_expect_eq(stored_submissions(), 0);
	still_answering();
}

Test(serve_http, an_unknown_transfer_coding_is_a_501_at_once)
{
	static const char *const codings[] = { "gzip", "gzip, chunked", "chunked, gzip", "identity",
					       "chunked;ext=1" };
	for (size_t i = 0; i < sizeof codings / sizeof *codings; i++) {
		char req[256], *resp;
		snprintf(req, sizeof req, "POST /api/submissions HTTP/1.1\r\nHost: t\r\n"
			 "Transfer-Encoding: %s\r\n\r\n0\r\n\r\n", codings[i]);
		/* The server's idle timeout is 1 s: an answer only then is no answer. */
		cr_expect_eq(exchange_whole(req, &resp), 501, "%s:\n%s", codings[i], resp);
		cr_expect(strcasestr(resp, "\r\nConnection: close\r\n"), "%s:\n%s", codings[i], resp);
		free(resp);
	}
	still_answering();
}

/* ---- slow clients ------------------------------------------------------------------- */

/* A connection to the server from a loopback address of the client's choice. */
static int connect_from(const char *address)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(serve_port(server)) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	inet_pton(AF_INET, address, &me.sin_addr);
	cr_assert(fd >= 0 && bind(fd, (struct sockaddr *)&me, sizeof me) == 0 &&
		  connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect from %s: %s", address,
		  strerror(errno));
	return fd;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Has the server closed fd (or answered on it)?  Does not wait. */
static bool closed_or_answered(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) > 0;
}

Test(serve_http, a_request_that_trickles_is_cut_at_its_deadline)
{
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.request_s = 2;
	start(limits);
	int fd = connect_server();
	send_all(fd, "GET /api/games HTTP/1.1\r\nHost: t\r\n", 34);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* A header line every 200 ms: never idle for the 1 s timeout. */
	while (!closed_or_answered(fd) && seconds_since(&t0) < 8) {
		send_all(fd, "X-Slow: still here\r\n", 20);
		usleep(200 * 1000);
	}
	double held = seconds_since(&t0);
	cr_expect(held < 5, "a trickling request held its connection %.1f s (deadline 2 s)", held);
	char *resp = read_all(fd);
	cr_expect(strncmp(resp, "HTTP/1.1 200", 12) != 0, "the cut request was answered");
	free(resp);
	close(fd);
	still_answering();
}

#define TRICKLERS 300

/* 300 connections from 3 addresses, each sending a header line every
 * 250 ms (as a slow-headers attack does), while another client asks: it
 * gets every answer, each within a second. */
Test(serve_http, many_slow_connections_from_few_addresses_leave_room_for_others)
{
	serve_stop(server);
	struct cfg_serve limits = test_limits();
	limits.timeout_s = 10; /* as deployed: the slow ones are never idle that long */
	start(limits);
	static const char *const addresses[] = { "127.0.0.2", "127.0.0.3", "127.0.0.4" };
	int slow[TRICKLERS];
	for (int i = 0; i < TRICKLERS; i++) {
		slow[i] = connect_from(addresses[i % 3]);
		send_all(slow[i], "GET /api/games HTTP/1.1\r\nHost: t\r\n", 34);
	}
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int asked = 0;
	for (double last_trickle = -1; seconds_since(&t0) < 3;) {
		if (seconds_since(&t0) - last_trickle >= 0.25) {
			last_trickle = seconds_since(&t0);
			for (int i = 0; i < TRICKLERS; i++)
				send(slow[i], "X-Slow: 1\r\n", 11, MSG_NOSIGNAL | MSG_DONTWAIT);
		}
		struct timespec q;
		clock_gettime(CLOCK_MONOTONIC, &q);
		cr_expect_eq(get("/api/games", NULL), 200, "request %d while 300 trickle", asked);
		double took = seconds_since(&q);
		cr_expect(took < 1, "request %d took %.2f s while 300 trickle", asked, took);
		asked++;
		usleep(100 * 1000);
	}
	cr_expect_gt(asked, 5);
	for (int i = 0; i < TRICKLERS; i++)
		close(slow[i]);
}

/* ---- the pages' Content-Security-Policy ------------------------------------------- */

/* The value of a response's header (a malloc'd copy), or NULL. */
static char *header_of(const char *resp, const char *name)
{
	char want[64];
	snprintf(want, sizeof want, "\r\n%s: ", name);
	const char *h = strcasestr(resp, want), *end = h ? strstr(h + 2, "\r\n") : NULL;
	return end ? strndup(h + strlen(want), (size_t)(end - h - strlen(want))) : NULL;
}

/* The script-src directive of a policy (malloc'd). */
static char *script_src(const char *policy)
{
	const char *s = strstr(policy, "script-src ");
	cr_assert_not_null(s, "no script-src in %s", policy);
	return strndup(s, strcspn(s, ";"));
}

Test(serve_http, no_page_but_the_viewers_runs_inline_script)
{
	static const char *const pages[] = { "/", "/leaderboard/dominator", "/players/Sauron",
					     "/submissions", "/submissions/1", "/upload", "/organiser" };
	for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
		char *resp;
		cr_assert_eq(get_whole(pages[i], contestant, &resp), 200, "%s", pages[i]);
		char *policy = header_of(resp, "Content-Security-Policy");
		cr_assert_not_null(policy, "%s has no policy", pages[i]);
		char *scripts = script_src(policy);
		cr_expect_str_eq(scripts, "script-src 'self'", "%s: %s", pages[i], policy);
		cr_expect_null(strstr(policy, "unsafe-inline"), "%s: %s", pages[i], policy);
		const char *body = strstr(resp, "\r\n\r\n");
		for (const char *s = body; (s = strstr(s, "<script")); s++)
			cr_expect(strncmp(s, "<script src=", 12) == 0, "%s has an inline script", pages[i]);
		free(scripts);
		free(policy);
		free(resp);
	}
}

/* "'sha256-BASE64'" of len bytes. */
static void csp_hash(const char *text, size_t len, char out[64])
{
	unsigned char digest[32], b64[48];
	unsigned n;
	cr_assert_eq(EVP_Digest(text, len, digest, &n, EVP_sha256(), NULL), 1);
	EVP_EncodeBlock(b64, digest, (int)n);
	snprintf(out, 64, "'sha256-%s'", b64);
}

Test(serve_http, the_viewers_inline_scripts_run_by_their_hashes_and_nothing_else)
{
	static const char text[] = "{\"rounds\": []}";
	uint8_t *gz;
	size_t gz_len;
	char path[64], *resp;
	err_t err;
	cr_assert_eq(replay_gzip(text, strlen(text), &gz, &gz_len, err), 0, "%s", err->msg);
	int64_t match = stored_match_with("Bob", gz, gz_len);
	free(gz);
	snprintf(path, sizeof path, "/api/matches/%lld/page", (long long)match);
	cr_assert_eq(get_whole(path, contestant, &resp), 200, "%s", resp);
	char *policy = header_of(resp, "Content-Security-Policy");
	cr_assert_not_null(policy);
	char *scripts = script_src(policy);
	cr_expect_null(strstr(scripts, "unsafe-inline"), "%s", scripts);
	int inline_scripts = 0;
	for (const char *s = strstr(resp, "<script"); s; s = strstr(s + 1, "<script")) {
		const char *gt = strchr(s, '>'), *close = strstr(gt, "</script>");
		cr_assert(gt && close);
		if (strncmp(s, "<script>", 8) != 0)
			continue; /* the replay's data, or a script from a file */
		char hash[64];
		csp_hash(gt + 1, (size_t)(close - gt - 1), hash);
		cr_expect(strstr(scripts, hash), "inline script %d (%s) is not allowed by %s",
			  inline_scripts, hash, scripts);
		inline_scripts++;
	}
	cr_expect_gt(inline_scripts, 1);
	/* The match page shows the viewer in a srcdoc frame, which lives under
	 * the page's policy: the same hashes, and no more. */
	char *page;
	snprintf(path, sizeof path, "/matches/%lld", (long long)match);
	cr_assert_eq(get_whole(path, contestant, &page), 200);
	char *page_policy = header_of(page, "Content-Security-Policy");
	cr_assert_not_null(page_policy);
	char *page_scripts = script_src(page_policy);
	cr_expect_str_eq(page_scripts, scripts);
	free(page_scripts);
	free(page_policy);
	free(page);
	free(scripts);
	free(policy);
	free(resp);
}

/* ---- what a query or a path names, strictly ------------------------------------------ */

Test(serve_http, numbers_in_a_query_are_digits_and_nothing_else)
{
	static const char *const bad_min[] = { "nan", "NaN", "inf", "-inf", "0.5x", "1e-1", "+0.5",
					       "-0", "0x1p-1", "%200.5", "0.5%20", ".5", "1.", "" };
	char path[128];
	for (size_t i = 0; i < sizeof bad_min / sizeof *bad_min; i++) {
		snprintf(path, sizeof path, "/api/organiser/plagiarism/dominator?min=%s", bad_min[i]);
		cr_expect_eq(get(path, organiser), 400, "min=%s", bad_min[i]);
	}
	cr_expect_eq(get("/api/organiser/plagiarism/dominator?min=0.5", organiser), 200);
	cr_expect_eq(get("/api/organiser/plagiarism/dominator?min=1", organiser), 200);
	cr_expect_eq(get("/api/organiser/plagiarism/dominator", organiser), 200);
	static const char *const bad_b[] = { "nan", "1e3", "+2", "2%20", "0x10", "2.0", "-1", "0" };
	for (size_t i = 0; i < sizeof bad_b / sizeof *bad_b; i++) {
		snprintf(path, sizeof path, "/api/organiser/pair/1?b=%s", bad_b[i]);
		cr_expect_eq(get(path, organiser), 400, "b=%s", bad_b[i]);
	}
	cr_expect_eq(get("/api/organiser/pair/1?b=2", organiser), 404, "no such pair");
}

Test(serve_http, a_game_that_does_not_exist_is_a_404_everywhere)
{
	static const char *const paths[] = {
		"/api/organiser/plagiarism/nogame", "/api/leaderboard/nogame",
		"/api/players/Sauron?game=nogame", "/leaderboard/nogame", "/players/Sauron?game=nogame",
		"/plagiarism/nogame",
	};
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		char *body;
		cr_expect_eq(request("GET", paths[i], organiser, NULL, &body), 404, "%s: %s", paths[i],
			     body);
		free(body);
	}
	char *body;
	cr_expect_eq(request("POST", "/api/submissions", contestant,
			     "{\"game\": \"nogame\", \"source\": \"x\"}", &body), 404, "%s", body);
	cr_expect(strstr(body, "there is no game nogame"), "%s", body);
	free(body);
	cr_expect_eq(request("POST", "/api/organiser/disqualify", organiser,
			     "{\"game\": \"nogame\", \"name\": \"Sauron\", \"reason\": \"x\"}", &body), 404);
	cr_expect(strstr(body, "there is no game nogame"), "%s", body);
	free(body);
	cr_expect_eq(request("POST", "/api/organiser/rejudge", organiser, "{\"game\": \"nogame\"}",
			     NULL), 404);
	cr_expect_eq(get("/leaderboard/dominator", NULL), 200);
	cr_expect_eq(get("/plagiarism/dominator", NULL), 200, "the page: its data need a token");
	cr_expect_eq(stored_submissions(), 0);
}

/* ---- the connection limits (judge/serve/gate.h) ---------------------------------- */

static struct sockaddr_in v4(const char *address)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	inet_pton(AF_INET, address, &a.sin_addr);
	return a;
}

static struct sockaddr_in6 v6(const char *address)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
	inet_pton(AF_INET6, address, &a.sin6_addr);
	return a;
}

#define SA(a) ((const struct sockaddr *)&(a))

Test(serve_gate, an_address_gets_its_share_and_the_reserve_goes_to_the_others)
{
	struct gate *g = gate_new(&(struct gate_limits){ .connections = 40, .per_address = 20,
							  .reserved = 10, .request_ms = 1000 });
	struct sockaddr_in a = v4("10.0.0.1"), b = v4("10.0.0.2"), c = v4("10.0.0.3");
	int fd = 3;
	for (int i = 0; i < 20; i++)
		cr_assert_eq(gate_admit(g, fd++, SA(a), 0), GATE_ADMIT);
	cr_expect_eq(gate_admit(g, fd, SA(a), 0), GATE_ADDRESS_FULL, "past its share");
	for (int i = 0; i < 10; i++)
		cr_assert_eq(gate_admit(g, fd++, SA(b), 0), GATE_ADMIT);
	/* 30 open: only the last 10, the reserve, are left, for addresses with few. */
	cr_expect_eq(gate_admit(g, fd, SA(b), 0), GATE_RESERVED);
	for (int i = 0; i < GATE_RESERVE_SHARE; i++)
		cr_expect_eq(gate_admit(g, fd++, SA(c), 0), GATE_ADMIT, "fresh address, %d", i);
	cr_expect_eq(gate_admit(g, fd, SA(c), 0), GATE_RESERVED);
	cr_expect_eq(gate_count(g, SA(c)), GATE_RESERVE_SHARE);
	cr_expect_eq(gate_count(g, NULL), 30 + GATE_RESERVE_SHARE);
	gate_forget(g, 3); /* one of a's */
	cr_expect_eq(gate_count(g, SA(a)), 19);
	cr_expect_eq(gate_admit(g, fd, SA(a), 0), GATE_RESERVED, "still busy");
	gate_forget(g, 3);
	cr_expect_eq(gate_count(g, SA(a)), 19, "forgotten twice, counted once");
	gate_free(g);
}

Test(serve_gate, a_full_gate_takes_nobody)
{
	struct gate *g = gate_new(&(struct gate_limits){ .connections = 4, .per_address = 4,
							  .reserved = 0, .request_ms = 1000 });
	char address[32];
	for (int i = 0; i < 4; i++) {
		struct sockaddr_in a = v4((snprintf(address, sizeof address, "10.0.1.%d", i), address));
		cr_assert_eq(gate_admit(g, 10 + i, SA(a), 0), GATE_ADMIT);
	}
	struct sockaddr_in late = v4("10.0.2.1");
	cr_expect_eq(gate_admit(g, 20, SA(late), 0), GATE_FULL);
	gate_forget(g, 11);
	cr_expect_eq(gate_admit(g, 20, SA(late), 0), GATE_ADMIT);
	gate_free(g);
}

Test(serve_gate, an_ipv6_machine_counts_as_its_64_bit_block)
{
	struct gate *g = gate_new(&(struct gate_limits){ .connections = 100, .per_address = 2,
							  .reserved = 0, .request_ms = 1000 });
	struct sockaddr_in6 x = v6("2001:db8:1:2::1"), y = v6("2001:db8:1:2:ffff::9");
	struct sockaddr_in6 other = v6("2001:db8:1:3::1"), mapped = v6("::ffff:10.0.0.1");
	struct sockaddr_in plain = v4("10.0.0.1");
	cr_expect_eq(gate_admit(g, 3, SA(x), 0), GATE_ADMIT);
	cr_expect_eq(gate_admit(g, 4, SA(y), 0), GATE_ADMIT);
	cr_expect_eq(gate_admit(g, 5, SA(x), 0), GATE_ADDRESS_FULL, "the same /64");
	cr_expect_eq(gate_admit(g, 5, SA(other), 0), GATE_ADMIT, "another /64");
	cr_expect_eq(gate_admit(g, 6, SA(mapped), 0), GATE_ADMIT);
	cr_expect_eq(gate_admit(g, 7, SA(plain), 0), GATE_ADMIT);
	cr_expect_eq(gate_admit(g, 8, SA(plain), 0), GATE_ADDRESS_FULL,
		     "an IPv4 address is the same written as IPv6");
	gate_free(g);
}

static void note_cut(int fd, void *arg)
{
	int *cut = arg;
	cut[fd]++;
}

Test(serve_gate, a_request_gets_its_time_from_the_last_answer_and_no_more)
{
	struct gate *g = gate_new(&(struct gate_limits){ .connections = 10, .per_address = 10,
							  .reserved = 0, .request_ms = 1000 });
	struct sockaddr_in a = v4("10.0.0.1");
	int cut[8] = { 0 };
	gate_admit(g, 3, SA(a), 0);
	gate_admit(g, 4, SA(a), 0);
	gate_admit(g, 5, SA(a), 0);
	gate_answering(g, 4);          /* 4's request came whole: answered, however long */
	gate_answering(g, 5);
	gate_waiting(g, 5, 900);       /* 5 answered at 900 ms: its next request has until 1900 */
	gate_cut_overdue(g, 1000, note_cut, cut);
	cr_expect_eq(cut[3] + cut[4] + cut[5], 0, "nobody is late at 1000 ms");
	gate_cut_overdue(g, 1001, note_cut, cut);
	cr_expect_eq(cut[3], 1, "3 trickled past its second");
	cr_expect_eq(cut[4] + cut[5], 0);
	gate_cut_overdue(g, 5000, note_cut, cut);
	cr_expect_eq(cut[3], 1, "cut once");
	cr_expect_eq(cut[4], 0, "being answered");
	cr_expect_eq(cut[5], 1);
	gate_forget(g, 3);
	gate_free(g);
}
