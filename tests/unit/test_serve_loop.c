/* test_serve_loop.c - the pages that answer a contestant's questions,
 * through the real service and worker on SQLite and PostgreSQL: Alice
 * uploads two versions of her player (scripts/upload), the real worker
 * qualifies them, she challenges Bob, Dummy and Demo, and then asks the
 * service (curl, as she would) what happened.  What must hold: each match
 * of a list names its opponents, whether she won, and which of her
 * versions played; her file comes back as she sent it, to her and the
 * organisers only; her second version, once qualified, is compared with
 * the first without her asking; an address that is no page is a page
 * saying so, not JSON. */
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
static char token_alice[44], token_bob[44], token_org[44];

static int call(const char *method, const char *path, const char *token, const char *body)
{
	return contest_call(&con, method, path, token, body);
}

/* Alice's two versions and Bob qualified against Null; then one challenge
 * of Alice's current version against Bob, Dummy and Demo, played. */
static void contest(bool pg, const char *prefix)
{
	contest_open(&con, pg, prefix, "{\"worker\": {\"qualify_matches\": 1, "
		     "\"qualify_opponent\": \"Null\", \"compare_pairs\": 2}}");
	contest_upload(&con, "Demo", "Alice", "alice", 1);
	contest_work(&con, 0);
	contest_upload(&con, "Demo", "Alice", "alice", 2);
	contest_upload(&con, "Demo", "Bob", "bob", 1);
	contest_work(&con, 0);
	serve_test_token(con.t.where, "alice", false, token_alice);
	serve_test_token(con.t.where, "bob", false, token_bob);
	serve_test_token(con.t.where, "gandalf", true, token_org);
	contest_serve(&con, false);
	cr_assert_eq(call("POST", "/api/challenges", token_alice, "{\"game\": \"dominator\", "
			  "\"player\": \"Alice\", \"seats\": [\"Alice\", \"Bob\", \"Dummy\", "
			  "\"Demo\"], \"seeds\": 1}"), 201, "%s", con.out);
	contest_work(&con, 0);
}

static void setup_sqlite(void)
{
	contest(false, "judge-serve-loop");
}

static void setup_pg(void)
{
	contest(true, "judge-serve-loop-pg");
}

static void teardown(void)
{
	contest_close(&con);
}

TestSuite(serve_loop, .init = setup_sqlite, .fini = teardown, .timeout = 240);
TestSuite(serve_loop_pg, .init = setup_pg, .fini = teardown, .timeout = 240);

static json_t *answer(void)
{
	json_error_t e;
	json_t *j = json_loads(con.out, 0, &e);
	cr_assert_not_null(j, "%s: %s", e.text, con.out);
	return j;
}

static int64_t field(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Each match of a list: the version that played is one of ids, won is
 * rank 1, and the opponents are the other seats, by name. */
static void expect_matches_explained(const json_t *matches, int64_t v1, int64_t v2,
				     bool *v1_played, bool *challenged_bob)
{
	size_t i, k;
	json_t *m, *o;
	cr_assert(json_array_size(matches) > 0);
	json_array_foreach(matches, i, m) {
		int64_t sub = field(m, "submission");
		cr_expect(sub == v1 || sub == v2, "match %lld: submission %lld is not Alice's",
			  (long long)field(m, "match"), (long long)sub);
		*v1_played |= sub == v1;
		cr_expect_eq(json_is_true(json_object_get(m, "won")), field(m, "rank") == 1);
		json_t *opponents = json_object_get(m, "opponents");
		cr_assert_eq((int64_t)json_array_size(opponents), field(m, "players") - 1,
			     "match %lld", (long long)field(m, "match"));
		json_array_foreach(opponents, k, o) {
			const char *name = json_string_value(json_object_get(o, "name"));
			cr_expect(name && strcmp(name, "Alice") != 0, "an opponent is herself");
			cr_expect_neq(field(o, "seat"), field(m, "seat"));
			*challenged_bob |= strcmp(name, "Bob") == 0;
		}
	}
}

static char *read_whole(const char *path)
{
	static char text[65536];
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	return text;
}

/* Alice's submissions, oldest first, as the store numbered them. */
static void alice_versions(int64_t *v1, int64_t *v2)
{
	struct store *s = teststore_open(con.t.where, false);
	*v1 = teststore_int(s, "SELECT min(id) FROM submissions WHERE author = 'alice'");
	*v2 = teststore_int(s, "SELECT max(id) FROM submissions WHERE author = 'alice'");
	store_close(s);
}

/* ---- the tests ---------------------------------------------------------------------- */

BOTH(serve_loop, a_players_matches_name_opponents_result_and_version)
{
	int64_t v1, v2;
	bool v1_played = false, bob = false;
	alice_versions(&v1, &v2);
	cr_assert_neq(v1, v2);
	cr_assert_eq(call("GET", "/api/players/Alice?game=dominator", token_alice, NULL), 200,
		     "%s", con.out);
	json_t *p = answer();
	expect_matches_explained(json_object_get(p, "matches"), v1, v2, &v1_played, &bob);
	cr_expect(v1_played, "the first version's qualifying match is not in the list");
	cr_expect(bob, "the challenge against Bob does not name him");
	json_decref(p);

	char path[64];
	snprintf(path, sizeof path, "/api/submissions/%lld", (long long)v2);
	cr_assert_eq(call("GET", path, token_alice, NULL), 200, "%s", con.out);
	json_t *s = answer();
	v1_played = bob = false;
	expect_matches_explained(json_object_get(s, "matches"), v2, v2, &v1_played, &bob);
	cr_expect(bob);
	json_decref(s);
}

BOTH(serve_loop, my_source_comes_back_to_me_and_the_organisers_only)
{
	int64_t v1, v2;
	char path[64], file[160];
	alice_versions(&v1, &v2);
	contest_player_file(&con, "Demo", "Alice", 1, file);
	const char *sent = read_whole(file);
	snprintf(path, sizeof path, "/api/submissions/%lld/source", (long long)v1);
	cr_assert_eq(call("GET", path, token_alice, NULL), 200, "%s", con.out);
	cr_expect_str_eq(con.out, sent, "the first version is not the file Alice sent");
	cr_expect_eq(call("GET", path, token_org, NULL), 200, "%s", con.out);
	cr_expect_str_eq(con.out, sent);
	cr_expect_eq(call("GET", path, token_bob, NULL), 403, "%s", con.out);
	cr_expect(strstr(con.out, "another author's"), "%s", con.out);
	cr_expect_null(strstr(con.out, "PLAYER_NAME"), "Bob read Alice's file: %s", con.out);
	cr_expect_eq(call("GET", path, NULL, NULL), 401, "%s", con.out);
	cr_expect_eq(call("GET", "/api/submissions/999999/source", token_alice, NULL), 404,
		     "%s", con.out);
}

BOTH(serve_loop, a_new_version_that_qualifies_is_compared_with_the_one_it_replaced)
{
	int64_t v1, v2;
	char path[64];
	alice_versions(&v1, &v2);
	snprintf(path, sizeof path, "/api/submissions/%lld", (long long)v2);
	cr_assert_eq(call("GET", path, token_alice, NULL), 200, "%s", con.out);
	json_t *s = answer(), *list = json_object_get(s, "comparisons");
	cr_assert_eq(json_array_size(list), 1, "%s", con.out);
	json_t *c = json_array_get(list, 0);
	cr_expect_eq(field(c, "a"), v2, "the new version first");
	cr_expect_eq(field(c, "b"), v1, "against the version it replaced");
	snprintf(path, sizeof path, "/api/comparisons/%lld", (long long)field(c, "id"));
	json_decref(s);
	cr_assert_eq(call("GET", path, token_alice, NULL), 200, "%s", con.out);
	json_t *r = answer();
	cr_expect_eq(field(r, "queued_pairs"), 2, "worker.compare_pairs: %s", con.out);
	cr_expect_eq(field(json_object_get(r, "wins"), "pairs"), 2, "all played: %s", con.out);
	json_decref(r);
	cr_expect_eq(call("GET", path, token_bob, NULL), 404, "another's comparison: %s", con.out);
	/* Bob's first version replaced nothing: nothing to compare */
	struct store *st = teststore_open(con.t.where, false);
	cr_expect_eq(teststore_int(st, "SELECT count(*) FROM comparisons"), 1);
	store_close(st);
}

BOTH(serve_loop, an_unknown_address_is_a_page_saying_so_not_json)
{
	cr_expect_eq(call("GET", "/no/such/page", NULL, NULL), 404);
	cr_expect(strncmp(con.out, "<!DOCTYPE html>", 15) == 0, "%s", con.out);
	cr_expect(strstr(con.out, "No such page") && strstr(con.out, "href=\"/\""), "%s", con.out);
	cr_expect_eq(call("GET", "/static/nothing.js", NULL, NULL), 404);
	cr_expect(strncmp(con.out, "<!DOCTYPE html>", 15) == 0, "%s", con.out);
	/* a program asking the API still gets JSON it can read */
	cr_expect_eq(call("GET", "/api/nothing", NULL, NULL), 404);
	json_decref(answer());
	cr_expect(strstr(con.out, "\"error\""), "%s", con.out);
}
