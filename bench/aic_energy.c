/* aic_energy.c - what AIC2018's energy buys: for each program of the
 * energy corpus (tests/kit/player/corpus.h: library calls, straight-line
 * code, empty loops, recursion, struct copies, qsort...), the energy it is
 * charged per nanosecond of CPU it takes.  Goal: the largest and smallest
 * of them within 10x (counting basic blocks, library calls free, it was
 * about 500000x).  Then what the watch on the count (energy.h) adds to a
 * unit's turn, side by side: turns of a unit that yields at once, without
 * the watch, with it, and timed closely (as after a turn too long by the
 * clock). */
#include <stdio.h>
#include <time.h>

#include "bench/bench.h"
#include "games/aic2018/kit/energy.h"
#include "tests/kit/player/corpus.h"

#define CPU_NS_EACH ((uint64_t)bench_size(40000000, 2000000)) /* per program: long enough to average out */

void uc_yield(void);
void uc_yield(void)
{
	energy_yield();
}

struct unit {
	void (*body)(void *);
	volatile long rounds;
};

static void unit_main(void *arg)
{
	struct unit *u = arg;
	energy_enter(u->body, (void *)&u->rounds);
}

static uint64_t cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Energy per CPU nanosecond of one program, played turn after turn. */
static double energy_per_ns(const struct corpus_program *p)
{
	struct unit u = { p->body, 0 };
	struct coro *c = coro_new(unit_main, &u);
	int64_t debt = 0;
	long turns = 0;
	uint64_t t0 = cpu_ns(), spent;
	do {
		bool paused;
		energy_turn(c, &debt, &paused, NULL);
		turns++;
	} while ((spent = cpu_ns() - t0) < CPU_NS_EACH);
	coro_free(c);
	return (double)(turns * ENERGY_PER_TURN + debt) / (double)spent;
}

#define WATCH_TURNS ((int)bench_size(200000, 2000))

/* CPU per turn of a unit that yields at once: not watched (0), watched
 * (1), timed closely (2). */
static double turn_ns(int how)
{
	struct unit u = { corpus_yield_each_round, 0 };
	struct coro *c = coro_new(unit_main, &u);
	struct energy_watch w = { 0 };
	int64_t debt = 0;
	uint64_t t0 = cpu_ns();
	for (int i = 0; i < WATCH_TURNS; i++) {
		bool paused;
		if (how == 2)
			w.closely = 2;
		energy_turn(c, &debt, &paused, how ? &w : NULL);
	}
	coro_free(c);
	return (double)(cpu_ns() - t0) / WATCH_TURNS;
}

static void watch_cost(void)
{
	double plain = turn_ns(0), watched = turn_ns(1), closely = turn_ns(2);
	printf("aic2018 a unit turn that yields at once: %.0f ns; watched: %.0f ns (+%.0f); "
	       "timed closely: %.0f ns (+%.0f)\n", plain, watched, watched - plain, closely,
	       closely - plain);
}

int main(void)
{
	coro_setup();
	watch_cost();
	double lo = 1e300, hi = 0;
	const char *cheapest = "", *dearest = "";
	for (int i = 0; i < corpus_size; i++) {
		double e = energy_per_ns(&corpus[i]);
		printf("  %-28s %7.3f energy/ns\n", corpus[i].name, e);
		if (e < lo)
			lo = e, cheapest = corpus[i].name;
		if (e > hi)
			hi = e, dearest = corpus[i].name;
	}
	printf("aic2018 energy per CPU ns over %d programs: %.3f (%s) to %.3f (%s): %.1fx "
	       "(goal <= 10x)\n", corpus_size, lo, cheapest, hi, dearest, hi / lo);
	return 0;
}
