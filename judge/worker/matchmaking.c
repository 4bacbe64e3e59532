/* matchmaking.c - choosing the players of the next ranked match.
 *
 * The idea follows Halite's public description of its matchmaker: a seed
 * player chosen to favour those with few games and uncertain ratings, and
 * opponents drawn from a window of nearby ratings.  Near opponents make
 * close matches, which are the ones that tell a rating the most; favouring
 * few games keeps anyone from being starved.
 *
 * Cost per pick, for n players and a window of m = 2W: four linear passes
 * (checks, newcomers, the seed's weights twice), one feeding two heaps of
 * at most m entries, then O(k m) within the window: O(n log m + k m),
 * never a sort of the pool.
 */
#include "judge/worker/matchmaking.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mm_params mm_params_default(void)
{
	return (struct mm_params){ .window = 10, .min_games = 25 };
}

static int mm_check(const struct mm_player *pool, size_t n, size_t k,
		    const struct mm_params *p, const struct rng *r,
		    const size_t *out)
{
	if (!pool || !p || !r || !out)
		return MM_EARG;
	/* INT_MAX: rng_uniform draws ints. */
	if (k < 2 || n > INT_MAX)
		return MM_ESIZE;
	if (n < k)
		return MM_EFEW;
	if (p->window < 1 || p->min_games < 0)
		return MM_EPARAMS;
	for (size_t i = 0; i < n; i++) {
		/* Written so that NaN fails. */
		if (!isfinite(pool[i].mu) || !(pool[i].sigma > 0.0) ||
		    !isfinite(pool[i].sigma) || pool[i].games < 0)
			return MM_EPLAYER;
	}
	return MM_OK;
}

bool mm_should_stop(const struct mm_player *pool, size_t n,
		    const struct mm_params *p)
{
	if (!pool || !p)
		return true;
	for (size_t i = 0; i < n; i++)
		if (pool[i].games < p->min_games)
			return false;
	return true;
}

/* Uniform in [0, 1) with 53 bits.  The generator gives 31 bits a call, its
 * high ones the better, so two calls contribute their top 27 and 26. */
static double mm_unit(struct rng *r)
{
	uint64_t hi = rng_next(r) >> 4;
	uint64_t lo = rng_next(r) >> 5;
	return (double)(hi << 26 | lo) * 0x1p-53;
}

/* ---- the seed ---------------------------------------------------------- */

static bool mm_is_newcomer(const struct mm_player *pl, int min_games)
{
	return pl->new_player && pl->games < min_games;
}

/* The newcomer with the fewest games, ties drawn uniformly, or SIZE_MAX
 * when there is none.  Always seeding the one furthest behind lets several
 * newcomers reach min_games together, in turns. */
static size_t mm_newcomer(const struct mm_player *pool, size_t n,
			  int min_games, struct rng *r)
{
	int fewest = INT_MAX;
	size_t ties = 0;

	for (size_t i = 0; i < n; i++) {
		if (!mm_is_newcomer(&pool[i], min_games))
			continue;
		if (pool[i].games < fewest) {
			fewest = pool[i].games;
			ties = 0;
		}
		ties += pool[i].games == fewest;
	}
	if (ties == 0)
		return SIZE_MAX;
	size_t t = (size_t)rng_uniform(r, 0, (int)(ties - 1));
	for (size_t i = 0; i < n; i++)
		if (mm_is_newcomer(&pool[i], min_games) &&
		    pool[i].games == fewest && t-- == 0)
			return i;
	return SIZE_MAX; /* unreachable: the t-th tie exists */
}

/* sigma / (1 + games): an uncertain rating has the most to learn from a
 * match, and dividing by the games makes the under-played catch up (half
 * the games, twice the chance). */
static double mm_weight(const struct mm_player *pl, double scale)
{
	return pl->sigma * scale / (1.0 + pl->games);
}

static double mm_total(const struct mm_player *pool, size_t n, double scale)
{
	double total = 0.0;
	for (size_t i = 0; i < n; i++)
		total += mm_weight(&pool[i], scale);
	return total;
}

static size_t mm_weighted(const struct mm_player *pool, size_t n,
			  struct rng *r)
{
	double scale = 1.0, acc = 0.0;
	double total = mm_total(pool, n, scale);
	/* Only sigmas near DBL_MAX overflow the sum; scaled down by 2^-600
	 * the sum of 2^31 of them fits, and the largest stays above 0. */
	if (!isfinite(total)) {
		scale = 0x1p-600;
		total = mm_total(pool, n, scale);
	}
	double target = mm_unit(r) * total;
	/* The same sums in the same order: acc ends at total exactly. */
	for (size_t i = 0; i < n; i++) {
		acc += mm_weight(&pool[i], scale);
		if (target < acc)
			return i;
	}
	return n - 1; /* target rounded up to total */
}

/* ---- the window -------------------------------------------------------- */

/* The rating order: by mu, then id, then index, so that it is total. */
static int mm_cmp(const struct mm_player *pool, size_t a, size_t b)
{
	if (pool[a].mu != pool[b].mu)
		return pool[a].mu < pool[b].mu ? -1 : 1;
	if (pool[a].id != pool[b].id)
		return pool[a].id < pool[b].id ? -1 : 1;
	return (a > b) - (a < b);
}

/* A bounded binary heap of indices keeping the cap players nearest the
 * seed on one side of it.  Its root is the farthest kept, so that a nearer
 * player replaces it in O(log cap).  dir +1 is the side below the seed
 * (farther is lower), dir -1 the side above (farther is higher). */
struct mm_heap {
	const struct mm_player *pool;
	size_t *v;
	size_t len, cap;
	int dir;
};

static bool mm_farther(const struct mm_heap *h, size_t a, size_t b)
{
	return h->dir * mm_cmp(h->pool, a, b) < 0;
}

static void mm_swap(size_t *a, size_t *b)
{
	size_t t = *a;
	*a = *b;
	*b = t;
}

static void mm_sift_up(struct mm_heap *h, size_t i)
{
	while (i > 0 && mm_farther(h, h->v[i], h->v[(i - 1) / 2])) {
		mm_swap(&h->v[i], &h->v[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void mm_sift_down(struct mm_heap *h, size_t i)
{
	for (;;) {
		size_t top = i, l = 2 * i + 1, r = l + 1;
		if (l < h->len && mm_farther(h, h->v[l], h->v[top]))
			top = l;
		if (r < h->len && mm_farther(h, h->v[r], h->v[top]))
			top = r;
		if (top == i)
			return;
		mm_swap(&h->v[i], &h->v[top]);
		i = top;
	}
}

static void mm_heap_offer(struct mm_heap *h, size_t x)
{
	if (h->len < h->cap) {
		h->v[h->len] = x;
		mm_sift_up(h, h->len++);
	} else if (mm_farther(h, h->v[0], x)) {
		h->v[0] = x;
		mm_sift_down(h, 0);
	}
}

/* Drops the farthest. */
static void mm_heap_pop(struct mm_heap *h)
{
	h->v[0] = h->v[--h->len];
	mm_sift_down(h, 0);
}

/* The mu beyond which nobody can enter a full heap: its farthest's; no
 * bound while it fills. */
static double mm_heap_bound(const struct mm_heap *h)
{
	if (h->len < h->cap)
		return -h->dir * INFINITY;
	return h->pool[h->v[0]].mu;
}

/* How many players the window holds: 2W, but at least the k - 1 opponents
 * a match needs and at most everyone but the seed. */
static size_t mm_window_size(size_t n, size_t k, int window)
{
	size_t m = 2 * (size_t)window;
	if (m < k - 1)
		m = k - 1;
	return m < n - 1 ? m : n - 1;
}

/* Fills win (room for 2m) with the m players nearest the seed in rating
 * order, half on each side; a side that is short (the seed near the top or
 * the bottom of the ladder) is made up from the other, so every seed gets a
 * full window and players at the ends are not starved of opponents.  One
 * pass keeps the m nearest on each side, the farthest are then dropped. */
static void mm_window(const struct mm_player *pool, size_t n, size_t m,
		      size_t seed, size_t *win)
{
	struct mm_heap lo = { pool, win, 0, m, +1 };
	struct mm_heap hi = { pool, win + m, 0, m, -1 };

	double lowest = -INFINITY, highest = INFINITY;
	for (size_t i = 0; i < n; i++) {
		/* Most players lie beyond the farthest kept on their side;
		 * one test on mu skips them, where asking first which side
		 * they are on is a branch mispredicted half the time. */
		if ((pool[i].mu < lowest) | (pool[i].mu > highest) | (i == seed))
			continue;
		mm_heap_offer(mm_cmp(pool, i, seed) < 0 ? &lo : &hi, i);
		lowest = mm_heap_bound(&lo);
		highest = mm_heap_bound(&hi);
	}
	/* The n - 1 others give lo.len + hi.len >= m. */
	size_t nb = m / 2, na = m - nb;
	if (lo.len < nb) {
		nb = lo.len;
		na = m - nb;
	} else if (hi.len < na) {
		na = hi.len;
		nb = m - na;
	}
	while (lo.len > nb)
		mm_heap_pop(&lo);
	while (hi.len > na)
		mm_heap_pop(&hi);
	memmove(win + nb, hi.v, na * sizeof *win);
}

/* The k - 1 players of the window with the fewest games, ties drawn
 * uniformly (the window is shuffled, then the first k - 1 steps of a
 * selection sort by games).  Taking the fewest, not any, is what keeps the
 * games even: opponents fill three seats in four, and a seed drawn by
 * weight alone cannot make up for them.  Without it, the players rated
 * near a newcomer's initial mu, who meet every newcomer, pile up games. */
static void mm_opponents(const struct mm_player *pool, size_t *win, size_t m,
			 size_t k, struct rng *r, size_t *out)
{
	for (size_t i = m - 1; i > 0; i--)
		mm_swap(&win[i], &win[rng_uniform(r, 0, (int)i)]);
	for (size_t i = 0; i + 1 < k; i++) {
		size_t best = i;
		for (size_t j = i + 1; j < m; j++)
			if (pool[win[j]].games < pool[win[best]].games)
				best = j;
		mm_swap(&win[i], &win[best]);
		out[i] = win[i];
	}
}

int mm_pick(const struct mm_player *pool, size_t n, size_t k,
	    const struct mm_params *p, struct rng *r, size_t *out)
{
	int err = mm_check(pool, n, k, p, r, out);
	if (err != MM_OK)
		return err;
	size_t m = mm_window_size(n, k, p->window);
	/* Allocated before the first draw: a failure leaves r untouched. */
	size_t *win = malloc(2 * m * sizeof *win);
	if (!win)
		return MM_ENOMEM;

	size_t seed = mm_newcomer(pool, n, p->min_games, r);
	if (seed == SIZE_MAX)
		seed = mm_weighted(pool, n, r);
	mm_window(pool, n, m, seed, win);
	out[0] = seed;
	mm_opponents(pool, win, m, k, r, out + 1);
	free(win);
	return MM_OK;
}

const char *mm_strerror(int err)
{
	switch (err) {
	case MM_OK: return "success";
	case MM_EARG: return "missing argument";
	case MM_ESIZE: return "match size below 2 or pool too large";
	case MM_EFEW: return "fewer players than the match size";
	case MM_EPARAMS: return "invalid matchmaking parameters";
	case MM_EPLAYER: return "player with invalid mu, sigma or games";
	case MM_ENOMEM: return "out of memory";
	}
	return "unknown matchmaking error";
}
