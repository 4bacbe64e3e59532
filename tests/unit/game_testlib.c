#include "tests/unit/game_testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/replay/replay_io.h"
#include "tests/unit/cli_testlib.h"

char gt_out[GT_OUT_MAX];

int gt_play(const char *game, const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play %s %s 2>&1", cli_judge(), game, args);
	return cli_run(cmd, gt_out, sizeof gt_out);
}

const char *gt_row(int seat)
{
	char key[16];
	snprintf(key, sizeof key, "\n%-4d ", seat);
	const char *r = strstr(gt_out, key);
	cr_assert_not_null(r, "no row for seat %d in:\n%s", seat, gt_out);
	return r + 1;
}

int gt_rank(int seat)
{
	char name[32];
	long long score;
	int s, rank;
	cr_assert_eq(sscanf(gt_row(seat), "%d %31s %lld %d", &s, name, &score, &rank), 4, "%s",
		     gt_out);
	return rank;
}

char *gt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

json_t *gt_load_replay(const char *path)
{
	json_error_t e;
	json_t *r = json_load_file(path, 0, &e);
	cr_assert_not_null(r, "replay %s: %s", path, e.text);
	return r;
}

/* Plays players with seed into a replay at path. */
static void play_to(const char *game, const char *players, int seed, const char *path)
{
	char args[512];
	snprintf(args, sizeof args, "%s --seed %d -o %s", players, seed, path);
	cr_assert_eq(gt_play(game, args), 0, "%s", gt_out);
}

/* The players named in a list separated by blanks. */
static int count_words(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s != ' ' && (s[1] == ' ' || s[1] == '\0');
	return n;
}

json_t *gt_whole_match(const char *game, const char *players, int seed, size_t rounds)
{
	char path[] = "/tmp/judge-gtplay-XXXXXX";
	close(mkstemp(path));
	play_to(game, players, seed, path);
	for (int seat = 0; seat < count_words(players); seat++)
		cr_assert_null(strstr(gt_row(seat), "round "), "a player froze:\n%s", gt_out);
	json_t *r = gt_load_replay(path);
	unlink(path);
	cr_assert_str_eq(json_string_value(json_object_get(r, "game")), game);
	cr_assert_eq(json_integer_value(json_object_get(r, "seed")), seed);
	size_t played = json_array_size(json_object_get(r, "rounds"));
	cr_assert(rounds == 0 || played == rounds, "%zu rounds played, %zu expected", played, rounds);
	return r;
}

void gt_expect_source(const json_t *replay, int seat, const char *path)
{
	char cmd[256], sum[256];
	snprintf(cmd, sizeof cmd, "sha256sum %s", path);
	cr_assert_eq(cli_run(cmd, sum, sizeof sum), 0, "%s", sum);
	json_t *player = json_array_get(json_object_get(replay, "players"), (size_t)seat);
	const char *recorded = json_string_value(json_object_get(player, "source_sha256"));
	cr_assert(recorded && strncmp(sum, recorded, 64) == 0, "seat %d: %s, not %s", seat,
		  recorded ? recorded : "no source_sha256", sum);
}

char *gt_replay_but_cpu(const char *path)
{
	err_t err;
	json_t *r = replay_read_file(path, err);
	cr_assert_not_null(r, "%s", err->msg);
	json_t *cpu = json_object_get(r, "cpu_us");
	size_t rounds = json_array_size(json_object_get(r, "rounds")), i;
	json_t *seat;
	cr_assert_eq(json_array_size(cpu), json_array_size(json_object_get(r, "players")),
		     "cpu_us: not one list per seat");
	json_array_foreach(cpu, i, seat)
		cr_assert_eq(json_array_size(seat), rounds, "cpu_us of seat %zu: %zu figures for %zu rounds",
			     i, json_array_size(seat), rounds);
	json_object_del(r, "cpu_us");
	char *text = json_dumps(r, JSON_COMPACT);
	json_decref(r);
	return text;
}

size_t gt_same_seed_same_replay(const char *game, const char *players, int seed, int other_seed)
{
	char a[] = "/tmp/judge-gtplay-XXXXXX", b[] = "/tmp/judge-gtplay-XXXXXX";
	close(mkstemp(a));
	close(mkstemp(b));
	play_to(game, players, seed, a);
	play_to(game, players, seed, b);
	char *ca = gt_replay_but_cpu(a), *cb = gt_replay_but_cpu(b);
	cr_assert_str_eq(ca, cb, "replays differ");
	size_t la = strlen(ca);
	if (other_seed >= 0) {
		free(cb);
		play_to(game, players, other_seed, b);
		cb = gt_replay_but_cpu(b);
		cr_assert_str_neq(ca, cb, "another seed gave the same match");
	}
	free(ca);
	free(cb);
	unlink(a);
	unlink(b);
	return la;
}

void gt_write_player(struct gt_player_file *pf, const char *name, const char *source)
{
	snprintf(pf->dir, sizeof pf->dir, "/tmp/judge-gt%s-XXXXXX", name);
	cr_assert_not_null(mkdtemp(pf->dir));
	snprintf(pf->path, sizeof pf->path, "%s/AI%s.c", pf->dir, name);
	snprintf(pf->replay, sizeof pf->replay, "%s/m.json", pf->dir);
	FILE *f = fopen(pf->path, "w");
	cr_assert_not_null(f);
	fputs(source, f);
	fclose(f);
}

void gt_remove_player(const struct gt_player_file *pf)
{
	unlink(pf->replay);
	unlink(pf->path);
	rmdir(pf->dir);
}

int gt_game_index[GT_GAMES_MAX] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

size_t gt_course_games(const char *names[], size_t cap)
{
	size_t n = 0;
	for (const struct game *const *g = game_list(); *g && n < cap; g++)
		if (game_entry((*g)->name)->course)
			names[n++] = (*g)->name;
	return n;
}
