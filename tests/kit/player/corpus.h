/* corpus.h - unit bodies compiled as a contestant's file is (gcc -S
 * -ffixed-r15, then the energy rewrite), each doing one kind of work
 * forever without yielding: plain loops, straight-line code, recursion,
 * vectorised loops, struct copies, and every kind of counted library call.
 * Each counts its rounds in *(volatile long *)arg.  For the energy tests
 * (tests/kit/test_aic_energy.c) and the energy-per-nanosecond benchmark
 * (bench/aic_energy.c). */
#ifndef TEST_CORPUS_H
#define TEST_CORPUS_H

struct corpus_program {
	const char *name;
	void (*body)(void *rounds);
	/* The least energy one round can honestly cost: what its library
	 * calls are charged, or its instructions; a turn may run at most
	 * 15000 / floor + 1 rounds (0: no bound, the round is too cheap). */
	long floor;
};

extern const struct corpus_program corpus[];
extern const int corpus_size;

/* Yields once a round: the turn's energy is left unspent. */
void corpus_yield_each_round(void *rounds);

#endif
