/* test_debug_marks.c - debug drawing and CPU per round through `judge
 * play`: a contestant's marks reach the replay as drawn, per seat and per
 * round, under the cap (the rest counted); a player that draws nothing
 * gets the replay it always had; marks that are not marks freeze the
 * player; each seat's CPU per round shows where the time went. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/cli_testlib.h"
#include "tests/unit/game_testlib.h"

#define LONG_TEXT "0123456789012345678901234567890123456789"

/* Idle (no orders); draws three marks a round, 200 long texts in round 3,
 * and burns CPU in round 5, unless QUIET. */
static const char drawer_head[] = "#include \"dominator.h\"\nPLAYER_NAME(Drawer);\n";
static const char drawer[] =
	"void play(void)\n"
	"{\n"
	"	int r = current_round();\n"
	"#ifndef QUIET\n"
	"	draw_dot(pos(r % 7, 1), 0xff0000);\n"
	"	draw_line(pos(0, 0), pos(3, r % 5), 0x00ff80);\n"
	"	draw_text(pos(2, 2), 0x0000ff, \"round\\t<b>\");\n"
	"	for (int k = 0; r == 3 && k < 200; k++)\n"
	"		draw_text(pos(k % 10, 1), 0x123456, \"" LONG_TEXT "\");\n"
	"	volatile unsigned long x = 0;\n"
	"	for (long k = 0; r == 5 && k < 20000000; k++)\n"
	"		x += (unsigned long)k;\n"
	"#endif\n"
	"}\n";

static json_t *play_drawer(struct gt_player_file *pf, bool quiet)
{
	char source[sizeof drawer_head + sizeof drawer + 32], args[256];
	snprintf(source, sizeof source, "%s%s%s", drawer_head, quiet ? "#define QUIET\n" : "",
		 drawer);
	gt_write_player(pf, "Drawer", source);
	snprintf(args, sizeof args, "%s Demo Demo Demo --seed 4 -o %s", pf->path, pf->replay);
	cr_assert_eq(gt_play("dominator", args), 0, "%s", gt_out);
	return gt_load_replay(pf->replay);
}

static json_t *seat_marks(const json_t *replay, int seat)
{
	return json_array_get(json_object_get(json_object_get(replay, "debug"), "marks"),
			      (size_t)seat);
}

static void expect_json(const json_t *got, const char *want, const char *what)
{
	json_t *w = json_loads(want, 0, NULL);
	cr_assert_not_null(w, "bad expectation %s", want);
	char *text = json_dumps(got, JSON_COMPACT);
	cr_expect(json_equal(got, w), "%s: %s, expected %s", what, text ? text : "nothing", want);
	free(text);
	json_decref(w);
}

Test(debug_marks, round_trip_through_the_replay_per_seat_and_round, .timeout = 120)
{
	struct gt_player_file pf;
	json_t *r = play_drawer(&pf, false);
	json_t *mine = seat_marks(r, 0);
	size_t rounds = json_array_size(json_object_get(r, "rounds"));
	cr_assert_eq(json_array_size(mine), rounds, "one entry per round drawn in");
	expect_json(json_array_get(mine, 0),
		    "[0, [\"dot\", \"#ff0000\", 0, 1], [\"line\", \"#00ff80\", 0, 0, 3, 0],"
		    " [\"text\", \"#0000ff\", 2, 2, \"round?<b>\"]]", "round 0");
	expect_json(json_array_get(mine, 10),
		    "[10, [\"dot\", \"#ff0000\", 3, 1], [\"line\", \"#00ff80\", 0, 0, 3, 0],"
		    " [\"text\", \"#0000ff\", 2, 2, \"round?<b>\"]]", "round 10");
	for (int seat = 1; seat < 4; seat++)
		expect_json(seat_marks(r, seat), "[]", "a player that drew nothing");
	char cmd[256], out[4096];
	snprintf(cmd, sizeof cmd, "%s replay check %s 2>&1", cli_judge(), pf.replay);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "a replay with marks still rebuilds its match: %s",
		     out);
	json_decref(r);
	gt_remove_player(&pf);
}

/* The drawer's file with its marks taken out plays the same match: its
 * replay is the one it always had (no "debug"), equal in all else but the
 * file's hashes and the CPU figures. */
Test(debug_marks, a_player_that_draws_nothing_has_the_replay_it_always_had, .timeout = 120)
{
	struct gt_player_file loud, quiet;
	json_t *a = play_drawer(&loud, false), *b = play_drawer(&quiet, true);
	cr_expect_null(json_object_get(b, "debug"), "nothing drawn: no \"debug\" in the replay");
	cr_expect_not_null(json_object_get(a, "debug"));
	json_t *both[] = { a, b };
	for (int k = 0; k < 2; k++) {
		json_object_del(both[k], "debug");
		json_object_del(both[k], "cpu_us");
		json_t *p0 = json_array_get(json_object_get(both[k], "players"), 0);
		json_object_del(p0, "source_sha256");
		json_object_del(p0, "binary_sha256");
		json_object_del(p0, "label");
	}
	cr_expect(json_equal(a, b), "drawing changed the match");
	json_decref(a);
	json_decref(b);
	gt_remove_player(&loud);
	gt_remove_player(&quiet);
}

/* Round 3: the three usual marks (37 bytes after the 2 of the count) and
 * 24 texts cut to 32 characters (41 bytes each) fill 1023 of the 1024
 * bytes; the other 176 texts are dropped and counted. */
Test(debug_marks, past_the_cap_marks_are_dropped_and_counted, .timeout = 120)
{
	struct gt_player_file pf;
	json_t *r = play_drawer(&pf, false);
	json_t *round3 = json_array_get(seat_marks(r, 0), 3);
	cr_expect_eq(json_integer_value(json_array_get(round3, 0)), 3);
	cr_expect_eq(json_array_size(round3), 1 + 3 + 24, "%zu marks kept", json_array_size(round3) - 1);
	expect_json(json_array_get(round3, 4),
		    "[\"text\", \"#123456\", 0, 1, \"01234567890123456789012345678901\"]",
		    "a long text is cut at 32 characters");
	expect_json(json_object_get(json_object_get(r, "debug"), "dropped"), "[176, 0, 0, 0]",
		    "dropped per seat");
	json_decref(r);
	gt_remove_player(&pf);
}

/* The drawer burns CPU in round 5 only: that round stands out in its
 * figures; every seat has one figure per round. */
Test(debug_marks, cpu_per_round_shows_where_the_time_went, .timeout = 120)
{
	struct gt_player_file pf;
	json_t *r = play_drawer(&pf, false);
	free(gt_replay_but_cpu(pf.replay)); /* one figure per seat per round */
	json_t *cpu = json_array_get(json_object_get(r, "cpu_us"), 0);
	json_int_t busy = json_integer_value(json_array_get(cpu, 5));
	size_t i;
	json_t *v;
	json_array_foreach(cpu, i, v)
		if (i != 5)
			cr_expect_lt(json_integer_value(v) * 4, busy, "round %zu: %lld us, round 5: %lld us",
				     i, (long long)json_integer_value(v), (long long)busy);
	cr_expect_gt(busy, 2000, "20 million additions in %lld us", (long long)busy);
	json_decref(r);
	gt_remove_player(&pf);
}

/* A player that writes its marks' bytes itself, not through the kit's
 * calls, and sends something that is not a mark: frozen, with why. */
Test(debug_marks, marks_that_are_not_marks_freeze_the_player, .timeout = 120)
{
	struct gt_player_file pf;
	gt_write_player(&pf, "Forger",
			"#include \"dominator.h\"\n"
			"PLAYER_NAME(Forger);\n"
			"struct block { unsigned char b[1024]; unsigned long len; unsigned dropped; };\n"
			"extern struct block kit_marks;\n"
			"void play(void)\n"
			"{\n"
			"	if (current_round() == 2) {\n"
			"		kit_marks.b[2] = 9;\n"
			"		kit_marks.len = 3;\n"
			"	}\n"
			"}\n");
	char args[256];
	snprintf(args, sizeof args, "%s Demo Demo Demo --seed 4", pf.path);
	cr_assert_eq(gt_play("dominator", args), 0, "%s", gt_out);
	cr_expect(strstr(gt_row(0), "round 2: protocol error: its debug marks are malformed"), "%s",
		  gt_row(0));
	gt_remove_player(&pf);
}

/* The first round's marks of seat 0 when `file` (name AIName.c) plays GAME
 * against Demo. */
static json_t *first_marks(const char *game, const char *name, const char *source)
{
	struct gt_player_file pf;
	char args[256];
	gt_write_player(&pf, name, source);
	snprintf(args, sizeof args, "%s Demo --seed 3 -o %s", pf.path, pf.replay);
	cr_assert_eq(gt_play(game, args), 0, "%s", gt_out);
	json_t *r = gt_load_replay(pf.replay);
	json_t *first = json_incref(json_array_get(seat_marks(r, 0), 0));
	json_decref(r);
	gt_remove_player(&pf);
	return first;
}

/* Blitz2018's Location: y is the row, x the column. */
Test(debug_marks, blitz_draws_at_its_locations, .timeout = 120)
{
	json_t *m = first_marks("blitz", "Painter",
				"#include \"blitz.h\"\n"
				"PLAYER_NAME(Painter);\n"
				"void play(void)\n"
				"{\n"
				"	draw_dot(location(3, 7), 0x112233);\n"
				"	draw_line(location(1, 2), location(3, 4), 0x445566);\n"
				"}\n");
	expect_json(m, "[0, [\"dot\", \"#112233\", 7, 3], [\"line\", \"#445566\", 2, 1, 4, 3]]",
		    "round 0");
	json_decref(m);
}

/* AIC2018: each unit draws through the original API's calls; the marks of
 * a team's units in a round are that seat's marks of the round. */
Test(debug_marks, aic2018_units_draw_through_the_original_calls, .timeout = 240)
{
	json_t *m = first_marks("aic2018", "Painter",
				"#include \"aic2018.h\"\n"
				"PLAYER_NAME(Painter);\n"
				"void run(void)\n"
				"{\n"
				"	for (;;) {\n"
				"		Location l = uc_getLocation();\n"
				"		uc_drawPoint(l, 0xff00ff);\n"
				"		uc_drawLine(l, loc_add(l, EAST), 0x00ff00);\n"
				"		uc_drawText(l, 0x00ffff, \"me\");\n"
				"		uc_yield();\n"
				"	}\n"
				"}\n");
	cr_assert_eq(json_integer_value(json_array_get(m, 0)), 0);
	cr_assert_geq(json_array_size(m), 4, "3 marks a unit");
	json_t *dot = json_array_get(m, 1), *line = json_array_get(m, 2), *text = json_array_get(m, 3);
	json_int_t row = json_integer_value(json_array_get(dot, 2));
	json_int_t col = json_integer_value(json_array_get(dot, 3));
	char want[160];
	snprintf(want, sizeof want, "[\"line\", \"#00ff00\", %lld, %lld, %lld, %lld]", (long long)row,
		 (long long)col, (long long)row, (long long)col + 1);
	expect_json(line, want, "a line one cell east (x + 1: the next column)");
	snprintf(want, sizeof want, "[\"text\", \"#00ffff\", %lld, %lld, \"me\"]", (long long)row,
		 (long long)col);
	expect_json(text, want, "the unit's text at its place");
	cr_expect_str_eq(json_string_value(json_array_get(dot, 0)), "dot");
	json_decref(m);
}
