/* The upload client, run as contestants run it (judge submit, the program
 * behind scripts/upload): the local checks shared with the compile step,
 * files that are not files, the queue's folder, and the HTTP mode against
 * a real local server answering canned responses: what the client sent
 * (method, path, headers, JSON body) and how it reports each refusal. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"
#include "tests/unit/http_receiver.h"

static char dir[64], db[128], out[65536];

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/judge-upload-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/q/jobs.sqlite", dir);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cli_run(cmd, out, sizeof out);
}

TestSuite(upload, .init = setup, .fini = teardown, .timeout = 60);
TestSuite(upload_http, .init = setup, .fini = teardown, .timeout = 60);

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(text, 1, strlen(text), f), strlen(text));
	fclose(f);
}

/* dir/name holding text; its path in path. */
static void source(const char *name, const char *text, char path[160])
{
	snprintf(path, 160, "%s/%s", dir, name);
	write_file(path, text);
}

static const char good_text[] = "#include <stdio.h>\n#include \"dominator.h\"\n"
				"PLAYER_NAME(Sauron); /* \"quoted\" \\ and a tab:\t */\n"
				"void play(void) {}\n";

static int upload(const char *file, const char *more)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s submit %s --game dominator --queue %s %s 2>&1", cli_judge(),
		 file, db, more);
	return cli_run(cmd, out, sizeof out);
}

static int stored(void)
{
	char cmd[256], n[64];
	if (access(db, F_OK) != 0)
		return 0;
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'SELECT count(*) FROM submissions'", db);
	cr_assert_eq(cli_run(cmd, n, sizeof n), 0);
	return atoi(n);
}

/* The name of the last submission stored. */
static const char *sql_name(void)
{
	static char name[64];
	char cmd[256];
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'SELECT name FROM submissions ORDER BY id DESC'", db);
	cr_assert_eq(cli_run(cmd, name, sizeof name), 0);
	name[strcspn(name, "\n")] = '\0';
	return name;
}

static void expect_refused(const char *file, const char *more, const char *words)
{
	int before = stored();
	cr_assert_eq(upload(file, more), 1, "%s", out);
	cr_assert(strstr(out, words), "expected '%s' in: %s", words, out);
	cr_assert_eq(stored(), before, "a refused upload was stored");
}

/* ---- the local checks ---------------------------------------------------- */

Test(upload, a_fresh_directory_gets_the_queue_folder)
{
	char path[160];
	source("AISauron.c", good_text, path);
	cr_assert_eq(upload(path, "--author alice"), 0, "%s", out);
	cr_assert_str_eq(out, "1\n");
	struct stat st;
	cr_assert_eq(stat(db, &st), 0);
}

/* An organiser's first command in a fresh directory is often `judge token
 * add` or `judge serve`, not an upload: each makes the folder too. */
Test(upload, a_token_in_a_fresh_directory_gets_the_queue_folder)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s token add --author gandalf --organiser --queue %s 2>/dev/null",
		 cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect_eq(strlen(out), 44, "one token and a newline: %s", out);
	struct stat st;
	cr_assert_eq(stat(db, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
}

/* `make install` puts the script in PREFIX/share/judge/scripts and the
 * judge in PREFIX/bin, which need not be on the PATH. */
Test(upload, the_installed_script_finds_the_installed_judge)
{
	char path[160], cmd[3 * PATH_MAX], judge[PATH_MAX], tree[PATH_MAX];
	source("AISauron.c", good_text, path);
	cr_assert_not_null(realpath(cli_judge(), judge));
	cr_assert_not_null(getcwd(tree, sizeof tree)); /* the tests run in the source tree */
	snprintf(cmd, sizeof cmd, "cd %s && mkdir -p inst/bin inst/share/judge/scripts && "
		 "cp %s/scripts/upload inst/share/judge/scripts/ && ln -s %s inst/bin/judge && "
		 "env -i PATH=/usr/bin:/bin inst/share/judge/scripts/upload %s --game dominator "
		 "--author alice --queue %s 2>&1", dir, tree, judge, path, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "1\n");
	snprintf(cmd, sizeof cmd, "cd %s && rm inst/bin/judge && env -i PATH=/usr/bin:/bin "
		 "inst/share/judge/scripts/upload %s --game dominator 2>&1", dir, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 2, "%s", out);
	cr_expect(strstr(out, "cannot find the judge program"), "%s", out);
}

Test(upload, the_compile_steps_source_checks_run_at_upload)
{
	char path[160];
	source("AIBom.c", "\xef\xbb\xbfPLAYER_NAME(Bom);\nvoid play(void) {}\n", path);
	expect_refused(path, "", "AIBom.c:1: the file starts with a byte-order mark");
	source("AIInc.c", "#include \"ants.h\"\nPLAYER_NAME(Inc);\n", path);
	expect_refused(path, "", "#include \"ants.h\" is not allowed: only the standard C headers "
		       "and dominator.h");
	source("AISys.c", "#include <unistd.h>\nPLAYER_NAME(Sys);\n", path);
	expect_refused(path, "", "#include <unistd.h> is not allowed");
	source("AIAsm.c", "PLAYER_NAME(Asm);\nvoid play(void) { __asm__(\"nop\"); }\n", path);
	expect_refused(path, "", "AIAsm.c:2:");
	source("AITwo.c", "PLAYER_NAME(One);\nPLAYER_NAME(Two);\n", path);
	expect_refused(path, "", "writes PLAYER_NAME 2 times: write PLAYER_NAME(Name); once");
	source("AINone.c", "/* PLAYER_NAME(Hidden) */\nvoid play(void) {}\n", path);
	expect_refused(path, "", "does not name its player: write PLAYER_NAME(Name)");
	source("AIOk.c", "/* PLAYER_NAME(Doc) */\nPLAYER_NAME(Ok);\n", path);
	cr_assert_eq(upload(path, ""), 0, "a name in a comment is not a second one: %s", out);
}

/* The name is decided once, at upload, from the text: a name the
 * preprocessor could drop, rename or make up would let the program play
 * under another player's name (the runner freezes it, but the upload is
 * where the contestant learns what to write). */
Test(upload, a_name_the_preprocessor_could_change_is_refused)
{
	static const struct { const char *file, *text, *words; } refused[] = {
		/* stored as Alias, playing as another author's Demo */
		{ "AIAlias.c", "#include \"dominator.h\"\n#if 0\nPLAYER_NAME(Alias);\n#endif\n"
		  "const char player_name[] = \"Demo\";\nvoid play(void) {}\n",
		  "AIAlias.c:5: writes player_name itself, which PLAYER_NAME(Name) defines (only a "
		  "function may read it): write PLAYER_NAME(Name); once, on a line of its own "
		  "outside every #if and function" },
		{ "AIIf.c", "#ifndef NDEBUG\nPLAYER_NAME(Alias);\n#endif\n",
		  "AIIf.c:2: writes PLAYER_NAME inside #if/#ifdef/#ifndef ... #endif" },
		/* the reserved name would be x, the played one anything */
		{ "AIMacro.c", "#define NAME(n) PLAYER_NAME(n)\nNAME(x);\n",
		  "AIMacro.c:1: writes PLAYER_NAME on a preprocessor line" },
		{ "AIUndef.c", "#undef PLAYER_NAME\n#define PLAYER_NAME(n) int n\nPLAYER_NAME(Alias);\n",
		  "AIUndef.c:1: writes PLAYER_NAME on a preprocessor line" },
		{ "AIRename.c", "#define player_name decoy\nPLAYER_NAME(Alias);\n",
		  "AIRename.c:1: writes player_name itself" },
		/* as GCC reads it: spliced lines, digraphs */
		{ "AISplice.c", "PLAYER_NAME(Ok);\n%:i\\\nf 1\nPLAYER_\\\nNAME(Alias);\n#endif\n",
		  "AISplice.c:4: writes PLAYER_NAME inside #if" },
		{ "AIInner.c", "void play(void) <% PLAYER_NAME(Inner); %>\n",
		  "AIInner.c:1: writes PLAYER_NAME inside braces or parentheses" },
	};
	char path[160];
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		source(refused[i].file, refused[i].text, path);
		expect_refused(path, "", refused[i].words);
	}
	cr_assert_eq(stored(), 0);
	/* reading player_name in a function, and #if elsewhere, are fine */
	source("AIReader.c", "#include <stdio.h>\n#include \"dominator.h\"\n#ifndef NDEBUG\n#endif\n"
	       "PLAYER_NAME /* the name: */ ( Reader ) ;\n"
	       "void play(void) { fprintf(stderr, \"%s\", player_name); }\n", path);
	cr_assert_eq(upload(path, ""), 0, "%s", out);
	cr_assert_str_eq(sql_name(), "Reader");
}

Test(upload, blank_or_empty_authors_are_refused)
{
	char path[160];
	source("AISauron.c", good_text, path);
	expect_refused(path, "--author ''", "the author name must be 1 to 63 printable");
	expect_refused(path, "--author '   '", "not blank");
	expect_refused(path, "--author ' bob'", "no space at either end");
	cr_assert_eq(upload(path, "--author 'bob smith'"), 0, "%s", out);
}

Test(upload, a_fifo_a_device_or_a_folder_is_refused_at_once)
{
	char fifo[160];
	snprintf(fifo, sizeof fifo, "%s/AIFifo.c", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	char cmd[512];
	/* Without O_NONBLOCK the open waits for a writer forever. */
	snprintf(cmd, sizeof cmd, "timeout 5 %s submit %s --game dominator --queue %s 2>&1",
		 cli_judge(), fifo, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_assert(strstr(out, "it is a pipe (FIFO), not a file"), "%s", out);
	expect_refused("/dev/null", "", "it is a device, not a file");
	expect_refused(dir, "", "it is a directory, not a file");
}

Test(upload, wait_says_when_no_worker_takes_the_jobs)
{
	char a[160], b[160], cmd[512];
	source("AIOld.c", "PLAYER_NAME(Old);\n", a);
	source("AINew.c", "PLAYER_NAME(New);\n", b);
	cr_assert_eq(upload(a, ""), 0, "%s", out);
	/* The first job has waited ten minutes, and no worker holds a lease. */
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'UPDATE jobs SET created_at = created_at - 600000'",
		 db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "timeout 3 %s submit %s --game dominator --queue %s --wait 2>&1",
		 cli_judge(), b, db);
	cli_run(cmd, out, sizeof out);
	cr_assert(strstr(out, "submission 2: queued\n"), "%s", out);
	/* every line labelled with the submission it is about */
	cr_assert(strstr(out, "submission 2: no worker has taken a job for 600 s: is a worker "
			      "running? start one with `judge-worker --queue"), "%s", out);
}

/* ---- over HTTP ------------------------------------------------------------- */

static void serve(struct http_receiver *r, const struct rcv_reply *replies, size_t n)
{
	struct rcv_program p = { .mode = RCV_ANSWER, .replies = replies, .n_replies = n };
	cr_assert_eq(rcv_start(r, &p), 0);
}

/* Uploads file to the receiver; env and more are put before and after. */
static int upload_http(const struct http_receiver *r, const char *env, const char *file,
		       const char *more)
{
	char url[128], cmd[1024];
	rcv_url(r, "/", url, sizeof url);
	snprintf(cmd, sizeof cmd, "%s %s submit %s --game dominator --server %s %s 2>&1", env,
		 cli_judge(), file, url, more);
	return cli_run(cmd, out, sizeof out);
}

/* AISauron.c (good_text) uploaded to a receiver answering replies, which
 * is stopped after: `judge submit`'s exit status, its output in out. */
static int upload_answered(struct http_receiver *r, const struct rcv_reply *replies, size_t n,
			   const char *env, const char *more)
{
	char path[160];
	source("AISauron.c", good_text, path);
	serve(r, replies, n);
	int rc = upload_http(r, env, path, more);
	rcv_stop(r);
	return rc;
}

Test(upload_http, sends_the_contract_and_prints_the_id)
{
	static const struct rcv_reply ok[] = {
		{ 201, NULL, "{\"id\": 12, \"player\": \"Sauron\", \"game\": \"dominator\"}" },
	};
	struct http_receiver r;
	char value[256];
	int rc = upload_answered(&r, ok, 1, "JUDGE_TOKEN=s3cret-Tok", "");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert_str_eq(out, "12\n");
	cr_assert_eq(r.requests, 1);
	cr_expect_str_eq(r.first.method, "POST");
	cr_expect_str_eq(r.first.path, "/api/submissions"); /* the URL's '/' not doubled */
	cr_assert(rcv_header(&r.first, "Authorization", value, sizeof value));
	cr_expect_str_eq(value, "Bearer s3cret-Tok");
	cr_assert(rcv_header(&r.first, "Content-Type", value, sizeof value));
	cr_expect_str_eq(value, "application/json");
	json_error_t e;
	json_t *body = json_loads(r.first.body, 0, &e);
	cr_assert_not_null(body, "%s: %s", e.text, r.first.body);
	cr_expect_eq(json_object_size(body), 2);
	cr_expect_str_eq(json_string_value(json_object_get(body, "game")), "dominator");
	cr_expect_str_eq(json_string_value(json_object_get(body, "source")), good_text);
	json_decref(body);
}

Test(upload_http, the_token_option_and_its_absence)
{
	static const struct rcv_reply ok[] = { { 201, NULL, "{\"id\": 3}" } };
	struct http_receiver r;
	char path[160], value[256];
	source("AISauron.c", good_text, path);
	serve(&r, ok, 1);
	int rc = upload_http(&r, "JUDGE_TOKEN=", path, "");
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "--server needs your token: set JUDGE_TOKEN"), "%s", out);
	rc = upload_http(&r, "JUDGE_TOKEN=", path, "--author alice --token T");
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "with --server the token says who you are"), "%s", out);
	rc = upload_http(&r, "JUDGE_TOKEN=env", path, "--token opt");
	rcv_stop(&r);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert_eq(r.requests, 1);
	cr_assert(rcv_header(&r.first, "Authorization", value, sizeof value));
	cr_expect_str_eq(value, "Bearer opt");
}

/* A file refused before anything is sent: the words, and no request. */
static void expect_not_sent(const char *name, const char *text, const char *words)
{
	static const struct rcv_reply ok[] = { { 201, NULL, "{\"id\": 3}" } };
	struct http_receiver r;
	char path[160];
	source(name, text, path);
	serve(&r, ok, 1);
	int rc = upload_http(&r, "JUDGE_TOKEN=t", path, "");
	rcv_stop(&r);
	cr_expect_eq(rc, 1, "%s", out);
	cr_expect(strstr(out, words), "expected '%s' in: %s", words, out);
	cr_expect_eq(r.requests, 0, "a refused file was sent");
}

Test(upload_http, the_local_checks_come_first)
{
	expect_not_sent("AIInc.c", "#include <unistd.h>\nPLAYER_NAME(Inc);\n",
			"#include <unistd.h> is not allowed");
	/* Latin-1 in a comment: the compiler takes it, JSON cannot carry it */
	expect_not_sent("AILatin.c", "/* caf\xe9 */\nPLAYER_NAME(Latin);\n",
			"not valid UTF-8 text: save it as UTF-8");
}

/* One refusal: the answer, and the words the contestant must see. */
static void expect_answer(const struct rcv_reply *reply, const char *words)
{
	struct http_receiver r;
	int rc = upload_answered(&r, reply, 1, "JUDGE_TOKEN=t", "");
	cr_expect_eq(rc, 1, "HTTP %d: %s", reply->status, out);
	cr_expect(strncmp(out, "upload: ", 8) == 0 && strstr(out, words),
		  "HTTP %d: expected '%s' in: %s", reply->status, words, out);
	cr_expect_eq(strchr(out, '\n') - out + 1, (long)strlen(out), "one line: %s", out);
}

Test(upload_http, each_refusal_says_what_to_do)
{
	static const struct rcv_reply answers[] = {
		{ 401, NULL, "{\"error\": \"unknown token\"}" },
		{ 401, NULL, "" },
		{ 413, NULL, "{\"error\": \"the body is over 300 KiB\"}" },
		{ 429, "Retry-After: 30\r\n", "{\"error\": \"slow down\"}" },
		{ 500, NULL, "{\"error\": \"database is locked\"}" },
		{ 400, NULL, "{\"error\": \"unknown game 'x'\"}" },
		{ 403, NULL, "" },
		{ 301, "Location: https://elsewhere/\r\n", "" },
		{ 201, NULL, "<html>hello</html>" },
		{ 202, NULL, "{\"id\": 1}" },
		{ 422, NULL, "{\"error\": \"bad \\u001b[31mred\\u009b line\\nsecond\"}" },
	};
	static const char *const words[] = {
		"the server refused your token (401): unknown token; check --token or JUDGE_TOKEN\n",
		"the server refused your token (401); check --token or JUDGE_TOKEN, or ask the "
		"organiser for a new token\n",
		"the file is too large for the server (413): the body is over 300 KiB",
		"too many requests (429): slow down; try again in 30 seconds",
		"the server failed (HTTP 500): database is locked; try again later",
		"unknown game 'x' (HTTP 400)",
		"the server refused the request (HTTP 403)",
		"redirects (HTTP 301); give --server the URL it redirects to",
		"answered something that is not JSON: is it the judge?",
		"answered HTTP 202, not 201: is it the judge?",
		"bad ?[31mred? line?second (HTTP 422)",
	};
	for (size_t i = 0; i < sizeof answers / sizeof *answers; i++)
		expect_answer(&answers[i], words[i]);
}

Test(upload_http, an_unreachable_server_is_said_so)
{
	struct http_receiver r;
	char path[160];
	source("AISauron.c", good_text, path);
	serve(&r, (const struct rcv_reply[]){ { 201, NULL, "{}" } }, 1);
	rcv_stop(&r); /* its port is closed now */
	int rc = upload_http(&r, "JUDGE_TOKEN=t", path, "");
	cr_expect_eq(rc, 1, "%s", out);
	cr_expect(strstr(out, "cannot reach the judge at http://127.0.0.1:"), "%s", out);
	cr_expect(strstr(out, "connection refused"), "%s", out);
	cr_expect_null(strstr(out, "Bearer"), "%s", out);
}

Test(upload_http, wait_polls_the_submission_until_it_is_decided)
{
	static const struct rcv_reply script[] = {
		{ 201, NULL, "{\"id\": 7, \"player\": \"Sauron\", \"game\": \"dominator\"}" },
		{ 200, NULL, "{\"id\": 7, \"state\": \"queued\"}" },
		{ 200, NULL, "{\"id\": 7, \"state\": \"qualifying\"}" },
		{ 200, NULL, "{\"id\": 7, \"state\": \"qualified\"}" },
	};
	struct http_receiver r;
	char value[256];
	int rc = upload_answered(&r, script, 4, "JUDGE_TOKEN=t", "--wait");
	cr_assert_eq(rc, 0, "%s", out);
	cr_expect_str_eq(out, "submission 7: stored\nsubmission 7: queued\n"
			 "submission 7: qualifying\nsubmission 7: qualified\n");
	cr_expect_eq(r.requests, 4);
	cr_expect_str_eq(r.last.method, "GET");
	cr_expect_str_eq(r.last.path, "/api/submissions/7");
	cr_assert(rcv_header(&r.last, "Authorization", value, sizeof value));
	cr_expect_str_eq(value, "Bearer t");
}

/* Not only that it failed, but the compiler's words, each line labelled
 * and made safe for a terminal (a log holds what the contestant wrote). */
Test(upload_http, wait_ends_with_failure_and_the_compile_log)
{
	static const struct rcv_reply script[] = {
		{ 201, NULL, "{\"id\": 8}" },
		{ 200, NULL, "{\"id\": 8, \"state\": \"compiling\", \"compile_log\": null}" },
		{ 200, NULL, "{\"id\": 8, \"state\": \"compile_failed\", \"compile_log\": "
			     "\"AISauron.c:3:1: error: expected ';'\\n\\u001b[31mred\\n\"}" },
	};
	struct http_receiver r;
	int rc = upload_answered(&r, script, 3, "JUDGE_TOKEN=t", "--wait");
	cr_expect_eq(rc, 1, "%s", out);
	cr_expect_str_eq(out, "submission 8: stored\nsubmission 8: compiling\n"
			 "submission 8: compile_failed\n"
			 "compile: AISauron.c:3:1: error: expected ';'\ncompile: ?[31mred\n");
}
