/* test_challenge.c - challenges through the real service and worker, on
 * SQLite and PostgreSQL: four contestants upload (scripts/upload), the
 * real worker qualifies them, then a contestant asks the service (curl,
 * as a contestant would) for unrated matches and the worker plays them.
 * What must hold: the limit per hour (the 31st match refused, saying
 * when), the priority (a queued challenge waits behind a new
 * submission's qualifying and the ladder's ranked work), ratings left as
 * they were, the matches hidden from other contestants, and during a
 * freeze only shipped opponents. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/serve_testlib.h"

static struct contest con;
static char token_alice[44], token_bob[44], token_carol[44], token_org[44];

/* Alice, Bob and Carol (and Dave, for the four seats of a ranked match)
 * uploaded and qualified; no ranked match played yet. */
static void contest(bool pg, const char *prefix)
{
	contest_open(&con, pg, prefix, "{\"worker\": {\"qualify_matches\": 1, "
		     "\"qualify_opponent\": \"Null\"}}");
	contest_upload(&con, "Demo", "Alice", "alice", 0);
	contest_upload(&con, "Demo", "Bob", "bob", 0);
	contest_upload(&con, "Demo", "Carol", "carol", 0);
	contest_upload(&con, "Demo", "Dave", "dave", 0);
	contest_work(&con, 0);
	serve_test_token(con.t.where, "alice", false, token_alice);
	serve_test_token(con.t.where, "bob", false, token_bob);
	serve_test_token(con.t.where, "carol", false, token_carol);
	serve_test_token(con.t.where, "gandalf", true, token_org);
	contest_serve(&con, false);
}

static void setup_sqlite(void)
{
	contest(false, "judge-challenge");
}

static void setup_pg(void)
{
	contest(true, "judge-challenge-pg");
}

static void teardown(void)
{
	contest_close(&con);
}

TestSuite(challenge, .init = setup_sqlite, .fini = teardown, .timeout = 240);
TestSuite(challenge_pg, .init = setup_pg, .fini = teardown, .timeout = 240);

/* ---- a client: curl, as a contestant uses it ------------------------------------ */

static int call(const char *method, const char *path, const char *token, const char *body)
{
	return contest_call(&con, method, path, token, body);
}

/* Alice asks for seeds matches with these four seats. */
static int challenge(const char *token, const char *seats, int seeds)
{
	char body[512];
	snprintf(body, sizeof body, "{\"game\": \"dominator\", \"player\": \"Alice\", "
		 "\"seats\": [%s], \"seeds\": %d}", seats, seeds);
	return call("POST", "/api/challenges", token, body);
}

/* The one number the query sql gives, on either backend. */
static int64_t count(const char *sql)
{
	struct store *s = teststore_open(con.t.where, false);
	int64_t n = teststore_int(s, "%s", sql);
	store_close(s);
	return n;
}

/* The ratings in one figure each: games and wins counted, and a sum in
 * which any change of a mu or a sigma shows. */
struct rating_sums {
	int64_t games;
	double weighted;
};

static struct rating_sums ratings(void)
{
	struct store *s = teststore_open(con.t.where, false);
	struct rating_sums r = {
		.games = teststore_int(s, "SELECT sum(games * 1000 + wins) FROM ratings"),
		.weighted = teststore_double(s, "SELECT sum(mu * submission_id + sigma * "
					     "(submission_id + 100)) FROM ratings"),
	};
	store_close(s);
	return r;
}

#define ALICE_BOB_DUMMY_DEMO "\"Alice\", \"Bob\", \"Dummy\", \"Demo\""

/* ---- the tests ---------------------------------------------------------------------- */

BOTH(challenge, a_challenge_is_played_unrated_and_shown_only_to_its_players)
{
	char path[64];
	struct rating_sums before = ratings();
	cr_assert_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 2), 201, "%s", con.out);
	contest_work(&con, 0);
	cr_assert_eq(count("SELECT count(*) FROM matches WHERE kind = 'challenge' AND rated = 0"), 2);
	struct rating_sums after = ratings();
	cr_expect_eq(after.games, before.games, "a challenge counted as a rated game");
	cr_expect_eq(after.weighted, before.weighted, "a challenge changed a rating");
	int64_t match = count("SELECT max(id) FROM matches WHERE kind = 'challenge'");
	snprintf(path, sizeof path, "/api/matches/%lld", (long long)match);
	cr_expect_eq(call("GET", path, token_alice, NULL), 200, "%s", con.out);
	cr_expect(strstr(con.out, "\"challenge\""), "%s", con.out);
	cr_expect_eq(call("GET", path, token_bob, NULL), 200, "Bob played in it: %s", con.out);
	cr_expect_eq(call("GET", path, token_org, NULL), 200, "%s", con.out);
	cr_expect_eq(call("GET", path, token_carol, NULL), 404, "%s", con.out);
	cr_expect_eq(call("GET", path, NULL, NULL), 404, "%s", con.out);
	snprintf(path, sizeof path, "/api/matches/%lld/replay", (long long)match);
	cr_expect_eq(call("GET", path, token_carol, NULL), 404, "%s", con.out);
	snprintf(path, sizeof path, "/api/matches/%lld/page", (long long)match);
	cr_expect_eq(call("GET", path, token_carol, NULL), 404, "%s", con.out);
	cr_expect_eq(call("GET", "/api/players/Bob", token_carol, NULL), 200, "%s", con.out);
	cr_expect_null(strstr(con.out, "\"challenge\""), "Carol sees Bob's challenges: %s", con.out);
	cr_expect_eq(call("GET", "/api/players/Bob", token_bob, NULL), 200, "%s", con.out);
	cr_expect(strstr(con.out, "\"challenge\""), "Bob misses his challenges: %s", con.out);
}

BOTH(challenge, the_31st_match_in_an_hour_is_refused_saying_when_the_next_is_allowed)
{
	cr_assert_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 20), 201, "%s", con.out);
	cr_assert_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 10), 201, "%s", con.out);
	cr_assert_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 1), 429, "%s", con.out);
	cr_expect(strstr(con.out, "may be queued from"), "%s", con.out);
	json_t *j = json_loads(con.out, 0, NULL);
	int64_t retry = json_integer_value(json_object_get(j, "retry_at"));
	json_decref(j);
	int64_t first = count("SELECT min(created_at) FROM challenges");
	cr_expect_eq(retry, first + 3600 * 1000, "the next is allowed when the first ages out");
	/* The command line counts the same matches. */
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s challenge --game dominator Alice Dummy "
		 "Dummy Dummy --author alice --queue '%s' 2>&1", con.cfg, cli_judge(), con.t.where);
	cr_expect_eq(cli_run(cmd, con.out, sizeof con.out), 1, "%s", con.out);
	cr_expect(strstr(con.out, "may be queued from"), "%s", con.out);
	cr_expect_eq(count("SELECT count(*) FROM challenges WHERE author = 'alice'"), 30);
	/* Another contestant's limit is their own. */
	char body[256];
	snprintf(body, sizeof body, "{\"game\": \"dominator\", \"player\": \"Bob\", \"seats\": "
		 "[\"Bob\", \"Alice\", \"Dummy\", \"Demo\"]}");
	cr_expect_eq(call("POST", "/api/challenges", token_bob, body), 201, "%s", con.out);
}

BOTH(challenge, a_queued_challenge_waits_behind_qualifying_and_ranked_work)
{
	cr_assert_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 1), 201, "%s", con.out);
	contest_upload(&con, "Demo", "Erin", "erin", 0);
	contest_work(&con, 2);
	int64_t played = count("SELECT id FROM matches WHERE kind = 'challenge'");
	cr_expect_eq(count("SELECT count(*) FROM matches WHERE kind = 'ranked'"), 2);
	cr_expect_eq(count("SELECT count(*) FROM matches m JOIN match_players p ON p.match_id = "
			   "m.id WHERE m.kind = 'qualifying' AND p.name = 'Erin'"), 1);
	char later[256];
	snprintf(later, sizeof later, "SELECT count(*) FROM matches WHERE kind IN ('qualifying', "
		 "'ranked') AND id > %lld", (long long)played);
	cr_expect_eq(count(later), 0,
		     "a match of higher priority was played after the challenge");
}

BOTH(challenge, during_a_freeze_challenges_meet_only_shipped_players)
{
	serve_stop(con.server);
	contest_serve(&con, true);
	cr_expect_eq(challenge(token_alice, ALICE_BOB_DUMMY_DEMO, 1), 403, "%s", con.out);
	cr_expect(strstr(con.out, "frozen"), "%s", con.out);
	cr_assert_eq(challenge(token_alice, "\"Dummy\", \"Alice\", \"Demo\", \"Null\"", 1), 201,
		     "%s", con.out);
	contest_work(&con, 0);
	cr_expect_eq(count("SELECT count(*) FROM matches WHERE kind = 'challenge'"), 1);
	cr_expect_eq(count("SELECT count(*) FROM challenges"), 1);
}

BOTH(challenge, a_wrong_request_is_refused_saying_why_and_queues_nothing)
{
	static const struct {
		const char *token, *body;
		int status;
		const char *says;
	} cases[] = {
		{ NULL, "{}", 401, "token" },
		{ token_bob, "{\"game\": \"dominator\", \"player\": \"Alice\", \"seats\": "
		  "[" ALICE_BOB_DUMMY_DEMO "]}", 403, "another author" },
		{ token_alice, "{\"game\": \"dominator\", \"player\": \"Alice\", \"seats\": "
		  "[\"Alice\", \"Dummy\"]}", 400, "not 2" },
		{ token_alice, "{\"game\": \"dominator\", \"player\": \"Alice\", \"seats\": "
		  "[\"Alice\", \"Nobody\", \"Dummy\", \"Demo\"]}", 400, "Nobody" },
		{ token_alice, "{\"game\": \"dominator\", \"player\": \"Alice\", \"seats\": "
		  "[\"Bob\", \"Carol\", \"Dummy\", \"Demo\"]}", 400, "takes no seat" },
		{ token_alice, "{\"game\": \"dominator\", \"player\": \"Alice\", \"seats\": "
		  "[" ALICE_BOB_DUMMY_DEMO "], \"seeds\": 0}", 400, "seeds" },
		{ token_alice, "{\"game\": \"chess\", \"player\": \"Alice\", \"seats\": []}", 400,
		  "no game" },
		{ token_alice, "[1, 2]", 400, "JSON object" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int status = call("POST", "/api/challenges", cases[i].token, cases[i].body);
		cr_expect_eq(status, cases[i].status, "case %zu: %d %s", i, status, con.out);
		cr_expect(strstr(con.out, cases[i].says), "case %zu: %s", i, con.out);
	}
	cr_expect_eq(count("SELECT count(*) FROM challenges"), 0);
	cr_expect_eq(count("SELECT count(*) FROM jobs WHERE kind = 'match' AND state = 'queued'"),
		     0);
}
