/* Every game through the whole pipeline with nothing game-specific in the
 * judge: uploads, the real worker, qualification against the game's
 * shipped Dummy, ranked matches, the leaderboard. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

#define PIPELINE_SECRET "pipeline-1"

static char dir[64], db[128], cfg[128], out[65536];

/* Qualification against three Demos, which the game's Dummy beats on 98%
 * of seeds or more (bench/dummy_winrate): the match seeds are random, and
 * one win in four is needed. */
static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/judge-games-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/jobs.sqlite", dir);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	FILE *f = fopen(cfg, "w");
	cr_assert_not_null(f);
	/* A fixed secret: the same qualifying seeds every run. */
	fputs("{\"worker\": {\"qualify_matches\": 4, \"qualify_wins\": 1, "
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

static void play_tournament(const char *game)
{
	upload(game, "Dummy", "Strong", "ana");
	upload(game, "Null", "Idle", "ben");
	upload(game, "Demo", "Plain", "cai");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle "
		 "--ranked-matches 2 2>&1", cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "worker: %s", out);

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
