/* test_tournament_cli.c - `judge tournament` and the real worker on a real
 * SQLite file: a small course is created from a spec, its roster added,
 * representatives picked, the elimination started and played by
 * judge-worker in the sandbox, then shown, graded and planned. */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char dir[64], db[128], cfg[128], out[65536];

static void setup(void)
{
	cli_workdir("tournament", dir, db, cfg);
	cr_assert_eq(cli_write_file(cfg, "{\"worker\": {\"qualify_matches\": 0}}"), 0);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(tournament_cli, .init = setup, .fini = teardown, .timeout = 300);

/* `judge tournament ARGS --queue DB`: its exit status, its output in out. */
__attribute__((format(printf, 1, 2)))
static int tournament(const char *fmt, ...)
{
	char args[1024], cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s tournament %s --queue %s 2>&1", cfg,
		 cli_judge(), args, db);
	return cli_run(cmd, out, sizeof out);
}

static void upload(const char *shipped, const char *name, const char *author)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AI%s.c > %s/AI%s.c && JUDGE_CONFIG=%s %s submit "
		 "%s/AI%s.c --game dominator --author %s --queue %s 2>&1", name, shipped, dir, name,
		 cfg, cli_judge(), dir, name, author, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

static void work(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 2 --exit-when-idle "
		 "--ranked-matches 0 2>&1", cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

static int count_lines(const char *text, const char *word)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
		n++;
	return n;
}

Test(tournament_cli, a_small_course_from_roster_to_grades)
{
	static const char *const players[][3] = {
		{ "Demo", "Ann", "ann" }, { "Demo", "Bob", "bob" }, { "Dummy", "Cy", "cy" },
		{ "Null", "Di", "di" }, { "Dummy", "Ed", "ed" }, { "Null", "Flo", "flo" },
	};
	for (int i = 0; i < 6; i++)
		upload(players[i][0], players[i][1], players[i][2]);
	work(); /* compiled and qualified */
	char path[160];
	snprintf(path, sizeof path, "%s/spec.json", dir);
	cr_assert_eq(cli_write_file(path, "{\"phases\": [{\"kind\": \"elimination\", \"remain\": 3},"
				    " {\"kind\": \"round-robin\", \"size\": 4, \"matches\": 2}],"
				    " \"grades\": {\"qualified\": 5, \"max\": 10}}"), 0);
	cr_assert_eq(tournament("create course --game dominator --spec %s --seed 9", path), 0, "%s",
		     out);
	cr_assert_eq(tournament("create course --game dominator --course"), 1, "%s", out);
	cr_expect(strstr(out, "exists already"), "%s", out);
	snprintf(path, sizeof path, "%s/roster.csv", dir);
	cr_assert_eq(cli_write_file(path, "# author, group, pseudonym\nann, A\nbob, A, Bee\ncy, B\n"
				    "di, B\ned, B\nflo, A\n"), 0);
	cr_assert_eq(tournament("add course --roster %s", path), 0, "%s", out);
	cr_expect(strstr(out, "6 entrants"), "%s", out);
	cr_assert_eq(tournament("pick course ann 2"), 1, "%s", out);
	cr_expect(strstr(out, "another author's submission"), "%s", out);
	for (int i = 0; i < 6; i++)
		cr_assert_eq(tournament("pick course %s %d", players[i][2], i + 1), 0, "%s", out);
	cr_assert_eq(tournament("start course"), 0, "%s", out);
	cr_assert_eq(tournament("start course"), 1, "%s", out);
	cr_expect(strstr(out, "started already"), "%s", out);
	cr_assert_eq(tournament("show course"), 0, "%s", out);
	cr_expect(strstr(out, "round 1:") && strstr(out, "to play"), "%s", out);
	work();
	cr_assert_eq(tournament("show course"), 0, "%s", out);
	cr_expect(strstr(out, "phase 2 of 2, round-robin, waiting to start"), "%s", out);
	cr_expect_eq(count_lines(out, " out "), 3, "three rounds, one out each:\n%s", out);
	cr_assert_eq(tournament("start course"), 0, "%s", out);
	work();
	cr_assert_eq(tournament("show course"), 0, "%s", out);
	cr_expect(strstr(out, "over"), "%s", out);
	/* the survivors' group and its points (the opponent's seat is nobody's) */
	cr_expect(strstr(out, "phase 2, round-robin:\n  group 1: "), "%s", out);
	cr_expect_eq(count_lines(out, " pts"), 3, "%s", out);
	cr_expect(!strstr(out, "(null)") && !strstr(out, " ? "), "a name missing:\n%s", out);
	cr_assert_eq(tournament("grades course --csv"), 0, "%s", out);
	cr_expect(strstr(out, "author,group,player,qualified,round eliminated,final place,grade\n"),
		  "%s", out);
	cr_expect(strstr(out, "ann,A,Ann,yes,") && strstr(out, "flo,A,Flo,yes,"), "%s", out);
	cr_expect_eq(count_lines(out, ",10.00\n"), 3, "three finalists get the maximum:\n%s", out);
	cr_expect_eq(count_lines(out, ",5.00\n"), 1, "the first out gets the qualified grade:\n%s",
		     out);
	cr_assert_eq(tournament("plan course --slots 4"), 0, "%s", out);
	cr_expect(strstr(out, "measured"), "the plan uses the measured match time:\n%s", out);
	cr_assert_eq(tournament("show course --json"), 0, "%s", out);
	cr_expect(strstr(out, "\"log\""), "%s", out);
	cr_expect(strstr(out, "\"safe\": true") && strstr(out, "\"standings\""),
		  "show --json has every phase as the pages draw it:\n%s", out);
	cr_assert_eq(tournament("rename course"), 2, "%s", out);
}

/* After a qualification's deadline, uploads to its game are refused, with
 * the time, except to students still in the tournament (the course lets
 * them go on improving their player); an upload that is refused stores
 * nothing. */
Test(tournament_cli, uploads_close_at_the_qualification_deadline)
{
	upload("Demo", "Ann", "ann");
	work();
	char path[160], cmd[1024];
	snprintf(path, sizeof path, "%s/spec.json", dir);
	cr_assert_eq(cli_write_file(path, "{\"phases\": [{\"kind\": \"qualification\", "
				    "\"deadline\": \"2020-01-01T00:00:00Z\"}, {\"kind\": \"ladder\"}]}"), 0);
	cr_assert_eq(tournament("create closed --game dominator --spec %s", path), 0, "%s", out);
	cr_assert_eq(tournament("add closed ann"), 0, "%s", out);
	cr_assert_eq(tournament("pick closed ann 1"), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME(Demo)/PLAYER_NAME(Late)/' "
		 "games/dominator/players/AIDemo.c > %s/AILate.c && JUDGE_CONFIG=%s %s submit "
		 "%s/AILate.c --game dominator --author bob --queue %s 2>&1", dir, cfg, cli_judge(),
		 dir, db);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_expect(strstr(out, "uploads closed at 2020-01-01 00:00 UTC"), "%s", out);
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s 'SELECT COUNT(*) FROM submissions'", db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	cr_expect_str_eq(out, "1\n", "a refused upload was stored");
	upload("Dummy", "Ann2", "ann"); /* still in: may improve her player */
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s 'SELECT COUNT(*) FROM submissions'", db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	cr_expect_str_eq(out, "2\n");
}
