/* test_aic_isolation.c - what one unit cannot do to another of its team
 * (games/aic2018/kit/coro.h, energy.h): a frame larger than its stack
 * faults in its own guard and leaves the stacks around it alone; the x87
 * exception flags one leaves are gone when the next starts; a count set by
 * hand (what a stray jump into the kit's code could do) is caught by the
 * watch, and an honest program never is. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "games/aic2018/kit/energy.h"
#include "tests/kit/kit_testlib.h"
#include "tests/kit/player/frames.h"

TestSuite(aic_isolation, .init = coro_setup, .timeout = 60);

struct body {
	void (*fn)(void *);
	void *arg;
};

static void unit_main(void *arg)
{
	struct body *b = arg;
	energy_enter(b->fn, b->arg);
}

/* fn(arg) as a new unit's first turn; how it ended, the unit in *c. */
static enum coro_state first_turn(void (*fn)(void *), void *arg, struct coro **c)
{
	static struct body bodies[8];
	static int used;
	struct body *b = &bodies[used++ % 8];
	*b = (struct body){ fn, arg };
	*c = coro_new(unit_main, b);
	cr_assert_not_null(*c);
	int64_t debt = 0;
	bool paused;
	return energy_turn(*c, &debt, &paused, NULL);
}

/* A neighbour: a page of its stack holds a pattern across a yield; it
 * says whether the pattern survived. */
static void neighbour(void *arg)
{
	char page[4096];
	for (size_t i = 0; i < sizeof page; i++)
		page[i] = (char)(i * 7 + 1);
	__asm__ volatile("" : : "r"(page) : "memory");
	coro_yield();
	bool intact = true;
	for (size_t i = 0; i < sizeof page; i++)
		intact &= page[i] == (char)(i * 7 + 1);
	*(bool *)arg = intact;
}

/* Four neighbours on the stacks below, the big frame's unit on the fifth:
 * its megabyte reaches across all of them unless it is stopped at its own
 * guard. */
static void big_frame_dies_alone(void (*fn)(void *))
{
	enum { N = 4 };
	struct coro *n[N];
	bool intact[N] = { false };
	for (int i = 0; i < N; i++) {
		n[i] = coro_new(neighbour, &intact[i]);
		cr_assert_eq(coro_resume(n[i]), CORO_READY);
	}
	volatile char seen = 0;
	struct coro *big;
	cr_assert_eq(first_turn(fn, (void *)&seen, &big), CORO_CRASHED);
	cr_expect(coro_overflowed(big), "the fault was in its own guard (signal %d)",
		  coro_signal(big));
	cr_expect_eq(seen, 0, "it never got past its frame");
	for (int i = 0; i < N; i++) {
		cr_expect_eq(coro_resume(n[i]), CORO_DONE, "neighbour %d ran to its end", i);
		cr_expect(intact[i], "neighbour %d's stack is as it left it", i);
	}
}

Test(aic_isolation, a_megabyte_local_array_faults_in_its_own_guard)
{
	big_frame_dies_alone(frames_big_local);
}

Test(aic_isolation, a_megabyte_variable_length_array_faults_in_its_own_guard)
{
	big_frame_dies_alone(frames_big_vla);
}

Test(aic_isolation, a_large_frame_that_fits_runs)
{
	volatile char seen = 0;
	struct coro *c;
	cr_expect_eq(first_turn(frames_fitting_local, (void *)&seen, &c), CORO_DONE);
	cr_expect_eq(seen, 7);
}

/* ---- the x87 status, which no switch saves ------------------------------- */

static void leave_x87_flags(void *arg)
{
	(void)arg;
	volatile long double zero = 0, one = 1;
	volatile long double inf = one / zero; /* sets the zero-divide flag */
	(void)inf;
}

static void read_x87_flags(void *arg)
{
	uint16_t sw;
	__asm__ volatile("fnstsw %0" : "=m"(sw));
	*(uint16_t *)arg = sw & 0x3f;
}

Test(aic_isolation, a_unit_starts_with_no_x87_exception_flag_another_left)
{
	uint16_t flags = 0xffff;
	struct coro *c;
	cr_assert_eq(first_turn(leave_x87_flags, NULL, &c), CORO_DONE);
	cr_assert_eq(first_turn(read_x87_flags, &flags, &c), CORO_DONE);
	cr_expect_eq(flags, 0, "x87 exception flags 0x%x reached the next unit", flags);
}

/* ---- the watch ---------------------------------------------------------- */

static int64_t cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void uc_yield(void);

/* Sets the count by hand, as kit code reached by a computed jump could,
 * then works 3 ms of CPU uncounted (a turn's energy takes some 10 us). */
static void tamperer(void *arg)
{
	volatile long *rounds = arg;
	for (;;) {
		energy_left = INT64_MAX / 2;
		for (int64_t until = cpu_ns() + 3000000; cpu_ns() < until;)
			(*rounds)++;
		uc_yield();
	}
}

static bool tampered_turn(void (*fn)(void *), int turns)
{
	volatile long rounds = 0;
	struct body b = { fn, (void *)&rounds };
	struct coro *c = coro_new(unit_main, &b);
	struct energy_watch w = { 0 };
	int64_t debt = 0;
	bool seen = false, paused;
	for (int turn = 0; turn < turns; turn++) {
		cr_assert_eq(energy_turn(c, &debt, &paused, &w), CORO_READY);
		seen |= w.tampered;
	}
	coro_free(c);
	return seen;
}

Test(aic_isolation, a_unit_whose_count_was_set_by_hand_is_caught)
{
	cr_expect(tampered_turn(tamperer, 3), "its second turn, timed closely, gives it away");
}

ParameterizedTestParameters(aic_isolation, no_honest_program_is_taken_for_a_tamperer)
{
	return corpus_params();
}

ParameterizedTest(int *i, aic_isolation, no_honest_program_is_taken_for_a_tamperer)
{
	cr_expect_not(tampered_turn(corpus[*i].body, 6), "%s", corpus[*i].name);
}

Test(aic_isolation, a_debt_rewritten_below_zero_gives_no_more_than_a_turn)
{
	volatile long honest = 0, cheat = 0;
	struct body a = { corpus[1].body, (void *)&honest }, b = { corpus[1].body, (void *)&cheat };
	struct coro *ca = coro_new(unit_main, &a), *cb = coro_new(unit_main, &b);
	int64_t debt_a = 0, debt_b = -1000000000;
	bool paused;
	energy_turn(ca, &debt_a, &paused, NULL);
	energy_turn(cb, &debt_b, &paused, NULL);
	cr_expect_gt(honest, 0);
	cr_expect_eq(cheat, honest, "a turn's work: %ld, not %ld", honest, cheat);
}
