/* test_people.c - the people of a course: a roster of 300 imported as
 * tokens in one go (all or none), each token working through the real
 * service, a second token of one author warned about, and a player
 * disqualified and reinstated from the command line with its history
 * kept.  Real judge programs, a real SQLite file, a real server. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/serve_testlib.h"

static char dir[64], db[128], cfg[128], out[131072];

static void setup(void)
{
	cli_workdir("people", dir, db, cfg);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(people, .init = setup, .fini = teardown, .timeout = 120);

static int judge(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s %s --queue %s 2>&1", cfg, cli_judge(), args,
		 db);
	return cli_run(cmd, out, sizeof out);
}

static void write_roster(int n)
{
	char path[160];
	snprintf(path, sizeof path, "%s/roster.csv", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "# author, group, label\n\n");
	for (int i = 1; i <= n; i++)
		fprintf(f, "student%d, g%d , Student Number %d\n", i, i % 5, i);
	fclose(f);
}

/* The token of line `line` (1: the first student) of tokens.csv. */
static void token_of(const char *csv, int line, char token[44])
{
	const char *p = csv;
	for (int i = 0; i < line && p; i++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	cr_assert_not_null(p);
	const char *end = strchr(p, '\n'), *comma = p;
	for (int i = 0; i < 3; i++)
		comma = strchr(comma, ',') + 1;
	snprintf(token, 44, "%.*s", (int)(end - comma), comma);
}

/* A real server over the test's queue with the test's settings. */
static struct serve *start_server(void)
{
	struct judge_config c;
	err_t err;
	err_t serr = {0};
	cr_assert_eq(cfg_init(&c, cfg, err), 0, "%s", err->msg);
	c.serve.threads = 2;
	struct serve_options o = { .queue = db, .host = "127.0.0.1", .limits = c.serve,
				   .contest = c.contest };
	struct serve *server = serve_start(&o, serr);
	cr_assert_not_null(server, "%s", serr->msg);
	return server;
}

Test(people, a_roster_of_300_becomes_300_working_tokens_with_labels_and_groups)
{
	write_roster(300);
	char args[256];
	snprintf(args, sizeof args, "token import %s/roster.csv -o %s/tokens.csv", dir, dir);
	cr_assert_eq(judge(args), 0, "%s", out);
	cr_expect(strstr(out, "300 tokens imported"), "%s", out);
	char path[160], csv[65536];
	snprintf(path, sizeof path, "%s/tokens.csv", dir);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "the tokens file is readable by others");
	FILE *f = fopen(path, "r");
	size_t len = fread(csv, 1, sizeof csv - 1, f);
	fclose(f);
	csv[len] = '\0';
	int lines = 0;
	for (const char *p = csv; (p = strchr(p, '\n')); p++)
		lines++;
	cr_expect_eq(lines, 301, "a header and one line per student");
	cr_expect(strstr(csv, "\nstudent7,g2,Student Number 7,"), "%.300s", csv);

	cr_assert_eq(judge("token list"), 0);
	cr_expect(strstr(out, "student300") && strstr(out, "Student Number 300"), "%.400s", out);

	/* The first and the last token speak for their students. */
	char token[44], reply[1024];
	cr_assert_eq(cli_write_file(cfg, "{}"), 0);
	struct serve *server = start_server();
	for (int line = 1; line <= 300; line += 299) {
		token_of(csv, line, token);
		cr_expect_eq(serve_test_call(server, dir, "GET", "/api/me", token, NULL, reply,
					     sizeof reply), 200, "%s", reply);
		char want[64];
		snprintf(want, sizeof want, "\"author\":\"student%d\"", line);
		cr_expect(strstr(reply, want), "%s: %s", want, reply);
	}
	serve_stop(server);
}

Test(people, a_bad_roster_line_imports_nothing_and_names_the_line)
{
	write_roster(5);
	char path[160];
	snprintf(path, sizeof path, "%s/roster.csv", dir);
	FILE *f = fopen(path, "a");
	fprintf(f, "   ,g1,nobody\n");
	fclose(f);
	char args[256];
	snprintf(args, sizeof args, "token import %s/roster.csv", dir);
	cr_assert_eq(judge(args), 1, "%s", out);
	cr_expect(strstr(out, "line 8") && strstr(out, "nothing was imported"), "%s", out);
	cr_assert_eq(judge("token list"), 0);
	cr_expect(!strstr(out, "student1"), "a refused roster stored tokens: %s", out);
}

Test(people, a_second_token_of_one_author_is_warned_about)
{
	cr_assert_eq(judge("token add --author gandalf --label 'seat 4' --group g1"), 0, "%s", out);
	cr_expect(!strstr(out, "warning"), "%s", out);
	cr_assert_eq(judge("token add --author gandalf"), 0, "%s", out);
	cr_expect(strstr(out, "warning: gandalf already has 1 working token"), "%s", out);
}

Test(people, disqualify_and_reinstate_from_the_command_line_keep_the_history)
{
	cr_assert_eq(cli_write_file(cfg, "{\"worker\": {\"qualify_matches\": 0, \"min_games\": 1}}"),
		     0);
	for (const char *const *n = (const char *const[]){ "Ann", "Bea", "Cid", "Dan", NULL }; *n; n++)
		cli_upload_demo(dir, cfg, db, "dominator", *n);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle "
		 "--ranked-matches 0 2>&1", cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);

	cr_expect_eq(judge("disqualify --game dominator Bea"), 2, "no reason accepted: %s", out);
	cr_expect_eq(judge("disqualify --game dominator Nobody --reason x"), 1, "%s", out);
	cr_assert_eq(judge("disqualify --game dominator Bea --reason 'copied Ann' --by prof"), 0,
		     "%s", out);
	cr_assert_eq(judge("leaderboard --game dominator"), 0, "%s", out);
	cr_expect(!strstr(out, "Bea"), "a disqualified player is still ranked: %s", out);
	cr_expect_eq(judge("reinstate --game dominator Ann"), 1, "%s", out);
	cr_assert_eq(judge("reinstate --game dominator Bea --by prof"), 0, "%s", out);
	cr_assert_eq(judge("leaderboard --game dominator"), 0, "%s", out);
	cr_expect(strstr(out, "Bea"), "a reinstated player is not ranked again: %s", out);
	cr_assert_eq(judge("disqualify --game dominator --list"), 0, "%s", out);
	cr_expect(strstr(out, "Bea") && strstr(out, "copied Ann") && strstr(out, "reinstated"),
		  "the history lost the decision: %s", out);
}

/* A course runs one game: contest.games closes uploads of the others, by
 * the upload script and the service alike, and the upload page offers
 * only the games that take them (/api/games). */
Test(people, contest_games_takes_uploads_of_the_named_games_only)
{
	cr_assert_eq(cli_write_file(cfg, "{\"contest\": {\"games\": [\"dominator\"]}}"), 0);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s submit games/ants/players/AIDemo.c --game "
		 "ants --author zed --queue %s 2>&1", cfg, cli_judge(), db);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_expect(strstr(out, "takes no uploads of ants: it runs dominator"), "%s", out);
	cli_upload_demo(dir, cfg, db, "dominator", "Zed");

	char token[44], reply[4096];
	struct serve *server = start_server();
	serve_test_token(db, "zed", false, token);
	cr_expect_eq(serve_test_call(server, dir, "POST", "/api/submissions", token,
				     "{\"game\": \"ants\", \"source\": \"PLAYER_NAME(Zed)\\n\"}",
				     reply, sizeof reply), 403, "%s", reply);
	cr_expect(strstr(reply, "takes no uploads of ants"), "%s", reply);
	cr_expect_eq(serve_test_call(server, dir, "GET", "/api/games", NULL, NULL, reply,
				     sizeof reply), 200, "%s", reply);
	cr_expect(strstr(reply, "\"name\":\"dominator\"") && strstr(reply, "\"uploads\":false"),
		  "%s", reply);
	serve_stop(server);
}

/* What a contestant is told matches what ran: the match page's command,
 * with the limits in force and the parameters file the service offers,
 * plays the same match on the contestant's machine (same scores). */
Test(people, the_play_again_command_replays_the_match_as_the_judge_played_it)
{
	cr_assert_eq(cli_write_file(cfg, "{\"sandbox\": {\"cpu_ms\": 777, \"memory_mb\": 300},"
				    " \"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0,"
				    " \"qualify_opponent\": \"Dummy\"}}"), 0);
	cli_upload_demo(dir, cfg, db, "dominator", "Zed");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle "
		 "--ranked-matches 0 2>&1", cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);

	char reply[8192], params[4096];
	struct serve *server = start_server();
	cr_assert_eq(serve_test_call(server, dir, "GET", "/api/matches/1", NULL, NULL, reply,
				     sizeof reply), 200, "%s", reply);
	cr_assert_eq(serve_test_call(server, dir, "GET", "/api/matches/1/params", NULL, NULL, params,
				     sizeof params), 200, "%s", params);
	serve_stop(server);
	const char *command = strstr(reply, "\"command\":\"judge play ");
	cr_assert_not_null(command, "%s", reply);
	command += strlen("\"command\":\"judge ");
	char line[512];
	snprintf(line, sizeof line, "%.*s", (int)(strchr(command, '"') - command), command);
	cr_expect(strstr(line, " --cpu 777 --memory 300 -i match-1.cnf"), "%s", line);

	/* On the contestant's machine: their file, the offered parameters. */
	char path[160];
	snprintf(path, sizeof path, "%s/match-1.cnf", dir);
	cr_assert_eq(cli_write_file(path, params), 0);
	char *judge_path = realpath(cli_judge(), NULL);
	cr_assert_not_null(judge_path);
	snprintf(cmd, sizeof cmd, "cd %s && %s %s 2>&1 | sed -n 's/^[0-9] *[A-Za-z]* *\\([0-9]*\\).*/\\1/p'"
		 " | tr '\\n' ' '", dir, judge_path, line);
	free(judge_path);
	char scores[256], stored[256];
	cr_assert_eq(cli_run(cmd, scores, sizeof scores), 0, "%s", scores);
	snprintf(cmd, sizeof cmd, "sqlite3 %s \"SELECT group_concat(score, ' ') || ' ' FROM (SELECT"
		 " score FROM match_players WHERE match_id = 1 ORDER BY seat)\"", db);
	cr_assert_eq(cli_run(cmd, stored, sizeof stored), 0);
	stored[strcspn(stored, "\n")] = '\0';
	cr_expect_str_eq(scores, stored, "played again: %s; the judge recorded: %s", scores, stored);
}
