/* `judge play` end to end: real compiles, real sandboxed players, a real
 * match of Dominator, its table and its replay. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/play/match.h"
#include "judge/play/players.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/game_testlib.h"
#include "tests/unit/sbx_testlib.h"

/* Runs `judge play dominator ARGS` with both output streams captured. */
static int play(const char *args)
{
	return gt_play("dominator", args);
}

Test(play, four_shipped_players_play_a_whole_match, .timeout = 120)
{
	json_t *r = gt_whole_match("dominator", "Demo Demo Demo Null", 30, 200);
	cr_assert(strncmp(gt_row(3) + 5, "Null", 4) == 0, "%s", gt_out);
	json_t *scores = json_object_get(json_object_get(r, "result"), "scores");
	cr_assert_eq(json_integer_value(json_array_get(scores, 3)), 0, "Null paints nothing");
	/* The header pins down what played: the source's and the binary's
	 * SHA-256, the compiler, the limits. */
	gt_expect_source(r, 3, "games/dominator/players/AINull.c");
	json_t *null = json_array_get(json_object_get(r, "players"), 3);
	cr_assert_eq(strlen(json_string_value(json_object_get(null, "binary_sha256"))), 64);
	cr_assert(strncmp(json_string_value(json_object_get(r, "compiler")), "gcc", 3) == 0);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(r, "limits"), "cpu_ms")),
		     1000);
	cr_assert_gt(json_integer_value(json_array_get(scores, 0)), 0);
	json_decref(r);
}

Test(play, same_seed_same_replay_bytes, .timeout = 120)
{
	gt_same_seed_same_replay("dominator", "Demo Demo Demo Demo", 11, 12);
}

Test(play, a_player_over_its_cpu_budget_freezes_at_that_round, .timeout = 120)
{
	char path[] = "/tmp/judge-play-XXXXXX";
	close(mkstemp(path));
	char args[256];
	snprintf(args, sizeof args, "tests/players/AISpin50.c Demo Demo Null --cpu 500 -o %s",
		 path);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	cr_assert(strstr(gt_row(0), "round 50: CPU budget exceeded"), "%s", gt_out);
	for (int seat = 1; seat < 4; seat++)
		cr_assert_null(strstr(gt_row(seat), "round "), "%s", gt_out);
	json_t *r = gt_load_replay(path);
	json_t *rounds = json_object_get(r, "rounds");
	cr_assert_eq(json_array_size(rounds), 200, "the match went on to the end");
	json_t *frozen = json_array_get(json_object_get(json_object_get(r, "result"), "frozen"), 0);
	cr_assert_eq(json_integer_value(json_array_get(frozen, 1)), 50);
	cr_assert_str_eq(json_string_value(json_array_get(frozen, 2)), "cpu-limit");
	json_t *live = json_object_get(json_array_get(rounds, 49), "live");
	cr_assert_eq(json_integer_value(json_array_get(live, 0)), 1);
	live = json_object_get(json_array_get(rounds, 50), "live");
	cr_assert_eq(json_integer_value(json_array_get(live, 0)), 0);
	json_decref(r);
	unlink(path);
}

/* A player that sleeps 280 ms every turn, just under a 300 ms guard, and
 * so never meets it: its wall budget for the match, 4 x 100 ms of CPU +
 * 200 rounds x 2 ms = 0.8 s, runs out in round 2 (its third 280 ms nap),
 * and the match ends within that budget, not 200 x 280 ms later.  The
 * first run compiles the players; the second, timed, finds them cached. */
Test(play, a_sleeper_is_frozen_at_its_wall_budget, .timeout = 120)
{
	char cfg[] = "/tmp/judge-cfg-XXXXXX";
	int fd = mkstemp(cfg);
	const char *text = "{\"sandbox\": {\"wall_ms\": 300, \"wall_budget_cpu_factor\": 4,"
			   " \"wall_budget_round_ms\": 2}}\n";
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "tests/players/AISleepy.c Demo Demo Null --cpu 100 --config %s",
		 cfg);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	int64_t t0 = tl_now_ns();
	cr_assert_eq(play(args), 0, "%s", gt_out);
	double took = (tl_now_ns() - t0) / 1e9;
	unlink(cfg);
	cr_assert(strstr(gt_row(0), "round 2: wall-clock budget exceeded: waited for 0.8 s of 0.8 s"),
		  "%s", gt_out);
	for (int seat = 1; seat < 4; seat++)
		cr_assert_null(strstr(gt_row(seat), "round "), "%s", gt_out);
	cr_assert_lt(took, 0.8 + 1.0, "the match took %.2f s, the budget is 0.8 s", took);
}

Test(play, debug_output_goes_to_the_log_not_the_game, .timeout = 120)
{
	char dir[] = "/tmp/judge-logs-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char args[256];
	snprintf(args, sizeof args, "tests/players/AIChatty.c Demo Demo Null --logs %s", dir);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	cr_assert_null(strstr(gt_row(0), "round "), "printf broke the protocol:\n%s", gt_out);
	char path[64];
	snprintf(path, sizeof path, "%s/seat0.log", dir);
	size_t len;
	char *log = gt_slurp(path, &len);
	cr_assert(strstr(log, "round 0\n") && strstr(log, "farmers 20\n"), "log: %.200s", log);
	free(log);
	unlink(path);
	for (int i = 1; i < 4; i++) {
		snprintf(path, sizeof path, "%s/seat%d.log", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

Test(play, protocol_breakers_are_frozen_with_the_reason, .timeout = 120)
{
	cr_assert_eq(play("tests/players/AIOrders1001.c Demo Demo Null"), 0, "%s", gt_out);
	cr_assert(strstr(gt_row(0), "round 3: protocol error: more than 1000 orders in one round"),
		  "%s", gt_out);
}

/* Its name is decided from its source as at upload: a file that defines
 * player_name by hand plays under no name the judge could trust. */
Test(play, a_file_that_names_itself_by_hand_is_refused, .timeout = 120)
{
	cr_assert_eq(play("tests/players/AIBadName.c Demo Demo Null"), 1, "%s", gt_out);
	cr_assert(strstr(gt_out, "judge play: tests/players/AIBadName.c:4: writes player_name "
				 "itself"), "%s", gt_out);
}

/* games/dominator/players/AIname.c compiled (as the worker compiles). */
static void compile_shipped(const struct judge_config *cfg, const char *name,
			    struct cmp_result *res)
{
	char source[PATH_MAX];
	err_t err;
	cr_assert(paths_shipped_player(cfg->data_dir, "dominator", name, source));
	cr_assert_eq(players_compile(cfg, "dominator", source, res, err), 0, "%s", err->msg);
	cr_assert(res->ok, "%s", res->log);
}

/* The runner is told each seat's name.  A program that calls itself
 * something else (Demo's binary stored as Alias) is frozen, and the seat
 * goes by its given name in the result and the replay, as does a seat
 * that never said a word. */
Test(play, a_program_that_announces_another_name_is_frozen_under_its_own, .timeout = 120)
{
	struct judge_config cfg;
	err_t err;
	cr_assert_eq(cfg_init(&cfg, NULL, err), 0, "%s", err->msg);
	struct cmp_result demo, bad;
	compile_shipped(&cfg, "Demo", &demo);
	/* the compile step leaves names to the upload: this one compiles */
	cr_assert_eq(players_compile(&cfg, "dominator", "tests/players/AIBadName.c", &bad, err), 0,
		     "%s", err->msg);
	cr_assert(bad.ok, "%s", bad.log);
	struct match_spec spec = {
		.game = game_find("dominator"), .seed = 3, .nplayers = 4,
		.limits = { .cpu_ns = cfg.sandbox.cpu_ns, .wall_ns = cfg.sandbox.wall_ns,
			    .memory_bytes = cfg.sandbox.memory_bytes,
			    .stderr_bytes = cfg.sandbox.stderr_bytes },
		.uid_base = cfg.sandbox.uid_base, .uid_count = cfg.sandbox.uid_count,
		.entry = { { .binary = demo.binary, .name = "Alias" },
			   { .binary = demo.binary, .name = "Demo" },
			   { .binary = bad.binary, .name = "BadName" },
			   { .binary = "/nonexistent/AIGhost", .name = "Ghost" } },
	};
	struct match_result r;
	cr_assert_eq(match_play(&spec, &r, err), 0, "%s", err->msg);
	const char *want[] = { "Alias", "Demo", "BadName", "Ghost" };
	json_t *players = json_object_get(r.replay, "players");
	for (int i = 0; i < 4; i++) {
		cr_expect_str_eq(r.seat[i].name, want[i]);
		json_t *p = json_array_get(players, i);
		cr_expect_str_eq(json_string_value(json_object_get(p, "name")), want[i]);
		cr_expect_eq(r.seat[i].frozen, i != 1, "seat %d", i);
		if (i != 1)
			cr_expect_eq(r.seat[i].frozen_round, -1, "seat %d: before round 0", i);
	}
	cr_expect_str_eq(r.seat[0].reason, "its program calls itself 'Demo' but it was uploaded "
					   "as 'Alias'");
	cr_expect(strstr(r.seat[2].reason, "protocol error: its name must be 1 to 12 letters"),
		  "%s", r.seat[2].reason);
	cr_expect_eq(r.seat[0].verdict, SBX_STOPPED);
	match_result_free(&r);
	spec.entry[0].name = "Bad name";
	cr_expect_eq(match_play(&spec, &r, err), -1, "a seat's name is the judge's, checked");
	cr_expect_str_eq(err->msg, "seat 0 has no valid player name");
	cmp_result_free(&demo);
	cmp_result_free(&bad);
}

Test(play, a_crash_is_reported_as_a_crash, .timeout = 120)
{
	cr_assert_eq(play("tests/players/AICrash10.c Demo Demo Null"), 0, "%s", gt_out);
	cr_assert(strstr(gt_row(0), "round 10: crashed: killed by signal 11 (SIGSEGV)"), "%s", gt_out);
	cr_assert_null(strstr(gt_row(0), " 0.0 MiB"), "no peak memory: %s", gt_out);
}

Test(play, library_sorting_is_allowed, .timeout = 120)
{
	cr_assert_eq(play("tests/players/AISort.c Demo Demo Null"), 0, "%s", gt_out);
	cr_assert_null(strstr(gt_row(0), "round "), "%s", gt_out);
}

Test(play, errors_are_clear_and_exit_non_zero, .timeout = 120)
{
	cr_assert_eq(play("tests/players/AIBroken.c Demo Demo Null"), 1, "%s", gt_out);
	cr_assert(strstr(gt_out, "AIBroken.c:8:") && strstr(gt_out, "undeclared_function"), "%s", gt_out);
	cr_assert_eq(play("Demo Demo Demo Gandalf"), 2, "%s", gt_out);
	cr_assert(strstr(gt_out, "unknown player 'Gandalf'"), "%s", gt_out);
	cr_assert_eq(play("Demo Demo Demo /nonexistent/AIX.c"), 2, "%s", gt_out);
	cr_assert(strstr(gt_out, "cannot read /nonexistent/AIX.c"), "%s", gt_out);
	cr_assert_eq(play("Demo Demo Demo"), 2, "%s", gt_out);
	cr_assert(strstr(gt_out, "needs 4 players, 3 given"), "%s", gt_out);
	cr_assert_eq(play("Demo Demo Demo Demo -i /dev/null/x"), 2, "%s", gt_out);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "%s play tetris Demo 2>&1", cli_judge());
	cr_assert_eq(cli_run(cmd, gt_out, sizeof gt_out), 2);
	cr_assert(strstr(gt_out, "unknown game 'tetris'"), "%s", gt_out);
}

Test(play, bad_parameters_are_refused_with_the_line, .timeout = 120)
{
	char path[] = "/tmp/judge-params-XXXXXX";
	int fd = mkstemp(path);
	const char *bad = "rounds 200\nrows 36\n";
	cr_assert_eq(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Demo Demo -i %s", path);
	cr_assert_eq(play(args), 2, "%s", gt_out);
	cr_assert(strstr(gt_out, "rows"), "%s", gt_out);
	unlink(path);
}

/* From a folder with nothing of the judge's in it: the source tree's
 * build, then an installed layout (BIN/judge, BIN/../share/judge) outside
 * the tree, then $JUDGE_DATA pointing nowhere useful. */
Test(play, the_shipped_files_are_found_from_any_directory, .timeout = 180)
{
	char tmp[] = "/tmp/judge-where-XXXXXX", judge[PATH_MAX], repo[PATH_MAX], cmd[6 * PATH_MAX];
	cr_assert_not_null(mkdtemp(tmp));
	cr_assert_not_null(realpath(cli_judge(), judge));
	cr_assert_not_null(getcwd(repo, sizeof repo));

	snprintf(cmd, sizeof cmd, "cd %s && %s play dominator Null Demo Null Null -s 2 2>&1", tmp,
		 judge);
	cr_assert_eq(cli_run(cmd, gt_out, sizeof gt_out), 0, "%s", gt_out);
	cr_assert(strstr(gt_row(1), "Demo"), "%s", gt_out);

	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p inst/bin inst/share/judge/build && cp %s inst/bin/judge && "
		 "ln -s %s/config %s/games inst/share/judge/ && "
		 "ln -s %s/build/kits inst/share/judge/build/kits && "
		 "inst/bin/judge play dominator Null Null Demo Null -s 2 2>&1",
		 tmp, judge, repo, repo, repo);
	cr_assert_eq(cli_run(cmd, gt_out, sizeof gt_out), 0, "%s", gt_out);
	cr_assert(strstr(gt_row(2), "Demo"), "%s", gt_out);

	snprintf(cmd, sizeof cmd, "cd %s && JUDGE_DATA=%s/nowhere %s play dominator Demo Null "
		 "Null Null 2>&1", tmp, tmp, judge);
	cr_assert_neq(cli_run(cmd, gt_out, sizeof gt_out), 0, "%s", gt_out);
	char want[256];
	snprintf(want, sizeof want, "unknown player 'Demo': not a shipped player (Null, Demo, "
		 "Dummy in %s/nowhere/games/dominator/players)", tmp);
	cr_assert(strstr(gt_out, want), "%s", gt_out);

	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	cli_run(cmd, gt_out, sizeof gt_out);
}

Test(play, logs_folder_is_made_and_a_cut_log_says_so, .timeout = 120)
{
	char dir[] = "/tmp/judge-logs-XXXXXX", cfg[64], args[256], path[128], cmd[160];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	cr_assert_eq(cli_write_file(cfg, "{\"sandbox\": {\"stderr_kb\": 1}}\n"), 0);
	snprintf(args, sizeof args, "tests/players/AIChatty.c Demo Demo Null --config %s "
		 "--logs %s/new/logs", cfg, dir);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	snprintf(path, sizeof path, "%s/new/logs/seat0.log", dir);
	size_t len;
	char *log = gt_slurp(path, &len);
	log[len] = '\0';
	cr_assert(strstr(log, "farmers "), "%.200s", log);
	const char *note = strstr(log, "[judge: log cut at 1024 bytes; ");
	cr_assert_not_null(note, "the log does not say it was cut: ...%s", log + len - 80);
	cr_assert(strstr(note, " more bytes dropped]\n") && note[-1] == '\n', "%s", note - 1);
	free(log);
	snprintf(path, sizeof path, "%s/new/logs/seat1.log", dir);
	free(gt_slurp(path, &len));
	cr_assert_eq(len, 0, "a quiet player's log is empty, with no note");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(play, a_player_without_its_name_is_told_what_to_write, .timeout = 120)
{
	char path[] = "/tmp/judge-AINoName-XXXXXX.c";
	int fd = mkstemps(path, 2);
	cr_assert_geq(fd, 0);
	const char *text = "#include \"dominator.h\"\nvoid play(void) {}\n";
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char args[160];
	snprintf(args, sizeof args, "%s Demo Demo Null", path);
	int rc = play(args);
	unlink(path);
	cr_assert_eq(rc, 1, "%s", gt_out);
	cr_assert(strstr(gt_out, "does not name its player: write PLAYER_NAME(Name)"), "%s", gt_out);
	cr_assert_null(strstr(gt_out, "undefined reference"), "%s", gt_out);
}

/* The judge gives matches 62-bit seeds; the match pages print
 * `judge play ... -s SEED`, which must take them. */
Test(play, a_seed_the_judge_gives_a_match_is_taken, .timeout = 120)
{
	char path[] = "/tmp/judge-bigseed-XXXXXX", args[128];
	close(mkstemp(path));
	snprintf(args, sizeof args, "Null Null Null Null -s 4611686018427400249 -o %s", path);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	json_t *r = gt_load_replay(path);
	unlink(path);
	cr_expect_eq(json_integer_value(json_object_get(r, "seed")), 4611686018427400249LL);
	json_decref(r);
	cr_expect_neq(play("Null Null Null Null -s -1"), 0, "%s", gt_out);
	cr_expect(strstr(gt_out, "--seed takes a seed from 0 to 2^63-1, not '-1'"), "%s", gt_out);
	cr_expect_neq(play("Null Null Null Null -s 9223372036854775808"), 0, "%s", gt_out);
}
