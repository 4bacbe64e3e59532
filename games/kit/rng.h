/* rng.h - the games' random numbers, the same in the judge and the kits.
 *
 * The course games' linear congruential generator, s = (843314861 s +
 * 453816693) mod 2^31: small, fast, and fixed by a seed, so one match seed
 * fixes every random choice of the engine and of every player.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
	uint32_t s;
};

static inline struct rng rng_seeded(uint64_t seed)
{
	return (struct rng){ (uint32_t)(seed % 2147483648u) };
}

static inline uint32_t rng_next(struct rng *r)
{
	r->s = (uint32_t)((843314861ull * r->s + 453816693ull) & 0x7fffffffu);
	return r->s;
}

/* Uniform in [l, u]; l <= u.  The low bits of an LCG are weak, so the high
 * ones decide. */
static inline int rng_uniform(struct rng *r, int l, int u)
{
	uint64_t span = (uint64_t)((int64_t)u - l) + 1;
	return (int)(l + (int64_t)(((uint64_t)rng_next(r) * span) >> 31));
}

/* A uniformly random permutation of 0..n-1 into v (Fisher-Yates). */
static inline void rng_permutation(struct rng *r, int *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = rng_uniform(r, 0, i);
		int t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

#endif
