/* test_event_run.c - a tournament moved on by the store's record
 * (judge/event/run.c), on both backends: an elimination run to its end by
 * a simulated worker that claims each match job and records a result,
 * re-checked round by round from the store; the same seed and record make
 * the same draws; a killed worker's half-done round is taken up again. */
#include <criterion/criterion.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/event/run.h"
#include "judge/event/tournament.h"
#include "judge/store/store.h"
#include "judge/store/store_tournament.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/event_testlib.h"
#include "tests/unit/pg_testlib.h"

static struct test_target tt;

static void setup(void)
{
	test_target_sqlite(&tt, "test-event-run");
}

static void setup_pg(void)
{
	test_target_pg(&tt, "test-event-run");
}

static void teardown(void)
{
	test_target_remove(&tt);
}

TestSuite(event_run, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(event_run_pg, .init = setup_pg, .fini = teardown, .timeout = 120);

static struct event_sim sim = { .game = "dominator" };

/* An elimination of n students down to `remain`. */
static int64_t course(struct store *s, const char *name, int n, int remain, uint64_t seed)
{
	return event_sim_tournament(s, &sim, name, json_pack("{s:[{s:s, s:i}]}", "phases", "kind",
						"elimination", "remain", remain), n, seed);
}

/* Rounds in the order the log says, each with who went out. */
static json_t *outs(struct store *s, int64_t t)
{
	err_t err;
	json_t *log, *e, *list = json_array();
	size_t i;
	cr_assert_eq(store_tournament_history(s, t, &log, err), 0, "%s", err->msg);
	json_array_foreach(log, i, e)
		if (strcmp(json_string_value(json_object_get(e, "what")), "out") == 0) {
			json_t *d = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
			json_array_append(list, json_object_get(d, "author"));
			json_decref(d);
		}
	json_decref(log);
	return list;
}

/* The rule again, from the store: in every round's last match, the student
 * out finished behind every other student; nobody out plays later. */
static void recheck_from_store(struct store *s, int64_t t, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		char out[16];
		teststore_text(s, out, sizeof out, "SELECT author FROM entrants WHERE tournament_id = %lld"
			       " AND out_round = %d", (long long)t, r);
		int64_t last = teststore_int(s, "SELECT MAX(match_id) FROM tournament_matches"
					       " WHERE tournament_id = %lld AND round = %d", (long long)t, r);
		int64_t mine = teststore_int(s, "SELECT mp.score FROM match_players mp JOIN submissions"
					       " sub ON sub.id = mp.submission_id WHERE mp.match_id = %lld"
					       " AND sub.author = '%s'", (long long)last, out);
		int64_t behind = teststore_int(s, "SELECT COUNT(*) FROM match_players WHERE match_id = %lld"
					       " AND submission_id IS NOT NULL AND score <= %lld",
					       (long long)last, (long long)mine);
		cr_expect_eq(behind, 1, "round %d: %s is out but did not finish last of the students",
			     r, out);
		cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches tm JOIN"
					   " match_players mp ON mp.match_id = tm.match_id JOIN submissions"
					   " sub ON sub.id = mp.submission_id WHERE tm.tournament_id = %lld"
					   " AND tm.round > %d AND sub.author = '%s'", (long long)t, r, out),
			     0, "%s plays after going out in round %d", out, r);
	}
}

BOTH(event_run, an_elimination_runs_to_its_end_by_the_rule)
{
	struct store *s = teststore_open(tt.where, true);
	int64_t t = course(s, "course", 13, 4, 7);
	event_sim_run(s, &sim, 5000);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM entrants WHERE out_phase IS NULL"), 4);
	cr_expect_eq(teststore_int(s, "SELECT phase FROM tournaments"), 1, "the phase is over");
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM jobs WHERE state <> 'done'"), 0);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches WHERE match_id IS NULL"),
		     0, "a planned match was never played");
	json_t *o = outs(s, t);
	cr_expect_eq(json_array_size(o), 9);
	recheck_from_store(s, t, 9);
	json_decref(o);
	store_close(s);
}

/* Two stores, one seed, the same results: the same students go out in the
 * same order; another seed draws other groups. */
/* Every planned match of the tournament's first phase as "round.stage.group:
 * author author ...", the opponent as "-": what its draws made. */
static char *draws(struct store *s, int64_t t)
{
	err_t err;
	json_t *entrants, *e;
	size_t i, k;
	cr_assert_eq(store_entrants(s, t, &entrants, err), 0, "%s", err->msg);
	size_t cap = 1 << 16, at = 0;
	char *out = calloc(1, cap);
	int rounds = (int)teststore_int(s, "SELECT COALESCE(MAX(round), 0) FROM tournament_matches"
				       " WHERE tournament_id = %lld", (long long)t);
	for (int r = 0; r <= rounds; r++) {
		json_t *round, *m;
		cr_assert_eq(store_tmatch_round(s, t, 0, r, &round, err), 0, "%s", err->msg);
		json_array_foreach(round, i, m) {
			at += (size_t)snprintf(out + at, cap - at, "%d.%lld.%lld:", r,
				(long long)json_integer_value(json_object_get(m, "stage")),
				(long long)json_integer_value(json_object_get(m, "group")));
			json_t *seat;
			json_array_foreach(json_object_get(m, "seats"), k, seat) {
				const char *who = "-";
				json_array_foreach(entrants, i, e)
					if (json_integer_value(json_object_get(e, "id")) ==
					    json_integer_value(seat))
						who = json_string_value(json_object_get(e, "author"));
				at += (size_t)snprintf(out + at, cap - at, " %s", who);
			}
			at += (size_t)snprintf(out + at, cap - at, "\n");
		}
		json_decref(round);
	}
	json_decref(entrants);
	return out;
}

BOTH(event_run, the_same_seed_and_record_make_the_same_tournament)
{
	struct store *s = teststore_open(tt.where, true);
	int64_t a = course(s, "first", 9, 3, 11);
	event_sim_run(s, &sim, 5000);
	int64_t b = course(s, "again", 9, 3, 11);
	event_sim_run(s, &sim, 5000);
	json_t *oa = outs(s, a), *ob = outs(s, b);
	cr_expect(json_equal(oa, ob), "%s / %s", json_dumps(oa, 0), json_dumps(ob, 0));
	char *da = draws(s, a), *db = draws(s, b);
	cr_expect_str_eq(da, db, "the same draw made other groups");
	free(da);
	free(db);
	json_decref(oa);
	json_decref(ob);
	store_close(s);
}

/* A worker killed before its commit recorded nothing; its job is claimed
 * again when the lease ends, and the round goes on with nothing twice. */
BOTH(event_run, a_result_rolled_back_is_played_again_and_counted_once)
{
	struct store *s = teststore_open(tt.where, true);
	int64_t t = course(s, "killed", 6, 5, 3);
	int64_t planned = teststore_int(s, "SELECT COUNT(*) FROM tournament_matches");
	cr_assert_eq(event_sim_play(s, &sim, false), 1);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches"), planned,
		     "a rolled-back result planned matches");
	teststore_run(s, "UPDATE jobs SET lease_until = 0 WHERE state = 'running'");
	event_sim_run(s, &sim, 5000);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM entrants WHERE out_phase IS NULL"), 5);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM matches"),
		     teststore_int(s, "SELECT COUNT(*) FROM tournament_matches"),
		     "a match recorded twice, or one never");
	recheck_from_store(s, t, 1);
	store_close(s);
}

/* Planning again changes nothing: the advance is idempotent. */
BOTH(event_run, moving_on_twice_queues_nothing_new)
{
	char note[128];
	err_t err;
	err_t serr;
	struct store *s = teststore_open(tt.where, true);
	int64_t t = course(s, "twice", 10, 2, 5);
	int64_t jobs = teststore_int(s, "SELECT COUNT(*) FROM jobs");
	cr_assert_eq(store_begin(s, serr), 0, "%s", serr->msg);
	cr_assert_eq(event_advance(s, t, 2000, note, sizeof note, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(s, serr), 0, "%s", serr->msg);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM jobs"), jobs);
	cr_expect_eq(jobs, 3, "ten students: three groups of four in the first stage");
	store_close(s);
}

/* Refusals: a representative must be the author's qualified submission. */
BOTH(event_run, a_representative_is_the_authors_qualified_player)
{
	err_t err = {0};
	struct store *s = teststore_open(tt.where, true);
	int64_t p1 = event_sim_player(s, &sim, 1), p2 = event_sim_player(s, &sim, 2);
	json_t *spec = json_pack("{s:[{s:s}]}", "phases", "kind", "ladder");
	int64_t t;
	cr_assert_eq(store_tournament_create(s, "dominator", "refusals", spec, 1, &t, err), 0);
	cr_expect_eq(store_tournament_create(s, "dominator", "refusals", spec, 1, &t, err), -1);
	cr_expect(strstr(err->msg, "exists already"), "%s", err->msg);
	json_decref(spec);
	cr_assert_eq(store_entrant_add(s, t, "s1", "A", NULL, err), 1, "%s", err->msg);
	cr_expect_eq(store_entrant_pick(s, t, "s1", p2, err), 0);
	cr_expect(strstr(err->msg, "another author's"), "%s", err->msg);
	cr_expect_eq(store_entrant_pick(s, t, "s2", p2, err), 0);
	cr_expect(strstr(err->msg, "not an entrant"), "%s", err->msg);
	teststore_run(s, "UPDATE submissions SET state = 'not_qualified' WHERE id = %lld",
		      (long long)p1);
	cr_expect_eq(store_entrant_pick(s, t, "s1", p1, err), 0);
	cr_expect(strstr(err->msg, "has not qualified"), "%s", err->msg);
	store_close(s);
}

/* Blitz2018 groups of 5 (2 matches each), then a final of the two group
 * winners (3 matches); strengths mixed.  Every entrant gets a place; the
 * finalists are first and second, the final's winner first by its points;
 * each group's winner is the one with most points from its recorded
 * matches. */
BOTH(event_run, blitz_groups_and_their_final_give_every_place)
{
	struct store *s = teststore_open(tt.where, true);
	sim.game = "blitz";
	event_sim_tournament(s, &sim, "groups", json_pack("{s:[{s:s, s:i, s:i, s:i}]}", "phases",
				  "kind", "round-robin", "size", 5, "matches", 2, "final", 3), 10, 4);
	event_sim_run(s, &sim, 5000);
	sim.game = "dominator";
	cr_expect_eq(teststore_int(s, "SELECT phase FROM tournaments"), 1, "the phase is over");
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches WHERE round = 0"), 4);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches WHERE round = 1"), 3);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM entrants WHERE place IS NOT NULL"), 10);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(DISTINCT place) FROM entrants"
				   " WHERE place <= 2"), 2, "two finalists, places 1 and 2");
	/* the final's points by the rule again: 2 for a first place, 1 for a second */
	int64_t champion = teststore_int(s, "SELECT e.id FROM entrants e WHERE e.place = 1");
	int64_t best = teststore_int(s,
		"SELECT CASE WHEN sub.author = e.author THEN 1 ELSE 0 END FROM tournament_matches tm"
		" JOIN match_players mp ON mp.match_id = tm.match_id"
		" JOIN submissions sub ON sub.id = mp.submission_id"
		" JOIN entrants e ON e.id = %lld WHERE tm.round = 1"
		" GROUP BY sub.author, e.author ORDER BY SUM(3 - mp.rank) DESC LIMIT 1",
		(long long)champion);
	cr_expect_eq(best, 1, "the champion did not score most in the final");
	store_close(s);
}

/* AIC2018, 16 teams, double elimination, best of 1, favourites always
 * winning, seeded by entry (all rated alike): by hand, places 1, 2, 3, 4,
 * 5, 5, 7, 7, 9 x4, 13 x4 (judge/event/bracket.h), and 30 series. */
BOTH(event_run, an_aic2018_double_elimination_bracket_by_hand)
{
	struct store *s = teststore_open(tt.where, true);
	sim.game = "aic2018";
	sim.favourites = true;
	int64_t t = event_sim_tournament(s, &sim, "bracket", json_pack("{s:[{s:s, s:i}]}", "phases", "kind",
				  "bracket", "best_of", 1), 16, 8);
	event_sim_run(s, &sim, 5000);
	sim.game = "dominator";
	sim.favourites = false;
	static const int want[16] = { 1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9, 13, 13, 13, 13 };
	for (int i = 1; i <= 16; i++)
		cr_expect_eq(teststore_int(s, "SELECT place FROM entrants WHERE author = 's%d'"
					   " AND tournament_id = %lld", i, (long long)t), want[i - 1],
			     "s%d", i);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches"), 30);
	cr_expect_eq(teststore_int(s, "SELECT phase FROM tournaments"), 1);
	store_close(s);
}
