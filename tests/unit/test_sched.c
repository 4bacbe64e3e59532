/* test_sched.c - the worker under the one scheduling policy
 * (judge/store/sched.h), end to end: the real judge-worker on a real SQLite
 * file runs a new submission's qualifying matches before the next compile,
 * keeps ranked matches planned ahead while it plays, and slots sharing one
 * log never mix their lines. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/store/sched.h"
#include "judge/worker/worker.h"
#include "tests/unit/cli_testlib.h"

static char dir[64], db[128], cfg[128], out[65536];

static void setup(void)
{
	cli_workdir("sched", dir, db, cfg);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(sched, .init = setup, .fini = teardown, .timeout = 180);

static void upload_demo(const char *name)
{
	cli_upload_demo(dir, cfg, db, "dominator", name);
}

/* judge-worker with args, one slot; its log in out. */
static void worker(const char *args)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 %s 2>&1", cfg,
		 cli_worker(), db, args);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

/* The number the sqlite3 program answers to query. */
static int sql_int(const char *query)
{
	char cmd[512], result[256];
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s \"%s\" 2>&1", db, query);
	cr_assert_eq(cli_run(cmd, result, sizeof result), 0, "%s: %s", query, result);
	return atoi(result);
}

static void write_config(const char *json)
{
	cr_assert_eq(cli_write_file(cfg, json), 0);
}

Test(sched, a_submissions_qualifying_matches_run_before_the_next_compile)
{
	write_config("{\"worker\": {\"qualify_matches\": 2, \"qualify_wins\": 0,"
		     " \"qualify_opponent\": \"Null\"}}");
	upload_demo("Ann");
	upload_demo("Bea");
	worker("--once");
	cr_assert(strstr(out, "submission 1 (Ann by aAnn, dominator): compiled"), "%s", out);
	worker("--once");
	cr_expect(strstr(out, "qualifying match"), "the second job was not Ann's qualifying "
		  "match: %s", out);
	worker("--once");
	cr_expect_eq(sql_int("SELECT count(*) FROM matches WHERE kind = 'qualifying'"), 2);
	cr_expect_eq(sql_int("SELECT count(*) FROM submissions WHERE id = 1 AND state = "
			     "'qualified'"), 1, "Ann waited behind Bea's compile");
	cr_expect_eq(sql_int("SELECT count(*) FROM jobs WHERE kind = 'compile' AND state = "
			     "'queued'"), 1, "Bea's compile ran before Ann qualified");
}

/* Four Demos qualified (no qualifying match), no ranked match queued yet. */
static void four_qualified(void)
{
	write_config("{\"worker\": {\"qualify_matches\": 0, \"min_games\": 25,"
		     " \"seed_secret\": \"ahead\"}}");
	for (const char *const *n = (const char *const[]){ "Ann", "Bea", "Cid", "Dan", NULL }; *n;
	     n++)
		upload_demo(*n);
	worker("--exit-when-idle --ranked-matches 0");
	cr_assert_eq(sql_int("SELECT count(*) FROM submissions WHERE state = 'qualified'"), 4,
		     "%s", out);
}

/* One slot, one job at a time: after every ranked match it played, the
 * next one is already queued (no slot waits for a batch to be planned),
 * and no more than sched_ranked_ahead(1) are (the plan follows the
 * ratings closely). */
Test(sched, the_ladder_keeps_matches_queued_ahead_while_slots_play)
{
	four_qualified();
	int ahead = sched_ranked_ahead(1);
	for (int played = 1; played <= 4; played++) {
		worker("--once");
		cr_assert_eq(sql_int("SELECT count(*) FROM matches WHERE kind = 'ranked'"), played,
			     "%s", out);
		int queued = sql_int("SELECT count(*) FROM jobs WHERE state = 'queued'"
				     " AND payload LIKE '%\\\"ranked\\\"%'");
		cr_expect(queued >= 1 && queued <= ahead, "after %d ranked matches %d are queued, "
			  "want 1 to %d", played, queued, ahead);
	}
}

/* The next batch is planned while a match plays, not after it: the slot
 * claims its next job as soon as the match is recorded.  One slot, one
 * ranked match played by --once: the matches it queued were queued before
 * that match's job was done. */
Test(sched, the_next_batch_is_planned_while_the_match_plays)
{
	four_qualified();
	worker("--once");
	int before = sql_int("SELECT max(id) FROM jobs");
	worker("--once");
	char query[512];
	snprintf(query, sizeof query, "SELECT count(*) FROM jobs j, jobs played WHERE j.id > %d"
		 " AND played.state = 'done' AND played.id = (SELECT max(id) FROM jobs WHERE"
		 " state = 'done') AND j.created_at < played.updated_at", before);
	cr_assert_gt(sql_int(query), 0, "no match was planned while the slot played: %s", out);
}

/* ---- the log ----------------------------------------------------------- */

#define LOG_SLOTS 8
#define LOG_LINES 2000

/* One slot's lines, as a slot writes them: to stderr, which is the log
 * file opened O_APPEND by every slot. */
static void log_slot(int slot, const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(1);
	char name[32], filler[301];
	snprintf(name, sizeof name, "host:%d", slot);
	memset(filler, 'a' + slot, sizeof filler - 1);
	filler[sizeof filler - 1] = '\0';
	struct worker_opts o = { .name = name, .log = stderr };
	for (int i = 0; i < LOG_LINES; i++)
		worker_log(&o, "job %d match: %s (%d s)", i, filler, slot);
	_exit(0);
}

Test(sched, slots_sharing_one_log_never_mix_their_lines)
{
	char path[128];
	snprintf(path, sizeof path, "%s/worker.log", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	for (int slot = 0; slot < LOG_SLOTS; slot++)
		if (fork() == 0)
			log_slot(slot, path);
	for (int slot = 0, status; slot < LOG_SLOTS; slot++) {
		cr_assert_gt(wait(&status), 0);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	regex_t re;
	cr_assert_eq(regcomp(&re, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z "
			     "host:([0-7]): job [0-9]+ match: ([a-h]+) \\(([0-7]) s\\)$",
			     REG_EXTENDED), 0);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	char line[1024];
	int lines = 0, per_slot[LOG_SLOTS] = { 0 };
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		regmatch_t m[4];
		bool whole = regexec(&re, line, 4, m, 0) == 0;
		int slot = whole ? line[m[1].rm_so] - '0' : -1;
		/* one slot's name, filler and figure: nothing of another's */
		char own[2] = { (char)('a' + slot), 0 };
		whole = whole && m[2].rm_eo - m[2].rm_so == 300 &&
			strspn(line + m[2].rm_so, own) == 300 && line[m[3].rm_so] - '0' == slot;
		cr_assert(whole, "line %d is not one slot's whole line: %s", lines + 1, line);
		per_slot[slot]++;
		lines++;
	}
	fclose(f);
	regfree(&re);
	cr_expect_eq(lines, LOG_SLOTS * LOG_LINES);
	for (int slot = 0; slot < LOG_SLOTS; slot++)
		cr_expect_eq(per_slot[slot], LOG_LINES, "slot %d", slot);
}
