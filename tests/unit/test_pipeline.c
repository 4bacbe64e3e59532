/* The submission pipeline end to end: scripts/upload, the real worker, a
 * real SQLite file, a real HTTP receiver for the webhooks. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <jansson.h>
#include <regex.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "judge/serve/serve.h"
#include "judge/store/store_serve.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/http_receiver.h"

static char dir[64], db[128], cfg[128], out[65536];

static void setup(void)
{
	cli_workdir("pipeline", dir, db, cfg);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(pipeline, .init = setup, .fini = teardown, .timeout = 120);

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void write_config(const char *json)
{
	write_file(cfg, json, strlen(json));
}

/* A shipped player's source under another name. */
static void player_file(const char *shipped, const char *name, char path[128])
{
	char cmd[512];
	snprintf(path, 128, "%s/AI%s.c", dir, name);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AI%s.c > %s", name, shipped, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
}

static int upload(const char *file, const char *author)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s submit %s --game dominator "
		 "--author %s --queue %s 2>&1", cfg, cli_judge(), file, author, db);
	return cli_run(cmd, out, sizeof out);
}

static int work(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 "
		 "--exit-when-idle --ranked-matches 0 2>&1", cfg, cli_worker(), db);
	return cli_run(cmd, out, sizeof out);
}

/* The first line of what the sqlite3 program answers to query (given on
 * its stdin, so no shell quoting gets in the way). */
static const char *sql(const char *query)
{
	static char result[4096];
	char path[128], cmd[512];
	snprintf(path, sizeof path, "%s/query.sql", dir);
	write_file(path, query, strlen(query));
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s < %s 2>&1", db, path);
	cli_run(cmd, result, sizeof result);
	result[strcspn(result, "\n")] = '\0';
	return result;
}

static void expect_refused(const char *file, const char *author, const char *words)
{
	cr_assert_eq(upload(file, author), 1, "%s", out);
	cr_assert(strstr(out, words), "expected '%s' in: %s", words, out);
	if (access(db, F_OK) == 0) {
		cr_assert_str_eq(sql("SELECT count(*) FROM submissions"), "1");
		cr_assert_str_eq(sql("SELECT count(*) FROM jobs"), "1");
	}
}

Test(pipeline, bad_uploads_get_one_clear_error_and_store_nothing)
{
	char good[128], path[160];
	write_config("{}");
	player_file("Demo", "Alice1", good);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "scripts/upload %s --game dominator --author alice --queue %s",
		 good, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "1\n");

	expect_refused("/nonexistent/AIX.c", "alice", "cannot read /nonexistent/AIX.c");
	snprintf(path, sizeof path, "%s/AIEmpty.c", dir);
	write_file(path, "", 0);
	expect_refused(path, "alice", "is empty");
	snprintf(path, sizeof path, "%s/AIBin.c", dir);
	write_file(path, "\x7f" "ELF\0\0\1", 7);
	expect_refused(path, "alice", "not a binary");
	snprintf(path, sizeof path, "%s/AIHuge.c", dir);
	static char huge[300 * 1024];
	memset(huge, ' ', sizeof huge);
	write_file(path, huge, sizeof huge);
	expect_refused(path, "alice", "larger than 256 KiB");
	snprintf(path, sizeof path, "%s/AINoName.c", dir);
	write_file(path, "void play(void) {}\n", 19);
	expect_refused(path, "alice", "does not name its player");
	snprintf(path, sizeof path, "%s/AILong.c", dir);
	write_file(path, "PLAYER_NAME(Far_Too_Long_A_Name);\n", 34);
	expect_refused(path, "alice", "does not name its player");
	expect_refused(good, "mallory", "taken in dominator by another author");
	snprintf(cmd, sizeof cmd, "scripts/upload %s --game tetris --queue %s 2>&1", good, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1);
	cr_assert(strstr(out, "unknown game 'tetris'; the judge knows: dominator "), "%s", out);
	snprintf(cmd, sizeof cmd, "scripts/upload %s --game dominator --queue Makefile 2>&1", good);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1);
	cr_assert(strstr(out, "not a judge database"), "%s", out);
	cr_assert_str_eq(sql("SELECT count(*) FROM submissions"), "1");
}

Test(pipeline, a_compile_error_is_a_failed_submission_with_the_message)
{
	char path[160];
	write_config("{}");
	snprintf(path, sizeof path, "%s/AIBroken.c", dir);
	const char *src = "#include \"dominator.h\"\nPLAYER_NAME(Broken);\n"
			  "void play(void) { undeclared(1); }\n";
	write_file(path, src, strlen(src));
	cr_assert_eq(upload(path, "bob"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT state FROM submissions WHERE id = 1"), "compile_failed");
	cr_assert_str_eq(sql("SELECT instr(compile_log, 'AIBroken.c:3:') > 0 AND"
			     " instr(compile_log, 'undeclared') > 0 FROM submissions"), "1");
	cr_assert_str_eq(sql("SELECT count(*) FROM jobs WHERE state <> 'done'"), "0");
}

Test(pipeline, qualification_and_a_newer_submission_replacing_the_older)
{
	char v1[128], v2[160];
	write_config("{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 1,"
		     " \"qualify_opponent\": \"Null\"}}");
	player_file("Demo", "Carol", v1);
	cr_assert_eq(upload(v1, "carol"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT state FROM submissions WHERE id = 1"), "qualified");
	cr_assert_str_eq(sql("SELECT count(*) FROM matches WHERE kind = 'qualifying'"), "2");
	/* The same file again: nothing new, the submission keeps its state and rating. */
	cr_assert_eq(upload(v1, "carol"), 0, "%s", out);
	cr_assert(strstr(out, "already your current submission 1"), "%s", out);
	cr_assert_str_eq(sql("SELECT count(*) FROM submissions"), "1");
	char cmd[256];
	snprintf(v2, sizeof v2, "%s/AICarol.c", dir);
	snprintf(cmd, sizeof cmd, "echo '/* version 2 */' >> %s", v2);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	cr_assert_eq(upload(v2, "carol"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT state FROM submissions WHERE id = 1"), "superseded");
	cr_assert_str_eq(sql("SELECT state FROM submissions WHERE id = 2"), "qualified");
}

Test(pipeline, webhooks_are_delivered_to_a_real_receiver)
{
	struct http_receiver *rcv = calloc(1, sizeof *rcv);
	struct rcv_program prog = { .mode = RCV_ANSWER, .status = 204 };
	cr_assert_eq(rcv_start(rcv, &prog), 0);
	char url[128], json[512], file[128];
	rcv_url(rcv, "/hook", url, sizeof url);
	snprintf(json, sizeof json, "{\"webhooks\": [{\"url\": \"%s\", \"events\": "
		 "[\"submission.compiled\"]}], \"worker\": {\"qualify_matches\": 0}}", url);
	write_config(json);
	player_file("Demo", "Dave", file);
	cr_assert_eq(upload(file, "dave"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	rcv_stop(rcv);
	cr_assert_eq(rcv->requests, 1);
	cr_assert_str_eq(rcv->first.method, "POST");
	cr_assert_str_eq(rcv->first.path, "/hook");
	char type[64];
	cr_assert(rcv_header(&rcv->first, "Content-Type", type, sizeof type));
	cr_assert_str_eq(type, "application/json");
	cr_assert(strstr(rcv->first.body, "\"event\":\"submission.compiled\""), "%s", rcv->first.body);
	cr_assert(strstr(rcv->first.body, "\"player\":\"Dave\""), "%s", rcv->first.body);
	cr_assert_str_eq(sql("SELECT state FROM jobs WHERE kind = 'notify'"), "done");
	free(rcv);
}

Test(pipeline, a_dead_endpoint_never_blocks_judging)
{
	/* A port nobody listens on: bound, then closed. */
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	getsockname(s, (struct sockaddr *)&a, &len);
	close(s);
	char json[512], file[128];
	snprintf(json, sizeof json, "{\"webhooks\": [{\"url\": \"http://127.0.0.1:%d/\", \"events\": "
		 "[\"submission.compiled\", \"submission.qualified\"]}],"
		 " \"worker\": {\"qualify_matches\": 0}}", ntohs(a.sin_port));
	write_config(json);
	player_file("Demo", "Erin", file);
	cr_assert_eq(upload(file, "erin"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT state FROM submissions WHERE id = 1"), "qualified");
	cr_assert_str_eq(sql("SELECT count(*) FROM jobs WHERE kind = 'notify'"), "2");
	cr_assert_str_eq(sql("SELECT group_concat(DISTINCT last_error) FROM jobs WHERE kind = 'notify'"),
			 "webhook: connection refused");
	cr_assert_str_eq(sql("SELECT count(*) FROM jobs WHERE kind = 'notify' AND state = 'queued'"
			     " AND not_before > 0"), "2", "retried later, not now");
}

Test(pipeline, a_match_with_a_player_superseded_meanwhile_is_not_rated)
{
	char file[128];
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	const char *names[] = { "Fay", "Gus", "Hal", "Ivy" };
	for (int i = 0; i < 4; i++) {
		player_file("Demo", names[i], file);
		cr_assert_eq(upload(file, names[i]), 0, "%s", out);
	}
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT count(*) FROM ratings"), "4");
	/* A ranked match is queued; before it runs, Ivy's author replaces her
	 * (the state a newer qualified submission leaves behind). */
	sql("INSERT INTO jobs (kind, payload, state, created_at, updated_at) VALUES ('match',"
	    " '{\"kind\":\"ranked\",\"game\":\"dominator\",\"seed\":7,\"seats\":[{\"submission\":1},"
	    "{\"submission\":2},{\"submission\":3},{\"submission\":4}]}', 'queued', 0, 0);"
	    " UPDATE submissions SET state = 'superseded' WHERE id = 4");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --once 2>&1", cfg,
		 cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "not rated: a player was superseded"), "%s", out);
	cr_assert_str_eq(sql("SELECT rated FROM matches WHERE kind = 'ranked'"), "0");
	cr_assert_str_eq(sql("SELECT sum(games) FROM ratings"), "0");
	/* The same match with all four still ranked is rated. */
	sql("INSERT INTO jobs (kind, payload, state, created_at, updated_at) VALUES ('match',"
	    " '{\"kind\":\"ranked\",\"game\":\"dominator\",\"seed\":8,\"seats\":[{\"submission\":1},"
	    "{\"submission\":2},{\"submission\":3},{\"submission\":4}]}', 'queued', 0, 0);"
	    " UPDATE submissions SET state = 'qualified' WHERE id = 4");
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT sum(games) FROM ratings"), "4");
	snprintf(cmd, sizeof cmd, "%s ratings --recompute --check --game dominator --queue %s",
		 cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

Test(pipeline, sigterm_finishes_the_running_jobs_and_exits_0)
{
	char file[128];
	write_config("{\"worker\": {\"qualify_matches\": 0, \"min_games\": 100000}}");
	const char *names[] = { "Jo", "Kim", "Lee", "Max", "Ned" };
	for (int i = 0; i < 5; i++) {
		player_file("Demo", names[i], file);
		cr_assert_eq(upload(file, names[i]), 0, "%s", out);
	}
	/* Endless ranked matches; SIGTERM once one is recorded (at most 60 s:
	 * a loaded machine compiles slowly) and the next are under way. */
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 2 2> %s/worker.log &"
		 " pid=$!; for i in $(seq 600); do [ \"$(sqlite3 -batch %s \"SELECT count(*) FROM"
		 " matches WHERE kind = 'ranked'\" 2>/dev/null)\" -gt 0 ] 2>/dev/null && break;"
		 " sleep 0.1; done; sleep 0.3; kill -TERM $pid; wait $pid; echo exit=$?",
		 cfg, cli_worker(), db, dir, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	cr_assert(strstr(out, "exit=0"), "%s", out);
	cr_assert_str_eq(sql("SELECT count(*) FROM jobs WHERE state = 'running'"), "0");
	cr_assert_neq(atoi(sql("SELECT count(*) FROM matches WHERE kind = 'ranked'")), 0);
	snprintf(cmd, sizeof cmd, "%s ratings --recompute --check --game dominator --queue %s",
		 cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

Test(pipeline, an_older_database_is_migrated_on_open)
{
	char cmd[512];
	write_config("{}");
	/* A version-1 file, as the first judge made it: schema.sql alone. */
	snprintf(cmd, sizeof cmd, "{ cat build/db/sqlite/schema.sql; echo 'PRAGMA user_version = 1;'; } | "
		 "sqlite3 -batch %s", db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(sql("PRAGMA user_version"), "1");
	snprintf(cmd, sizeof cmd, "%s jobs --queue %s 2>&1", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_neq(atoi(sql("PRAGMA user_version")), 1);
	cr_assert_str_eq(sql("SELECT count(*) FROM sqlite_schema WHERE name = 'events_by_submission'"), "1");
	/* A file from a newer judge is refused, untouched. */
	sql("PRAGMA user_version = 99");
	cr_assert_eq(cli_run(cmd, out, sizeof out), 2, "%s", out);
	cr_assert(strstr(out, "made by a newer judge"), "%s", out);
}

/* ---- a player's name: the store's, in every view of a match ------------ */

/* libcurl's writer: appends to out while it fits. */
static size_t keep_body(char *data, size_t size, size_t n, void *unused)
{
	(void)unused;
	size_t have = strlen(out), add = size * n;
	if (have + add < sizeof out) {
		memcpy(out + have, data, add);
		out[have + add] = '\0';
	}
	return add;
}

/* GET path from a `judge serve` of the test's store; its JSON. */
static json_t *served_json(const char *path)
{
	char url[128];
	err_t err = {0};
	struct judge_config c;
	cfg_defaults(&c);
	struct serve_options o = { .queue = db, .host = "127.0.0.1", .limits = c.serve };
	struct serve *sv = serve_start(&o, err);
	cr_assert_not_null(sv, "%s", err->msg);
	snprintf(url, sizeof url, "http://127.0.0.1:%u%s", serve_port(sv), path);
	CURL *curl = curl_easy_init();
	out[0] = '\0';
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_body);
	CURLcode rc = curl_easy_perform(curl);
	curl_easy_cleanup(curl);
	serve_stop(sv);
	cr_assert_eq(rc, CURLE_OK, "%s", curl_easy_strerror(rc));
	json_t *j = json_loads(out, 0, NULL);
	cr_assert_not_null(j, "%s", out);
	return j;
}

static void expect_names(const json_t *players, const char *const *names, int n)
{
	cr_assert_eq(json_array_size(players), (size_t)n);
	for (int i = 0; i < n; i++)
		cr_expect_str_eq(json_string_value(json_object_get(json_array_get(players, i), "name")),
				 names[i], "seat %d", i);
}

/* A program the upload could not see through (here Dora's binary under
 * the submission stored as Alias, as an edited store row gives it) plays a
 * ranked match.  It is frozen, and the store's rows, the replay, the
 * viewer's page, the match's API and its "play it again" command all say
 * Alias, never a second Dora. */
Test(pipeline, every_view_of_a_match_shows_the_stored_names)
{
	char file[128], cmd[1024];
	const char *names[] = { "Alias", "Dora", "Gus", "Hal" };
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	for (int i = 0; i < 4; i++) {
		player_file("Demo", names[i], file);
		cr_assert_eq(upload(file, names[i]), 0, "%s", out);
	}
	cr_assert_eq(work(), 0, "%s", out);
	sql("UPDATE submissions SET (binary_path, binary_sha256) = (SELECT binary_path,"
	    " binary_sha256 FROM submissions WHERE name = 'Dora') WHERE name = 'Alias';"
	    " INSERT INTO jobs (kind, payload, state, created_at, updated_at) VALUES ('match',"
	    " '{\"kind\":\"ranked\",\"game\":\"dominator\",\"seed\":7,\"seats\":[{\"submission\":1},"
	    "{\"submission\":2},{\"submission\":3},{\"submission\":4}]}', 'queued', 0, 0)");
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --once 2>&1", cfg,
		 cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "ranked match 1 of dominator (Alias, Dora, Gus, Hal)"), "%s", out);
	const char *reason = "its program calls itself 'Dora' but it was uploaded as 'Alias'";
	cr_assert_str_eq(sql("SELECT group_concat(name, ',') FROM (SELECT name FROM match_players"
			     " WHERE match_id = 1 ORDER BY seat)"), "Alias,Dora,Gus,Hal");
	char want[160];
	snprintf(want, sizeof want, "stopped|-1|%s", reason);
	cr_assert_str_eq(sql("SELECT verdict || '|' || frozen_round || '|' || reason"
			     " FROM match_players WHERE match_id = 1 AND seat = 0"), want);

	snprintf(cmd, sizeof cmd, "%s replay 1 -o %s/replay.json --html %s/page.html --queue %s"
		 " 2>&1 && sed -n 's/.*data-encoding=\"gzip-base64\">\\([^<]*\\)<.*/\\1/p'"
		 " %s/page.html | base64 -d | gunzip > %s/page.json", cli_judge(), dir, dir, db, dir,
		 dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	const char *files[] = { "replay.json", "page.json" };
	for (int f = 0; f < 2; f++) {
		char path[160];
		snprintf(path, sizeof path, "%s/%s", dir, files[f]);
		json_t *replay = json_load_file(path, 0, NULL);
		cr_assert_not_null(replay, "%s", path);
		expect_names(json_object_get(replay, "players"), names, 4);
		json_t *frozen = json_array_get(json_object_get(json_object_get(replay, "result"),
								"frozen"), 0);
		cr_expect_eq(json_integer_value(json_array_get(frozen, 0)), 0);
		if (f == 1) /* the page tells why */
			cr_expect_str_eq(json_string_value(json_array_get(frozen, 3)), reason);
		json_decref(replay);
	}

	json_t *match = served_json("/api/matches/1");
	expect_names(json_object_get(match, "players"), names, 4);
	cr_expect_str_eq(json_string_value(json_object_get(match, "command")),
			 "judge play dominator AIAlias.c AIDora.c AIGus.c AIHal.c -s 7 --cpu 1000 "
			 "--memory 512 -i match-1.cnf");
	json_decref(match);
}

/* ---- silent stalls explained: the worker's log (timestamps, names) and
 * `judge status` say why nothing happens ---------------------------------- */

/* Shipped Dummy renamed name, uploaded by "a" + name. */
static void upload_dummy(const char *name)
{
	char path[128], author[16];
	player_file("Dummy", name, path);
	snprintf(author, sizeof author, "a%s", name);
	cr_assert_eq(upload(path, author), 0, "%s", out);
}

/* The worker with ranked matches, until idle. */
static void work_ranked(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle 2>&1",
		 cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

static void expect_line(const char *pattern)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0, "%s", pattern);
	int rc = regexec(&re, out, 0, NULL, 0);
	regfree(&re);
	cr_assert_eq(rc, 0, "no line matches /%s/ in:\n%s", pattern, out);
}

static const char *status_of(int id)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s status %d --queue %s 2>&1", cfg, cli_judge(),
		 id, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	return out;
}

Test(pipeline, too_few_qualified_players_is_said)
{
	write_config("{\"worker\": {\"qualify_wins\": 0}}\n");
	for (const char *n = "ABC"; *n; n++)
		upload_dummy((char[]){ *n, 0 });
	work_ranked();
	/* time, slot, job, names of the players and the game */
	expect_line("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z [^ ]+: job [0-9]+ "
		    "compile: submission 1 \\(A by aA, dominator\\): compiled");
	expect_line("^[0-9-]+T[0-9:]+Z [^ ]+: job [0-9]+ match: qualifying match [0-9]+ of "
		    "dominator \\(C, Dummy, Dummy, Dummy\\): ");
	expect_line("^[0-9-]+T[0-9:]+Z [^ ]+: nothing to do: dominator: 3 qualified players, "
		    "a match needs 4$");
	cr_assert(strstr(status_of(2), "waiting     no ranked match can be scheduled: 3 qualified "
				    "players, a match needs 4\n"), "%s", out);
}

Test(pipeline, every_player_with_its_minimum_is_said)
{
	write_config("{\"worker\": {\"min_games\": 1, \"qualify_wins\": 0}}\n");
	for (const char *n = "ABCD"; *n; n++)
		upload_dummy((char[]){ *n, 0 });
	work_ranked();
	expect_line(": job [0-9]+ match: ranked match [0-9]+ of dominator \\([A-D], [A-D], [A-D], "
		    "[A-D]\\): rated");
	expect_line(": nothing to do: dominator: each of the 4 qualified players has its 1 "
		    "ranked games \\(worker.min_games\\)$");
	cr_assert(strstr(status_of(1), "waiting     no ranked match can be scheduled: each of the 4 "
				    "qualified players has its 1 ranked games"), "%s", out);
}

Test(pipeline, status_says_when_no_worker_runs)
{
	write_config("{\"worker\": {\"qualify_wins\": 0}}\n");
	upload_dummy("A");
	cr_assert_null(strstr(status_of(1), "\nwaiting "), "a fresh job is not stuck: %s", out);
	sql("UPDATE jobs SET created_at = created_at - 45000");
	cr_assert(strstr(status_of(1), "waiting     no worker has taken a job for 45 s: is a worker "
				    "running? start one with `judge-worker --queue"), "%s", out);
}

/* Player A, qualified by the worker, then an organiser's decision on it
 * (one of store_serve.h's, which return 1 when done). */
enum decision { REJUDGE, DISQUALIFY };

static void qualify_a_then(const char *config, enum decision what)
{
	write_config(config);
	upload_dummy("A");
	work_ranked();
	err_t err = {0};
	struct store *s = store_open(db, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	int rc = what == REJUDGE ? store_rejudge_submission(s, 1, err)
				 : store_disqualify(s, "dominator", "A", "copied from B", "boss", err);
	cr_assert_eq(rc, 1, "%s", err->msg);
	store_close(s);
}

/* After an organiser's rejudge the worker decides on the new qualifying
 * matches alone; `judge status` counted the earlier ones too ("won 3 of 8"). */
Test(pipeline, status_counts_the_qualifying_matches_since_a_rejudge)
{
	qualify_a_then("{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 0}}\n", REJUDGE);
	work_ranked();
	status_of(1);
	expect_line("^outcome     qualified: won [0-2] of 2 qualifying matches$");
	expect_line("^qualifying matches \\(the first 2 played before the organisers' last "
		    "rejudge, not counted\\):$");
}

/* A disqualified player's status said "qualified" and why no match came,
 * never that the organisers had taken it out. */
Test(pipeline, status_says_a_player_was_disqualified_and_why)
{
	qualify_a_then("{\"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0}}\n",
		       DISQUALIFY);
	status_of(1);
	expect_line("^disqualified by boss on [0-9-]+ [0-9:]+ UTC, out of the ranking and "
		    "matchmaking: copied from B$");
	cr_assert_null(strstr(out, "\nwaiting "), "%s", out);
}

/* ---- players' stderr: kept with the match, read back by the organiser --- */

/* tests/players/AIChatty.c (a line on stderr every round) uploaded by
 * chatty, then its qualifying match against Null played. */
static void play_chatty(const char *config)
{
	char path[160], cmd[512];
	write_config(config);
	snprintf(path, sizeof path, "%s/AIChatty.c", dir);
	snprintf(cmd, sizeof cmd, "cp tests/players/AIChatty.c %s", path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_eq(upload(path, "chatty"), 0, "%s", out);
	cr_assert_eq(work(), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT count(*) FROM matches"), "1");
}

Test(pipeline, a_chatty_players_stderr_is_kept_with_its_match)
{
	play_chatty("{\"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0,"
		    " \"qualify_opponent\": \"Null\"}}");
	/* Only the seat that wrote something has a log: Null writes nothing. */
	cr_assert_str_eq(sql("SELECT count(*) FROM match_logs"), "1");
	cr_assert_str_eq(sql("SELECT l.seat = p.seat FROM match_logs l JOIN match_players p"
			     " ON p.match_id = l.match_id WHERE p.submission_id = 1"), "1");
	cr_assert_str_eq(sql("SELECT hex(substr(log, 1, 2)) FROM match_logs"), "1F8B",
			 "the log is kept gzip-compressed");
	char seat[8], cmd[512];
	snprintf(seat, sizeof seat, "%s", sql("SELECT seat FROM match_logs"));
	snprintf(cmd, sizeof cmd, "%s replay 1 --log %s --queue %s 2>&1", cli_judge(), seat, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	/* Its printf goes to stderr too: stdout is the game's. */
	cr_assert(strncmp(out, "round 0\nfarmers ", 16) == 0, "the log as the player wrote it: %.200s",
		  out);
	cr_assert(strstr(out, "\nround 199\nfarmers "), "a line every round: %.200s", out);
	snprintf(cmd, sizeof cmd, "%s replay 1 --log %d --queue %s 2>&1", cli_judge(),
		 1 - atoi(seat), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_assert(strstr(out, "wrote nothing to stderr"), "%s", out);
	snprintf(cmd, sizeof cmd, "%s replay 1 --log 5 --queue %s 2>&1", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_assert(strstr(out, "has no seat 5"), "%s", out);
}

Test(pipeline, no_log_is_kept_when_the_organiser_turns_logs_off)
{
	play_chatty("{\"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0,"
		    " \"qualify_opponent\": \"Null\", \"keep_logs\": false}}");
	cr_assert_str_eq(sql("SELECT count(*) FROM match_logs"), "0");
}
