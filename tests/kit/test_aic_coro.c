/* test_aic_coro.c - the AIC2018 kit's coroutines (games/aic2018/kit/coro.h):
 * order of switches, the three ways a coroutine ends, faults that kill one
 * coroutine and not the process, stack reuse, and what a switch keeps. */
#include <criterion/criterion.h>
#include <fenv.h>
#include <signal.h>
#include <stdint.h>

#include "games/aic2018/kit/coro.h"

static char trail[64];
static size_t trail_len;

static void note(char c)
{
	if (trail_len + 1 < sizeof trail)
		trail[trail_len++] = c;
}

static void letters(void *arg)
{
	const char *s = arg;
	for (; *s; s++) {
		note(*s);
		coro_yield();
	}
}

TestSuite(aic_coro, .init = coro_setup);

Test(aic_coro, resumes_where_each_yielded_in_turn)
{
	struct coro *a = coro_new(letters, "ace"), *b = coro_new(letters, "bdf");
	cr_assert(a && b);
	for (int round = 0; round < 3; round++) {
		cr_assert_eq(coro_resume(a), CORO_READY);
		cr_assert_eq(coro_resume(b), CORO_READY);
	}
	cr_expect_str_eq((trail[trail_len] = 0, trail), "abcdef");
	cr_expect_eq(coro_resume(a), CORO_DONE, "its function returned");
	cr_expect_eq(coro_resume(b), CORO_DONE);
	cr_expect_eq(coro_resume(a), CORO_DONE, "an ended coroutine stays ended");
	cr_expect_null(coro_running());
}

static int deep(int n)
{
	volatile char pad[512];
	pad[0] = (char)n;
	return n < 1 << 30 ? deep(n + 1) + pad[0] : 0; /* runs off the stack long before */
}

static void overflow(void *arg)
{
	(void)arg;
	deep(0);
}

static void null_write(void *arg)
{
	*(volatile int *)arg = 1;
}

static volatile int quotient;

static void divide(void *arg)
{
	volatile int by = (int)(intptr_t)arg;
	quotient = 10 / by;
}

Test(aic_coro, a_stack_overflow_ends_that_coroutine_only)
{
	struct coro *bad = coro_new(overflow, NULL), *good = coro_new(letters, "xy");
	cr_assert_eq(coro_resume(good), CORO_READY);
	cr_assert_eq(coro_resume(bad), CORO_CRASHED);
	cr_expect_eq(coro_signal(bad), SIGSEGV);
	cr_expect(coro_overflowed(bad), "the fault was on the guard page");
	cr_expect_eq(coro_resume(good), CORO_READY, "the others go on");
	cr_expect_eq(coro_resume(good), CORO_DONE);
	coro_free(bad);
	struct coro *again = coro_new(overflow, NULL);
	cr_expect_eq(coro_resume(again), CORO_CRASHED, "the handler works a second time");
	cr_expect_str_eq((trail[trail_len] = 0, trail), "xy");
}

Test(aic_coro, bad_pointers_and_division_by_zero_end_the_coroutine)
{
	struct coro *n = coro_new(null_write, NULL), *d = coro_new(divide, 0);
	cr_assert_eq(coro_resume(n), CORO_CRASHED);
	cr_expect_eq(coro_signal(n), SIGSEGV);
	cr_expect_not(coro_overflowed(n), "a null pointer, not the stack");
	cr_assert_eq(coro_resume(d), CORO_CRASHED);
	cr_expect_eq(coro_signal(d), SIGFPE);
	struct coro *ok = coro_new(divide, (void *)(intptr_t)5);
	cr_expect_eq(coro_resume(ok), CORO_DONE);
	cr_expect_eq(quotient, 2);
}

static void where_am_i(void *arg)
{
	volatile char local;
	*(uintptr_t *)arg = (uintptr_t)&local;
}

Test(aic_coro, thousands_in_turn_reuse_one_stack_at_a_fixed_place)
{
	uintptr_t first = 0, here = 0;
	for (int i = 0; i < 5000; i++) {
		struct coro *c = coro_new(where_am_i, &here);
		cr_assert_not_null(c, "coroutine %d", i);
		cr_assert_eq(coro_resume(c), CORO_DONE);
		if (i == 0)
			first = here;
		cr_assert_eq(here, first, "coroutine %d ran on another stack", i);
		coro_free(c);
	}
	cr_expect_geq(first, (uintptr_t)0x100000000000ULL, "stacks have a fixed area");
	cr_expect_lt(first, (uintptr_t)0x100000000000ULL + CORO_STACK + CORO_GUARD);
}

static void many_alive(void *arg)
{
	(*(int *)arg)++;
	coro_yield();
	(*(int *)arg)++;
}

Test(aic_coro, thousands_alive_at_once)
{
	enum { N = 2000 };
	static struct coro *c[N];
	int count = 0;
	for (int i = 0; i < N; i++) {
		c[i] = coro_new(many_alive, &count);
		cr_assert_not_null(c[i]);
		cr_assert_eq(coro_resume(c[i]), CORO_READY);
	}
	for (int i = 0; i < N; i++)
		cr_assert_eq(coro_resume(c[i]), CORO_DONE);
	cr_expect_eq(count, 2 * N);
}

static void rounding_down(void *arg)
{
	(void)arg;
	fesetround(FE_DOWNWARD);
	coro_yield();
	note(fegetround() == FE_DOWNWARD ? 'd' : '?');
}

Test(aic_coro, each_side_keeps_its_rounding_mode)
{
	struct coro *c = coro_new(rounding_down, NULL);
	cr_assert_eq(coro_resume(c), CORO_READY);
	cr_expect_eq(fegetround(), FE_TONEAREST, "the coroutine's mode stayed with it");
	cr_assert_eq(coro_resume(c), CORO_DONE);
	cr_expect_eq(trail[0], 'd');
}

static void spill(void *arg)
{
	(void)arg;
	coro_yield();
}

Test(aic_coro, callee_saved_registers_survive_a_switch)
{
	struct coro *c = coro_new(spill, NULL);
	uint64_t rbx = 0x1111, r12 = 0x2222, r13 = 0x3333, r14 = 0x4444, r15 = 0x5555;
	__asm__ volatile("" : "+b"(rbx));
	register uint64_t a __asm__("r12") = r12, b __asm__("r13") = r13,
			      d __asm__("r14") = r14, e __asm__("r15") = r15;
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(d), "+r"(e));
	coro_resume(c);
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(d), "+r"(e), "+b"(rbx));
	cr_expect_eq(a, r12);
	cr_expect_eq(b, r13);
	cr_expect_eq(d, r14);
	cr_expect_eq(e, r15);
	cr_expect_eq(rbx, 0x1111);
	coro_resume(c);
}
