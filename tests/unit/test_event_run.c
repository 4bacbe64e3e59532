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

/* A qualified player of author "sN" (its strength: N). */
static int64_t qualified_player(struct store *s, int n)
{
	char err[STORE_ERRLEN] = "", author[16], name[16], sha[16];
	snprintf(author, sizeof author, "s%d", n);
	snprintf(name, sizeof name, "P%d", n);
	snprintf(sha, sizeof sha, "%08x", n);
	struct store_new_submission sub = { .game = "dominator", .author = author, .name = name,
					    .source = "int x;", .source_len = 6,
					    .source_sha256 = sha };
	int64_t id;
	struct store_submission row;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "%s", err);
	cr_assert_eq(store_get_submission(s, id, &row, err), 1, "%s", err);
	cr_assert_eq(store_begin(s, err), 0, "%s", err);
	cr_assert_eq(store_conclude_qualification(s, &row, true, 25, 8, err), 0, "%s", err);
	cr_assert_eq(store_commit(s, err), 0, "%s", err);
	teststore_run(s, "DELETE FROM jobs WHERE kind = 'compile'");
	return id;
}

/* A tournament of n students, each with a representative, an elimination
 * down to `remain`; started. */
static int64_t course(struct store *s, const char *name, int n, int remain, uint64_t seed)
{
	char err[STORE_ERRLEN] = "", eerr[EVENT_ERRLEN] = "";
	json_t *spec = json_pack("{s:[{s:s, s:i}]}", "phases", "kind", "elimination", "remain",
				 remain);
	int64_t t;
	cr_assert_eq(store_tournament_create(s, "dominator", name, spec, seed, &t, err), 0, "%s",
		     err);
	json_decref(spec);
	for (int i = 1; i <= n; i++) {
		char author[16];
		snprintf(author, sizeof author, "s%d", i);
		int64_t sub = teststore_int(s, "SELECT COALESCE(MAX(id), 0) FROM submissions"
					       " WHERE author = 's%d'", i);
		if (!sub)
			sub = qualified_player(s, i);
		cr_assert_eq(store_entrant_add(s, t, author, i % 2 ? "A" : "B", NULL, err), 1, "%s",
			     err);
		cr_assert_eq(store_entrant_pick(s, t, author, sub, err), 1, "%s", err);
	}
	cr_assert_eq(store_begin(s, err), 0, "%s", err);
	cr_assert_eq(event_start(s, t, 1000, eerr), 1, "%s", eerr);
	cr_assert_eq(store_commit(s, err), 0, "%s", err);
	return t;
}

/* The strength of a seat of a job's payload: the student's number, 50 for
 * the opponent; the score adds a little luck from the match seed. */
static int64_t seat_score(struct store *s, json_t *seat, uint64_t seed, int k)
{
	json_t *sub = json_object_get(seat, "submission");
	int64_t strength = 50;
	if (sub)
		strength = teststore_int(s, "SELECT CAST(SUBSTR(name, 2) AS INTEGER) FROM submissions"
					    " WHERE id = %lld", (long long)json_integer_value(sub)) * 7 % 100;
	return strength * 10 + (int64_t)((seed >> (8 * k)) % 400);
}

/* Claims one tournament job and records a result for it, as the worker
 * does, in one transaction; commit false rolls it back (a worker killed
 * before its commit).  0 when no job waits. */
static int play_one(struct store *s, bool commit)
{
	char err[STORE_ERRLEN] = "", eerr[EVENT_ERRLEN] = "", note[256];
	struct store_job job;
	int got = store_claim(s, "w1", 60000, 5, &job, err);
	cr_assert_geq(got, 0, "%s", err);
	if (!got)
		return 0;
	json_t *p = json_loads(job.payload, 0, NULL);
	cr_assert_str_eq(json_string_value(json_object_get(p, "kind")), "tournament");
	uint64_t seed = (uint64_t)json_integer_value(json_object_get(p, "seed"));
	json_t *seats = json_object_get(p, "seats");
	int64_t score[8];
	for (size_t k = 0; k < json_array_size(seats); k++)
		score[k] = seat_score(s, json_array_get(seats, k), seed, (int)k);
	cr_assert_eq(store_begin(s, err), 0, "%s", err);
	cr_assert_eq(store_complete(s, job.id, "w1", err), 0, "%s", err);
	struct store_new_match m = { .job = job.id, .game = "dominator", .kind = "tournament",
				     .seed = (int64_t)seed, .replay = "x", .replay_len = 1 };
	int64_t match;
	cr_assert_eq(store_add_match(s, &m, &match, err), 0, "%s", err);
	for (size_t k = 0; k < json_array_size(seats); k++) {
		int rank = 1;
		for (size_t j = 0; j < json_array_size(seats); j++)
			rank += score[j] > score[k];
		json_t *sub = json_object_get(json_array_get(seats, k), "submission");
		struct store_match_player mp = { .seat = (int)k,
						 .submission = sub ? json_integer_value(sub) : 0,
						 .name = sub ? "x" : "Dummy", .score = score[k],
						 .rank = rank, .frozen_round = -1 };
		cr_assert_eq(store_add_match_player(s, match, &mp, err), 0, "%s", err);
	}
	cr_assert_eq(event_match_recorded(s, job.id, match, note, sizeof note, eerr), 1, "%s",
		     eerr);
	if (commit)
		cr_assert_eq(store_commit(s, err), 0, "%s", err);
	else
		store_rollback(s);
	json_decref(p);
	store_job_clear(&job);
	return 1;
}

static void run_to_end(struct store *s)
{
	for (int i = 0; i < 5000 && play_one(s, true); i++)
		;
}

/* Rounds in the order the log says, each with who went out. */
static json_t *outs(struct store *s, int64_t t)
{
	char err[STORE_ERRLEN];
	json_t *log, *e, *list = json_array();
	size_t i;
	cr_assert_eq(store_tournament_history(s, t, &log, err), 0, "%s", err);
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
	run_to_end(s);
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
	char err[STORE_ERRLEN];
	json_t *entrants, *e;
	size_t i, k;
	cr_assert_eq(store_entrants(s, t, &entrants, err), 0, "%s", err);
	size_t cap = 1 << 16, at = 0;
	char *out = calloc(1, cap);
	int rounds = (int)teststore_int(s, "SELECT COALESCE(MAX(round), 0) FROM tournament_matches"
				       " WHERE tournament_id = %lld", (long long)t);
	for (int r = 0; r <= rounds; r++) {
		json_t *round, *m;
		cr_assert_eq(store_tmatch_round(s, t, 0, r, &round, err), 0, "%s", err);
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
	run_to_end(s);
	int64_t b = course(s, "again", 9, 3, 11);
	run_to_end(s);
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
	cr_assert_eq(play_one(s, false), 1);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM tournament_matches"), planned,
		     "a rolled-back result planned matches");
	teststore_run(s, "UPDATE jobs SET lease_until = 0 WHERE state = 'running'");
	run_to_end(s);
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
	char err[EVENT_ERRLEN], serr[STORE_ERRLEN], note[128];
	struct store *s = teststore_open(tt.where, true);
	int64_t t = course(s, "twice", 10, 2, 5);
	int64_t jobs = teststore_int(s, "SELECT COUNT(*) FROM jobs");
	cr_assert_eq(store_begin(s, serr), 0, "%s", serr);
	cr_assert_eq(event_advance(s, t, 2000, note, sizeof note, err), 0, "%s", err);
	cr_assert_eq(store_commit(s, serr), 0, "%s", serr);
	cr_expect_eq(teststore_int(s, "SELECT COUNT(*) FROM jobs"), jobs);
	cr_expect_eq(jobs, 3, "ten students: three groups of four in the first stage");
	store_close(s);
}

/* Refusals: a representative must be the author's qualified submission. */
BOTH(event_run, a_representative_is_the_authors_qualified_player)
{
	char err[STORE_ERRLEN] = "";
	struct store *s = teststore_open(tt.where, true);
	int64_t p1 = qualified_player(s, 1), p2 = qualified_player(s, 2);
	json_t *spec = json_pack("{s:[{s:s}]}", "phases", "kind", "ladder");
	int64_t t;
	cr_assert_eq(store_tournament_create(s, "dominator", "refusals", spec, 1, &t, err), 0);
	cr_expect_eq(store_tournament_create(s, "dominator", "refusals", spec, 1, &t, err), -1);
	cr_expect(strstr(err, "exists already"), "%s", err);
	json_decref(spec);
	cr_assert_eq(store_entrant_add(s, t, "s1", "A", NULL, err), 1, "%s", err);
	cr_expect_eq(store_entrant_pick(s, t, "s1", p2, err), 0);
	cr_expect(strstr(err, "another author's"), "%s", err);
	cr_expect_eq(store_entrant_pick(s, t, "s2", p2, err), 0);
	cr_expect(strstr(err, "not an entrant"), "%s", err);
	teststore_run(s, "UPDATE submissions SET state = 'not_qualified' WHERE id = %lld",
		      (long long)p1);
	cr_expect_eq(store_entrant_pick(s, t, "s1", p1, err), 0);
	cr_expect(strstr(err, "has not qualified"), "%s", err);
	store_close(s);
}
