/* test_serve_store.c - what `judge serve` asks of the store
 * (judge/store/store_serve.h), on both backends: tokens by their hash,
 * the read views, disqualifications (out of the ranked pool, history
 * kept), rejudges (a new compile job; a game's ratings start over) and
 * the rating history.  serve_store on SQLite, serve_store_pg on
 * PostgreSQL (tests/unit/pg_testlib.h), the same test bodies. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/pg_testlib.h"

static struct test_target tt;

static void setup(void)
{
	test_target_sqlite(&tt, "test-serve-store");
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-serve-store");
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(serve_store, .init = setup, .fini = teardown);
TestSuite(serve_store_pg, .init = setup_pg, .fini = teardown, .timeout = 60);

static int64_t submit(struct store *s, const char *author, const char *name)
{
	return teststore_submit(s, "dominator", author, name);
}

static size_t pool_size(struct store *s)
{
	err_t err = {0};
	struct store_rated *pool;
	size_t n;
	cr_assert_eq(store_ranked_pool(s, "dominator", &pool, &n, err), 0, "%s", err->msg);
	free(pool);
	return n;
}

static int64_t pending_compiles(struct store *s)
{
	err_t err = {0};
	int64_t n;
	cr_assert_eq(store_pending(s, &n, err), 0, "%s", err->msg);
	return n;
}

BOTH(serve_store, a_token_is_found_by_its_hash_until_revoked)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t id;
	cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = "aa11", .author = "sauron" }, &id, NULL, err), 0, "%s", err->msg);
	struct store_token t;
	cr_assert_eq(store_token_find(s, "aa11", &t, err), 1, "%s", err->msg);
	cr_expect_str_eq(t.author, "sauron");
	cr_expect(!t.organiser);
	cr_expect_eq(store_token_find(s, "aa12", &t, err), 0, "another hash is not the token");
	cr_assert_eq(store_token_revoke(s, id, err), 1, "%s", err->msg);
	cr_expect_eq(store_token_find(s, "aa11", &t, err), 0, "a revoked token still works");
	cr_expect_eq(store_token_revoke(s, id, err), 0, "revoked twice");
	json_t *list;
	cr_assert_eq(store_token_list(s, &list, err), 1, "%s", err->msg);
	cr_assert_eq(json_array_size(list), 1);
	cr_expect(!json_is_null(json_object_get(json_array_get(list, 0), "revoked_at")));
	cr_expect_null(json_object_get(json_array_get(list, 0), "sha256"),
		       "the list must not show the hash");
	json_decref(list);
	store_close(s);
}

BOTH(serve_store, the_submission_view_has_its_author_state_and_log)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t id = submit(s, "<b>sauron</b>", "Sauron");
	cr_assert_eq(store_set_state(s, id, "compile_failed", NULL, NULL, "x.c:1: error: </pre>",
				     err), 0, "%s", err->msg);
	json_t *v;
	cr_assert_eq(store_submission_view(s, id, &v, err), 1, "%s", err->msg);
	cr_expect_str_eq(json_string_value(json_object_get(v, "author")), "<b>sauron</b>");
	cr_expect_str_eq(json_string_value(json_object_get(v, "state")), "compile_failed");
	cr_expect_str_eq(json_string_value(json_object_get(v, "compile_log")),
			 "x.c:1: error: </pre>");
	cr_expect(json_is_null(json_object_get(v, "rating")));
	json_decref(v);
	cr_expect_eq(store_submission_view(s, id + 100, &v, err), 0);
	json_t *mine;
	cr_assert_eq(store_submissions_of(s, "<b>sauron</b>", &mine, err), 1, "%s", err->msg);
	cr_expect_eq(json_array_size(mine), 1);
	json_decref(mine);
	cr_assert_eq(store_submissions_of(s, "nobody", &mine, err), 1, "%s", err->msg);
	cr_expect_eq(json_array_size(mine), 0);
	json_decref(mine);
	store_close(s);
}

BOTH(serve_store, a_disqualified_player_leaves_the_pool_and_the_reason_stays)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	teststore_qualify(s, submit(s, "a", "Alpha"), 25, 8);
	teststore_qualify(s, submit(s, "b", "Beta"), 25, 8);
	cr_assert_eq(pool_size(s), 2);
	cr_assert_eq(store_disqualify(s, "dominator", "Beta", "copied Alpha", "boss", err), 1,
		     "%s", err->msg);
	cr_expect_eq(pool_size(s), 1, "a disqualified player must leave the ranked pool");
	cr_expect_eq(store_disqualify(s, "dominator", "Gamma", "x", "boss", err), 0,
		     "no such player");
	json_t *dq, *p;
	cr_assert_eq(store_disqualifications(s, "dominator", &dq, err), 1, "%s", err->msg);
	cr_assert_eq(json_array_size(dq), 1);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(dq, 0), "reason")),
			 "copied Alpha");
	json_decref(dq);
	cr_assert_eq(store_player_view(s, "dominator", "Beta", NULL, &p, err), 1, "%s", err->msg);
	cr_expect_eq(json_array_size(json_object_get(p, "disqualifications")), 1);
	json_decref(p);
	store_close(s);
}

BOTH(serve_store, rejudging_a_submission_queues_its_compile_again)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t id = submit(s, "a", "Alpha");
	teststore_qualify(s, id, 25, 8);
	int64_t before = pending_compiles(s);
	cr_assert_eq(store_rejudge_submission(s, id, err), 1, "%s", err->msg);
	cr_expect_eq(pending_compiles(s), before + 1, "no new compile job");
	struct store_submission sub;
	cr_assert_eq(store_get_submission(s, id, &sub, err), 1, "%s", err->msg);
	cr_expect_str_eq(sub.state, "queued");
	cr_expect_eq(store_rejudge_submission(s, id + 50, err), 0);
	store_close(s);
}

BOTH(serve_store, rejudging_a_game_starts_its_ratings_over)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t old = submit(s, "a", "Alpha");
	teststore_qualify(s, old, 25, 8);
	int64_t latest = submit(s, "a", "Alpha");
	teststore_qualify(s, latest, 26, 7);
	teststore_qualify(s, submit(s, "b", "Beta"), 25, 8);
	int64_t n = 0;
	cr_assert_eq(store_rejudge_game(s, "dominator", "boss", &n, err), 0, "%s", err->msg);
	cr_expect_eq(n, 2, "the latest submission of each player, not the superseded one");
	cr_expect_eq(pool_size(s), 0, "the ratings must start over");
	struct store_submission sub;
	cr_assert_eq(store_get_submission(s, old, &sub, err), 1, "%s", err->msg);
	cr_expect_str_eq(sub.state, "superseded");
	store_close(s);
}

BOTH(serve_store, each_rated_game_adds_to_the_players_history)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t id = submit(s, "a", "Alpha");
	teststore_qualify(s, id, 25, 8);
	cr_assert_eq(store_rate(s, id, 27, 7, true, 4, err), 0, "%s", err->msg);
	cr_assert_eq(store_rate(s, id, 28, 6, false, 4, err), 0, "%s", err->msg);
	json_t *p;
	cr_assert_eq(store_player_view(s, "dominator", "Alpha", NULL, &p, err), 1, "%s", err->msg);
	json_t *h = json_object_get(p, "history");
	cr_assert_eq(json_array_size(h), 2);
	cr_expect_float_eq(json_real_value(json_object_get(json_array_get(h, 1), "mu")), 28, 1e-9);
	cr_expect_str_eq(json_string_value(json_object_get(p, "author")), "a");
	json_decref(p);
	char game[32];
	cr_assert_eq(store_player_game(s, "Alpha", game, err), 1, "%s", err->msg);
	cr_expect_str_eq(game, "dominator");
	cr_expect_eq(store_player_view(s, "dominator", "Nobody", NULL, &p, err), 0);
	store_close(s);
}

/* A ranked match of the given submissions, recorded as a worker does. */
static void ranked_match(struct store *s, const int64_t *subs, int n)
{
	err_t err = {0};
	int64_t job, match;
	cr_assert_eq(store_enqueue(s, "match", "{}", SCHED_RANKED, 0, &job, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job, .game = "dominator", .kind = "ranked", .seed = 7,
				     .players = n };
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err->msg);
	for (int i = 0; i < n; i++) {
		struct store_match_player p = { .seat = i, .submission = subs[i], .name = "P",
						.rank = i + 1 };
		cr_assert_eq(store_add_match_player(s, match, &p, err), 0, "%s", err->msg);
	}
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
}

BOTH(serve_store, matches_are_counted_by_their_players)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t a = submit(s, "a", "Alpha"), b = submit(s, "b", "Beta"), c = submit(s, "c", "Gamma");
	ranked_match(s, (int64_t[]){ a, b }, 2);
	ranked_match(s, (int64_t[]){ a, b, c }, 3);
	ranked_match(s, (int64_t[]){ c, a }, 2);
	json_t *sizes;
	cr_assert_eq(store_match_sizes(s, "dominator", &sizes, err), 1, "%s", err->msg);
	cr_assert_eq(json_array_size(sizes), 2);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(sizes, 0), "matches")), 2);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(sizes, 1), "players")), 3);
	json_decref(sizes);
	store_close(s);
}

BOTH(serve_store, the_match_view_has_its_seats_and_an_exact_seed)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	int64_t a = submit(s, "<i>a</i>", "Alpha"), b = submit(s, "b", "Beta");
	ranked_match(s, (int64_t[]){ a, b }, 2);
	json_t *m;
	cr_assert_eq(store_match_view(s, 1, &m, err), 1, "%s", err->msg);
	cr_expect_str_eq(json_string_value(json_object_get(m, "seed")), "7");
	cr_expect_str_eq(json_string_value(json_object_get(m, "kind")), "ranked");
	cr_expect(json_is_false(json_object_get(m, "has_replay")));
	json_t *seats = json_object_get(m, "players");
	cr_assert_eq(json_array_size(seats), 2);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(seats, 0), "author")),
			 "<i>a</i>");
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(seats, 1), "submission")), b);
	cr_expect(json_is_null(json_object_get(json_array_get(seats, 0), "verdict")));
	json_decref(m);
	cr_expect_eq(store_match_view(s, 99, &m, err), 0);
	store_close(s);
}
