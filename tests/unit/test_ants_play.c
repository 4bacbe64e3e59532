/* `judge play ants` end to end: real compiles of the shipped Ants players
 * against the kit, real sandboxed players, a whole match and its replay. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char out[16384];

/* Runs `judge play ants ARGS` with both output streams captured. */
static int play_ants(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play ants %s 2>&1", cli_judge(), args);
	return cli_run(cmd, out, sizeof out);
}

/* The table's row for a seat: "N    Name ... ". */
static const char *ants_row(int seat)
{
	char key[16];
	snprintf(key, sizeof key, "\n%-4d ", seat);
	const char *r = strstr(out, key);
	cr_assert_not_null(r, "no row for seat %d in:\n%s", seat, out);
	return r + 1;
}

static char *ants_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	*len = fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

Test(ants_play, four_shipped_players_play_a_whole_match, .timeout = 120)
{
	char path[] = "/tmp/judge-ants-XXXXXX";
	close(mkstemp(path));
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Demo Null --seed 3 -o %s", path);
	cr_assert_eq(play_ants(args), 0, "%s", out);
	for (int seat = 0; seat < 4; seat++)
		cr_assert_null(strstr(ants_row(seat), "round "), "a player froze:\n%s", out);
	cr_assert(strncmp(ants_row(3) + 5, "Null", 4) == 0, "%s", out);
	cr_assert(strncmp(ants_row(0) + 5, "Demo", 4) == 0, "%s", out);
	json_error_t e;
	json_t *r = json_load_file(path, 0, &e);
	cr_assert_not_null(r, "replay %s: %s", path, e.text);
	cr_assert_str_eq(json_string_value(json_object_get(r, "game")), "ants");
	cr_assert_eq(json_integer_value(json_object_get(r, "seed")), 3);
	cr_assert_eq(json_array_size(json_object_get(r, "rounds")), 250, "all rounds");
	json_t *scores = json_object_get(json_object_get(r, "result"), "scores");
	cr_assert_eq(json_array_size(scores), 4);
	for (int seat = 0; seat < 4; seat++)
		cr_assert_gt(json_integer_value(json_array_get(scores, seat)), 0,
			     "every colony scores its ants");
	json_decref(r);
	unlink(path);
}

Test(ants_play, same_seed_same_replay_bytes, .timeout = 120)
{
	char a[] = "/tmp/judge-ants-XXXXXX", b[] = "/tmp/judge-ants-XXXXXX";
	close(mkstemp(a));
	close(mkstemp(b));
	char args[256];
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 11 -o %s", a);
	cr_assert_eq(play_ants(args), 0, "%s", out);
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 11 -o %s", b);
	cr_assert_eq(play_ants(args), 0, "%s", out);
	size_t la, lb;
	char *ca = ants_slurp(a, &la);
	char *cb = ants_slurp(b, &lb);
	cr_assert_eq(la, lb);
	cr_assert(memcmp(ca, cb, la) == 0, "replays differ");
	free(cb);
	snprintf(args, sizeof args, "Demo Demo Demo Demo --seed 12 -o %s", b);
	cr_assert_eq(play_ants(args), 0, "%s", out);
	cb = ants_slurp(b, &lb);
	cr_assert(la != lb || memcmp(ca, cb, la) != 0, "another seed gave the same match");
	free(ca);
	free(cb);
	unlink(a);
	unlink(b);
}
