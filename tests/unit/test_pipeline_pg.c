/* test_pipeline_pg.c - one small tournament end to end on PostgreSQL, and
 * the same on SQLite: scripts/upload, the real worker compiling,
 * fingerprinting, qualifying and playing ranked matches, then every
 * reading command (status, matches, jobs, replay, plagiarism, leaderboard,
 * ratings --check) against the PostgreSQL queue.  With a fixed seed_secret
 * and one job at a time both backends must end with the same standings. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"
#include "tests/unit/pg_testlib.h"

static char dir[64], db[128], url[512], cfg[160], out[65536];

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/judge-pipeline-pg-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/jobs.sqlite", dir);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	err_t err = {0};
	cr_assert_eq(pg_test_database(url, sizeof url, err), 0, "%s", err->msg);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cli_run(cmd, out, sizeof out);
}

TestSuite(pipeline_pg, .init = setup, .fini = teardown, .timeout = 300);

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fputs(text, f) >= 0, 1);
	fclose(f);
}

/* A function of the contestant's own, so that plagiarism has something to
 * compare (the Demo part of every file is base code). */
static const char SHARED_HELPER[] =
	"static int spread_score_guard(int a, int b) { return a > b; }\n"
	"static int spread_score(int a, int b, int c)\n"
	"{\n"
	"\tint total = 0;\n"
	"\tfor (int i = 0; i < a; i++) {\n"
	"\t\tif ((i ^ b) % 3 == 0)\n"
	"\t\t\ttotal += c * i - b;\n"
	"\t\telse if (i % 5 == 1)\n"
	"\t\t\ttotal -= (a - i) * 2 + c;\n"
	"\t\telse\n"
	"\t\t\ttotal ^= i << 2;\n"
	"\t}\n"
	"\twhile (total > 1000)\n"
	"\t\ttotal = total / 7 + b % 11;\n"
	"\treturn total + spread_score_guard(a, b);\n"
	"}\n"
	"static int fold_rows(const int *rows, int n, int stride, int bias)\n"
	"{\n"
	"\tint acc = bias, best = -1;\n"
	"\tfor (int r = 0; r < n; r += stride) {\n"
	"\t\tint v = rows[r] * 3 - (r & 7) + spread_score(r, bias, acc & 15);\n"
	"\t\tif (v > best && v % 4 != 2)\n"
	"\t\t\tbest = v;\n"
	"\t\telse if (v < -best)\n"
	"\t\t\tacc -= v / 5 + r;\n"
	"\t\tacc = (acc * 17 + v) % 10007;\n"
	"\t}\n"
	"\tswitch (acc % 6) {\n"
	"\tcase 0: return best + acc;\n"
	"\tcase 1: return best - acc / 2;\n"
	"\tcase 2: return acc ^ best;\n"
	"\tdefault: return (best << 1) - bias;\n"
	"\t}\n"
	"}\n";
static const char OWN_HELPER[] =
	"static long walk_cost(long x)\n"
	"{\n"
	"\tlong y = x * 31 + 7;\n"
	"\treturn y > 100 ? y - 100 : y;\n"
	"}\n";

static const char OTHER_HELPER[] =
	"static unsigned mix_bits(unsigned v)\n"
	"{\n"
	"\treturn (v >> 3) ^ (v * 2654435761u);\n"
	"}\n";

/* The Demo renamed, with helper appended (never called: it changes no
 * move, so every player plays as the Demo does). */
static void player_file(const char *name, const char *helper, char path[160])
{
	char cmd[512];
	snprintf(path, 160, "%s/AI%s.c", dir, name);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AIDemo.c > %s", name, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	FILE *f = fopen(path, "a");
	cr_assert_not_null(f);
	fprintf(f, "\n%s", helper);
	fclose(f);
}

/* judge ARGS --queue target; its exit status, its output in out. */
__attribute__((format(printf, 2, 3)))
static int judge(const char *target, const char *fmt, ...)
{
	char args[512], cmd[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s %s --queue '%s' 2>&1", cfg, cli_judge(), args,
		 target);
	return cli_run(cmd, out, sizeof out);
}

/* Four players (a ranked Dominator match seats four) uploaded and judged until idle, one job at a time, on
 * target; the leaderboard's JSON into board. */
static void tournament(const char *target, char *board, size_t size)
{
	static const char *const who[][3] = {
		{ "Alice", "alice", OWN_HELPER }, { "Bob", "bob", SHARED_HELPER },
		{ "Carol", "carol", SHARED_HELPER }, { "Dave", "dave", OTHER_HELPER },
	};
	for (size_t i = 0; i < 4; i++) {
		char path[160], cmd[1024];
		player_file(who[i][0], who[i][2], path);
		snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s scripts/upload %s --game dominator "
			 "--author %s --queue '%s' 2>&1", cfg, path, who[i][1], target);
		cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	}
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 --exit-when-idle "
		 "--ranked-matches 6 2>&1", cfg, cli_worker(), target);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_eq(judge(target, "leaderboard --game dominator --json"), 0, "%s", out);
	cr_assert_lt(strlen(out), size, "a leaderboard longer than the test expects");
	memcpy(board, out, strlen(out) + 1);
}

Test(pipeline_pg, a_tournament_on_postgresql_ends_as_on_sqlite)
{
	write_file(cfg, "{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 1,"
		   " \"qualify_opponent\": \"Null\", \"seed_secret\": \"pipeline-pg\"}}");
	static char on_sqlite[16384], on_pg[16384];
	tournament(db, on_sqlite, sizeof on_sqlite);
	tournament(url, on_pg, sizeof on_pg);
	cr_assert(strstr(on_pg, "\"Carol\""), "%s", on_pg);
	cr_assert_str_eq(on_pg, on_sqlite);

	/* Every job done, none parked. */
	cr_assert_eq(judge(url, "jobs"), 0, "%s", out);
	cr_assert(strstr(out, "0 queued, 0 running, 0 parked"), "%s", out);

	/* A submission's story: compiled, qualified, fingerprinted; of the
	 * two that share code, the later one (Carol's) is the suspect. */
	cr_assert_eq(judge(url, "status 3 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"state\": \"qualified\""), "%s", out);
	cr_assert(strstr(out, "\"played\": 2"), "%s", out);
	cr_assert(strstr(out, "\"plagiarism\": \"suspected\""), "%s", out);
	cr_assert_eq(judge(url, "status 2 --json"), 0, "%s", out);
	cr_assert_null(strstr(out, "\"plagiarism\": \"suspected\""), "%s", out);
	cr_assert_eq(judge(url, "status 1 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"plagiarism\": \"clear\""), "%s", out);
	cr_assert_eq(judge(url, "status 99"), 1, "%s", out);

	/* The matches, and one match's replay written out. */
	cr_assert_eq(judge(url, "matches --player Carol --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"kind\": \"ranked\""), "%s", out);
	cr_assert_eq(judge(url, "matches --player Nobody"), 1, "%s", out);
	char replay[160];
	snprintf(replay, sizeof replay, "%s/replay.json", dir);
	char args[256];
	snprintf(args, sizeof args, "replay 1 -o %s", replay);
	cr_assert_eq(judge(url, "%s", args), 0, "%s", out);
	FILE *f = fopen(replay, "r");
	cr_assert_not_null(f);
	cr_assert_eq(fgetc(f), '{');
	fclose(f);

	/* Bob and Carol share a function: the pair is listed and shown. */
	cr_assert_eq(judge(url, "plagiarism --game dominator --json"), 0, "%s", out);
	cr_assert(strstr(out, "Carol") && strstr(out, "Bob"), "%s", out);
	cr_assert(!strstr(out, "Alice") && !strstr(out, "Dave"), "%s", out);
	cr_assert_eq(judge(url, "plagiarism show 3 2"), 0, "%s", out);
	cr_assert(strstr(out, "spread_score"), "%s", out);

	/* The stored ratings are those the match history gives. */
	cr_assert_eq(judge(url, "ratings --recompute --game dominator --check"), 0, "%s", out);
}

/* A config of one "machine": its own compile cache. */
static void machine_config(const char *path, const char *cache)
{
	char text[512];
	snprintf(text, sizeof text, "{\"compile\": {\"cache_dir\": \"%s\"}, \"worker\":"
		 " {\"qualify_matches\": 2, \"qualify_wins\": 1, \"qualify_opponent\": \"Null\"}}",
		 cache);
	write_file(path, text);
}

Test(pipeline_pg, a_second_machine_plays_the_stored_binary_and_compiles_nothing)
{
	char cfg_a[160], cfg_b[160], cache_a[160], cache_b[160], path[160], cmd[2400];
	snprintf(cache_a, sizeof cache_a, "%s/cache-a", dir);
	snprintf(cache_b, sizeof cache_b, "%s/cache-b", dir);
	snprintf(cfg_a, sizeof cfg_a, "%s/a.json", dir);
	snprintf(cfg_b, sizeof cfg_b, "%s/b.json", dir);
	machine_config(cfg_a, cache_a);
	machine_config(cfg_b, cache_b);
	snprintf(cfg, sizeof cfg, "%s", cfg_a);
	player_file("Alice", OWN_HELPER, path);
	snprintf(cmd, sizeof cmd, "scripts/upload %s --game dominator --author alice --queue '%s'",
		 path, url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);

	/* Machine A compiles (one job), then its disk is gone. */
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 --once 2>&1", cfg_a,
		 cli_worker(), url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "rm -rf %s", cache_a);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);

	/* Machine B, empty cache, plays the qualifying matches with it. */
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 --exit-when-idle "
		 "--ranked-matches 0 2>&1", cfg_b, cli_worker(), url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(cfg, sizeof cfg, "%s", cfg_b);
	cr_assert_eq(judge(url, "status 1 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"state\": \"qualified\""), "%s", out);

	/* What B plays is the store's copy, named by the hash of its bytes. */
	snprintf(cmd, sizeof cmd, "cd %s/store && for f in *; do echo \"$f  $f\"; done | "
		 "sha256sum -c --quiet - && ls | wc -l", cache_b);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "1\n");

	/* A damaged copy is fetched again, never played.  The file sent again
	 * differs by a comment (the same file is kept as the current
	 * submission), so it compiles to the same binary. */
	snprintf(cmd, sizeof cmd, "for f in %s/store/*; do echo damaged > $f; done; "
		 "echo '/* again */' >> %s", cache_b, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s submit %s --game dominator --author alice "
		 "--queue '%s' > /dev/null && JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 "
		 "--exit-when-idle --ranked-matches 0 2>&1", cfg_b, cli_judge(), path, url, cfg_b,
		 cli_worker(), url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_eq(judge(url, "status 2 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"state\": \"qualified\""), "%s", out);
	snprintf(cmd, sizeof cmd, "cd %s/store && for f in *; do echo \"$f  $f\"; done | "
		 "sha256sum -c --quiet -", cache_b);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

Test(pipeline_pg, a_tournament_copied_to_postgresql_and_back_keeps_its_standings)
{
	write_file(cfg, "{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 1,"
		   " \"qualify_opponent\": \"Null\", \"seed_secret\": \"copy\"}}");
	static char on_sqlite[16384];
	tournament(db, on_sqlite, sizeof on_sqlite);

	char cmd[1400], back[160];
	snprintf(cmd, sizeof cmd, "%s store copy --from %s --to '%s' 2>&1", cli_judge(), db, url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "copied "), "%s", out);
	cr_assert_eq(judge(url, "leaderboard --game dominator --json"), 0, "%s", out);
	cr_assert_str_eq(out, on_sqlite);
	cr_assert_eq(judge(url, "ratings --recompute --game dominator --check"), 0, "%s", out);
	cr_assert_eq(judge(url, "status 3 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"plagiarism\": \"suspected\""), "%s", out);

	/* A target that holds a tournament is refused, untouched. */
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_assert(strstr(out, "not empty"), "%s", out);
	cr_assert_eq(judge(url, "leaderboard --game dominator --json"), 0, "%s", out);
	cr_assert_str_eq(out, on_sqlite);

	/* The copy goes on: a new upload takes the next id, and is judged. */
	char path[160];
	player_file("Erin", OWN_HELPER, path);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s scripts/upload %s --game dominator --author erin"
		 " --queue '%s' 2>&1", cfg, path, url);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "5\n");

	/* And back to a new SQLite file: the same board. */
	snprintf(back, sizeof back, "%s/back.sqlite", dir);
	snprintf(cmd, sizeof cmd, "%s store copy --from '%s' --to %s 2>&1", cli_judge(), url, back);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_eq(judge(back, "leaderboard --game dominator --json"), 0, "%s", out);
	cr_assert_str_eq(out, on_sqlite);
	cr_assert_eq(judge(back, "ratings --recompute --game dominator --check"), 0, "%s", out);
	cr_assert_eq(judge(back, "status 5 --json"), 0, "%s", out);
	cr_assert(strstr(out, "\"state\": \"queued\""), "%s", out);
}

/* The first line psql prints for query on the server in sdir. */
static const char *pg_query(const char *sdir, const char *query)
{
	static char result[4096];
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "psql -X -q -At -h %s -U judge -d judge -c \"%s\" 2>&1", sdir,
		 query);
	cli_run(cmd, result, sizeof result);
	result[strcspn(result, "\n")] = '\0';
	return result;
}

static bool running(pid_t pid)
{
	return kill(pid, 0) == 0;
}

static void wait_exit(pid_t pid, int seconds)
{
	for (int i = 0; i < seconds * 10 && running(pid); i++)
		usleep(100000);
	cr_assert(!running(pid), "process %d still runs after %d s", (int)pid, seconds);
}

/* Starts cmd in the background; its pid. */
static pid_t start(const char *cmd)
{
	char line[2400];
	snprintf(line, sizeof line, "%s & echo $!", cmd);
	cr_assert_eq(cli_run(line, out, sizeof out), 0, "%s", out);
	return (pid_t)atoi(out);
}

Test(pipeline_pg, a_server_restart_mid_run_loses_nothing_and_records_nothing_twice)
{
	struct pg_server srv;
	char sdir[64] = "/tmp/judge-pg-restart-XXXXXX", target[512];
	err_t err = {0};
	cr_assert_not_null(mkdtemp(sdir));
	cr_assert_eq(pg_server_start(&srv, sdir, false, err), 0, "%s", err->msg);
	cr_assert_eq(pg_server_createdb(&srv, "judge", target, sizeof target, err), 0, "%s",
		     err->msg);
	write_file(cfg, "{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 1,"
		   " \"qualify_opponent\": \"Null\", \"lease_ms\": 3000}}");
	static const char *const who[] = { "Alice", "Bob", "Carol", "Dave", "Erin" };
	char path[160], cmd[2400], wlog[160], ulog[160];
	for (int i = 0; i < 4; i++) {
		player_file(who[i], i % 2 ? OWN_HELPER : OTHER_HELPER, path);
		snprintf(cmd, sizeof cmd, "scripts/upload %s --game dominator --author a%d --queue '%s'",
			 path, i, target);
		cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	}
	snprintf(wlog, sizeof wlog, "%s/worker.log", dir);
	snprintf(ulog, sizeof ulog, "%s/upload.log", dir);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 2 --exit-when-idle "
		 "--ranked-matches 100 > %s 2>&1", cfg, cli_worker(), target, wlog);
	pid_t worker = start(cmd);

	/* Mid-run (ranked matches being played) the server goes down; an
	 * upload arrives while it is down. */
	snprintf(cmd, sizeof cmd, "for i in $(seq 600); do grep -q 'ranked match' %s && exit 0;"
		 " sleep 0.1; done; exit 1", wlog);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "no ranked match began within 60 s");
	cr_assert_eq(pg_server_pause(&srv, err), 0, "%s", err->msg);
	player_file(who[4], OWN_HELPER, path);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s scripts/upload %s --game dominator --author a4 "
		 "--queue '%s' > %s 2>&1", cfg, path, target, ulog);
	pid_t upload = start(cmd);
	usleep(6000000); /* longer than a match, even under a sanitizer */
	cr_assert_eq(pg_server_resume(&srv, err), 0, "%s", err->msg);
	wait_exit(upload, 60);
	wait_exit(worker, 200);
	/* What the upload queued after the worker went idle is done now. */
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 2 --exit-when-idle "
		 "--ranked-matches 0 >> %s 2>&1", cfg, cli_worker(), target, wlog);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);

	/* The upload said so in one line, waited, and was stored once. */
	snprintf(cmd, sizeof cmd, "cat %s", ulog);
	cli_run(cmd, out, sizeof out);
	cr_assert(strstr(out, "cannot reach PostgreSQL") && strstr(out, "retrying"), "%s", out);
	cr_assert_str_eq(cli_last_line(out), "5");
	cr_assert_str_eq(pg_query(sdir, "SELECT count(*) FROM submissions"), "5");

	/* The workers said so, once per slot's claim loop, not once per try. */
	snprintf(cmd, sizeof cmd, "grep -c 'retrying until it answers' %s", wlog);
	cli_run(cmd, out, sizeof out);
	int said = atoi(out);
	snprintf(cmd, sizeof cmd, "cat %s", wlog);
	cli_run(cmd, out, sizeof out);
	cr_assert(said >= 1 && said <= 2, "%d lines in the worker's log:\n%s", said, out);

	/* Nothing lost, nothing recorded twice, ratings as the history says. */
	cr_assert_str_eq(pg_query(sdir, "SELECT count(*) FROM jobs WHERE state <> 'done'"), "0");
	cr_assert_str_eq(pg_query(sdir, "SELECT count(*) FROM jobs WHERE kind = 'match'"),
			 pg_query(sdir, "SELECT count(*) FROM matches"));
	cr_assert_str_eq(pg_query(sdir, "SELECT count(*) FROM submissions s WHERE"
				  " (SELECT count(*) FROM match_players p JOIN matches m ON"
				  " m.id = p.match_id WHERE m.kind = 'qualifying' AND"
				  " p.submission_id = s.id) <> 2"), "0");
	cr_assert_eq(judge(target, "ratings --recompute --game dominator --check"), 0, "%s", out);
	pg_server_stop(&srv);
}
