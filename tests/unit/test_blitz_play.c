/* `judge play blitz` end to end: real compiles of the shipped players
 * against the Blitz2018 kit, real sandboxed processes, whole matches of 2
 * and 6 players, their tables (ranks) and replays. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/game_testlib.h"

static int play(const char *args)
{
	return gt_play("blitz", args);
}

Test(blitz_play, demo_against_dummy_plays_and_ranks, .timeout = 120)
{
	cr_assert_eq(play("Demo Dummy --seed 3"), 0, "%s", gt_out);
	cr_expect(strstr(gt_out, "rank"), "%s", gt_out);
	int a = gt_rank(0), b = gt_rank(1);
	cr_expect((a == 1 && b == 2) || (a == 2 && b == 1), "ranks %d and %d:\n%s", a, b, gt_out);
	for (int seat = 0; seat < 2; seat++)
		cr_expect_null(strstr(gt_row(seat), "round "), "a player froze:\n%s", gt_out);
}

Test(blitz_play, six_players_with_a_replay, .timeout = 180)
{
	json_t *r = gt_whole_match("blitz", "Demo Demo Dummy Null Demo Dummy", 7, 0);
	bool seen[7] = { false };
	for (int seat = 0; seat < 6; seat++) {
		int rank = gt_rank(seat);
		cr_assert(rank >= 1 && rank <= 6, "%s", gt_out);
		seen[rank] = true;
	}
	cr_expect(seen[1], "somebody ranks first:\n%s", gt_out);
	json_t *params = json_object_get(json_object_get(r, "start"), "params");
	cr_expect_eq(json_integer_value(json_object_get(params, "players")), 6);
	int width = (int)json_integer_value(json_object_get(params, "width"));
	int height = (int)json_integer_value(json_object_get(params, "height"));
	cr_expect(width >= 20 && width <= 50 && height >= 20 && height <= 50,
		  "the shipped parameters draw sides in 20..50: %d x %d", width, height);
	size_t rounds = json_array_size(json_object_get(r, "rounds"));
	cr_expect(rounds >= 1 && rounds <= (size_t)json_integer_value(json_object_get(params, "rounds")));
	json_t *ranks = json_object_get(json_object_get(r, "result"), "ranks");
	cr_expect_eq(json_array_size(ranks), 6);
	json_decref(r);
}

Test(blitz_play, same_seed_same_replay_and_a_small_one, .timeout = 120)
{
	/* The starter scripts' 30 x 30 (the shipped file draws each side). */
	char params[] = "/tmp/judge-bzparams-XXXXXX", players[128];
	int fd = mkstemp(params);
	cr_assert(fd >= 0 && write(fd, "width 30\nheight 30\n", 20) == 20);
	close(fd);
	snprintf(players, sizeof players, "Dummy Dummy -i %s", params);
	size_t len = gt_same_seed_same_replay("blitz", players, 11, -1);
	unlink(params);
	cr_expect_leq(len, 60 * 1024, "a 30 x 30 match of 2 players: %zu bytes", len);
}

Test(blitz_play, the_number_of_players_is_checked, .timeout = 60)
{
	cr_expect_eq(play("Demo"), 2, "%s", gt_out);
	cr_expect(strstr(gt_out, "2 to 6 players, 1 given"), "%s", gt_out);
	cr_expect_eq(play("Demo Demo Demo Demo Demo Demo Demo"), 2, "%s", gt_out);
	cr_expect(strstr(gt_out, "2 to 6 players, 7 given"), "%s", gt_out);
}

Test(blitz_play, a_player_over_its_second_for_one_turn_is_ejected, .timeout = 120)
{
	struct gt_player_file pf;
	gt_write_player(&pf, "Slow",
			"#include <time.h>\n#include \"blitz.h\"\nPLAYER_NAME(Slow);\n"
			"void play(void)\n{\n\tif (current_turn() == 2)\n"
			"\t\twhile (clock() < CLOCKS_PER_SEC * 3 / 2)\n\t\t\t;\n}\n");
	char args[256];
	snprintf(args, sizeof args, "%s Demo --seed 2", pf.path);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	cr_expect(strstr(gt_row(0), "round 2: used 1.") && strstr(gt_row(0), "for one turn; the limit is 1.000 s"),
		  "%s", gt_out);
	cr_expect_eq(gt_rank(0), 2, "%s", gt_out);
	cr_expect_eq(gt_rank(1), 1, "%s", gt_out);
	gt_remove_player(&pf);
}

/* A player that never answers turn 2: the sandbox stops it once it has
 * used its turn's second, not at the wall guard; the two others play on
 * to the end of the match. */
Test(blitz_play, a_player_spinning_forever_is_ejected_within_its_turn, .timeout = 120)
{
	struct gt_player_file pf;
	gt_write_player(&pf, "Spin",
			"#include \"blitz.h\"\nPLAYER_NAME(Spin);\nvolatile unsigned long spins;\n"
			"void play(void)\n{\n\tif (current_turn() == 2)\n\t\tfor (;;)\n"
			"\t\t\tspins++;\n}\n");
	char args[320];
	snprintf(args, sizeof args, "%s Demo Demo --seed 5 -o %s", pf.path, pf.replay);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	cr_expect(strstr(gt_row(0), "round 2: used 1.") &&
		  strstr(gt_row(0), "of CPU for one turn; the limit is 1.000 s"), "%s", gt_out);
	char name[32];
	long long score;
	int seat, rank;
	double cpu;
	cr_assert_eq(sscanf(gt_row(0), "%d %31s %lld %d %lf", &seat, name, &score, &rank, &cpu), 5);
	cr_expect(cpu >= 1.0 && cpu < 1.25, "stopped after %.3f s of CPU, about one turn's:\n%s", cpu,
		  gt_out);
	for (seat = 1; seat < 3; seat++)
		cr_expect_null(strstr(gt_row(seat), "round "), "seat %d froze too:\n%s", seat, gt_out);
	json_t *r = gt_load_replay(pf.replay);
	size_t played = json_array_size(json_object_get(r, "rounds"));
	cr_expect(played > 3, "the match went on after the ejection: %zu rounds", played);
	json_t *frozen = json_array_get(json_object_get(json_object_get(r, "result"), "frozen"), 0);
	cr_expect_str_eq(json_string_value(json_array_get(frozen, 2)), "cpu-limit");
	json_decref(r);
	gt_remove_player(&pf);
}

Test(blitz_play, a_player_crashing_ends_a_two_player_match_at_once, .timeout = 120)
{
	struct gt_player_file pf;
	gt_write_player(&pf, "Crash",
			"#include \"blitz.h\"\nPLAYER_NAME(Crash);\nint *nowhere;\n"
			"void play(void)\n{\n\tif (current_turn() == 3)\n\t\t*nowhere = 1;\n}\n");
	char args[320];
	snprintf(args, sizeof args, "Demo %s --seed 4 -o %s", pf.path, pf.replay);
	cr_assert_eq(play(args), 0, "%s", gt_out);
	cr_expect(strstr(gt_row(1), "round 3: "), "%s", gt_out);
	cr_expect_eq(gt_rank(0), 1, "%s", gt_out);
	cr_expect_eq(gt_rank(1), 2, "%s", gt_out);
	json_t *r = gt_load_replay(pf.replay);
	cr_expect_eq(json_array_size(json_object_get(r, "rounds")), 3,
			"three rounds played, the match over when the player was ejected");
	json_decref(r);
	gt_remove_player(&pf);
}
