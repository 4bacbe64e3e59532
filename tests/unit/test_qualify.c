/* test_qualify.c - a tournament's qualification by its own steps, its
 * opponent swapped, and the organiser's reference players, on both
 * backends: the real CLI and worker on a real store; `judge serve` asked
 * for a reference's source as a contestant and as the organiser; a
 * reference's object linked with the kit and played by `judge play`. */
#include <criterion/criterion.h>

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/event/run.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_tournament.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/event_testlib.h"
#include "tests/unit/serve_testlib.h"

static struct test_target tt;
static char cfg[128], out[1 << 16];

static void setup_cfg(void)
{
	char text[256];
	snprintf(cfg, sizeof cfg, "%s/judge.json", tt.dir);
	snprintf(text, sizeof text, "{ \"compile\": { \"cache_dir\": \"%s/cache\" }, \"worker\":"
		 " { \"qualify_matches\": 1, \"qualify_wins\": 1, \"qualify_opponent\": \"Null\" } }",
		 tt.dir);
	cr_assert_eq(cli_write_file(cfg, text), 0);
}

static void setup(void)
{
	test_target_sqlite(&tt, "test-qualify");
	setup_cfg();
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-qualify");
	setup_cfg();
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(qualify, .init = setup, .fini = teardown, .timeout = 240);
TestSuite(qualify_pg, .init = setup_pg, .fini = teardown, .timeout = 240);

/* `judge ARGS` with the test's settings (and, with its store, --queue
 * STORE): its exit status, what it said in out. */
static int run_judge(bool store, const char *fmt, va_list ap)
{
	char args[1024], cmd[2048];
	vsnprintf(args, sizeof args, fmt, ap);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s %s%s%s%s 2>&1", cfg, cli_judge(), args,
		 store ? " --queue '" : "", store ? tt.where : "", store ? "'" : "");
	return cli_run(cmd, out, sizeof out);
}

__attribute__((format(printf, 1, 2)))
static int judge(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = run_judge(true, fmt, ap);
	va_end(ap);
	return rc;
}

__attribute__((format(printf, 1, 2)))
static int judge_local(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = run_judge(false, fmt, ap);
	va_end(ap);
	return rc;
}

static void work(void)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 --exit-when-idle "
		 "--ranked-matches 0 2>&1", cfg, cli_worker(), tt.where);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

/* A shipped player's source as AIName.c in the test's folder: its path. */
static const char *player_file(const char *shipped, const char *name)
{
	static char path[128];
	char cmd[512];
	snprintf(path, sizeof path, "%s/AI%s.c", tt.dir, name);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AI%s.c > %s", name, shipped, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	return path;
}

static void upload(const char *path, const char *author)
{
	cr_assert_eq(judge("submit %s --game dominator --author %s", path, author), 0, "%s", out);
}

/* The submission's state and qualification note, "state|note". */
static const char *verdict(struct store *s, const char *name)
{
	static char text[512];
	teststore_text(s, text, sizeof text, "SELECT state || '|' || COALESCE(qualify_note, '')"
		       " FROM submissions WHERE name = '%s'", name);
	return text;
}

static int64_t qualifying_matches(struct store *s, const char *name)
{
	return teststore_int(s, "SELECT COUNT(DISTINCT m.id) FROM matches m JOIN match_players mp"
			     " ON mp.match_id = m.id JOIN submissions sub ON sub.id ="
			     " mp.submission_id WHERE m.kind = 'qualifying' AND sub.name = '%s'", name);
}

/* A course tournament whose qualification is under way: a match of
 * copies, then 2 matches against Null, both to be won. */
static void qualification_under_way(void)
{
	char spec[160], text[512];
	snprintf(spec, sizeof spec, "%s/spec.json", tt.dir);
	snprintf(text, sizeof text, "{\"phases\": [{\"kind\": \"qualification\", \"self_match\":"
		 " true, \"matches\": 2, \"wins\": 2, \"opponent\": \"Null\"}, {\"kind\":"
		 " \"elimination\", \"remain\": 2}]}");
	cr_assert_eq(cli_write_file(spec, text), 0);
	cr_assert_eq(judge("tournament create eda --game dominator --spec %s", spec), 0, "%s", out);
	cr_assert_eq(judge("tournament start eda"), 0, "%s", out);
}

BOTH(qualify, each_step_refuses_with_its_reason_and_a_good_player_passes)
{
	qualification_under_way();
	const char *looper = player_file("Null", "Looper");
	char body[256];
	snprintf(body, sizeof body, "#include \"dominator.h\"\nPLAYER_NAME(Looper);\n"
		 "void play(void) { for (volatile int i = 0;; i++) ; }\n");
	cr_assert_eq(cli_write_file(looper, body), 0);
	upload(looper, "ann");
	upload(player_file("Dummy", "Strider"), "bob");
	snprintf(body, sizeof body, "%s/AIBroken.c", tt.dir);
	cr_assert_eq(cli_write_file(body, "#include \"dominator.h\"\nPLAYER_NAME(Broken);\n"
				    "void play(void) { oops }\n"), 0);
	upload(body, "cid");
	work();
	struct store *s = teststore_open(tt.where, false);
	const char *v = verdict(s, "Looper");
	cr_expect(strstr(v, "not_qualified|not qualified at the match of copies of itself: a copy "
			 "of your player was frozen ") == v, "%s", v);
	cr_expect_eq(qualifying_matches(s, "Looper"), 1, "refused at the first step, it plays no "
		     "match against the opponent");
	v = verdict(s, "Strider");
	cr_expect_str_eq(v, "qualified|qualified against Null: won 2 of 2, 2 needed");
	cr_expect_eq(qualifying_matches(s, "Strider"), 3, "the match of copies, then 2");
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM match_players mp JOIN submissions sub"
				   " ON sub.id = mp.submission_id WHERE sub.name = 'Strider'"), 4 + 2,
		     "four copies in the first match, one seat in each of the others");
	cr_expect_str_eq(verdict(s, "Broken"), "compile_failed|");

	/* the organiser swaps the qualification's opponent: later uploads meet it */
	cr_assert_eq(judge("tournament opponent eda Dummy"), 0, "%s", out);
	upload(player_file("Null", "Zero"), "dan");
	work();
	cr_expect_str_eq(verdict(s, "Zero"), "not_qualified|not qualified against Dummy: won 0 of 2, "
			 "2 needed");
	cr_expect_eq(judge("status %lld", (long long)teststore_int(s, "SELECT id FROM submissions"
								    " WHERE name = 'Zero'")), 0);
	cr_expect(strstr(out, "won 0 of 2, 2 needed"), "judge status says why: %s", out);
	store_close(s);
}

Test(qualify, outside_a_tournament_the_configured_steps_apply)
{
	upload(player_file("Dummy", "Strider"), "bob");
	work();
	struct store *s = teststore_open(tt.where, false);
	cr_expect_str_eq(verdict(s, "Strider"), "qualified|qualified against Null: won 1 of 1, "
			 "1 needed");
	cr_expect_eq(qualifying_matches(s, "Strider"), 1, "no match of copies");
	store_close(s);
}

/* ---- the opponent swapped between rounds --------------------------------------- */

static struct event_sim sim = { .game = "dominator" };

static int64_t planned_with(struct store *s, int64_t t, int round, const char *opponent)
{
	return teststore_int(s, "SELECT COUNT(*) FROM tournament_matches tm JOIN jobs j ON j.id ="
			     " tm.job_id WHERE tm.tournament_id = %lld AND tm.round = %d AND"
			     " j.payload LIKE '%%\"house\":\"%s\"%%'", (long long)t, round, opponent);
}

BOTH(qualify, a_swapped_opponent_is_logged_and_plays_the_next_round)
{
	struct store *s = teststore_open(tt.where, true);
	int64_t t = event_sim_tournament(s, &sim, "swap", json_pack("{s:[{s:s, s:i, s:s}]}",
					 "phases", "kind", "elimination", "remain", 3, "opponent",
					 "Dummy"), 6, 11);
	cr_assert_gt(planned_with(s, t, 0, "Dummy"), 0, "6 students: the opponent fills a group");
	err_t err;
	err_t serr;
	int phase = -1;
	cr_assert_eq(store_begin(s, serr), 0, "%s", serr->msg);
	cr_assert_eq(event_swap_opponent(s, t, &phase, "Strong", err), 1, "%s", err->msg);
	cr_assert_eq(store_commit(s, serr), 0, "%s", serr->msg);
	cr_expect_eq(phase, 0);
	cr_assert_eq(store_begin(s, serr), 0, "%s", serr->msg);
	cr_expect_eq(event_swap_opponent(s, t, &phase, "Strong", err), 0, "the same again");
	cr_expect(strstr(err->msg, "plays Strong already"), "%s", err->msg);
	store_rollback(s);
	while (teststore_int(s, "SELECT round FROM tournaments WHERE id = %lld", (long long)t) < 1)
		cr_assert_eq(event_sim_play(s, &sim, true), 1, "round 1 never ended");
	cr_expect_gt(planned_with(s, t, 1, "Strong"), 0, "5 students: the new opponent fills in");
	cr_expect_eq(planned_with(s, t, 1, "Dummy"), 0, "the old one is gone");
	json_t *log, *e, *swap = NULL;
	size_t i;
	cr_assert_eq(store_tournament_history(s, t, &log, serr), 0, "%s", serr->msg);
	json_array_foreach(log, i, e)
		if (strcmp(json_string_value(json_object_get(e, "what")), "opponent") == 0)
			swap = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
	cr_assert_not_null(swap, "the swap is in the tournament's log");
	cr_expect_str_eq(json_string_value(json_object_get(swap, "from")), "Dummy");
	cr_expect_str_eq(json_string_value(json_object_get(swap, "to")), "Strong");
	json_decref(swap);
	json_decref(log);
	store_close(s);
}

/* ---- the organiser's reference players ------------------------------------------ */

BOTH(qualify, a_reference_player_is_private_plays_as_opponent_and_hands_out_its_object)
{
	const char *strong = player_file("Dummy", "Strong");
	cr_assert_eq(judge("reference add --game dominator %s", strong), 0, "%s", out);
	cr_expect_eq(judge("reference add --game dominator %s", player_file("Dummy", "Dummy")), 1,
		     "a shipped player's name is refused: %s", out);
	cr_expect_eq(judge("reference list --game dominator"), 0, "%s", out);
	cr_expect(strstr(out, "Strong"), "%s", out);
	cr_expect_eq(judge("reference list --game blitz --json"), 0, "%s", out);
	cr_expect_str_eq(out, "[]\n");
	cr_expect_eq(judge("submit %s --game dominator --author eve", player_file("Null", "Strong")),
		     1, "no contestant plays under its name: %s", out);
	cr_expect(strstr(out, "taken"), "%s", out);

	/* its source: 404 to a contestant, as for a name nobody uses */
	char student[44], organiser[44];
	err_t err = {0};
	serve_test_token(tt.where, "ann", false, student);
	serve_test_token(tt.where, "teacher", true, organiser);
	struct judge_config c;
	cfg_defaults(&c);
	struct serve_options o = { .queue = tt.where, .host = "127.0.0.1", .limits = c.serve };
	struct serve *sv = serve_start(&o, err);
	cr_assert_not_null(sv, "%s", err->msg);
	char reply[1 << 15];
	int code = serve_test_call(sv, tt.dir, "GET", "/api/references/dominator/Strong", student,
				   NULL, reply, sizeof reply);
	cr_expect_eq(code, 404, "%s", reply);
	cr_expect_null(strstr(reply, "PLAYER_NAME"), "%s", reply);
	code = serve_test_call(sv, tt.dir, "GET", "/api/references/dominator/Strong", NULL, NULL,
			       reply, sizeof reply);
	cr_expect_eq(code, 401, "%s", reply);
	code = serve_test_call(sv, tt.dir, "GET", "/api/references/dominator/Strong", organiser,
			       NULL, reply, sizeof reply);
	cr_expect_eq(code, 200, "%s", reply);
	cr_expect(strstr(reply, "PLAYER_NAME(Strong)"), "the organiser reads it: %s", reply);
	serve_stop(sv);

	/* the qualification's opponent by its name; a name the game lacks refused */
	qualification_under_way();
	cr_expect_eq(judge("tournament opponent eda Nobody"), 1, "%s", out);
	cr_expect(strstr(out, "no shipped player and no reference player named Nobody"), "%s", out);
	cr_assert_eq(judge("tournament opponent eda Strong"), 0, "%s", out);
	cr_expect_eq(judge("tournament show eda"), 0, "%s", out);
	cr_expect(strstr(out, "phase 1's opponent Null swapped for Strong"), "%s", out);
	upload(player_file("Null", "Zero"), "dan");
	work();
	struct store *s = teststore_open(tt.where, false);
	cr_expect_str_eq(verdict(s, "Zero"), "not_qualified|not qualified against Strong: won 0 of "
			 "2, 2 needed");
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM match_players WHERE name = 'Strong'"), 6,
		     "three seats in each of the two matches against it");
	store_close(s);

	/* its object, linked with the kit, is a player judge play runs */
	char cmd[512];
	cr_assert_eq(judge("reference object Strong --game dominator -o %s/Strong.o", tt.dir), 0,
		     "%s", out);
	snprintf(cmd, sizeof cmd, "gcc %s/Strong.o build/kits/libdominator.a -lm -static -o "
		 "%s/AIStrong 2>&1", tt.dir, tt.dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert_eq(judge_local("play dominator %s/AIStrong Null Null Null --seed 5", tt.dir), 0,
		     "%s", out);
	cr_expect(strstr(out, "0    Strong") && !strstr(out, "frozen before"), "%s", out);
	cr_expect_eq(judge("reference object Nobody --game dominator -o %s/x.o", tt.dir), 1, "%s",
		     out);
}
