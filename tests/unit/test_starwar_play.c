/* `judge play starwar` end to end: real compiles of the shipped players
 * against the Star War kit, real sandboxed processes, a whole match, its
 * table and its replay. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char out[16384];

/* Runs `judge play starwar ARGS` with both output streams captured. */
static int play(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play starwar %s 2>&1", cli_judge(), args);
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

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	static char buf[1 << 22];
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return buf;
}

Test(starwar_play, four_shipped_players_play_a_whole_match, .timeout = 120)
{
	char path[] = "/tmp/judge-swplay-XXXXXX";
	close(mkstemp(path));
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Demo Null --seed 3 -o %s", path);
	cr_assert_eq(play(args), 0, "%s", out);
	for (int seat = 0; seat < 4; seat++)
		cr_assert_null(strstr(row(seat), "round "), "a player froze:\n%s", out);
	cr_assert(strncmp(row(0) + 5, "Demo", 4) == 0, "%s", out);
	cr_assert(strncmp(row(3) + 5, "Null", 4) == 0, "%s", out);
	json_error_t e;
	json_t *r = json_load_file(path, 0, &e);
	cr_assert_not_null(r, "replay %s: %s", path, e.text);
	cr_assert_str_eq(json_string_value(json_object_get(r, "game")), "starwar");
	cr_assert_eq(json_integer_value(json_object_get(r, "seed")), 3);
	cr_assert_eq(json_array_size(json_object_get(r, "rounds")), 300, "the default 300 rounds");
	json_t *result = json_object_get(r, "result");
	cr_assert_eq(json_array_size(json_object_get(result, "scores")), 4);
	cr_assert_eq(json_array_size(json_object_get(result, "frozen")), 0, "nobody froze");
	json_t *null = json_array_get(json_object_get(r, "players"), 3);
	char sum[128];
	cli_run("sha256sum games/starwar/players/AINull.c", sum, sizeof sum);
	cr_assert(strncmp(sum, json_string_value(json_object_get(null, "source_sha256")), 64) == 0);
	json_decref(r);
	unlink(path);
}

Test(starwar_play, same_seed_same_replay_bytes, .timeout = 120)
{
	char a[] = "/tmp/judge-swplay-XXXXXX", b[] = "/tmp/judge-swplay-XXXXXX";
	close(mkstemp(a));
	close(mkstemp(b));
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 11 -o %s", a);
	cr_assert_eq(play(args), 0, "%s", out);
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 11 -o %s", b);
	cr_assert_eq(play(args), 0, "%s", out);
	size_t la, lb;
	char *ca = slurp(a, &la);
	ca = memcpy(malloc(la ? la : 1), ca, la);
	char *cb = slurp(b, &lb);
	cr_assert_eq(la, lb);
	cr_assert(memcmp(ca, cb, la) == 0, "replays differ");
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 12 -o %s", b);
	cr_assert_eq(play(args), 0, "%s", out);
	cb = slurp(b, &lb);
	cr_assert(la != lb || memcmp(ca, cb, la) != 0, "another seed gave the same match");
	free(ca);
	unlink(a);
	unlink(b);
}
