/* rating.c - OpenSkill's Plackett-Luce update for teams of one.
 *
 * The model (Weng & Lin, JMLR 2011, Algorithm 4, with OpenSkill's ties):
 * with s_i^2 = sigma_i^2 + tau^2, c^2 = sum_i (s_i^2 + beta^2), e_i =
 * exp(mu_i / c), S_q = sum of e_j over the players j ranked at or below q,
 * A_q = the number of players with q's rank, p_iq = e_i / S_q, and q
 * running over the players ranked at or above i (ties included):
 *
 *   Omega_i = sum_q [q == i] / A_q - p_iq / A_q
 *   Delta_i = gamma_i * sum_q p_iq (1 - p_iq) / A_q,   gamma_i = s_i / c
 *   mu_i'    = mu_i + s_i^2 / c * Omega_i
 *   sigma_i' = s_i * sqrt(max(1 - s_i^2 / c^2 * Delta_i, kappa))
 *
 * S_q, hence p_iq, is the same for every q of one tie group, so a group's
 * A_q terms add up to one: Omega_i = 1 / A_i - sum_g p_ig and Delta_i =
 * gamma_i * sum_g p_ig (1 - p_ig), g running over the tie groups ranked at
 * or above i.  That is what is computed here.
 */
#include "judge/rating/rating.h"

#include <math.h>

/* Everything an update needs, in sorted order (best rank first): sorting
 * fixes the order of every floating-point sum, so the result cannot depend
 * on the order the caller listed the players in. */
struct rating_work {
	size_t n;
	double c, c2;
	unsigned order[RATING_MAX_PLAYERS]; /* sorted position -> caller's */
	unsigned group[RATING_MAX_PLAYERS]; /* sorted position -> tie group */
	unsigned size[RATING_MAX_PLAYERS];  /* tie group -> A, its size */
	double lse[RATING_MAX_PLAYERS];     /* tie group g -> log S_g */
	double mu[RATING_MAX_PLAYERS];      /* mu, then the new mu */
	double sd[RATING_MAX_PLAYERS];      /* s, then the new sigma */
	double x[RATING_MAX_PLAYERS];       /* mu / c */
};

struct rating_params rating_params_default(void)
{
	return (struct rating_params){
		.mu = 25.0,
		.sigma = 25.0 / 3.0,
		.beta = 25.0 / 6.0,
		.kappa = 0.0001,
		.tau = 25.0 / 300.0,
	};
}

int rating_params_check(const struct rating_params *p)
{
	if (!p)
		return RATING_EARG;
	/* Written so that NaN fails every test. */
	if (!isfinite(p->mu) || !(p->sigma > 0.0) || !isfinite(p->sigma) ||
	    !(p->beta > 0.0) || !isfinite(p->beta) ||
	    !(p->kappa > 0.0 && p->kappa <= 1.0) ||
	    !(p->tau >= 0.0) || !isfinite(p->tau))
		return RATING_EPARAMS;
	return RATING_OK;
}

struct rating rating_initial(const struct rating_params *p)
{
	return (struct rating){ .mu = p->mu, .sigma = p->sigma };
}

double rating_score(struct rating r)
{
	return r.mu - 3.0 * r.sigma;
}

static int rating_check_players(size_t n, const struct rating *before,
				const int *rank)
{
	if (n < 2 || n > RATING_MAX_PLAYERS)
		return RATING_ECOUNT;
	for (size_t i = 0; i < n; i++) {
		if (rank[i] < 1)
			return RATING_ERANK;
		if (!isfinite(before[i].mu))
			return RATING_EMU;
		if (!(before[i].sigma > 0.0) || !isfinite(before[i].sigma))
			return RATING_ESIGMA;
	}
	return RATING_OK;
}

/* Orders by rank, then by rating: players equal in all three are
 * interchangeable, so any order among them gives the same bits. */
static int rating_cmp(const struct rating *a, int ra,
		      const struct rating *b, int rb)
{
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->mu != b->mu)
		return a->mu < b->mu ? -1 : 1;
	if (a->sigma != b->sigma)
		return a->sigma < b->sigma ? -1 : 1;
	return 0;
}

/* Insertion sort: matches are small, and it needs no memory. */
static void rating_sort(struct rating_work *w, const struct rating *before,
			const int *rank)
{
	for (size_t k = 0; k < w->n; k++) {
		unsigned i = (unsigned)k;
		size_t j = k;
		while (j > 0 && rating_cmp(&before[i], rank[i],
					   &before[w->order[j - 1]],
					   rank[w->order[j - 1]]) < 0) {
			w->order[j] = w->order[j - 1];
			j--;
		}
		w->order[j] = i;
	}
}

/* Fills mu, sd, x, c and the tie groups; RATING_ERANGE if c or some
 * mu / c does not fit in a double. */
static int rating_prepare(struct rating_work *w, const struct rating_params *p,
			  const struct rating *before, const int *rank)
{
	double beta2 = p->beta * p->beta;
	unsigned g = 0;

	w->c2 = 0.0;
	for (size_t k = 0; k < w->n; k++) {
		unsigned i = w->order[k];
		/* hypot: tau 0 leaves sigma exactly as it was. */
		w->sd[k] = hypot(before[i].sigma, p->tau);
		w->mu[k] = before[i].mu;
		w->c2 += w->sd[k] * w->sd[k] + beta2;
		/* Sorted, a tie group is a run of equal ranks. */
		if (k > 0 && rank[i] != rank[w->order[k - 1]])
			g++;
		if (k == 0 || w->group[k - 1] != g)
			w->size[g] = 0;
		w->group[k] = g;
		w->size[g]++;
	}
	if (!isfinite(w->c2))
		return RATING_ERANGE;
	w->c = sqrt(w->c2);
	for (size_t k = 0; k < w->n; k++) {
		w->x[k] = w->mu[k] / w->c;
		if (!isfinite(w->x[k]))
			return RATING_ERANGE;
	}
	return RATING_OK;
}

/* log(e^a + e^b) without overflowing when a or b is large. */
static double rating_logaddexp(double a, double b)
{
	return fmax(a, b) + log1p(exp(-fabs(a - b)));
}

/* log S_g for every tie group, S_g summing e_j over the groups from g to the
 * worst.  In the log domain because e_j = exp(mu_j / c) overflows or
 * underflows for mu far from 0; a share e_i / S_g is then exp(x_i - log S_g),
 * at most about 1 and never 0 / 0. */
static void rating_suffix_lse(struct rating_work *w)
{
	double lse = w->x[w->n - 1];

	for (size_t k = w->n; k-- > 0;) {
		if (k < w->n - 1)
			lse = rating_logaddexp(lse, w->x[k]);
		if (k == 0 || w->group[k - 1] != w->group[k])
			w->lse[w->group[k]] = lse;
	}
}

/* Replaces mu[k] and sd[k] by the player's new rating. */
static void rating_player(struct rating_work *w, size_t k, double kappa)
{
	unsigned h = w->group[k];
	double omega = 1.0 / w->size[h];
	double delta = 0.0;

	for (unsigned g = 0; g <= h; g++) {
		double share = exp(w->x[k] - w->lse[g]);
		omega -= share;
		delta += share * (1.0 - share);
	}
	double sd = w->sd[k];
	double var = sd * sd;
	double gamma = sd / w->c;
	double shrink = 1.0 - var / w->c2 * gamma * delta;

	w->mu[k] += var / w->c * omega;
	/* kappa keeps sigma from collapsing after a very surprising result. */
	w->sd[k] = sd * sqrt(fmax(shrink, kappa));
}

int rating_update(const struct rating_params *p, size_t n,
		  const struct rating *before, const int *rank,
		  struct rating *after)
{
	struct rating_work w;
	int err;

	if (!p || !before || !rank || !after)
		return RATING_EARG;
	if ((err = rating_params_check(p)) != RATING_OK)
		return err;
	if ((err = rating_check_players(n, before, rank)) != RATING_OK)
		return err;

	w.n = n;
	rating_sort(&w, before, rank);
	if ((err = rating_prepare(&w, p, before, rank)) != RATING_OK)
		return err;
	rating_suffix_lse(&w);
	for (size_t k = 0; k < n; k++) {
		rating_player(&w, k, p->kappa);
		/* sigma can still underflow to 0 from a subnormal start, and mu
		 * overflow near DBL_MAX: refuse rather than hand back a rating
		 * the next update would reject. */
		if (!isfinite(w.mu[k]) || !(w.sd[k] > 0.0))
			return RATING_ERANGE;
	}
	/* Only now, with every input read, may after (possibly before) be
	 * written. */
	for (size_t k = 0; k < n; k++)
		after[w.order[k]] = (struct rating){ w.mu[k], w.sd[k] };
	return RATING_OK;
}

const char *rating_strerror(int err)
{
	switch (err) {
	case RATING_OK: return "success";
	case RATING_EARG: return "missing argument";
	case RATING_EPARAMS: return "invalid rating parameters";
	case RATING_ECOUNT: return "player count out of range";
	case RATING_ERANK: return "rank below 1";
	case RATING_EMU: return "mu not finite";
	case RATING_ESIGMA: return "sigma not positive and finite";
	case RATING_ERANGE: return "rating out of range";
	}
	return "unknown rating error";
}
