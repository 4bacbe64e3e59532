/* test_serve_tournament.c - `judge serve`'s tournaments for their
 * watchers (/api/tournaments, judge/event/view.h) through a real server
 * and real HTTP, on both backends: tournaments moved on by the simulated
 * worker (event_testlib.h), then read back as a page reads them and
 * checked against the store's record and the rules worked out again here:
 * an elimination's stages, who is safe and who is out; pseudonyms for the
 * public and authors for an organiser; a double elimination bracket's
 * series and champion; round-robin groups' points. */
#include <criterion/criterion.h>

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "judge/store/store_tournament.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/event_testlib.h"
#include "tests/unit/pg_testlib.h"

static struct test_target tt;

static void setup(void)
{
	test_target_sqlite(&tt, "test-serve-tour");
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-serve-tour");
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(serve_tour, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(serve_tour_pg, .init = setup_pg, .fini = teardown, .timeout = 120);

/* ---- the service ------------------------------------------------------------------ */

struct body {
	char *text;
	size_t len;
};

static size_t keep(char *data, size_t size, size_t n, void *to)
{
	struct body *b = to;
	b->text = realloc(b->text, b->len + size * n + 1);
	memcpy(b->text + b->len, data, size * n);
	b->len += size * n;
	b->text[b->len] = '\0';
	return size * n;
}

/* GET path from a `judge serve` of the test's store, with token (or
 * none): the status, and the body in *text (malloc'd). */
static long served(const char *path, const char *token, char **text)
{
	char url[256], auth[96];
	err_t err = {0};
	struct judge_config c;
	cfg_defaults(&c);
	struct serve_options o = { .queue = tt.where, .host = "127.0.0.1", .limits = c.serve };
	struct serve *sv = serve_start(&o, err);
	cr_assert_not_null(sv, "%s", err->msg);
	snprintf(url, sizeof url, "http://127.0.0.1:%u%s", serve_port(sv), path);
	struct body b = { 0 };
	struct curl_slist *headers = NULL;
	if (token) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
		headers = curl_slist_append(headers, auth);
	}
	CURL *curl = curl_easy_init();
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &b);
	CURLcode rc = curl_easy_perform(curl);
	long status = 0;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(curl);
	curl_slist_free_all(headers);
	serve_stop(sv);
	cr_assert_eq(rc, CURLE_OK, "%s", curl_easy_strerror(rc));
	*text = b.text ? b.text : strdup("");
	return status;
}

static json_t *served_json(const char *path, const char *token)
{
	char *text;
	long status = served(path, token, &text);
	cr_assert_eq(status, 200, "GET %s: %ld %s", path, status, text);
	json_t *j = json_loads(text, 0, NULL);
	cr_assert_not_null(j, "%s", text);
	free(text);
	return j;
}

static void organiser_token(struct store *s, char token[44])
{
	char hex[65];
	err_t err = {0};
	int64_t id;
	cr_assert_eq(serve_token_new(token, err), 0, "%s", err->msg);
	cr_assert_eq(serve_token_hash(token, hex), 0);
	cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = hex, .author = "organiser", .organiser = true }, &id, NULL, err), 0, "%s", err->msg);
}

/* ---- reading the JSON -------------------------------------------------------------- */

static json_int_t num(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static json_t *at(json_t *o, const char *key, size_t i)
{
	return json_array_get(json_object_get(o, key), i);
}

/* How many rivals seat k of a match scored better than (the rule's "better
 * than two of its three rivals"), from the scores alone. */
static int rivals_beaten(json_t *match, size_t k)
{
	json_t *seats = json_object_get(match, "seats");
	json_int_t mine = num(json_array_get(seats, k), "score");
	int beaten = 0;
	for (size_t j = 0; j < json_array_size(seats); j++)
		beaten += j != k && num(json_array_get(seats, j), "score") < mine;
	return beaten;
}

/* ---- an elimination, live ---------------------------------------------------------- */

static struct event_sim dominator = { .game = "dominator" };

/* Nine students down to seven: round 1 decided, round 2 under way. */
static int64_t live_elimination(struct store *s)
{
	int64_t t = event_sim_tournament(s, &dominator, "live", json_pack("{s:[{s:s, s:i}]}",
		"phases", "kind", "elimination", "remain", 7), 9, 21);
	for (int i = 0; i < 200 && teststore_int(s, "SELECT COUNT(*) FROM entrants"
						 " WHERE out_round IS NOT NULL") == 0; i++)
		cr_assert_eq(event_sim_play(s, &dominator, true), 1);
	cr_assert_eq(event_sim_play(s, &dominator, true), 1, "round 2 has nothing to play");
	return t;
}

/* Every seat marked safe beat enough rivals; a student safe in a stage
 * plays no later stage of the round; the student out is never safe;
 * somebody is. */
static void check_safe_marks(json_t *round, json_int_t out)
{
	json_t *safe = json_object(), *stage, *match, *seat;
	size_t i, j, k;
	int marked = 0;
	json_array_foreach(json_object_get(round, "stages"), i, stage)
		json_array_foreach(json_object_get(stage, "matches"), j, match)
			json_array_foreach(json_object_get(match, "seats"), k, seat) {
				char key[24];
				snprintf(key, sizeof key, "%lld", (long long)num(seat, "entrant"));
				cr_expect(!json_object_get(safe, key) || num(seat, "entrant") == 0,
					  "entrant %s plays on after being safe", key);
				if (!json_is_true(json_object_get(seat, "safe")))
					continue;
				marked++;
				cr_expect_geq(rivals_beaten(match, k), 2, "entrant %s marked safe", key);
				cr_expect_neq(num(seat, "entrant"), out, "the student out was marked safe");
				json_object_set_new(safe, key, json_true());
			}
	cr_expect_gt(marked, 0, "nobody marked safe in the round");
	json_decref(safe);
}

BOTH(serve_tour, an_elimination_shows_its_stages_and_who_is_safe_and_out)
{
	struct store *s = teststore_open(tt.where, true);
	int64_t t = live_elimination(s);
	json_t *v = served_json("/api/tournaments/live", NULL);
	json_t *phase = at(v, "phases", 0);
	cr_expect_str_eq(json_string_value(json_object_get(phase, "kind")), "elimination");
	cr_expect_str_eq(json_string_value(json_object_get(phase, "state")), "under way");
	cr_expect_eq(num(phase, "remain"), 7);
	json_t *rounds = json_object_get(phase, "rounds");
	cr_assert_eq(json_array_size(rounds), 2, "%s", json_dumps(rounds, 0));
	json_int_t out = teststore_int(s, "SELECT id FROM entrants WHERE out_round = 0");
	cr_expect_eq(num(json_array_get(rounds, 0), "out"), out);
	cr_expect(json_is_null(json_object_get(json_array_get(rounds, 1), "out")));
	check_safe_marks(json_array_get(rounds, 0), out);
	/* round 2 has one match of its first stage played: its winners are
	 * safe already, the stage's other match cannot change that */
	check_safe_marks(json_array_get(rounds, 1), 0);
	/* every played match is linked by its id, and only those */
	json_int_t sum = 0, n = 0;
	size_t r, i, j;
	json_t *round, *stage, *match;
	json_array_foreach(rounds, r, round)
		json_array_foreach(json_object_get(round, "stages"), i, stage)
			json_array_foreach(json_object_get(stage, "matches"), j, match) {
				sum += num(match, "match");
				n += json_is_integer(json_object_get(match, "match"));
			}
	cr_expect_eq(n, teststore_int(s, "SELECT COUNT(match_id) FROM tournament_matches"));
	cr_expect_eq(sum, teststore_int(s, "SELECT SUM(match_id) FROM tournament_matches"
					  " WHERE tournament_id = %lld", (long long)t));
	json_t *e = at(v, "entrants", 0);
	cr_expect_str_eq(json_string_value(json_object_get(e, "name")), "s1");
	cr_expect_str_eq(json_string_value(json_object_get(e, "group")), "A");
	cr_expect_str_eq(json_string_value(json_object_get(e, "player")), "P1");
	json_decref(v);
	store_close(s);
}

/* ---- names ------------------------------------------------------------------------- */

/* "masked": four students s1 .. s4 with pseudonyms shown, s1 called Frodo
 * and the others none, two of its matches played; an organiser's token. */
static void masked_tournament(struct store *s, char token[44])
{
	err_t err;
	int64_t t = event_sim_tournament(s, &dominator, "masked", json_pack("{s:b, s:[{s:s, s:i}]}",
		"pseudonyms", 1, "phases", "kind", "elimination", "remain", 3), 4, 5);
	cr_assert_eq(store_entrant_add(s, t, "s1", "A", "Frodo", err), 0, "%s", err->msg);
	event_sim_run(s, &dominator, 2);
	organiser_token(s, token);
}

BOTH(serve_tour, pseudonyms_hide_the_authors_from_the_public_not_from_an_organiser)
{
	char token[44], *text;
	struct store *s = teststore_open(tt.where, true);
	masked_tournament(s, token);
	cr_assert_eq(served("/api/tournaments/masked", NULL, &text), 200, "%s", text);
	cr_expect(!strstr(text, "\"s1\"") && !strstr(text, "\"s2\"") && !strstr(text, "P1"),
		  "an author or a player's name reached the public: %s", text);
	json_t *v = json_loads(text, 0, NULL);
	cr_expect_str_eq(json_string_value(json_object_get(at(v, "entrants", 0), "name")), "Frodo");
	cr_expect(strncmp(json_string_value(json_object_get(at(v, "entrants", 1), "name")),
			  "entrant ", 8) == 0, "%s", text);
	cr_expect(json_is_true(json_object_get(v, "pseudonyms")));
	json_decref(v);
	free(text);
	v = served_json("/api/tournaments/masked", token);
	cr_expect_str_eq(json_string_value(json_object_get(at(v, "entrants", 0), "name")), "s1");
	cr_expect(json_is_false(json_object_get(v, "pseudonyms")));
	json_decref(v);
	store_close(s);
}

/* Does text hold one of the authors s1 .. sN as a JSON string? */
static const char *an_author_in(const char *text, int n)
{
	static char quoted[16];
	for (int i = 1; i <= n; i++) {
		snprintf(quoted, sizeof quoted, "\"s%d\"", i);
		if (strstr(text, quoted))
			return quoted;
	}
	return NULL;
}

/* GET path for the public: 200, and no author s1 .. s4 in it. */
static json_t *served_without_authors(const char *path)
{
	char *text;
	cr_assert_eq(served(path, NULL, &text), 200, "GET %s: %s", path, text);
	const char *leak = an_author_in(text, 4);
	cr_expect_null(leak, "GET %s gave the public the author %s: %s", path, leak, text);
	json_t *j = json_loads(text, 0, NULL);
	cr_assert_not_null(j, "%s", text);
	free(text);
	return j;
}

/* A student entered in a pseudonymous tournament is hidden on every public
 * page of the game, not only the tournament's: a match it played, its
 * player's page, the leaderboard.  The organiser sees the authors. */
BOTH(serve_tour, pseudonyms_hide_the_authors_on_matches_players_and_the_leaderboard)
{
	char token[44], path[64];
	struct store *s = teststore_open(tt.where, true);
	masked_tournament(s, token);
	snprintf(path, sizeof path, "/api/matches/%lld", (long long)teststore_int(s,
		 "SELECT MIN(mp.match_id) FROM match_players mp JOIN submissions sub"
		 " ON sub.id = mp.submission_id WHERE sub.author = 's1'"));

	json_t *m = served_without_authors(path), *seat;
	size_t i;
	bool frodo = false;
	json_array_foreach(json_object_get(m, "players"), i, seat) {
		const char *author = json_string_value(json_object_get(seat, "author"));
		frodo |= strcmp(author, "Frodo") == 0;
		cr_expect(!*author || strcmp(author, "Frodo") == 0 || strncmp(author, "entrant ", 8) == 0,
			  "seat %zu shown as %s", i, author);
	}
	cr_expect(frodo, "s1 played match %s but Frodo is not named", path);
	json_decref(m);
	json_t *p = served_without_authors("/api/players/P1?game=dominator");
	cr_expect_str_eq(json_string_value(json_object_get(p, "author")), "Frodo");
	json_decref(p);
	json_t *board = served_without_authors("/api/leaderboard/dominator");
	cr_expect_gt(json_array_size(json_object_get(board, "rows")), 0);
	json_decref(board);

	m = served_json(path, token);
	char *text = json_dumps(m, 0);
	cr_expect_not_null(an_author_in(text, 4), "the organiser sees no author: %s", text);
	free(text);
	json_decref(m);
	p = served_json("/api/players/P1?game=dominator", token);
	cr_expect_str_eq(json_string_value(json_object_get(p, "author")), "s1");
	json_decref(p);
	store_close(s);
}

/* ---- a bracket ------------------------------------------------------------------------ */

/* AIC2018, four teams, double elimination with a reset, favourites always
 * winning: s1 beats s4, s2 beats s3, s1 beats s2; s3 beats s4, then s2
 * (who dropped) beats s3; s1 beats s2 in the grand final, so no reset. */
BOTH(serve_tour, a_double_elimination_bracket_shows_its_series_and_champion)
{
	struct event_sim aic = { .game = "aic2018", .favourites = true };
	struct store *s = teststore_open(tt.where, true);
	event_sim_tournament(s, &aic, "finals", json_pack("{s:[{s:s, s:i, s:b, s:b}]}", "phases",
		"kind", "bracket", "best_of", 1, "double", 1, "reset", 1), 4, 9);
	event_sim_run(s, &aic, 100);
	json_t *v = served_json("/api/tournaments/finals", NULL), *phase = at(v, "phases", 0);
	json_int_t id[5];
	for (int i = 1; i <= 4; i++)
		id[i] = teststore_int(s, "SELECT id FROM entrants WHERE author = 's%d'", i);
	cr_expect_eq(num(phase, "champion"), id[1]);
	json_t *series = json_object_get(phase, "series"), *x;
	const char *shape = "WWWLLFR";
	cr_assert_eq(json_array_size(series), strlen(shape), "%s", json_dumps(series, 0));
	size_t i;
	json_array_foreach(series, i, x) {
		cr_expect_eq(json_string_value(json_object_get(x, "bracket"))[0], shape[i]);
		bool reset = shape[i] == 'R';
		cr_expect_eq(json_is_true(json_object_get(x, "skipped")), reset, "series %zu", i);
		if (!reset)
			cr_expect(json_is_integer(json_object_get(at(x, "games", 0), "match")),
				  "series %zu has no match", i);
	}
	/* round 1: seeds 1 and 4, 2 and 3 (all rated alike: entry order) */
	cr_expect_eq(json_integer_value(at(json_array_get(series, 0), "players", 0)), id[1]);
	cr_expect_eq(json_integer_value(at(json_array_get(series, 0), "players", 1)), id[4]);
	cr_expect_eq(num(json_array_get(series, 2), "winner"), id[1], "the winners' final");
	cr_expect_eq(num(json_array_get(series, 4), "winner"), id[2], "the losers' final");
	cr_expect_eq(num(json_array_get(series, 5), "winner"), id[1], "the grand final");
	cr_expect_eq(json_integer_value(at(json_array_get(series, 0), "wins", 0)), 1);
	json_decref(v);
	store_close(s);
}

/* ---- round-robin groups -------------------------------------------------------------- */

static double points_of(json_t *group)
{
	double sum = 0;
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(group, "standings"), i, row)
		sum += json_number_value(json_object_get(row, "points"));
	return sum;
}

/* Blitz2018, ten players in two groups of five (two matches each, 5..1
 * points a place), then a final of the two group winners (three matches,
 * 2 and 1 points). */
BOTH(serve_tour, round_robin_groups_show_their_points_and_the_final)
{
	struct event_sim blitz = { .game = "blitz" };
	struct store *s = teststore_open(tt.where, true);
	event_sim_tournament(s, &blitz, "groups", json_pack("{s:[{s:s, s:i, s:i, s:i}]}",
		"phases", "kind", "round-robin", "size", 5, "matches", 2, "final", 3), 10, 4);
	event_sim_run(s, &blitz, 100);
	json_t *v = served_json("/api/tournaments/groups", NULL), *phase = at(v, "phases", 0);
	json_t *groups = json_object_get(phase, "groups"), *final = json_object_get(phase, "final");
	cr_assert_eq(json_array_size(groups), 2);
	for (size_t g = 0; g < 2; g++) {
		json_t *group = json_array_get(groups, g);
		cr_expect_eq(json_array_size(json_object_get(group, "standings")), 5);
		cr_expect_eq(json_array_size(json_object_get(group, "matches")), 2);
		cr_expect_float_eq(points_of(group), 2 * 15.0, 1e-9, "group %zu", g);
	}
	cr_assert(json_is_object(final));
	cr_expect_float_eq(points_of(final), 3 * 3.0, 1e-9);
	cr_expect_eq(num(at(final, "standings", 0), "entrant"),
		     teststore_int(s, "SELECT id FROM entrants WHERE place = 1"));
	cr_expect_eq(num(at(final, "standings", 0), "entrant"),
		     num(at(json_array_get(groups, 0), "standings", 0), "entrant") +
		     num(at(json_array_get(groups, 1), "standings", 0), "entrant") -
		     num(at(final, "standings", 1), "entrant"),
		     "the final is not the two group winners");
	json_decref(v);
	store_close(s);
}

/* ---- the list and refusals --------------------------------------------------------- */

BOTH(serve_tour, the_list_names_every_tournament_and_an_unknown_one_is_a_404)
{
	char *text;
	struct store *s = teststore_open(tt.where, true);
	event_sim_tournament(s, &dominator, "first", json_pack("{s:[{s:s}]}", "phases", "kind",
							       "ladder"), 2, 1);
	event_sim_tournament(s, &dominator, "second", json_pack("{s:[{s:s}]}", "phases", "kind",
								"ladder"), 2, 1);
	json_t *list = served_json("/api/tournaments", NULL);
	cr_assert_eq(json_array_size(list), 2);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(list, 1), "name")),
			 "second");
	json_decref(list);
	cr_expect_eq(served("/api/tournaments/third", NULL, &text), 404);
	cr_expect(strstr(text, "no tournament third"), "%s", text);
	free(text);
	cr_expect_eq(served("/api/tournaments/a%20b", NULL, &text), 404, "%s", text);
	free(text);
	store_close(s);
}
