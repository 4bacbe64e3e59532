/* The student kit end to end: `judge kit` writes it, it is unpacked in an
 * empty folder, built by make with a PATH that holds only gcc, make and the
 * binutils they run (no judge program), and its ./Game plays the match
 * `judge play` plays for the same seed and players.  The reference players
 * travel as objects only.  The service serves the same archive. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/game_testlib.h"
#include "tests/unit/serve_testlib.h"

#define OUT_MAX (64 * 1024)

static char dir[64], db[128], cfg_path[128];
static char out[OUT_MAX];

static void setup(void)
{
	cli_workdir("kit", dir, db, cfg_path);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(student_kit, .init = setup, .fini = teardown);

static void run_ok(const char *cmd)
{
	int rc = cli_run(cmd, out, sizeof out);
	cr_assert_eq(rc, 0, "`%s` failed (%d):\n%s", cmd, rc, out);
}

__attribute__((format(printf, 1, 2))) static void run_okf(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	run_ok(cmd);
}

/* dir/bin: gcc, make and the programs of theirs the kit runs, nothing else. */
static void toolchain_only(void)
{
	run_okf("mkdir %s/bin", dir);
	const char *tools[] = { "gcc", "make", "as", "ld", "objcopy" };
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
		run_okf("ln -s \"$(command -v %s)\" %s/bin/%s", tools[i], dir, tools[i]);
}

/* `judge kit game` unpacked in the empty folder dir/game. */
static void unpack_kit(const char *game)
{
	run_okf("mkdir %s/%s && %s kit %s -o %s/%s.tar.gz 2>&1", dir, game, cli_judge(), game, dir,
		game);
	run_okf("tar xzf %s/%s.tar.gz -C %s/%s", dir, game, dir, game);
}

/* Score and rank of a seat in a table of `judge play` or ./Game (both
 * rows start: seat, player, score, rank). */
static void seat_result(const char *table, int seat, long long *score, int *rank)
{
	const char *row = cli_table_row(table, seat);
	cr_assert_not_null(row, "no row for seat %d in:\n%s", seat, table);
	cr_assert_eq(sscanf(row, "%*d %*s %lld %d", score, rank), 2, "row: %s", row);
}

static void same_match(const char *game, const char *players, int seats, int seed)
{
	static char local[OUT_MAX];
	run_okf("cd %s/%s/%s-kit && env -i PATH=%s/bin make -s 2>&1", dir, game, game, dir);
	run_okf("cd %s/%s/%s-kit && env -i PATH=%s/bin ./Game %s -s %d -o replay.json 2>&1", dir,
		game, game, dir, players, seed);
	memcpy(local, out, sizeof local);
	/* its replay is one the judge's engine agrees with, round by round */
	run_okf("%s replay check %s/%s/%s-kit/replay.json 2>&1", cli_judge(), dir, game, game);
	run_okf("%s play %s %s -s %d 2>&1", cli_judge(), game, players, seed);
	for (int i = 0; i < seats; i++) {
		long long judged, played;
		int judged_rank, played_rank;
		seat_result(out, i, &judged, &judged_rank);
		seat_result(local, i, &played, &played_rank);
		cr_assert_eq(played, judged, "%s seat %d: ./Game %lld, judge play %lld\n%s\n%s", game,
			     i, played, judged, local, out);
		cr_assert_eq(played_rank, judged_rank, "%s seat %d's rank", game, i);
	}
}

Test(student_kit, plays_the_judges_match_with_only_gcc_and_make, .timeout = 900)
{
	toolchain_only();
	const char *games[GT_GAMES_MAX];
	size_t n = gt_course_games(games, GT_GAMES_MAX);
	cr_assert_gt(n, 0);
	for (size_t g = 0; g < n; g++) {
		unpack_kit(games[g]);
		same_match(games[g], "Demo Dummy Demo Dummy", 4, 7);
	}
	unpack_kit("blitz");
	same_match("blitz", "Dummy Demo Null", 3, 5);
}

/* The lines of AIDummy.c that are its own (long, and in no other shipped
 * player's or kit's file), one a line in path. */
static void dummy_lines(const char *path)
{
	struct judge_config cfg;
	cfg_defaults(&cfg);
	const char *d = cfg.data_dir;
	run_okf("cat %s/games/dominator/players/AIDemo.c %s/games/dominator/players/AINull.c "
		"%s/games/dominator/kit/* %s/games/kit/* | sed 's/^[[:space:]]*//' > %s.others",
		d, d, d, d, path);
	run_okf("grep -E '.{30}' %s/games/dominator/players/AIDummy.c | "
		"sed 's/^[[:space:]]*//' | grep -vxF -f %s.others > %s", d, path, path);
	run_okf("wc -l < %s", path);
	cr_assert_gt(atoi(out), 20, "AIDummy.c has its own lines to look for");
}

Test(student_kit, holds_the_reference_players_as_objects_only, .timeout = 300)
{
	unpack_kit("dominator");
	char kit[128], lines[128];
	snprintf(kit, sizeof kit, "%s/dominator/dominator-kit", dir);
	for (int seat = 0; seat < 4; seat++) {
		struct stat st;
		char object[192];
		snprintf(object, sizeof object, "%s/opponents/Dummy-%d.o", kit, seat);
		cr_assert_eq(stat(object, &st), 0, "%s is in the kit", object);
		/* nothing of the player is reachable but the seat's entry points */
		run_okf("nm -g --defined-only %s | awk '{print $3}' | sort | tr '\\n' ' '", object);
		char expect[96];
		snprintf(expect, sizeof expect, "local_Dummy_start_%d local_Dummy_turn_%d ", seat, seat);
		cr_assert_str_eq(out, expect);
	}
	run_okf("find %s -name 'AIDummy*' -o -name '*.both.o' -o -name '*.player.o'", kit);
	cr_assert_str_eq(out, "", "no source or intermediate object of Dummy: %s", out);
	snprintf(lines, sizeof lines, "%s/dummy-lines", dir);
	dummy_lines(lines);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "grep -rlF -f %s %s", lines, kit);
	int rc = cli_run(cmd, out, sizeof out);
	cr_assert_eq(rc, 1, "no file of the kit holds a line of AIDummy.c, but: %s", out);
	/* and the Demo and Null sources are there to start from */
	run_okf("test -f %s/AIDemo.c && test -f %s/AINull.c && test -x %s/scripts/upload", kit, kit,
		kit);
}

Test(student_kit, the_service_serves_it_once_built, .timeout = 300)
{
	struct judge_config cfg;
	cfg_defaults(&cfg);
	struct serve_options o = { .queue = db, .host = "127.0.0.1", .limits = cfg.serve,
				   .settings = &cfg };
	o.limits.threads = 2;
	err_t err;
	struct serve *sv = serve_start(&o, err);
	cr_assert_not_null(sv, "serve_start: %s", err->msg);
	unsigned port = serve_port(sv);
	for (int i = 1; i <= 2; i++)
		run_okf("curl -sS --fail -o %s/kit%d.tar.gz http://127.0.0.1:%u/kits/ants.tar.gz",
			dir, i, port);
	run_okf("tar tzf %s/kit1.tar.gz | grep -c -e '^ants-kit/opponents/Dummy-[0-3]\\.o$' "
		"-e '^ants-kit/AIDemo.c$' -e '^ants-kit/Makefile$'", dir);
	cr_assert_eq(atoi(out), 6, "the kit's files are in the archive");
	run_okf("cmp %s/kit1.tar.gz %s/kit2.tar.gz", dir, dir); /* the cached copy */
	/* its upload script sends a player the service takes (quotes,
	 * backslashes and tabs of the file intact: the compile step reads it) */
	char token[44];
	serve_test_token(db, "frodo", false, token);
	run_okf("cd %s && tar xzf kit1.tar.gz && cd ants-kit && "
		"sed 's/PLAYER_NAME(Demo)/PLAYER_NAME(Hobbit)/' AIDemo.c > AIHobbit.c", dir);
	char hobbit[128];
	snprintf(hobbit, sizeof hobbit, "%s/ants-kit/AIHobbit.c", dir);
	FILE *f = fopen(hobbit, "a");
	cr_assert_not_null(f);
	fputs("/* \\ \\\\ \"q\" \t */\n", f);
	fclose(f);
	run_okf("cd %s/ants-kit && scripts/upload AIHobbit.c --server http://127.0.0.1:%u "
		"--token %s 2>&1", dir, port, token);
	cr_assert(strstr(out, "\"player\": \"Hobbit\"") || strstr(out, "\"player\":\"Hobbit\""),
		  "%s", out);
	run_okf("curl -sS -o /dev/null -w '%%{http_code}' http://127.0.0.1:%u/kits/aic2018.tar.gz",
		port);
	cr_assert_str_eq(out, "404", "AIC2018 has no kit");
	run_okf("curl -sS http://127.0.0.1:%u/api/games", port);
	cr_assert(strstr(out, "\"kit\": \"/kits/dominator.tar.gz\"") ||
		  strstr(out, "\"kit\":\"/kits/dominator.tar.gz\""), "%s", out);
	serve_stop(sv);
}
