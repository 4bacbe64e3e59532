/* test_rating.c - the OpenSkill Plackett-Luce update (judge/rating/rating.c). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "judge/rating/rating.h"
#include "tests/unit/gen_testlib.h"

/* ---- helpers ----------------------------------------------------------- */

static double rel_err(double got, double want)
{
	return fabs(got - want) / fmax(fabs(want), 1e-300);
}

static void expect_rel(double got, double want, double tol, const char *what,
		       size_t i)
{
	cr_expect(rel_err(got, want) <= tol,
		  "%s[%zu]: got %.17g, want %.17g (rel err %.3g)", what, i,
		  got, want, rel_err(got, want));
}

static int same_bits(struct rating a, struct rating b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static double rng_uniform(uint64_t *s, double lo, double hi)
{
	return lo + (hi - lo) * (double)(gen_rand(s) >> 11) / 0x1p53;
}

/* The model written out literally, one term per (i, q) pair as in the
 * published description, with plain exp(mu / c): slow and unguarded, but a
 * transcription independent of the grouped, log-domain production code. */
static void literal_update(const struct rating_params *p, size_t n,
			   const struct rating *in, const int *rank,
			   struct rating *out)
{
	double s2[n], e[n], sum_q[n], a[n];
	double c2 = 0.0;

	for (size_t i = 0; i < n; i++) {
		s2[i] = in[i].sigma * in[i].sigma + p->tau * p->tau;
		c2 += s2[i] + p->beta * p->beta;
	}
	double c = sqrt(c2);
	for (size_t i = 0; i < n; i++)
		e[i] = exp(in[i].mu / c);
	for (size_t q = 0; q < n; q++) {
		sum_q[q] = 0.0;
		a[q] = 0.0;
		for (size_t i = 0; i < n; i++) {
			if (rank[i] >= rank[q])
				sum_q[q] += e[i];
			if (rank[i] == rank[q])
				a[q] += 1.0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		double omega = 0.0, delta = 0.0;
		for (size_t q = 0; q < n; q++) {
			if (rank[q] > rank[i])
				continue;
			double pq = e[i] / sum_q[q];
			delta += pq * (1.0 - pq) / a[q];
			omega += (q == i ? 1.0 - pq : -pq) / a[q];
		}
		double gamma = sqrt(s2[i]) / c;
		out[i].mu = in[i].mu + s2[i] / c * omega;
		out[i].sigma = sqrt(s2[i]) *
			sqrt(fmax(1.0 - s2[i] / c2 * gamma * delta, p->kappa));
	}
}

static struct rating_params params_tau(double tau)
{
	struct rating_params p = rating_params_default();
	p.tau = tau;
	return p;
}

/* ---- the reference numbers --------------------------------------------- */

Test(rating, reference_four_players)
{
	struct rating_params p = params_tau(0.0);
	struct rating r[4];
	const int rank[4] = { 1, 2, 3, 4 };
	const struct rating want[4] = {
		{ 27.795084971874736, 8.263160757613477 },
		{ 26.552824984374855, 8.179213704945203 },
		{ 24.68943500312503, 8.083731307186588 },
		{ 20.96265504062538, 8.083731307186588 },
	};

	for (size_t i = 0; i < 4; i++)
		r[i] = (struct rating){ 25.0, 25.0 / 3.0 };
	cr_assert_eq(rating_update(&p, 4, r, rank, r), RATING_OK);
	for (size_t i = 0; i < 4; i++) {
		expect_rel(r[i].mu, want[i].mu, 1e-12, "mu", i);
		expect_rel(r[i].sigma, want[i].sigma, 1e-12, "sigma", i);
	}
}

Test(rating, defaults)
{
	struct rating_params p = rating_params_default();

	cr_expect_eq(p.mu, 25.0);
	cr_expect_eq(p.sigma, 25.0 / 3.0);
	cr_expect_eq(p.beta, 25.0 / 6.0);
	cr_expect_eq(p.kappa, 0.0001);
	cr_expect_eq(p.tau, 25.0 / 300.0);
	cr_expect_eq(rating_params_check(&p), RATING_OK);

	struct rating r = rating_initial(&p);
	cr_expect_eq(r.mu, 25.0);
	cr_expect_eq(r.sigma, 25.0 / 3.0);
}

Test(rating, score_is_mu_minus_three_sigma)
{
	cr_expect_eq(rating_score((struct rating){ 25.0, 25.0 / 3.0 }), 0.0);
	cr_expect_eq(rating_score((struct rating){ 30.0, 2.0 }), 24.0);
	cr_expect_eq(rating_score((struct rating){ 1.0, 1.0 }), -2.0);
}

/* Random matches, ties included, against the literal transcription. */
Test(rating, matches_literal_model)
{
	uint64_t seed = 42;

	for (int round = 0; round < 2000; round++) {
		size_t n = 2 + gen_rand(&seed) % 15;
		struct rating_params p = rating_params_default();
		struct rating in[16], got[16], want[16];
		int rank[16];

		p.tau = (round % 3 == 0) ? 0.0 : rng_uniform(&seed, 0.0, 2.0);
		p.beta = rng_uniform(&seed, 1.0, 8.0);
		for (size_t i = 0; i < n; i++) {
			in[i].mu = rng_uniform(&seed, -20.0, 60.0);
			in[i].sigma = rng_uniform(&seed, 0.5, 10.0);
			/* Few distinct ranks, so ties are common. */
			rank[i] = 1 + (int)(gen_rand(&seed) % (n / 2 + 1));
		}
		cr_assert_eq(rating_update(&p, n, in, rank, got), RATING_OK);
		literal_update(&p, n, in, rank, want);
		for (size_t i = 0; i < n; i++) {
			/* mu is checked on the scale of the change it gets. */
			cr_assert(fabs(got[i].mu - want[i].mu) <=
				  1e-12 * (fabs(want[i].mu) + want[i].sigma),
				  "round %d mu[%zu]: %.17g vs %.17g", round, i,
				  got[i].mu, want[i].mu);
			cr_assert(rel_err(got[i].sigma, want[i].sigma) <= 1e-12,
				  "round %d sigma[%zu]: %.17g vs %.17g", round,
				  i, got[i].sigma, want[i].sigma);
		}
	}
}

/* ---- ties -------------------------------------------------------------- */

Test(rating, tied_equal_players_get_identical_updates)
{
	struct rating_params p = rating_params_default();
	struct rating r[4];
	const int rank[4] = { 1, 2, 2, 4 };

	for (size_t i = 0; i < 4; i++)
		r[i] = rating_initial(&p);
	cr_assert_eq(rating_update(&p, 4, r, rank, r), RATING_OK);
	cr_expect(same_bits(r[1], r[2]));
	/* Between the winner and the loser, and shared equally. */
	cr_expect(r[0].mu > r[1].mu && r[1].mu > r[3].mu);
}

Test(rating, all_tied_equal_players_keep_mu)
{
	struct rating_params p = params_tau(0.0);
	struct rating r[3];
	const int rank[3] = { 2, 2, 2 };

	for (size_t i = 0; i < 3; i++)
		r[i] = rating_initial(&p);
	cr_assert_eq(rating_update(&p, 3, r, rank, r), RATING_OK);
	for (size_t i = 0; i < 3; i++) {
		cr_expect(fabs(r[i].mu - 25.0) < 1e-12, "mu %.17g", r[i].mu);
		/* A draw is still information. */
		cr_expect_lt(r[i].sigma, 25.0 / 3.0);
		cr_expect(same_bits(r[i], r[0]));
	}
}

Test(rating, only_rank_order_matters)
{
	struct rating_params p = rating_params_default();
	const struct rating in[4] = {
		{ 20.0, 5.0 }, { 31.0, 2.0 }, { 25.0, 8.0 }, { 27.5, 4.0 },
	};
	const int dense[4] = { 1, 2, 2, 3 };
	const int sparse[4] = { 1, 3, 3, 1000 };
	struct rating a[4], b[4];

	cr_assert_eq(rating_update(&p, 4, in, dense, a), RATING_OK);
	cr_assert_eq(rating_update(&p, 4, in, sparse, b), RATING_OK);
	for (size_t i = 0; i < 4; i++)
		cr_expect(same_bits(a[i], b[i]), "player %zu", i);
}

/* ---- order of the input ------------------------------------------------ */

/* Next permutation in lexicographic order; 0 after the last. */
static int next_perm(size_t *a, size_t n)
{
	size_t i = n - 1, j = n - 1;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (i == 0)
		return 0;
	while (a[j] <= a[i - 1])
		j--;
	size_t t = a[i - 1];
	a[i - 1] = a[j];
	a[j] = t;
	for (j = n - 1; i < j; i++, j--) {
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
	return 1;
}

Test(rating, input_order_does_not_matter)
{
	struct rating_params p = rating_params_default();
	/* Ties, one of them between identical players, and unequal ratings. */
	const struct rating in[6] = {
		{ 25.0, 8.0 }, { 31.0, 2.5 }, { 18.0, 6.0 },
		{ 25.0, 8.0 }, { 22.0, 3.0 }, { 40.0, 1.0 },
	};
	const int rank[6] = { 2, 1, 2, 2, 5, 6 };
	struct rating want[6];
	size_t perm[6] = { 0, 1, 2, 3, 4, 5 };
	int count = 0;

	cr_assert_eq(rating_update(&p, 6, in, rank, want), RATING_OK);
	do {
		struct rating pin[6], pout[6];
		int prank[6];

		for (size_t k = 0; k < 6; k++) {
			pin[k] = in[perm[k]];
			prank[k] = rank[perm[k]];
		}
		cr_assert_eq(rating_update(&p, 6, pin, prank, pout), RATING_OK);
		for (size_t k = 0; k < 6; k++)
			cr_assert(same_bits(pout[k], want[perm[k]]),
				  "permutation %d, player %zu", count, perm[k]);
		count++;
	} while (next_perm(perm, 6));
	cr_expect_eq(count, 720);
}

/* Bigger matches with large tie groups, shuffled at random: floating-point
 * sums in a different order would show up in the low bits here. */
Test(rating, shuffled_input_same_bits)
{
	struct rating_params p = rating_params_default();
	uint64_t seed = 7;

	for (int round = 0; round < 200; round++) {
		size_t n = 8 + gen_rand(&seed) % 9;
		struct rating in[16], want[16], sin[16], sout[16];
		int rank[16], srank[16];
		size_t perm[16];

		for (size_t i = 0; i < n; i++) {
			in[i].mu = rng_uniform(&seed, 0.0, 50.0);
			in[i].sigma = rng_uniform(&seed, 0.1, 9.0);
			rank[i] = 1 + (int)(gen_rand(&seed) % 3);
			perm[i] = i;
		}
		cr_assert_eq(rating_update(&p, n, in, rank, want), RATING_OK);
		for (int shuffle = 0; shuffle < 20; shuffle++) {
			for (size_t i = n - 1; i > 0; i--) {
				size_t j = gen_rand(&seed) % (i + 1), t = perm[i];
				perm[i] = perm[j];
				perm[j] = t;
			}
			for (size_t k = 0; k < n; k++) {
				sin[k] = in[perm[k]];
				srank[k] = rank[perm[k]];
			}
			cr_assert_eq(rating_update(&p, n, sin, srank, sout),
				     RATING_OK);
			for (size_t k = 0; k < n; k++)
				cr_assert(same_bits(sout[k], want[perm[k]]),
					  "round %d, player %zu", round,
					  perm[k]);
		}
	}
}

/* ---- tau --------------------------------------------------------------- */

Test(rating, tau_inflates_sigma_before_the_update)
{
	struct rating_params p = params_tau(0.5);
	struct rating_params p0 = params_tau(0.0);
	const struct rating in[3] = { { 25.0, 3.0 }, { 28.0, 1.0 }, { 20.0, 0.2 } };
	const int rank[3] = { 3, 1, 2 };
	struct rating inflated[3], a[3], b[3];

	for (size_t i = 0; i < 3; i++)
		inflated[i] = (struct rating){ in[i].mu, hypot(in[i].sigma, 0.5) };
	cr_assert_eq(rating_update(&p, 3, in, rank, a), RATING_OK);
	cr_assert_eq(rating_update(&p0, 3, inflated, rank, b), RATING_OK);
	for (size_t i = 0; i < 3; i++)
		cr_expect(same_bits(a[i], b[i]), "player %zu", i);
	/* A player this certain gains more from the drift than the match
	 * takes away. */
	cr_expect_gt(a[2].sigma, in[2].sigma);
}

Test(rating, tau_zero_means_zero)
{
	struct rating_params p = params_tau(0.0);
	struct rating r[2] = { { 25.0, 0.01 }, { 25.0, 0.01 } };
	const int rank[2] = { 1, 1 };

	cr_assert_eq(rating_params_check(&p), RATING_OK);
	cr_assert_eq(rating_update(&p, 2, r, rank, r), RATING_OK);
	/* Any drift at all would dwarf the shrink from this draw. */
	cr_expect_leq(r[0].sigma, 0.01);
	cr_expect_leq(r[1].sigma, 0.01);
}

/* ---- two players ------------------------------------------------------- */

Test(rating, two_players_sanity)
{
	struct rating_params p = rating_params_default();
	struct rating in[2], out[2];
	const int rank[2] = { 2, 1 }; /* the second player wins */

	in[0] = in[1] = rating_initial(&p);
	cr_assert_eq(rating_update(&p, 2, in, rank, out), RATING_OK);
	cr_expect_gt(out[1].mu, in[1].mu);
	cr_expect_lt(out[0].mu, in[0].mu);
	cr_expect(fabs((out[0].mu - in[0].mu) + (out[1].mu - in[1].mu)) < 1e-12);
	cr_expect_lt(out[0].sigma, hypot(in[0].sigma, p.tau));
	cr_expect_lt(out[1].sigma, hypot(in[1].sigma, p.tau));
	cr_expect_eq(out[0].sigma, out[1].sigma);
}

Test(rating, upset_moves_more_than_expected_win)
{
	struct rating_params p = params_tau(0.0);
	const struct rating in[2] = { { 35.0, 3.0 }, { 15.0, 3.0 } };
	const int expected[2] = { 1, 2 }, upset[2] = { 2, 1 };
	struct rating a[2], b[2];

	cr_assert_eq(rating_update(&p, 2, in, expected, a), RATING_OK);
	cr_assert_eq(rating_update(&p, 2, in, upset, b), RATING_OK);
	cr_expect_gt(b[1].mu - in[1].mu, a[0].mu - in[0].mu);
}

/* ---- bad input --------------------------------------------------------- */

static const struct rating sentinel = { -123.0, 456.0 };

/* Runs one update that must fail with want and leave out untouched. */
static void expect_reject(const struct rating_params *p, size_t n,
			  const struct rating *in, const int *rank, int want)
{
	struct rating out[RATING_MAX_PLAYERS + 1];

	for (size_t i = 0; i < RATING_MAX_PLAYERS + 1; i++)
		out[i] = sentinel;
	int got = rating_update(p, n, in, rank, out);
	cr_expect_eq(got, want, "n=%zu: got %d (%s), want %d", n, got,
		     rating_strerror(got), want);
	for (size_t i = 0; i < RATING_MAX_PLAYERS + 1; i++)
		cr_expect(same_bits(out[i], sentinel), "out[%zu] written", i);
}

Test(rating, rejects_bad_player_count)
{
	struct rating_params p = rating_params_default();
	struct rating in[RATING_MAX_PLAYERS + 1];
	int rank[RATING_MAX_PLAYERS + 1];

	for (size_t i = 0; i < RATING_MAX_PLAYERS + 1; i++) {
		in[i] = rating_initial(&p);
		rank[i] = (int)i + 1;
	}
	expect_reject(&p, 0, in, rank, RATING_ECOUNT);
	expect_reject(&p, 1, in, rank, RATING_ECOUNT);
	expect_reject(&p, RATING_MAX_PLAYERS + 1, in, rank, RATING_ECOUNT);
	expect_reject(&p, SIZE_MAX, in, rank, RATING_ECOUNT);
}

Test(rating, rejects_bad_players)
{
	struct rating_params p = rating_params_default();
	const int good_rank[3] = { 1, 2, 3 };
	struct rating in[3];
	int rank[3];

	struct {
		size_t who;
		int rank;
		double mu, sigma;
		int want;
	} cases[] = {
		{ 1, 0, 25.0, 8.0, RATING_ERANK },
		{ 2, -1, 25.0, 8.0, RATING_ERANK },
		{ 0, 1, NAN, 8.0, RATING_EMU },
		{ 1, 2, INFINITY, 8.0, RATING_EMU },
		{ 1, 2, -INFINITY, 8.0, RATING_EMU },
		{ 2, 3, 25.0, 0.0, RATING_ESIGMA },
		{ 2, 3, 25.0, -0.0, RATING_ESIGMA },
		{ 0, 1, 25.0, -1.0, RATING_ESIGMA },
		{ 0, 1, 25.0, NAN, RATING_ESIGMA },
		{ 0, 1, 25.0, INFINITY, RATING_ESIGMA },
	};

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (size_t i = 0; i < 3; i++) {
			in[i] = rating_initial(&p);
			rank[i] = good_rank[i];
		}
		in[cases[c].who] = (struct rating){ cases[c].mu, cases[c].sigma };
		rank[cases[c].who] = cases[c].rank;
		expect_reject(&p, 3, in, rank, cases[c].want);
	}
}

Test(rating, rejects_bad_params)
{
	const struct rating in[2] = { { 25.0, 8.0 }, { 25.0, 8.0 } };
	const int rank[2] = { 1, 2 };
	struct rating_params p;

#define BAD_PARAM(field, value)                                         \
	do {                                                            \
		p = rating_params_default();                            \
		p.field = (value);                                      \
		cr_expect_eq(rating_params_check(&p), RATING_EPARAMS,   \
			     #field " = " #value);                      \
		expect_reject(&p, 2, in, rank, RATING_EPARAMS);         \
	} while (0)

	BAD_PARAM(mu, NAN);
	BAD_PARAM(sigma, 0.0);
	BAD_PARAM(sigma, INFINITY);
	BAD_PARAM(beta, 0.0);
	BAD_PARAM(beta, -1.0);
	BAD_PARAM(beta, NAN);
	BAD_PARAM(kappa, 0.0);
	BAD_PARAM(kappa, 1.5);
	BAD_PARAM(kappa, NAN);
	BAD_PARAM(tau, -0.1);
	BAD_PARAM(tau, NAN);
	BAD_PARAM(tau, INFINITY);
#undef BAD_PARAM
}

Test(rating, rejects_null)
{
	struct rating_params p = rating_params_default();
	struct rating r[2] = { { 25.0, 8.0 }, { 25.0, 8.0 } };
	const int rank[2] = { 1, 2 };

	cr_expect_eq(rating_update(NULL, 2, r, rank, r), RATING_EARG);
	cr_expect_eq(rating_update(&p, 2, NULL, rank, r), RATING_EARG);
	cr_expect_eq(rating_update(&p, 2, r, NULL, r), RATING_EARG);
	cr_expect_eq(rating_update(&p, 2, r, rank, NULL), RATING_EARG);
	cr_expect_eq(rating_params_check(NULL), RATING_EARG);
}

Test(rating, strerror_covers_every_code)
{
	for (int e = RATING_ERANGE; e <= RATING_OK; e++)
		cr_expect_neq(strcmp(rating_strerror(e), "unknown rating error"),
			      0, "code %d", e);
	cr_expect_str_eq(rating_strerror(12345), "unknown rating error");
}

/* ---- range and robustness ---------------------------------------------- */

Test(rating, extreme_ratings_stay_finite)
{
	struct rating_params p = params_tau(0.0);
	/* exp(mu / c) would overflow and underflow here: the log domain keeps
	 * every share finite. */
	struct rating r[4] = {
		{ 1e6, 1.0 }, { -1e6, 1.0 }, { 0.0, 1e-3 }, { 5e5, 50.0 },
	};
	const int rank[4] = { 4, 1, 2, 2 };

	cr_assert_eq(rating_update(&p, 4, r, rank, r), RATING_OK);
	for (size_t i = 0; i < 4; i++) {
		cr_expect(isfinite(r[i].mu), "mu[%zu] = %g", i, r[i].mu);
		cr_expect(isfinite(r[i].sigma) && r[i].sigma > 0.0,
			  "sigma[%zu] = %g", i, r[i].sigma);
	}
	/* The huge favourite came last: it loses, the outsider gains. */
	cr_expect_lt(r[0].mu, 1e6);
	cr_expect_gt(r[1].mu, -1e6);
	/* kappa bounds how far sigma can shrink in one match. */
	cr_expect_geq(r[0].sigma, sqrt(p.kappa) * (1.0 - 1e-15));
}

Test(rating, out_of_range_is_rejected_not_nan)
{
	struct rating_params p = rating_params_default();
	const struct rating huge_sigma[2] = { { 25.0, 1e200 }, { 25.0, 1.0 } };
	const struct rating huge_mu[2] = { { 1.7e308, 1e-3 }, { 0.0, 1e-3 } };
	const int rank[2] = { 2, 1 };

	expect_reject(&p, 2, huge_sigma, rank, RATING_ERANGE);
	p.beta = 1e-300;
	p.tau = 0.0;
	expect_reject(&p, 2, huge_mu, rank, RATING_ERANGE);
}

Test(rating, max_players)
{
	struct rating_params p = rating_params_default();
	struct rating r[RATING_MAX_PLAYERS];
	int rank[RATING_MAX_PLAYERS];

	for (size_t i = 0; i < RATING_MAX_PLAYERS; i++) {
		r[i] = rating_initial(&p);
		rank[i] = (int)(i / 2) + 1;
	}
	cr_assert_eq(rating_update(&p, RATING_MAX_PLAYERS, r, rank, r),
		     RATING_OK);
	for (size_t i = 0; i + 1 < RATING_MAX_PLAYERS; i++) {
		cr_expect(r[i].mu >= r[i + 1].mu, "player %zu", i);
		cr_expect(isfinite(r[i].sigma) && r[i].sigma > 0.0);
	}
	cr_expect(same_bits(r[0], r[1]));
}

/* ---- determinism ------------------------------------------------------- */

Test(rating, deterministic_and_in_place)
{
	struct rating_params p = rating_params_default();
	const struct rating in[5] = {
		{ 25.0, 8.3 }, { 33.1, 1.9 }, { 12.0, 4.4 }, { 27.0, 6.0 },
		{ 25.5, 0.7 },
	};
	const int rank[5] = { 3, 1, 4, 1, 2 };
	struct rating first[5], again[5], inplace[5];

	cr_assert_eq(rating_update(&p, 5, in, rank, first), RATING_OK);
	for (int k = 0; k < 100; k++) {
		cr_assert_eq(rating_update(&p, 5, in, rank, again), RATING_OK);
		for (size_t i = 0; i < 5; i++)
			cr_assert(same_bits(first[i], again[i]));
	}
	memcpy(inplace, in, sizeof in);
	cr_assert_eq(rating_update(&p, 5, inplace, rank, inplace), RATING_OK);
	for (size_t i = 0; i < 5; i++)
		cr_expect(same_bits(first[i], inplace[i]), "player %zu", i);
}
