/* `judge play aic2018` end to end: the kit's coroutines and energy in real
 * sandboxed players compiled by the judge (instrumented), hostile units
 * contained, and matches that repeat (but for the CPU times per round). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/cli_testlib.h"
#include "tests/unit/game_testlib.h"

#define HOSTILE "tests/players/aic2018/"

static char out[16384];
static char dir[] = "/tmp/aic-play-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(aic2018_play, .init = setup, .fini = teardown, .timeout = 180);

/* Plays a against b; the table in `out`, seat 0's log returned. */
static const char *play(const char *a, const char *b, const char *more)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play aic2018 %s %s --logs %s %s 2>&1", cli_judge(), a, b,
		 dir, more);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	static char log[1 << 20];
	snprintf(cmd, sizeof cmd, "%s/seat0.log", dir);
	FILE *f = fopen(cmd, "r");
	cr_assert_not_null(f);
	size_t n = fread(log, 1, sizeof log - 1, f);
	log[n] = '\0';
	fclose(f);
	return log;
}

static const char *row(int seat)
{
	const char *r = cli_table_row(out, seat);
	cr_assert_not_null(r, "no row for seat %d in:\n%s", seat, out);
	return r;
}

static bool frozen(int seat)
{
	const char *r = row(seat), *end = strchr(r, '\n');
	const char *dash = strstr(r, " -");
	return !(dash && (!end || dash < end));
}

Test(aic2018_play, a_unit_that_never_yields_is_paused_each_round_and_the_team_plays_on)
{
	const char *log = play(HOSTILE "AISpinUnit.c", "Null", "--seed 2 -i " HOSTILE "short.cnf");
	cr_expect_not(frozen(0), "%s", out);
	long last_steps = 0;
	int rounds = 0;
	for (const char *p = log; (p = strstr(p, "spinner round ")); p++) {
		int r;
		long steps;
		cr_assert_eq(sscanf(p, "spinner round %d steps %ld", &r, &steps), 2);
		cr_expect_eq(r, rounds, "the spinner goes on in every round");
		if (r > 0)
			cr_expect(steps - last_steps > 1000 && steps - last_steps < 15001,
				  "round %d: %ld steps, a turn's energy", r, steps - last_steps);
		char acts[64];
		snprintf(acts, sizeof acts, "acts in round %d\n", r);
		cr_expect(strstr(p, acts), "another unit acted in round %d", r);
		last_steps = steps;
		rounds++;
	}
	cr_expect_eq(rounds, 300, "the spinner was resumed round after round: %d", rounds);
}

/* The judge's whole-match CPU second suits a course game's one program;
 * AIC2018 raises it (game.h: match_cpu_ns), so a team spending all its
 * energy every round is never frozen for it, whatever the judge's own. */
Test(aic2018_play, a_team_spending_all_its_energy_keeps_playing_past_the_judges_budget)
{
	char cfg[128], cmd[1024];
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	cr_assert_eq(cli_write_file(cfg, "{\"sandbox\": {\"cpu_ms\": 50}}\n"), 0);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s play aic2018 %sAIBurn.c %sAIBurn.c --seed 3 "
		 "-o %s/m.json 2>&1", cfg, cli_judge(), HOSTILE, HOSTILE, dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	double cpu[2];
	for (int seat = 0; seat < 2; seat++) {
		cr_expect_not(frozen(seat), "%s", out);
		char name[32];
		long long score;
		int s, rank;
		cr_assert_eq(sscanf(row(seat), "%d %31s %lld %d %lf", &s, name, &score, &rank, &cpu[seat]), 5);
	}
	cr_expect(cpu[0] > 0.05 && cpu[1] > 0.05, "the teams used more than the judge's 50 ms:\n%s", out);
	snprintf(cmd, sizeof cmd, "grep -c '\"cpu_ms\":20000' %s/m.json", dir);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "the replay names the budget played under");
}

Test(aic2018_play, a_stack_overflow_kills_the_unit_not_the_team)
{
	const char *log = play(HOSTILE "AIDeepUnit.c", "Null", "--seed 3");
	cr_expect_not(frozen(0), "%s", out);
	cr_expect(strstr(log, "died: its stack overflowed"), "%.400s", log);
	cr_expect(strstr(log, "survivor acts in round 1900\n"), "the first unit played on");
}

/* A megabyte local array (four stacks' worth) once stepped over the guard
 * page into the stacks of the units below it, which then died. */
Test(aic2018_play, a_unit_with_a_megabyte_local_array_dies_alone)
{
	const char *log = play(HOSTILE "AIBigFrame.c", "Null", "--seed 3 -i " HOSTILE "rich.cnf");
	cr_expect_not(frozen(0), "%s", out);
	cr_expect_eq(cli_count(log, " died: "), 1, "only the big frame's unit died:\n%.2000s", log);
	cr_expect(strstr(log, "died: its stack overflowed"), "%.2000s", log);
	cr_expect_not(strstr(log, "corrupted"), "%.2000s", log);
	cr_expect_not(strstr(log, "unit 4 got"), "it never got past its frame");
	for (int n = 1; n <= 3; n++) {
		char want[64];
		snprintf(want, sizeof want, "innocent %d intact in round 100\n", n);
		cr_expect(strstr(log, want), "%s:\n%.2000s", want, log);
	}
}

Test(aic2018_play, units_that_come_and_go_in_numbers_are_contained)
{
	/* wood by the million: hundreds of units alive at once, each with most
	 * of its stack in use, and over a thousand coroutines made in all */
	const char *log = play(HOSTILE "AIManyUnits.c", "Null", "--seed 3 -i " HOSTILE "rich.cnf");
	cr_expect_not(frozen(0), "%s", out);
	int died = cli_count(log, "died: its run() returned");
	cr_expect_geq(died, 400, "units whose run() returned: %d", died);
}

/* The old way to the counter, through the linker's names for the data,
 * is refused when the file is compiled: no outside name but the API and
 * the counted library links (and the count is in a register anyway). */
Test(aic2018_play, a_unit_that_looks_for_its_counter_through_the_linker_is_refused)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play aic2018 " HOSTILE "AITamper.c Null 2>&1", cli_judge());
	cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "it compiled:\n%s", out);
	cr_expect(strstr(out, "uses `__bss_start`, which a unit may not call"), "%s", out);
}

/* Two matches at once, five times: ten replays of one seed, the same but
 * for the CPU times. */
Test(aic2018_play, the_same_binaries_and_seed_give_identical_replays_under_load)
{
	char cmd[2048];
	for (int pair = 0; pair < 5; pair++) {
		snprintf(cmd, sizeof cmd,
			 "%1$s play aic2018 Demo Demo --seed 7 -o %2$s/r%3$da.json >/dev/null & "
			 "%1$s play aic2018 Demo Demo --seed 7 -o %2$s/r%3$db.json >/dev/null; wait",
			 cli_judge(), dir, pair);
		cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	}
	/* the same but for the CPU times per round, which vary */
	char path[256];
	snprintf(path, sizeof path, "%s/r0a.json", dir);
	char *first = gt_replay_but_cpu(path);
	for (int i = 1; i < 10; i++) {
		snprintf(path, sizeof path, "%s/r%d%c.json", dir, i / 2, i % 2 ? 'b' : 'a');
		char *other = gt_replay_but_cpu(path);
		cr_expect_str_eq(other, first, "replay %d differs", i);
		free(other);
	}
	free(first);
	snprintf(cmd, sizeof cmd, "%s replay check %s/r0a.json", cli_judge(), dir);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

/* Two busy loops take the cores from the match: slower turns, the same
 * replay (the energy count and its watch read no clock that load moves). */
Test(aic2018_play, a_match_repeats_with_busy_loops_running)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "%1$s play aic2018 Demo Dummy --seed 5 -o %2$s/quiet.json >/dev/null || exit 1; "
		 "(while :; do :; done) & b1=$!; (while :; do :; done) & b2=$!; "
		 "%1$s play aic2018 Demo Dummy --seed 5 -o %2$s/busy.json >/dev/null; rc=$?; "
		 "kill $b1 $b2; exit $rc",
		 cli_judge(), dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	char quiet[256], busy[256];
	snprintf(quiet, sizeof quiet, "%s/quiet.json", dir);
	snprintf(busy, sizeof busy, "%s/busy.json", dir);
	char *a = gt_replay_but_cpu(quiet), *b = gt_replay_but_cpu(busy);
	cr_expect_str_eq(a, b, "the replays differ but for the CPU times");
	free(a);
	free(b);
}

/* The worked example of docs/games/aic2018.md compiles and plays as is. */
Test(aic2018_play, the_docs_worked_example_plays)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "sed -n '/^### A worked example/,/^Everything a unit/p' docs/games/aic2018.md | "
		 "sed -n '/^```c/,/^```$/p' | sed '1d;$d' > %s/AIExample.c", dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "%s/AIExample.c", dir);
	play(cmd, "Null", "--seed 1 -i " HOSTILE "short.cnf");
	cr_expect(strstr(row(0), "Example"), "%s", out);
	cr_expect_not(frozen(0), "%s", out);
}

/* What could run before round 0, read the clock, or set the count or a
 * protection key (what a builtin compiles to) never compiles. */
Test(aic2018_play, constructors_the_clock_and_the_counts_register_are_refused)
{
	static const struct {
		const char *code, *why;
	} files[] = {
		{ "__attribute__((constructor)) static void early(void) { uc_write(0, 1); }\n"
		  "void run(void) { for (;;) uc_yield(); }",
		  "constructor or destructor" },
		{ "void run(void) { for (;;) { uc_write(1, (int)__builtin_ia32_rdtsc()); uc_yield(); } }",
		  "the instruction `rdtsc`" },
		{ "__attribute__((target(\"pku\"))) static void key(void) { __builtin_ia32_wrpkru(0); }\n"
		  "void run(void) { for (;;) { key(); uc_yield(); } }",
		  "the instruction `wrpkru`" },
		{ "void run(void) { register long e __asm__(\"r15\"); e = 1L << 40; (void)e; }",
		  "__asm__ is not allowed" },
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char path[128], cmd[1024];
		snprintf(path, sizeof path, "%s/AIRefused%zu.c", dir, i);
		snprintf(cmd, sizeof cmd, "#include \"aic2018.h\"\nPLAYER_NAME(Refused%zu);\n%s\n", i,
			 files[i].code);
		cr_assert_eq(cli_write_file(path, cmd), 0);
		snprintf(cmd, sizeof cmd, "%s compile %s --game aic2018 2>&1", cli_judge(), path);
		cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "file %zu compiled:\n%s", i, out);
		cr_expect(strstr(out, files[i].why), "file %zu: want \"%s\" in:\n%s", i, files[i].why,
			  out);
	}
}

/* The kit's internal names are not there for a contestant's file. */
Test(aic2018_play, the_kits_internals_cannot_be_linked)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play aic2018 " HOSTILE "AIInternals.c Null 2>&1", cli_judge());
	cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "it compiled:\n%s", out);
	cr_expect(strstr(out, "which a unit may not call"), "%s", out);
}

/* A public team bot of the original contest, ported call by call to the
 * API's Java names (tests/players/aic2018/AIRyozuki.c), compiles and plays
 * whole matches: against the Dummy (which is stronger) without a unit
 * dying of its code, and it beats a team that does nothing. */
Test(aic2018_play, a_public_team_bot_ported_call_by_call_plays_whole_matches)
{
	const char *log = play(HOSTILE "AIRyozuki.c", "Dummy", "--seed 1");
	cr_expect_not(frozen(0), "%s", out);
	cr_expect_not(strstr(log, "died: its"), "%.2000s", log);
	play(HOSTILE "AIRyozuki.c", "Null", "--seed 1");
	cr_expect_not(frozen(0), "%s", out);
	int seat, rank;
	long long score;
	char name[32];
	cr_assert_eq(sscanf(row(0), "%d %31s %lld %d", &seat, name, &score, &rank), 4);
	cr_expect(rank == 1 && score > 0, "Ryozuki beats Null:\n%s", out);
}
