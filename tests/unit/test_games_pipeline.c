/* Every game through the whole pipeline with nothing game-specific in the
 * judge: uploads, the real worker, qualification against the game's
 * shipped Dummy, ranked matches, the leaderboard. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

#define PIPELINE_SECRET "pipeline-2"

static char dir[64], db[128], cfg[128], out[65536];

/* Qualification against three Demos, which the game's Dummy beats: the
 * seeds follow a fixed secret and the submission ids, so the outcome is the
 * same every run.  Three wins of four: an idle Ants colony keeps its ants
 * until old age and tops three Demos on a few boards in a hundred, while
 * the Dummy wins most of them. */
static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/judge-games-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/jobs.sqlite", dir);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	FILE *f = fopen(cfg, "w");
	cr_assert_not_null(f);
	/* A fixed secret: the same qualifying seeds every run. */
	fputs("{\"worker\": {\"qualify_matches\": 4, \"qualify_wins\": 3, "
	      "\"qualify_opponent\": \"Demo\", \"seed_secret\": \"" PIPELINE_SECRET "\"}}\n", f);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cli_run(cmd, out, sizeof out);
}

/* Shipped player `shipped` of game, renamed `name`, uploaded by author. */
static void upload(const char *game, const char *shipped, const char *name, const char *author)
{
	char path[128], cmd[768];
	snprintf(path, sizeof path, "%s/AI%s.c", dir, name);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/%s/players/AI%s.c > %s && %s submit %s --game %s --author %s "
		 "--queue %s 2>&1", name, game, shipped, path, cli_judge(), path, game, author, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "upload %s: %s", name, out);
}

/* One worker until idle, with at most `ranked` ranked matches. */
static void run_worker(int ranked)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle "
		 "--ranked-matches %d 2>&1", cfg, cli_worker(), db, ranked);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "worker: %s", out);
}

static void play_tournament(const char *game)
{
	upload(game, "Dummy", "Strong", "ana");
	upload(game, "Null", "Idle", "ben");
	upload(game, "Demo", "Plain", "cai");
	run_worker(2);
	char cmd[512];

	/* The Dummy copy beats the Demos; Null never wins. */
	snprintf(cmd, sizeof cmd, "%s status 1 --queue %s | grep '^state'", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "state       qualified\n", "%s: the Dummy copy: %s", game, out);
	snprintf(cmd, sizeof cmd, "%s status 2 --queue %s | grep '^state'", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "state       not_qualified\n", "%s: Null: %s", game, out);

	snprintf(cmd, sizeof cmd, "%s leaderboard --game %s --queue %s --json", cli_judge(), game, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "\"Strong\""), "%s: leaderboard without the qualified player: %s",
		  game, out);
	cr_assert_null(strstr(out, "\"Idle\""), "%s: a player that failed is ranked", game);

	snprintf(cmd, sizeof cmd, "%s matches --queue %s", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "qualifying"), "%s: no qualifying match listed: %s", game, out);
}

Test(games_pipeline, ants_qualifies_and_ranks, .init = setup, .fini = teardown, .timeout = 300)
{
	play_tournament("ants");
}

Test(games_pipeline, starwar_qualifies_and_ranks, .init = setup, .fini = teardown,
     .timeout = 300)
{
	play_tournament("starwar");
}

/* Blitz2018: matches of 2 players (its default count), ranks from the
 * engine (elimination order), qualification against one Demo. */
Test(games_pipeline, blitz_qualifies_and_ranks, .init = setup, .fini = teardown, .timeout = 300)
{
	play_tournament("blitz");
}

/* Blitz2018 with six qualified players: the ranked matches mix sizes, and
 * the leaderboard counts each player's rated matches by size, the counts
 * adding up to its games. */
Test(games_pipeline, blitz_board_counts_matches_by_size, .init = setup, .fini = teardown,
     .timeout = 300)
{
	const char *names[] = { "Ana", "Ben", "Cai", "Dan", "Eva", "Fay" };
	char author[16];
	for (int i = 0; i < 6; i++) {
		snprintf(author, sizeof author, "author%d", i);
		upload("blitz", "Dummy", names[i], author);
	}
	run_worker(8);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s leaderboard --game blitz --queue %s --json", cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	json_error_t jerr;
	json_t *board = json_loads(out, 0, &jerr);
	cr_assert_not_null(board, "%s: %s", jerr.text, out);
	cr_assert_eq(json_array_size(board), 6, "%s", out);
	bool seen[9] = { false };
	int kinds = 0;
	for (size_t i = 0; i < json_array_size(board); i++) {
		json_t *row = json_array_get(board, i), *sizes = json_object_get(row, "games_by_players");
		cr_assert(json_is_object(sizes), "row %zu without sizes: %s", i, out);
		const char *key;
		json_t *count;
		json_int_t sum = 0;
		json_object_foreach(sizes, key, count) {
			int seats = atoi(key);
			cr_assert(seats >= 2 && seats <= 6, "size %s: %s", key, out);
			sum += json_integer_value(count);
			kinds += !seen[seats];
			seen[seats] = true;
		}
		cr_assert_eq(sum, json_integer_value(json_object_get(row, "games")),
			     "row %zu: sizes do not add up to its games: %s", i, out);
	}
	cr_assert_geq(kinds, 2, "the ranked matches all had one size: %s", out);
	json_decref(board);

	snprintf(cmd, sizeof cmd, "%s leaderboard --game blitz --queue %s | head -2 | tail -1",
		 cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "by size"), "the table has no column of sizes: %s", out);
}
