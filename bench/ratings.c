/* ratings.c - the speed of rating and scheduling ranked matches on one core:
 * OpenSkill updates of 4-player matches per second (goal >= 1,000,000/s),
 * and matchmaking picks per second from a pool of 10,000 players.  Each
 * figure is the median of several timed rounds.  Speed is reported, never
 * failed: the exit status is non-zero only when a call returns an error. */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "games/kit/rng.h"
#include "judge/worker/matchmaking.h"
#include "judge/rating/rating.h"

#define ROUNDS ((int)bench_size(7, 1))
#define MATCHES 4096         /* distinct update inputs, cycled through */
#define UPDATES ((int)bench_size(2000000, 20000))      /* updates per round */
#define UPDATE_GOAL 1000000.0
#define POOL 10000
#define PICKS ((int)bench_size(4000, 100))           /* picks per round */

struct match4 {
	struct rating r[4];
	int rank[4];
};

static double uniform(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * rng_next(r) / 2147483648.0;
}

/* Ratings from newcomers' to settled players', and ranks that are now and
 * then tied, so that every branch of the update is taken. */
static void make_matches(struct match4 *m, size_t n, struct rng *r)
{
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < 4; j++) {
			m[i].r[j] = (struct rating){ uniform(r, 0.0, 50.0),
						     uniform(r, 0.5, 25.0 / 3.0) };
			m[i].rank[j] = rng_uniform(r, 1, 4);
		}
}

/* One round: the inputs cycle, the outputs are summed into *sink, so no
 * call can be skipped or hoisted out of the loop. */
static int update_round(const struct rating_params *p, const struct match4 *m,
			double *sink, uint64_t *ns)
{
	struct rating out[4];
	uint64_t t0 = bench_now_ns();
	for (size_t i = 0; i < (size_t)UPDATES; i++) {
		const struct match4 *x = &m[i % MATCHES];
		int err = rating_update(p, 4, x->r, x->rank, out);
		if (err != RATING_OK) {
			fprintf(stderr, "bench: rating_update: %s\n", rating_strerror(err));
			return -1;
		}
		*sink += out[i % 4].mu + out[(i + 1) % 4].sigma;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

static int bench_updates(void)
{
	struct rating_params p = rating_params_default();
	struct match4 *m = malloc(MATCHES * sizeof *m);
	struct rng r = rng_seeded(1);
	uint64_t ns[ROUNDS];
	double sink = 0.0;

	if (!m)
		return -1;
	make_matches(m, MATCHES, &r);
	for (int i = 0; i < ROUNDS; i++)
		if (update_round(&p, m, &sink, &ns[i]) < 0) {
			free(m);
			return -1;
		}
	free(m);
	double rate = UPDATES / (bench_median(ns, ROUNDS) / 1e9);
	printf("rating_update, one 4-player match (median of %d rounds of %d):\n",
	       ROUNDS, UPDATES);
	printf("  updates/s           %12.0f   (goal >= %.0f)\n", rate, UPDATE_GOAL);
	printf("  ratio to the goal   %12.2f   (checksum %.6g)\n", rate / UPDATE_GOAL, sink);
	return 0;
}

/* A settled pool with a few newcomers, as a running ladder has. */
static void make_pool(struct mm_player *pool, size_t n, struct rng *r)
{
	for (size_t i = 0; i < n; i++) {
		bool fresh = rng_uniform(r, 0, 99) == 0;
		pool[i] = (struct mm_player){ .id = (int64_t)i,
					      .mu = uniform(r, 5.0, 45.0),
					      .sigma = fresh ? 25.0 / 3.0 : uniform(r, 0.8, 3.0),
					      .games = fresh ? rng_uniform(r, 0, 5) : rng_uniform(r, 100, 300),
					      .new_player = fresh };
	}
}

/* One round of picks; each match is counted as played, so the pool moves
 * on as it would between real picks. */
static int pick_round(struct mm_player *pool, const struct mm_params *p,
		      struct rng *r, uint64_t *ns)
{
	size_t out[4];
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < PICKS; i++) {
		int err = mm_pick(pool, POOL, 4, p, r, out);
		if (err != MM_OK) {
			fprintf(stderr, "bench: mm_pick: %s\n", mm_strerror(err));
			return -1;
		}
		for (int j = 0; j < 4; j++)
			pool[out[j]].games++;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

static int bench_picks(void)
{
	struct mm_player *pool = malloc(POOL * sizeof *pool);
	struct mm_params p = mm_params_default();
	struct rng r = rng_seeded(2);
	uint64_t ns[ROUNDS];

	if (!pool)
		return -1;
	make_pool(pool, POOL, &r);
	for (int i = 0; i < ROUNDS; i++)
		if (pick_round(pool, &p, &r, &ns[i]) < 0) {
			free(pool);
			return -1;
		}
	free(pool);
	double per = bench_median(ns, ROUNDS) / (double)PICKS;
	printf("mm_pick, 4 of %d players, window %d (median of %d rounds of %d):\n",
	       POOL, p.window, ROUNDS, PICKS);
	printf("  picks/s             %12.0f\n", 1e9 / per);
	printf("  per pick            %12.1f us\n", per / 1e3);
	return 0;
}

int main(void)
{
	if (bench_updates() < 0 || bench_picks() < 0)
		return 1;
	return 0;
}
