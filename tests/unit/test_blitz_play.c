/* `judge play blitz` end to end: real compiles of the shipped players
 * against the Blitz2018 kit, real sandboxed processes, whole matches of 2
 * and 6 players, their tables (ranks) and replays. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char out[16384];

static int play(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play blitz %s 2>&1", cli_judge(), args);
	return cli_run(cmd, out, sizeof out);
}

/* The table's row for a seat: "N    Name ... ". */
static const char *row(int seat)
{
	char key[16];
	snprintf(key, sizeof key, "\n%-4d ", seat);
	const char *r = strstr(out, key);
	cr_assert_not_null(r, "no row for seat %d in:\n%s", seat, out);
	return r + 1;
}

/* The rank column of a seat's row (the fourth). */
static int rank_of(int seat)
{
	char name[32];
	long long score;
	int s, rank;
	cr_assert_eq(sscanf(row(seat), "%d %31s %lld %d", &s, name, &score, &rank), 4, "%s", out);
	return rank;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	static char buf[1 << 22];
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return buf;
}

Test(blitz_play, demo_against_dummy_plays_and_ranks, .timeout = 120)
{
	cr_assert_eq(play("Demo Dummy --seed 3"), 0, "%s", out);
	cr_expect(strstr(out, "rank"), "%s", out);
	int a = rank_of(0), b = rank_of(1);
	cr_expect((a == 1 && b == 2) || (a == 2 && b == 1), "ranks %d and %d:\n%s", a, b, out);
	for (int seat = 0; seat < 2; seat++)
		cr_expect_null(strstr(row(seat), "round "), "a player froze:\n%s", out);
}

Test(blitz_play, six_players_with_a_replay, .timeout = 180)
{
	char path[] = "/tmp/judge-bzplay-XXXXXX";
	close(mkstemp(path));
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Dummy Null Demo Dummy --seed 7 -o %s", path);
	cr_assert_eq(play(args), 0, "%s", out);
	bool seen[7] = { false };
	for (int seat = 0; seat < 6; seat++) {
		int r = rank_of(seat);
		cr_assert(r >= 1 && r <= 6, "%s", out);
		seen[r] = true;
	}
	cr_expect(seen[1], "somebody ranks first:\n%s", out);
	json_error_t e;
	json_t *r = json_load_file(path, 0, &e);
	cr_assert_not_null(r, "replay %s: %s", path, e.text);
	cr_expect_str_eq(json_string_value(json_object_get(r, "game")), "blitz");
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
	unlink(path);
}

Test(blitz_play, same_seed_same_replay_and_a_small_one, .timeout = 120)
{
	char a[] = "/tmp/judge-bzplay-XXXXXX", b[] = "/tmp/judge-bzplay-XXXXXX";
	char params[] = "/tmp/judge-bzparams-XXXXXX";
	close(mkstemp(a));
	close(mkstemp(b));
	/* The starter scripts' 30 x 30 (the shipped file draws each side). */
	int fd = mkstemp(params);
	cr_assert(fd >= 0 && write(fd, "width 30\nheight 30\n", 20) == 20);
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "Dummy Dummy --seed 11 -i %s -o %s", params, a);
	cr_assert_eq(play(args), 0, "%s", out);
	snprintf(args, sizeof args, "Dummy Dummy --seed 11 -i %s -o %s", params, b);
	cr_assert_eq(play(args), 0, "%s", out);
	unlink(params);
	size_t la, lb;
	char *ca = slurp(a, &la);
	ca = memcpy(malloc(la ? la : 1), ca, la);
	char *cb = slurp(b, &lb);
	cr_assert_eq(la, lb);
	cr_assert(memcmp(ca, cb, la) == 0, "replays differ");
	cr_expect_leq(la, 60 * 1024, "a 30 x 30 match of 2 players: %zu bytes", la);
	free(ca);
	unlink(a);
	unlink(b);
}

Test(blitz_play, the_number_of_players_is_checked, .timeout = 60)
{
	cr_expect_eq(play("Demo"), 2, "%s", out);
	cr_expect(strstr(out, "2 to 6 players, 1 given"), "%s", out);
	cr_expect_eq(play("Demo Demo Demo Demo Demo Demo Demo"), 2, "%s", out);
	cr_expect(strstr(out, "2 to 6 players, 7 given"), "%s", out);
}

Test(blitz_play, a_player_over_its_second_for_one_turn_is_ejected, .timeout = 120)
{
	char dir[] = "/tmp/judge-bzslow-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/AISlow.c", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#include <time.h>\n#include \"blitz.h\"\nPLAYER_NAME(Slow);\n"
	      "void play(void)\n{\n\tif (current_turn() == 2)\n"
	      "\t\twhile (clock() < CLOCKS_PER_SEC * 3 / 2)\n\t\t\t;\n}\n",
	      f);
	fclose(f);
	char args[128];
	snprintf(args, sizeof args, "%s Demo --seed 2", path);
	cr_assert_eq(play(args), 0, "%s", out);
	cr_expect(strstr(row(0), "round 2: used 1.") && strstr(row(0), "the game allows 1.000 s"),
		  "%s", out);
	cr_expect_eq(rank_of(0), 2, "%s", out);
	cr_expect_eq(rank_of(1), 1, "%s", out);
	unlink(path);
	rmdir(dir);
}

Test(blitz_play, a_player_crashing_ends_a_two_player_match_at_once, .timeout = 120)
{
	char dir[] = "/tmp/judge-bzcrash-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[64], replay[96];
	snprintf(path, sizeof path, "%s/AICrash.c", dir);
	snprintf(replay, sizeof replay, "%s/m.json", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#include \"blitz.h\"\nPLAYER_NAME(Crash);\nint *nowhere;\n"
	      "void play(void)\n{\n\tif (current_turn() == 3)\n\t\t*nowhere = 1;\n}\n",
	      f);
	fclose(f);
	char args[192];
	snprintf(args, sizeof args, "Demo %s --seed 4 -o %s", path, replay);
	cr_assert_eq(play(args), 0, "%s", out);
	cr_expect(strstr(row(1), "round 3: "), "%s", out);
	cr_expect_eq(rank_of(0), 1, "%s", out);
	cr_expect_eq(rank_of(1), 2, "%s", out);
	json_error_t e;
	json_t *r = json_load_file(replay, 0, &e);
	cr_assert_not_null(r, "%s", e.text);
	cr_expect_eq(json_array_size(json_object_get(r, "rounds")), 3,
		     "three rounds played, the match over when the player was ejected");
	json_decref(r);
	unlink(replay);
	unlink(path);
	rmdir(dir);
}
