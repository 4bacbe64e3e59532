/* test_ladder.c - the ladder's constant-cost bookkeeping against a full
 * recount, on both backends: leaderboard places read from the store's
 * tree of counts (store_board_place) and the rank.changed events of
 * ladder_rate equal what counting every ranked player gives, after random
 * results, supersessions and extreme ratings; the leaderboard's counters
 * (matches by size per player, ranked matches by size) equal the old
 * reading of the whole match history, computed here in SQL as the
 * reference, across unrated matches and a rejudge of the game; and the
 * migration that brings in the counters fills them from the history.
 * ladder on SQLite, ladder_pg on PostgreSQL. */
#include <criterion/criterion.h>

#include <jansson.h>
#include <libpq-fe.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/base/hook_config.h"
#include "judge/base/safe_text.h"
#include "judge/rating/board.h"
#include "judge/rating/ladder.h"
#include "judge/rating/rating.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/pg_testlib.h"

static struct test_target tt;

static void setup(void)
{
	test_target_sqlite(&tt, "test-ladder");
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-ladder");
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(ladder, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(ladder_pg, .init = setup_pg, .fini = teardown, .timeout = 120);

static int64_t submit(struct store *s, const char *game, const char *name)
{
	return teststore_submit(s, game, name, name);
}

struct pool {
	struct store_rated *p;
	size_t n;
};

static struct pool read_pool(struct store *s, const char *game)
{
	err_t err = {0};
	struct pool pool;
	cr_assert_eq(store_ranked_pool(s, game, &pool.p, &pool.n, err), 0, "%s", err->msg);
	return pool;
}

/* The reference: 1 + every ranked player whose score is higher. */
static int recount_place(const struct pool *pool, double score)
{
	int above = 0;
	for (size_t i = 0; i < pool->n; i++)
		above += rating_score((struct rating){ pool->p[i].mu, pool->p[i].sigma }) > score;
	return 1 + above;
}

static void expect_every_place(struct store *s, const char *game)
{
	err_t err = {0};
	struct pool pool = read_pool(s, game);
	for (size_t i = 0; i < pool.n; i++) {
		double score = rating_score((struct rating){ pool.p[i].mu, pool.p[i].sigma });
		int want = recount_place(&pool, score), got = store_board_place(s, game, score, err);
		cr_assert_eq(got, want, "submission %lld at %.17g: place %d, recount %d (%s)",
			     (long long)pool.p[i].id, score, got, want, err->msg);
		/* Just above and just below: the slot's edges. */
		cr_assert_eq(store_board_place(s, game, score + 1e-9, err),
			     recount_place(&pool, score + 1e-9));
		cr_assert_eq(store_board_place(s, game, score - 1e-9, err),
			     recount_place(&pool, score - 1e-9));
	}
	free(pool.p);
}

/* n distinct members of the pool, at random. */
static void draw_seats(const struct pool *pool, int n, struct store_rated *out)
{
	for (int i = 0; i < n; i++) {
		bool again;
		do {
			out[i] = pool->p[(size_t)rand() % pool->n];
			again = false;
			for (int k = 0; k < i; k++)
				again |= out[k].id == out[i].id;
		} while (again);
	}
}

struct recorded {
	int64_t match;
	int rated;
};

/* A ranked match of the seats at random ranks (ties too), recorded as the
 * worker records one; superseded: the submission superseded while the
 * match ran (0: none). */
static struct recorded play(struct store *s, const struct hook_config *hc, const char *game,
			    const struct store_rated *seat, int n, int64_t superseded)
{
	char names[GAME_MAX_PLAYERS][16];
	err_t err = {0};
	int64_t job;
	struct recorded r;
	cr_assert_eq(store_enqueue(s, "match", "{}", SCHED_RANKED, 0, &job, err), 0, "%s",
		     err->msg);
	if (superseded) {
		char name[16];
		struct store_submission sub;
		cr_assert_eq(store_get_submission(s, superseded, &sub, err), 1, "%s", err->msg);
		snprintf(name, sizeof name, "%s", sub.name);
		teststore_qualify(s, teststore_submit(s, game, sub.author, name), 25, 25.0 / 3);
	}
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job, .game = game, .kind = "ranked", .seed = 7,
				     .players = n };
	cr_assert_eq(store_add_match(s, &m, &r.match, err), 0, "%s", err->msg);
	struct ladder_seat seats[GAME_MAX_PLAYERS];
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof names[i], "%s", seat[i].name);
		seats[i] = (struct ladder_seat){ seat[i].id, names[i], 1 + rand() % n };
		struct store_match_player p = { .seat = i, .submission = seat[i].id,
						.name = names[i], .rank = seats[i].rank };
		cr_assert_eq(store_add_match_player(s, r.match, &p, err), 0, "%s", err->msg);
	}
	r.rated = ladder_rate(s, hc, r.match, game, seats, n, err);
	cr_assert_geq(r.rated, 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
	return r;
}

static void listen_for_ranks(struct hook_config *hc)
{
	hook_defaults(hc);
	hc->count = 1;
	snprintf(hc->endpoints[0].url, sizeof hc->endpoints[0].url, "http://127.0.0.1:9/hook");
	hc->endpoints[0].events = 1u << HOOK_RANK_CHANGED;
}

static int64_t rank_events(struct store *s)
{
	return teststore_int(s, "SELECT count(*) FROM events WHERE kind = 'rank.changed'");
}

/* The rank.changed event number k (0 first) for the submission, its
 * payload's old_rank and new_rank. */
static void read_event(struct store *s, int64_t k, int64_t *submission, int *old_rank,
		       int *new_rank)
{
	char text[512];
	teststore_text(s, text, sizeof text, "SELECT payload FROM events WHERE kind = 'rank.changed'"
		       " ORDER BY id LIMIT 1 OFFSET %lld", (long long)k);
	*submission = teststore_int(s, "SELECT submission_id FROM events WHERE kind ="
				    " 'rank.changed' ORDER BY id LIMIT 1 OFFSET %lld", (long long)k);
	json_t *j = json_loads(text, 0, NULL);
	cr_assert_not_null(j, "%s", text);
	*old_rank = (int)json_integer_value(json_object_get(j, "old_rank"));
	*new_rank = (int)json_integer_value(json_object_get(j, "new_rank"));
	json_decref(j);
}

/* The match's events are exactly the seats whose recounted place moved. */
static void expect_events(struct store *s, int64_t first, const struct store_rated *seat, int n,
			  const int *before, const int *after)
{
	int64_t k = first;
	for (int i = 0; i < n; i++) {
		if (before[i] == after[i])
			continue;
		cr_assert_lt(k, rank_events(s), "no event for seat %d (%d -> %d)", i, before[i],
			     after[i]);
		int64_t sub;
		int old_rank, new_rank;
		read_event(s, k++, &sub, &old_rank, &new_rank);
		cr_expect_eq(sub, seat[i].id);
		cr_expect_eq(old_rank, before[i], "seat %d: old_rank %d, recount %d", i, old_rank,
			     before[i]);
		cr_expect_eq(new_rank, after[i], "seat %d: new_rank %d, recount %d", i, new_rank,
			     after[i]);
	}
	cr_assert_eq(rank_events(s), k, "events for seats whose place did not move");
}

static int place_of(struct store *s, const char *game, int64_t id)
{
	struct pool pool = read_pool(s, game);
	int place = -1;
	for (size_t i = 0; i < pool.n; i++)
		if (pool.p[i].id == id)
			place = recount_place(&pool, rating_score((struct rating){ pool.p[i].mu,
										    pool.p[i].sigma }));
	free(pool.p);
	return place;
}

BOTH(ladder, places_and_rank_events_equal_a_full_recount)
{
	struct store *s = teststore_open(tt.where, true);
	struct hook_config hc;
	listen_for_ranks(&hc);
	srand(30);
	char name[16];
	for (int i = 0; i < 24; i++) {
		snprintf(name, sizeof name, "P%02d", i);
		teststore_qualify(s, submit(s, "dominator", name), 25, 25.0 / 3);
	}
	/* Past both ends of the tree's range: they share its end slots. */
	teststore_qualify(s, submit(s, "dominator", "High1"), 900, 1);
	teststore_qualify(s, submit(s, "dominator", "High2"), 901, 1);
	teststore_qualify(s, submit(s, "dominator", "Low"), -900, 1);
	expect_every_place(s, "dominator");
	for (int round = 0; round < 60; round++) {
		struct pool pool = read_pool(s, "dominator");
		struct store_rated seat[4];
		int before[4], after[4];
		draw_seats(&pool, 4, seat);
		free(pool.p);
		for (int i = 0; i < 4; i++)
			before[i] = place_of(s, "dominator", seat[i].id);
		int64_t first = rank_events(s);
		/* Now and then a seat is superseded while the match runs. */
		int64_t gone = round % 13 == 12 ? seat[round % 4].id : 0;
		struct recorded r = play(s, &hc, "dominator", seat, 4, gone);
		cr_assert_eq(r.rated, gone ? 0 : 1);
		if (r.rated) {
			for (int i = 0; i < 4; i++)
				after[i] = place_of(s, "dominator", seat[i].id);
			expect_events(s, first, seat, 4, before, after);
		} else {
			cr_assert_eq(rank_events(s), first, "an unrated match moved nobody");
		}
		expect_every_place(s, "dominator");
	}
	store_close(s);
}

BOTH(ladder, nobody_listening_records_no_rank_event)
{
	struct store *s = teststore_open(tt.where, true);
	struct hook_config quiet;
	hook_defaults(&quiet);
	char name[16];
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "Q%d", i);
		teststore_qualify(s, submit(s, "dominator", name), 25, 25.0 / 3);
	}
	struct pool pool = read_pool(s, "dominator");
	struct store_rated seat[4];
	for (int round = 0; round < 5; round++) {
		draw_seats(&pool, 4, seat);
		cr_assert_eq(play(s, &quiet, "dominator", seat, 4, 0).rated, 1);
	}
	free(pool.p);
	cr_expect_eq(rank_events(s), 0);
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM matches WHERE rated = 1"), 5);
	cr_expect_eq(teststore_int(s, "SELECT sum(games) FROM ratings"), 20);
	expect_every_place(s, "dominator");
	store_close(s);
}

/* ---- the leaderboard's counters against the history ------------------------- */

/* The old reading: a player's rated ranked matches of k players since the
 * game's last rejudge, counted over every match and seat. */
static int64_t history_by_size(struct store *s, const char *game, int64_t submission, int k)
{
	return teststore_int(s,
		"SELECT count(*) FROM matches m JOIN match_players mp ON mp.match_id = m.id"
		" WHERE m.game = '%s' AND m.kind = 'ranked' AND m.rated = 1"
		" AND mp.submission_id = %lld"
		" AND m.created_at > coalesce((SELECT max(created_at) FROM rejudges"
		" WHERE game = '%s' AND submission_id IS NULL), -1)"
		" AND (SELECT count(*) FROM match_players o WHERE o.match_id = m.id) = %d",
		game, (long long)submission, game, k);
}

static int64_t history_matches_of_size(struct store *s, const char *game, int k)
{
	return teststore_int(s,
		"SELECT count(*) FROM (SELECT count(*) AS n FROM match_players mp"
		" JOIN matches m ON m.id = mp.match_id WHERE m.game = '%s' AND m.kind = 'ranked'"
		" GROUP BY m.id) t WHERE n = %d", game, k);
}

/* The board, read from the counters, against the history read the old way. */
static void expect_board_equals_history(struct store *s, const char *game)
{
	err_t err = {0};
	struct board b = { .game = game, .sizes = true };
	cr_assert_eq(board_load(s, &b, err), 0, "%s", err->msg);
	cr_assert_gt(b.n, 0);
	for (size_t i = 0; i < b.n; i++)
		for (int k = 0; k <= GAME_MAX_PLAYERS; k++)
			cr_assert_eq(b.row[i].by_size[k], history_by_size(s, game, b.row[i].submission, k),
				     "submission %lld, %d players: %d counted",
				     (long long)b.row[i].submission, k, b.row[i].by_size[k]);
	board_free(&b);
	json_t *sizes;
	cr_assert_eq(store_match_sizes(s, game, &sizes, err), 1, "%s", err->msg);
	size_t listed = 0;
	for (int k = 1; k <= GAME_MAX_PLAYERS; k++) {
		int64_t want = history_matches_of_size(s, game, k), got = 0;
		size_t i;
		json_t *row;
		json_array_foreach(sizes, i, row)
			if (json_integer_value(json_object_get(row, "players")) == k)
				got = json_integer_value(json_object_get(row, "matches"));
		cr_assert_eq(got, want, "%d players: %lld matches counted, %lld played", k,
			     (long long)got, (long long)want);
		listed += want > 0;
	}
	cr_expect_eq(json_array_size(sizes), listed);
	json_decref(sizes);
}

/* A qualifying match of the submission against nobody rated: it must not
 * count for the board. */
static void qualifying_match(struct store *s, const char *game, int64_t sub)
{
	err_t err = {0};
	int64_t job, match;
	cr_assert_eq(store_enqueue(s, "match", "{}", SCHED_QUALIFYING, 0, &job, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	struct store_new_match m = { .job = job, .game = game, .kind = "qualifying", .seed = 1,
				     .players = 2 };
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err->msg);
	for (int i = 0; i < 2; i++) {
		struct store_match_player p = { .seat = i, .submission = i ? 0 : sub, .name = "Q",
						.rank = i + 1 };
		cr_assert_eq(store_add_match_player(s, match, &p, err), 0, "%s", err->msg);
	}
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
}

/* A Blitz ladder of 2 to 6 seats: random results, unrated matches (a seat
 * superseded meanwhile), qualifying matches, then a rejudge of the game
 * and more matches. */
static void play_history(struct store *s, const struct hook_config *hc, int rounds)
{
	for (int round = 0; round < rounds; round++) {
		struct pool pool = read_pool(s, "blitz");
		struct store_rated seat[6];
		int n = 2 + rand() % 5;
		draw_seats(&pool, n, seat);
		free(pool.p);
		play(s, hc, "blitz", seat, n, round % 9 == 8 ? seat[0].id : 0);
		if (round % 7 == 3)
			qualifying_match(s, "blitz", seat[1].id);
	}
}

static void blitz_field(struct store *s, int players)
{
	char name[16];
	for (int i = 0; i < players; i++) {
		snprintf(name, sizeof name, "B%02d", i);
		teststore_qualify(s, submit(s, "blitz", name), 25, 25.0 / 3);
	}
}

BOTH(ladder, leaderboard_counters_equal_the_match_history)
{
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	struct hook_config quiet;
	hook_defaults(&quiet);
	srand(11);
	blitz_field(s, 10);
	play_history(s, &quiet, 40);
	expect_board_equals_history(s, "blitz");
	/* A rejudge starts the ratings and their counters over. */
	int64_t n;
	cr_assert_eq(store_rejudge_game(s, "blitz", "boss", &n, err), 0, "%s", err->msg);
	usleep(3000); /* the history counts matches recorded after the rejudge */
	struct pool pool;
	cr_assert_eq(store_ranked_pool(s, "blitz", &pool.p, &pool.n, err), 0, "%s", err->msg);
	cr_assert_eq(pool.n, 0);
	free(pool.p);
	int64_t ids[10];
	for (int i = 0; i < 10; i++) {
		char name[16];
		snprintf(name, sizeof name, "B%02d", i);
		ids[i] = teststore_int(s, "SELECT max(id) FROM submissions WHERE name = '%s'", name);
		teststore_qualify(s, ids[i], 25, 25.0 / 3);
	}
	play_history(s, &quiet, 30);
	expect_board_equals_history(s, "blitz");
	expect_every_place(s, "blitz");
	store_close(s);
}

/* ---- the leaderboard's answer ------------------------------------------------- */

/* A row of the reference board and what ranks it. */
struct ref_row {
	int64_t id;
	double score;
	int games;
	json_t *row;
};

static int by_reference_rank(const void *pa, const void *pb)
{
	const struct ref_row *a = pa, *b = pb;
	long long ka = llround(a->score * 1e6), kb = llround(b->score * 1e6);
	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

#define OLD_POOL_SQL                                                                       \
	" FROM submissions s JOIN ratings r ON r.submission_id = s.id WHERE s.game = '%s'" \
	" AND s.state = 'qualified' AND NOT EXISTS (SELECT 1 FROM disqualifications d"   \
	" WHERE d.game = s.game AND d.name = s.name AND d.reinstated_at IS NULL)"

/* Ranked player k (0 first, by id) as jansson values, each read by a query
 * of its own; its matches by size counted over the whole history. */
static struct ref_row reference_row(struct store *s, const char *game, int k, bool organiser)
{
	struct ref_row r = { .id = teststore_int(s, "SELECT s.id" OLD_POOL_SQL " ORDER BY s.id"
						 " LIMIT 1 OFFSET %d", game, k) };
	long long id = (long long)r.id;
	char name[64], author[256];
	teststore_text(s, name, sizeof name, "SELECT name FROM submissions WHERE id = %lld", id);
	teststore_text(s, author, sizeof author, "SELECT author FROM submissions WHERE id = %lld", id);
	double mu = teststore_double(s, "SELECT mu FROM ratings WHERE submission_id = %lld", id),
	       sigma = teststore_double(s, "SELECT sigma FROM ratings WHERE submission_id = %lld", id);
	r.score = rating_score((struct rating){ mu, sigma });
	r.games = (int)teststore_int(s, "SELECT games FROM ratings WHERE submission_id = %lld", id);
	r.row = json_pack("{s:i, s:I, s:o, s:o, s:f, s:f, s:f, s:i, s:I}", "rank", 0, "submission",
			  (json_int_t)r.id, "player", safe_json_text(name), "author",
			  safe_json_text(author), "score", r.score, "mu", mu, "sigma", sigma, "games",
			  r.games, "wins", (json_int_t)teststore_int(s, "SELECT wins FROM ratings WHERE"
								     " submission_id = %lld", id));
	json_t *sizes = json_object();
	for (int n = 1; n <= GAME_MAX_PLAYERS; n++) {
		int64_t played = history_by_size(s, game, r.id, n);
		char key[8];
		snprintf(key, sizeof key, "%d", n);
		if (played)
			json_object_set_new(sizes, key, json_integer(played));
	}
	json_object_set_new(r.row, "games_by_players", sizes);
	if (organiser)
		json_object_set_new(r.row, "suspected", json_boolean(teststore_int(s,
			"SELECT count(*) FROM plag_docs WHERE submission_id = %lld AND suspected = 1",
			id)));
	return r;
}

/* The page the service sends, built from the history with jansson: the
 * reference the board must equal byte for byte. */
static char *reference_page(struct store *s, const char *game, int64_t at, bool organiser,
			    const json_t *dq)
{
	int n = (int)teststore_int(s, "SELECT count(*)" OLD_POOL_SQL, game);
	struct ref_row *rows = calloc((size_t)n + 1, sizeof *rows);
	cr_assert_not_null(rows);
	for (int k = 0; k < n; k++)
		rows[k] = reference_row(s, game, k, organiser);
	qsort(rows, (size_t)n, sizeof *rows, by_reference_rank);
	json_t *list = json_array(), *sizes = json_array();
	for (int k = 0; k < n; k++) {
		bool tie = k && llround(rows[k].score * 1e6) == llround(rows[k - 1].score * 1e6);
		int rank = tie ? (int)json_integer_value(json_object_get(rows[k - 1].row, "rank"))
			       : k + 1;
		json_object_set_new(rows[k].row, "rank", json_integer(rank));
		json_array_append_new(list, rows[k].row);
	}
	for (int players = 1; players <= GAME_MAX_PLAYERS; players++) {
		int64_t matches = history_matches_of_size(s, game, players);
		if (matches)
			json_array_append_new(sizes, json_pack("{s:i, s:I}", "players", players,
							       "matches", (json_int_t)matches));
	}
	json_t *page = json_pack("{s:s, s:s, s:I, s:o, s:o, s:b, s:b}", "game", game, "title",
				 "Blitz", "generated_at", (json_int_t)at, "rows", list, "match_sizes",
				 sizes, "organiser", organiser, "mixed_sizes", true);
	if (dq)
		json_object_set(page, "disqualified", (json_t *)dq);
	char *text = json_dumps(page, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(page);
	free(rows);
	return text;
}

/* The board's page, as the service writes it, against the reference. */
static void expect_page_equals_reference(struct store *s, const char *game, bool organiser)
{
	err_t err = {0};
	struct board b = { .game = game, .title = "Blitz", .generated_ms = 1234567,
			   .sizes = true, .organiser = organiser };
	json_t *dq = NULL;
	cr_assert_eq(board_load(s, &b, err), 0, "%s", err->msg);
	if (organiser)
		cr_assert_eq(store_disqualifications(s, game, &dq, err), 1, "%s", err->msg);
	size_t len;
	char *page = board_page_text(s, &b, dq, &len, err);
	cr_assert_not_null(page, "%s", err->msg);
	char *want = reference_page(s, game, b.generated_ms, organiser, dq);
	cr_assert_not_null(want);
	cr_expect_str_eq(page, want, "the %s board differs from the history's",
			 organiser ? "organiser's" : "public");
	cr_expect_eq(len, strlen(want));
	free(page);
	free(want);
	json_decref(dq);
	board_free(&b);
}

/* A submission's file marked a suspected copy, as the plagiarism check
 * marks it. */
static void mark_suspected(struct store *s, int64_t id)
{
	teststore_run(s, "INSERT INTO plag_docs (game, submission_id, author, name, k, w,"
		      " hash_version, ntokens, nfps, suspected, created_at, fps)"
		      " SELECT game, id, author, name, 5, 4, 1, 0, 0, 1, 0, '' FROM submissions"
		      " WHERE id = %lld", (long long)id);
}

/* A recorded ladder: authors any bytes may spell, ratings from played
 * results, sizes 2 to 6, superseded and qualifying matches, a player
 * disqualified, two files suspected (one of a player no longer ranked). */
BOTH(ladder, the_leaderboard_page_equals_the_one_built_from_the_history)
{
	static const struct {
		const char *name, *author;
	} people[] = {
		{ "P0", "ann" }, { "P1", "quote \" and \\ backslash" },
		{ "P2", "\xc3\xa9t\xc3\xa9 \xf0\x9f\x90\x89" }, { "P3", "a \x01 control" },
		{ "P4", "</script>" }, { "P5", "\xe2\x80\xae" "txt.exe" }, { "P6", "tab\there" },
		{ "P7", "zed" },
	};
	struct store *s = teststore_open(tt.where, true);
	err_t err = {0};
	struct hook_config quiet;
	hook_defaults(&quiet);
	srand(30);
	int64_t ids[8];
	for (int i = 0; i < 8; i++)
		teststore_qualify(s, ids[i] = teststore_submit(s, "blitz", people[i].author,
							       people[i].name), 20 + i % 3, 25.0 / 3);
	play_history(s, &quiet, 30);
	cr_assert_eq(store_disqualify(s, "blitz", "P3", "a copy of P5", "boss", err), 1, "%s",
		     err->msg);
	mark_suspected(s, ids[1]);
	mark_suspected(s, ids[3]);
	expect_page_equals_reference(s, "blitz", true);
	expect_page_equals_reference(s, "blitz", false);
	cr_expect_eq(teststore_int(s, "SELECT count(*)" OLD_POOL_SQL, "blitz"), 7);
	store_close(s);
}

/* ---- the migration ------------------------------------------------------------ */

extern const char store_schema_sql[], store_pg_schema_sql[];
extern const char *const store_migrations[], *const store_pg_migrations[];

/* A history written as the judge before the counters wrote it, in SQL
 * both backends take. */
static const char old_history[] =
	"INSERT INTO names VALUES ('blitz', 'A', 'a'), ('blitz', 'B', 'b'), ('blitz', 'C', 'c');"
	"INSERT INTO submissions (id, game, author, name, source, source_sha256, state,"
	" created_at, updated_at) VALUES (1, 'blitz', 'a', 'A', '', 'x', 'qualified', 0, 0),"
	" (2, 'blitz', 'b', 'B', '', 'y', 'qualified', 0, 0),"
	" (3, 'blitz', 'c', 'C', '', 'z', 'superseded', 0, 0);"
	"INSERT INTO ratings (submission_id, game, mu, sigma, games, wins, updated_at)"
	" VALUES (1, 'blitz', 30, 2, 3, 2, 0), (2, 'blitz', 20, 2, 3, 1, 0),"
	" (3, 'blitz', 25, 2, 2, 0, 0);"
	"INSERT INTO jobs (id, kind, payload, state, created_at, updated_at) VALUES"
	" (1, 'match', '{}', 'done', 0, 0), (2, 'match', '{}', 'done', 0, 0),"
	" (3, 'match', '{}', 'done', 0, 0), (4, 'match', '{}', 'done', 0, 0);"
	"INSERT INTO matches (id, job_id, game, kind, seed, rated, created_at) VALUES"
	" (1, 1, 'blitz', 'ranked', 1, 1, 5), (2, 2, 'blitz', 'ranked', 1, 1, 6),"
	" (3, 3, 'blitz', 'ranked', 1, 0, 7), (4, 4, 'blitz', 'ranked', 1, 1, 8);"
	"INSERT INTO match_players (match_id, seat, submission_id, name, score, rank,"
	" cpu_ns, peak_memory) VALUES (1, 0, 1, 'A', 0, 1, 0, 0), (1, 1, 2, 'B', 0, 2, 0, 0),"
	" (2, 0, 1, 'A', 0, 1, 0, 0), (2, 1, 2, 'B', 0, 2, 0, 0), (2, 2, 3, 'C', 0, 3, 0, 0),"
	" (3, 0, 1, 'A', 0, 1, 0, 0), (3, 1, 3, 'C', 0, 2, 0, 0),"
	" (4, 0, 2, 'B', 0, 1, 0, 0), (4, 1, 1, 'A', 0, 2, 0, 0), (4, 2, 3, 'C', 0, 3, 0, 0);";

/* Runs one script on the backend's connection: 0, or -1 with err. */
typedef int run_script(void *conn, const char *sql, err_t err);

static int run_sqlite(void *conn, const char *sql, err_t err)
{
	if (sqlite3_exec(conn, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	err_set(err, "%s", sqlite3_errmsg(conn));
	return -1;
}

static int run_pg(void *conn, const char *sql, err_t err)
{
	PGresult *r = PQexec(conn, sql);
	int rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK
			 ? 0 : -1;
	if (rc < 0)
		err_set(err, "%s", PQerrorMessage(conn));
	PQclear(r);
	return rc;
}

/* The schema at the version before the counters, then the history. */
static void old_store(void *conn, run_script *run, const char *schema,
		      const char *const *migrations, const char *set_version)
{
	char sql[128];
	err_t err = {0};
	cr_assert_eq(run(conn, schema, err), 0, "%s", err->msg);
	int version = 1;
	for (; migrations[version - 1] && !strstr(migrations[version - 1], "board_nodes"); version++)
		cr_assert_eq(run(conn, migrations[version - 1], err), 0, "migration to %d: %s",
			     version + 1, err->msg);
	snprintf(sql, sizeof sql, set_version, version);
	cr_assert_eq(run(conn, sql, err), 0, "%s", err->msg);
	cr_assert_eq(run(conn, old_history, err), 0, "%s", err->msg);
}

static void old_sqlite_store(const char *path)
{
	sqlite3 *db;
	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	old_store(db, run_sqlite, store_schema_sql, store_migrations, "PRAGMA user_version = %d");
	sqlite3_close(db);
}

static void old_pg_store(const char *url)
{
	PGconn *pg = PQconnectdb(url);
	cr_assert_eq(PQstatus(pg), CONNECTION_OK, "%s", PQerrorMessage(pg));
	old_store(pg, run_pg, store_pg_schema_sql, store_pg_migrations,
		  "INSERT INTO meta (key, value) VALUES ('schema_version', '%d')"
		  " ON CONFLICT (key) DO UPDATE SET value = excluded.value");
	PQfinish(pg);
}

static void expect_migrated(void)
{
	struct store *s = teststore_open(tt.where, false);
	err_t err = {0};
	expect_board_equals_history(s, "blitz");
	expect_every_place(s, "blitz");
	cr_expect_eq(store_board_place(s, "blitz", 27.0, err), 1, "%s", err->msg);
	cr_expect_eq(store_board_place(s, "blitz", 10.0, err), 3,
		     "the superseded player is off the board");
	store_close(s);
}

Test(ladder, the_migration_fills_the_counters_from_the_history)
{
	old_sqlite_store(tt.where);
	expect_migrated();
}

Test(ladder_pg, the_migration_fills_the_counters_from_the_history)
{
	old_pg_store(tt.where);
	expect_migrated();
}
