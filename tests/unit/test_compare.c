/* test_compare.c - version comparisons: the 95% interval against a Monte
 * Carlo of the same paired design (each pair: one seed and one set of
 * opponents, shared by both versions), and a comparison end to end
 * through the real worker on SQLite and PostgreSQL, its report checked
 * against the matches the store recorded. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/event/compare.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/serve_testlib.h"

/* ---- the paired design, simulated ---------------------------------------------------- */

/* A small generator of its own, so the test draws the same numbers every run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* One four-seat match: the version of strength skill against opponents
 * of strengths opp[] (shared by both sides of a pair), each performance
 * its strength plus the match's noise, the seed's difficulty counted
 * against the version.  The version's rank, 1 the best. */
static int play(double skill, double difficulty, const double opp[3])
{
	double mine = skill - difficulty + normal();
	int rank = 1;
	for (int j = 0; j < 3; j++)
		rank += opp[j] + normal() > mine;
	return rank;
}

struct pair_draw {
	int rank_a, rank_b;
};

/* A pair: one seed and one set of opponents, each version's match. */
static struct pair_draw draw_pair(double skill_a, double skill_b)
{
	double difficulty = normal(), opp[3];
	for (int j = 0; j < 3; j++)
		opp[j] = normal();
	return (struct pair_draw){ play(skill_a, difficulty, opp), play(skill_b, difficulty, opp) };
}

#define SKILL_A 0.6
#define SKILL_B 0.2
#define PAIRS 40
#define EXPERIMENTS 2000

/* The true differences of the design, from a million pairs. */
static void true_differences(double *wins, double *rank)
{
	double w = 0, r = 0;
	const int n = 1000000;
	for (int i = 0; i < n; i++) {
		struct pair_draw p = draw_pair(SKILL_A, SKILL_B);
		w += (p.rank_a == 1) - (p.rank_b == 1);
		r += p.rank_a - p.rank_b;
	}
	*wins = w / n;
	*rank = r / n;
}

Test(compare_interval, covers_the_true_difference_95_times_in_100_in_a_monte_carlo)
{
	double true_wins, true_rank;
	true_differences(&true_wins, &true_rank);
	cr_assert(true_wins > 0.05 && true_rank < -0.1, "the design has a difference to find");
	int covered_wins = 0, covered_rank = 0;
	double width_rank = 0;
	for (int e = 0; e < EXPERIMENTS; e++) {
		double wins[PAIRS], rank[PAIRS];
		for (int k = 0; k < PAIRS; k++) {
			struct pair_draw p = draw_pair(SKILL_A, SKILL_B);
			wins[k] = (p.rank_a == 1) - (p.rank_b == 1);
			rank[k] = p.rank_a - p.rank_b;
		}
		struct compare_interval w, r;
		compare_interval(wins, PAIRS, &w);
		compare_interval(rank, PAIRS, &r);
		covered_wins += w.low <= true_wins && true_wins <= w.high;
		covered_rank += r.low <= true_rank && true_rank <= r.high;
		width_rank += r.high - r.low;
	}
	double cw = (double)covered_wins / EXPERIMENTS, cr = (double)covered_rank / EXPERIMENTS;
	/* 2000 experiments: a true 95% is seen within about 1 point of it. */
	cr_expect(cw >= 0.93 && cw <= 0.97, "win-rate interval covered %.1f%%, not 95%%", 100 * cw);
	cr_expect(cr >= 0.93 && cr <= 0.97, "mean-rank interval covered %.1f%%, not 95%%", 100 * cr);
	cr_expect(width_rank / EXPERIMENTS < 1.5, "intervals %.2f ranks wide: too wide to tell",
		  width_rank / EXPERIMENTS);
}

Test(compare_interval, the_interval_follows_students_t)
{
	/* Differences 1, 2, 3: mean 2, s = 1, t(2) = 4.303, half-width 4.303/sqrt(3). */
	const double d[] = { 1, 2, 3 };
	struct compare_interval c;
	compare_interval(d, 3, &c);
	cr_expect_float_eq(c.mean, 2, 1e-12);
	cr_expect_float_eq(c.high - c.mean, 4.3027 / sqrt(3), 1e-4);
	cr_expect_float_eq(c.mean - c.low, 4.3027 / sqrt(3), 1e-4);
	/* Large samples: the normal's 1.96 within 0.1%. */
	double many[1000];
	for (int i = 0; i < 1000; i++)
		many[i] = i % 2;
	compare_interval(many, 1000, &c);
	double se = sqrt(0.25 * 1000 / 999 / 1000);
	cr_expect(fabs((c.high - c.mean) / se - 1.9623) < 0.002, "t(999) = %f",
		  (c.high - c.mean) / se);
	compare_interval(d, 1, &c);
	cr_expect(isnan(c.low) && isnan(c.high), "one pair gives no interval");
}

/* ---- end to end ------------------------------------------------------------------------ */

static struct contest con;

/* Alice's Demo (submission 1) and later her Dummy (4); Bob and Carol
 * qualified, to be the opponents.  No automatic comparison: the tests
 * number the ones they ask for. */
static void versions(bool pg, const char *prefix)
{
	contest_open(&con, pg, prefix, "{\"worker\": {\"qualify_matches\": 1, "
		     "\"qualify_opponent\": \"Null\", \"compare_pairs\": 0}}");
	contest_upload(&con, "Demo", "Alice", "alice", 0);
	contest_upload(&con, "Demo", "Bob", "bob", 0);
	contest_upload(&con, "Demo", "Carol", "carol", 0);
	contest_upload(&con, "Dummy", "Alice", "alice", 0);
	contest_work(&con, 0);
}

static void setup_sqlite(void)
{
	versions(false, "judge-compare");
}

static void setup_pg(void)
{
	versions(true, "judge-compare-pg");
}

static void teardown(void)
{
	contest_close(&con);
}

TestSuite(compare, .init = setup_sqlite, .fini = teardown, .timeout = 240);
TestSuite(compare_pg, .init = setup_pg, .fini = teardown, .timeout = 240);

static int judge(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s --queue '%s' 2>&1", cli_judge(), args, con.t.where);
	return cli_run(cmd, con.out, sizeof con.out);
}

/* The rank version (a submission) took in each comparison match, summed. */
static int64_t rank_sum(int64_t version)
{
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT coalesce(sum(mp.rank), 0) FROM comparison_matches cm"
		 " JOIN matches m ON m.job_id = cm.job_id JOIN match_players mp ON mp.match_id ="
		 " m.id AND mp.seat = cm.seat WHERE mp.submission_id = %lld AND m.kind ="
		 " 'comparison' AND m.rated = 0", (long long)version);
	struct store *s = teststore_open(con.t.where, false);
	int64_t n = teststore_int(s, "%s", sql);
	store_close(s);
	return n;
}

BOTH(compare, two_versions_are_played_paired_and_reported_with_an_interval)
{
	cr_assert_eq(judge("compare 4 1 -n 6 --author alice"), 0, "%s", con.out);
	cr_expect(strstr(con.out, "comparison 1: 6 pairs"), "%s", con.out);
	cr_expect_eq(judge("compare 4 2 --author alice"), 1, "Bob's version is not Alice's");
	cr_expect(strstr(con.out, "not one of yours"), "%s", con.out);
	contest_work(&con, 0);
	cr_assert_eq(judge("compare --show 1 --json"), 0, "%s", con.out);
	json_t *j = json_loads(con.out, 0, NULL), *rank = json_object_get(j, "rank");
	cr_assert_not_null(rank, "%s", con.out);
	cr_expect_eq(json_integer_value(json_object_get(rank, "pairs")), 6);
	double mean = json_real_value(json_object_get(rank, "mean"));
	cr_expect_float_eq(mean, (rank_sum(4) - rank_sum(1)) / 6.0, 1e-9,
			   "the mean rank difference is not the recorded one: %s", con.out);
	double low = json_real_value(json_object_get(rank, "low"));
	double high = json_real_value(json_object_get(rank, "high"));
	cr_expect(low <= mean && mean <= high, "%s", con.out);
	json_decref(j);
	/* The same opponents, seed and seat on both sides of every pair. */
	struct store *s = teststore_open(con.t.where, false);
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM (SELECT m.seed FROM comparison_matches"
				      " cm JOIN matches m ON m.job_id = cm.job_id GROUP BY cm.pair,"
				      " m.seed, cm.seat HAVING count(*) = 2) t"), 6);
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM (SELECT cm.pair FROM comparison_matches"
				      " cm JOIN matches m ON m.job_id = cm.job_id JOIN match_players mp"
				      " ON mp.match_id = m.id WHERE mp.seat <> cm.seat GROUP BY cm.pair,"
				      " mp.seat, mp.name HAVING count(*) = 2) t"), 6 * 3,
		     "the two sides of a pair met other opponents");
	cr_expect_eq(teststore_int(s, "SELECT count(*) FROM ratings r JOIN submissions s ON"
				      " s.id = r.submission_id WHERE r.games > 0"), 0,
		     "a comparison match was rated");
	store_close(s);
	cr_assert_eq(judge("compare --show 1"), 0, "%s", con.out);
	cr_expect(strstr(con.out, "6 of 6 pairs played"), "%s", con.out);
}

/* Through the service: Alice asks, the worker plays, Alice reads the
 * intervals on her submission; Bob may neither compare nor read them. */
BOTH(compare, the_service_queues_and_shows_a_comparison_to_its_author_only)
{
	char alice[44], bob[44];
	serve_test_token(con.t.where, "alice", false, alice);
	serve_test_token(con.t.where, "bob", false, bob);
	contest_serve(&con, false);
	const char *ask = "{\"new\": 4, \"old\": 1, \"pairs\": 3}";
	int status = contest_call(&con, "POST", "/api/comparisons", bob, ask);
	cr_expect_eq(status, 400, "%s", con.out);
	cr_expect(strstr(con.out, "not one of yours"), "%s", con.out);
	status = contest_call(&con, "POST", "/api/comparisons", alice, ask);
	cr_assert_eq(status, 201, "%s", con.out);
	contest_work(&con, 0);
	status = contest_call(&con, "GET", "/api/comparisons/1", alice, NULL);
	cr_expect_eq(status, 200, "%s", con.out);
	cr_expect(strstr(con.out, "\"queued_pairs\":3") && strstr(con.out, "\"pairs\":3"), "%s", con.out);
	status = contest_call(&con, "GET", "/api/submissions/4", alice, NULL);
	cr_expect(strstr(con.out, "\"comparisons\":[{") != NULL, "%s", con.out);
	status = contest_call(&con, "GET", "/api/comparisons/1", bob, NULL);
	cr_expect_eq(status, 404, "Bob reads Alice's comparison: %s", con.out);
}
