/* test_seed.c - the seeds a match hands out (games/seed.h): fixed by the
 * match seed, and one-way, so that no seat can work out the match seed or
 * another seat's seed from its own. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "games/kit/rng.h"
#include "games/seed.h"

/* Known answers, computed with an independent SHA-256 (Python's hashlib)
 * over the documented bytes: seed (8, little endian), seat (4, little
 * endian), purpose. */
Test(seed, known_answers)
{
	cr_expect_eq(seed_derive(30, SEED_PLAYER, 0), 0x121b36ce8bf3cf32ULL);
	cr_expect_eq(seed_derive(30, SEED_PLAYER, 1), 0x2a8e7d5e53e18652ULL);
	cr_expect_eq(seed_derive(30, SEED_ENGINE, 0), 0x7724ab9a790664c9ULL);
	cr_expect_eq(seed_derive(0, SEED_PLAYER, 0), 0x34cc96160d10dc18ULL);
	cr_expect_eq(seed_derive(UINT64_MAX, SEED_PLAYER, 3), 0x218128ec7877607dULL);
}

Test(seed, same_inputs_same_seed)
{
	for (uint64_t s = 0; s < 100; s++)
		for (unsigned seat = 0; seat < 6; seat++)
			cr_assert_eq(seed_derive(s, SEED_PLAYER, seat), seed_derive(s, SEED_PLAYER, seat));
}

/* Match seeds drawn by the worker: none repeats, each fits 62 bits. */
Test(seed, fresh_seeds_are_new_each_time)
{
	uint64_t v[200];
	for (int i = 0; i < 200; i++) {
		v[i] = seed_fresh();
		cr_assert_lt(v[i], 1ULL << 62);
		for (int j = 0; j < i; j++)
			cr_assert_neq(v[i], v[j], "seed %d repeats seed %d", i, j);
	}
}

static int bits_differing(uint64_t a, uint64_t b)
{
	return __builtin_popcountll(a ^ b);
}

/* The old scheme gave seat p the seed s + p + 1: a seat knew the match
 * seed (its own minus p + 1), every other seat's, and the engine's (s).
 * Now no seed of a match equals the match seed or another seed of it, in
 * the 31 bits the games' generator keeps either, and a seat's seed does
 * not recur as a neighbour's in the next match. */
Test(seed, seats_engine_and_match_seed_unrelated)
{
	const int seats = 6;
	long differing = 0, pairs = 0;
	for (uint64_t s = 1; s <= 2000; s++) {
		uint64_t v[seats + 1];
		for (int p = 0; p < seats; p++)
			v[p] = seed_derive(s, SEED_PLAYER, (unsigned)p);
		v[seats] = seed_derive(s, SEED_ENGINE, 0);
		for (int i = 0; i <= seats; i++) {
			cr_assert_neq(v[i] % 2147483648u, s % 2147483648u,
				      "seed %llu: derived seed %d is the match seed",
				      (unsigned long long)s, i);
			for (int j = i + 1; j <= seats; j++) {
				cr_assert_neq(rng_seeded(v[i]).s, rng_seeded(v[j]).s,
					      "seed %llu: seeds %d and %d start the same stream",
					      (unsigned long long)s, i, j);
				differing += bits_differing(v[i], v[j]);
				pairs++;
			}
		}
		for (int p = 1; p < seats; p++)
			cr_assert_neq(seed_derive(s + 1, SEED_PLAYER, (unsigned)p - 1), v[p]);
	}
	/* Unrelated 64-bit values differ in 32 bits on average. */
	double mean = (double)differing / pairs;
	cr_expect(mean > 31.5 && mean < 32.5, "seeds of one match differ in %.2f bits on average",
		  mean);
}
