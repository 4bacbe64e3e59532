/* test_matchmaking.c - choosing ranked matches (judge/worker/matchmaking.c): the
 * rules one pick at a time, then whole tournaments simulated against hidden
 * true skills, rated by judge/rating/rating.c. */
#include <criterion/criterion.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/worker/matchmaking.h"
#include "judge/rating/rating.h"

/* ---- helpers ----------------------------------------------------------- */

static double unit(struct rng *r)
{
	return (rng_next(r) + 0.5) / 2147483648.0;
}

/* Box-Muller: a standard normal. */
static double gauss(struct rng *r)
{
	return sqrt(-2.0 * log(unit(r))) * cos(2.0 * M_PI * unit(r));
}

/* n established players with scattered ratings and games; with few_mus,
 * mu takes only three values, so that the order leans on id and index. */
static struct mm_player *pool_new(size_t n, uint64_t seed, bool few_mus)
{
	struct mm_player *pool = calloc(n, sizeof *pool);
	struct rng r = rng_seeded(seed);
	cr_assert_not_null(pool);
	for (size_t i = 0; i < n; i++) {
		double mu = few_mus ? rng_uniform(&r, 0, 2) : 25.0 + 8.0 * gauss(&r);
		pool[i] = (struct mm_player){ .id = 1000 + (int64_t)(n - i) % 7,
					      .mu = mu,
					      .sigma = 0.5 + 8.0 * unit(&r),
					      .games = rng_uniform(&r, 0, 60) };
	}
	return pool;
}

static void pick_ok(const struct mm_player *pool, size_t n, size_t k,
		    const struct mm_params *p, struct rng *r, size_t *out)
{
	int err = mm_pick(pool, n, k, p, r, out);
	cr_assert_eq(err, MM_OK, "mm_pick(n=%zu, k=%zu): %s", n, k, mm_strerror(err));
}

static void played(struct mm_player *pool, const size_t *out, size_t k)
{
	for (size_t i = 0; i < k; i++)
		pool[out[i]].games++;
}

/* ---- the window, written out independently: sort, then slide ---------- */

static const struct mm_player *sort_pool;

static int by_rating(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct mm_player *x = &sort_pool[i], *y = &sort_pool[j];
	if (x->mu != y->mu)
		return x->mu < y->mu ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (i > j) - (i < j);
}

/* in[i] = whether player i is in the seed's window: the m + 1 consecutive
 * players of the rating order that hold the seed, as centred on it as the
 * ends of the order allow, the seed itself excluded. */
static void window_of(const struct mm_player *pool, size_t n, size_t k,
		      int w, size_t seed, bool *in)
{
	size_t m = 2 * (size_t)w;
	m = m < k - 1 ? k - 1 : m;
	m = m > n - 1 ? n - 1 : m;
	size_t *order = malloc(n * sizeof *order), s = 0;
	cr_assert_not_null(order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_pool = pool;
	qsort(order, n, sizeof *order, by_rating);
	while (order[s] != seed)
		s++;
	size_t start = s < m / 2 ? 0 : s - m / 2;
	if (start + m > n - 1)
		start = n - 1 - m;
	memset(in, 0, n * sizeof *in);
	for (size_t i = start; i <= start + m; i++)
		in[order[i]] = order[i] != seed;
	free(order);
}

/* Checks one pick: k distinct players, the opponents in the seed's window
 * and none of them with more games than a window player left out. */
static void check_pick(const struct mm_player *pool, size_t n, size_t k,
		       int w, const size_t *out)
{
	bool *in = malloc(n * sizeof *in), chosen[n];
	cr_assert_not_null(in);
	memset(chosen, 0, sizeof chosen);
	window_of(pool, n, k, w, out[0], in);
	int most = -1, fewest_left = INT_MAX;
	for (size_t i = 0; i < k; i++) {
		cr_assert_lt(out[i], n);
		cr_assert(!chosen[out[i]], "player %zu chosen twice", out[i]);
		chosen[out[i]] = true;
		if (i > 0) {
			cr_assert(in[out[i]], "opponent %zu outside the window", out[i]);
			most = pool[out[i]].games > most ? pool[out[i]].games : most;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (in[i] && !chosen[i] && pool[i].games < fewest_left)
			fewest_left = pool[i].games;
	cr_assert_leq(most, fewest_left, "an opponent with %d games beat one with %d",
		      most, fewest_left);
	free(in);
}

/* ---- one pick at a time ------------------------------------------------ */

Test(matchmaking, picks_k_distinct_players_from_the_window)
{
	static const size_t ns[] = { 4, 5, 7, 50, 600 };
	static const size_t ks[] = { 2, 3, 4, 8 };
	static const int ws[] = { 1, 3, 10 };
	struct rng r = rng_seeded(7);

	for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
		for (size_t b = 0; b < sizeof ks / sizeof *ks; b++)
			for (size_t c = 0; c < sizeof ws / sizeof *ws; c++) {
				size_t n = ns[a], k = ks[b], out[8];
				struct mm_params p = { .window = ws[c], .min_games = 25 };
				if (k > n)
					continue;
				struct mm_player *pool = pool_new(n, n * 31 + k, c == 1);
				for (int t = 0; t < 100; t++) {
					pick_ok(pool, n, k, &p, &r, out);
					check_pick(pool, n, k, p.window, out);
					played(pool, out, k);
				}
				free(pool);
			}
}

Test(matchmaking, a_pool_of_exactly_k_plays_everyone)
{
	struct mm_player *pool = pool_new(4, 3, false);
	struct mm_params p = { .window = 1, .min_games = 0 };
	struct rng r = rng_seeded(1);
	size_t out[4];
	unsigned seen = 0;

	pick_ok(pool, 4, 4, &p, &r, out);
	for (int i = 0; i < 4; i++)
		seen |= 1u << out[i];
	cr_expect_eq(seen, 0xfu);
	free(pool);
}

Test(matchmaking, rejects_bad_input_and_writes_nothing)
{
	struct mm_player *pool = pool_new(10, 5, false);
	struct mm_params p = mm_params_default();
	struct rng r = rng_seeded(99), r0 = r;
	size_t out[4] = { 77, 77, 77, 77 };
	struct mm_params bad_w = { .window = 0, .min_games = 5 };
	struct mm_params bad_g = { .window = 5, .min_games = -1 };

	cr_expect_eq(mm_pick(pool, 3, 4, &p, &r, out), MM_EFEW);
	cr_expect_eq(mm_pick(pool, 0, 4, &p, &r, out), MM_EFEW);
	cr_expect_eq(mm_pick(pool, 10, 1, &p, &r, out), MM_ESIZE);
	cr_expect_eq(mm_pick(pool, 10, 0, &p, &r, out), MM_ESIZE);
	cr_expect_eq(mm_pick(pool, (size_t)INT_MAX + 1, 4, &p, &r, out), MM_ESIZE);
	cr_expect_eq(mm_pick(NULL, 10, 4, &p, &r, out), MM_EARG);
	cr_expect_eq(mm_pick(pool, 10, 4, NULL, &r, out), MM_EARG);
	cr_expect_eq(mm_pick(pool, 10, 4, &p, NULL, out), MM_EARG);
	cr_expect_eq(mm_pick(pool, 10, 4, &p, &r, NULL), MM_EARG);
	cr_expect_eq(mm_pick(pool, 10, 4, &bad_w, &r, out), MM_EPARAMS);
	cr_expect_eq(mm_pick(pool, 10, 4, &bad_g, &r, out), MM_EPARAMS);

	struct mm_player keep = pool[6];
	double bad_mu[] = { NAN, INFINITY, -INFINITY };
	double bad_sigma[] = { 0.0, -1.0, NAN, INFINITY };
	for (size_t i = 0; i < sizeof bad_mu / sizeof *bad_mu; i++) {
		pool[6].mu = bad_mu[i];
		cr_expect_eq(mm_pick(pool, 10, 4, &p, &r, out), MM_EPLAYER);
	}
	pool[6] = keep;
	for (size_t i = 0; i < sizeof bad_sigma / sizeof *bad_sigma; i++) {
		pool[6].sigma = bad_sigma[i];
		cr_expect_eq(mm_pick(pool, 10, 4, &p, &r, out), MM_EPLAYER);
	}
	pool[6] = keep;
	pool[6].games = -1;
	cr_expect_eq(mm_pick(pool, 10, 4, &p, &r, out), MM_EPLAYER);

	for (int i = 0; i < 4; i++)
		cr_expect_eq(out[i], 77u, "out[%d] written", i);
	cr_expect_eq(r.s, r0.s, "the generator moved on a rejected pick");
	free(pool);
}

Test(matchmaking, one_seed_one_schedule)
{
	const size_t n = 300;
	struct mm_player *a = pool_new(n, 11, false), *b = pool_new(n, 11, false);
	struct mm_params p = mm_params_default();
	struct rng ra = rng_seeded(2024), rb = rng_seeded(2024), rc = rng_seeded(2025);
	size_t oa[4], ob[4], oc[4];
	int differ = 0;

	for (int t = 0; t < 500; t++) {
		pick_ok(a, n, 4, &p, &ra, oa);
		pick_ok(b, n, 4, &p, &rb, ob);
		pick_ok(b, n, 4, &p, &rc, oc);
		cr_assert_arr_eq(oa, ob, sizeof oa, "pick %d differs for one seed", t);
		differ += memcmp(oa, oc, sizeof oa) != 0;
		played(a, oa, 4);
		played(b, ob, 4);
	}
	cr_expect_gt(differ, 400, "another seed changed only %d of 500 picks", differ);
	free(a);
	free(b);
}

Test(matchmaking, newcomers_short_of_min_games_are_seeded_fewest_first)
{
	const size_t n = 60;
	struct mm_player *pool = pool_new(n, 21, false);
	struct mm_params p = { .window = 5, .min_games = 20 };
	struct rng r = rng_seeded(5);
	size_t out[4];
	int seeded[2] = { 0, 0 };

	for (size_t i = 0; i < n; i++)
		pool[i].games = 100;
	pool[10] = (struct mm_player){ 10, 25, 8, 7, true };
	pool[11] = (struct mm_player){ 11, 25, 8, 3, true };
	pool[12] = (struct mm_player){ 12, 25, 8, 3, true };
	pool[13] = (struct mm_player){ 13, 25, 8, 20, true }; /* has its games */
	pool[14] = (struct mm_player){ 14, 25, 8, 0, false }; /* not new */

	/* Without games counted, the two with 3 share the seed at random. */
	for (int t = 0; t < 2000; t++) {
		pick_ok(pool, n, 4, &p, &r, out);
		cr_assert(out[0] == 11 || out[0] == 12, "seed %zu", out[0]);
		seeded[out[0] - 11]++;
	}
	cr_expect(seeded[0] > 850 && seeded[1] > 850, "seeds %d / %d", seeded[0], seeded[1]);

	/* Played out, every match holds a newcomer until all have 20. */
	int matches = 0;
	while (pool[10].games < 20 || pool[11].games < 20 || pool[12].games < 20) {
		pick_ok(pool, n, 4, &p, &r, out);
		cr_assert(out[0] >= 10 && out[0] <= 12, "seed %zu", out[0]);
		played(pool, out, 4);
		matches++;
	}
	cr_expect_leq(matches, 13 + 17 + 17, "%d matches", matches);
	free(pool);
}

Test(matchmaking, seed_favours_few_games_and_high_sigma)
{
	/* Weights sigma / (1 + games): 8, then 1, then 0.1 for each of 8. */
	struct mm_player pool[10];
	struct mm_params p = { .window = 2, .min_games = 0 };
	struct rng r = rng_seeded(77);
	size_t out[4];
	int count[10] = { 0 };
	const int draws = 20000;

	for (int i = 0; i < 10; i++)
		pool[i] = (struct mm_player){ i, 25.0 + i, 1.0, 9, false };
	pool[3].sigma = 8.0;
	pool[3].games = 0;
	pool[7].games = 0;
	for (int t = 0; t < draws; t++) {
		pick_ok(pool, 10, 4, &p, &r, out);
		count[out[0]]++;
	}
	cr_expect_float_eq(count[3] / (double)draws, 8.0 / 9.8, 0.015);
	cr_expect_float_eq(count[7] / (double)draws, 1.0 / 9.8, 0.01);
	cr_expect_float_eq(count[0] / (double)draws, 0.1 / 9.8, 0.005);
}

Test(matchmaking, a_large_pool)
{
	const size_t n = 30000;
	struct mm_player *pool = pool_new(n, 8, false);
	struct mm_params p = mm_params_default();
	struct rng r = rng_seeded(8);
	size_t out[4];

	for (int t = 0; t < 20; t++) {
		pick_ok(pool, n, 4, &p, &r, out);
		check_pick(pool, n, 4, p.window, out);
		played(pool, out, 4);
	}
	free(pool);
}

Test(matchmaking, should_stop_once_everyone_has_min_games)
{
	struct mm_player *pool = pool_new(30, 4, false);
	struct mm_params p = { .window = 3, .min_games = 10 };

	for (int i = 0; i < 30; i++)
		pool[i].games = 10 + i;
	cr_expect(mm_should_stop(pool, 30, &p));
	pool[17].games = 9;
	cr_expect(!mm_should_stop(pool, 30, &p));
	cr_expect(mm_should_stop(pool, 0, &p));
	cr_expect(mm_should_stop(NULL, 30, &p));
	cr_expect(mm_should_stop(pool, 30, NULL));
	free(pool);
}

Test(matchmaking, strerror_names_every_error)
{
	for (int e = MM_ENOMEM; e <= MM_OK; e++)
		cr_expect_str_neq(mm_strerror(e), mm_strerror(1), "error %d", e);
	cr_expect_not_null(mm_strerror(1));
}

/* ---- simulated tournaments --------------------------------------------- */

#define SIM_N 200

/* A pool whose players have hidden true skills; a match is decided by
 * true skill plus performance noise, then rated. */
struct sim {
	struct mm_player pool[SIM_N];
	double skill[SIM_N];
	long joined[SIM_N]; /* the match before which the player came in */
	struct rng world;   /* skills and noise */
	struct rng mm;      /* the scheduler's own */
	struct rating_params rp;
	struct mm_params mp;
	int64_t next_id;
	long t;             /* matches played */
	long reach_from;    /* newcomers from this match on are timed: */
	long worst_reach;   /* the most matches one took to min_games */
};

static void sim_join(struct sim *s, size_t i)
{
	struct rating r0 = rating_initial(&s->rp);
	s->pool[i] = (struct mm_player){ s->next_id++, r0.mu, r0.sigma, 0, true };
	s->skill[i] = 25.0 + 8.0 * gauss(&s->world);
	s->joined[i] = s->t;
}

static void sim_init(struct sim *s, uint64_t seed, int min_games)
{
	memset(s, 0, sizeof *s);
	s->world = rng_seeded(seed);
	s->mm = rng_seeded(seed ^ 0x5eed);
	s->rp = rating_params_default();
	s->mp = (struct mm_params){ .window = 10, .min_games = min_games };
	for (size_t i = 0; i < SIM_N; i++)
		sim_join(s, i);
}

/* Ranks by performance; equal performances tie. */
static void sim_ranks(const double *perf, int *rank, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		rank[i] = 1;
		for (size_t j = 0; j < k; j++)
			rank[i] += perf[j] > perf[i];
	}
}

static void sim_play(struct sim *s)
{
	size_t out[4];
	struct rating r[4];
	double perf[4];
	int rank[4];

	pick_ok(s->pool, SIM_N, 4, &s->mp, &s->mm, out);
	for (size_t i = 0; i < 4; i++) {
		r[i] = (struct rating){ s->pool[out[i]].mu, s->pool[out[i]].sigma };
		perf[i] = s->skill[out[i]] + s->rp.beta * gauss(&s->world);
	}
	sim_ranks(perf, rank, 4);
	cr_assert_eq(rating_update(&s->rp, 4, r, rank, r), RATING_OK);
	s->t++;
	for (size_t i = 0; i < 4; i++) {
		struct mm_player *pl = &s->pool[out[i]];
		pl->mu = r[i].mu;
		pl->sigma = r[i].sigma;
		if (++pl->games == s->mp.min_games && s->reach_from > 0 &&
		    s->joined[out[i]] >= s->reach_from &&
		    s->t - s->joined[out[i]] > s->worst_reach)
			s->worst_reach = s->t - s->joined[out[i]];
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double games_median(const struct sim *s)
{
	double g[SIM_N];
	for (size_t i = 0; i < SIM_N; i++)
		g[i] = s->pool[i].games;
	qsort(g, SIM_N, sizeof *g, cmp_double);
	return (g[SIM_N / 2 - 1] + g[SIM_N / 2]) / 2.0;
}

/* Ranks from 1, ties sharing their average rank. */
static void ranks_of(const double *v, double *rank, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double below = 0, equal = 0;
		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		rank[i] = below + (equal + 1) / 2.0;
	}
}

/* Spearman's rho: Pearson's correlation of the ranks. */
static double spearman(const double *x, const double *y, size_t n)
{
	double rx[n], ry[n], mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	ranks_of(x, rx, n);
	ranks_of(y, ry, n);
	for (size_t i = 0; i < n; i++) {
		mx += rx[i] / n;
		my += ry[i] / n;
	}
	for (size_t i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	return sxy / sqrt(sxx * syy);
}

/* The extremes of games / median over the pool: the highest over
 * everyone, the lowest over players in the pool for at least `settled`
 * matches (a newcomer starts at 0, below any ratio, and has to catch up). */
static void games_spread(const struct sim *s, long settled, double *hi, double *lo)
{
	double med = games_median(s);
	for (size_t i = 0; i < SIM_N; i++) {
		double ratio = s->pool[i].games / med;
		*hi = fmax(*hi, ratio);
		if (s->t - s->joined[i] >= settled)
			*lo = fmin(*lo, ratio);
	}
}

/* The steady state of a running ladder: 200 players, one of them replaced
 * by a new submission every 100 matches, 20,000 matches of four. */
Test(matchmaking, steady_state_keeps_games_even_and_ratings_right)
{
	struct sim *s = malloc(sizeof *s);
	const long matches = 20000, every = 100, settled = 3000;
	double hi = 0.0, lo = INFINITY, mu[SIM_N];

	cr_assert_not_null(s);
	sim_init(s, 42, 25);
	/* Newcomers who come while the first 200 take their 25 games wait
	 * their turn; later ones should find the way clear. */
	s->reach_from = settled;
	while (s->t < matches) {
		if (s->t % every == 0 && s->t > 0)
			sim_join(s, (size_t)rng_uniform(&s->world, 0, SIM_N - 1));
		sim_play(s);
		/* Checked from when the first newcomers have settled. */
		if (s->t >= settled && s->t % 500 == 0)
			games_spread(s, settled, &hi, &lo);
	}
	for (size_t i = 0; i < SIM_N; i++)
		mu[i] = s->pool[i].mu;
	double rho = spearman(mu, s->skill, SIM_N);
	cr_log_info("steady state: games/median max %.3f, min %.3f (in the pool "
		    ">= %ld matches); newcomers reach %d games in <= %ld matches; "
		    "Spearman(mu, skill) %.4f; median games %.1f",
		    hi, lo, settled, s->mp.min_games, s->worst_reach, rho,
		    games_median(s));
	cr_expect_leq(hi, 2.0, "a player has %.2fx the median games", hi);
	cr_expect_geq(lo, 0.5, "a settled player has %.2fx the median games", lo);
	/* One newcomer at a time is seeded every match: min_games matches. */
	cr_expect_leq(s->worst_reach, 2 * s->mp.min_games, "%ld matches", s->worst_reach);
	cr_expect_gt(rho, 0.8, "Spearman %.3f", rho);
	free(s);
}

/* A tournament from scratch: every player new, scheduled until
 * mm_should_stop; the seeding must not waste many matches on players who
 * already have their games. */
Test(matchmaking, tournament_stops_soon_after_min_games)
{
	struct sim *s = malloc(sizeof *s);
	const int min_games = 30;
	double mu[SIM_N];

	cr_assert_not_null(s);
	sim_init(s, 7, min_games);
	while (!mm_should_stop(s->pool, SIM_N, &s->mp))
		sim_play(s);
	for (size_t i = 0; i < SIM_N; i++)
		mu[i] = s->pool[i].mu;
	double ideal = SIM_N * min_games / 4.0, rho = spearman(mu, s->skill, SIM_N);
	cr_log_info("tournament: %ld matches to give %d players %d games (ideal %.0f, "
		    "ratio %.3f); Spearman(mu, skill) %.4f",
		    s->t, SIM_N, min_games, ideal, s->t / ideal, rho);
	cr_expect_leq(s->t, 1.25 * ideal, "%ld matches", s->t);
	cr_expect_gt(rho, 0.8, "Spearman %.3f", rho);
	free(s);
}
