/* aic_switch.c - the AIC2018 kit's unit context switch: two coroutines'
 * worth of resume and yield, timed over many rounds (one switch = one
 * direction).  Goal: <= 20 ns.  For scale, the same round trip through
 * swapcontext(3), which changes the signal mask by system call each time. */
#include <stdio.h>
#include <ucontext.h>

#include "bench/bench.h"
#include "games/aic2018/kit/coro.h"

#define ROUNDS ((int)bench_size(2000000, 20000))
#define RUNS ((int)bench_size(7, 1))

static void yielder(void *arg)
{
	(void)arg;
	for (;;)
		coro_yield();
}

static double coro_ns(void)
{
	struct coro *c = coro_new(yielder, NULL);
	uint64_t t[RUNS];
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = bench_now_ns();
		for (int i = 0; i < ROUNDS; i++)
			coro_resume(c);
		t[r] = bench_now_ns() - t0;
	}
	coro_free(c);
	return (double)bench_median(t, RUNS) / (2.0 * ROUNDS);
}

static ucontext_t main_ctx, other_ctx;

static void uc_yielder(void)
{
	for (;;)
		swapcontext(&other_ctx, &main_ctx);
}

static double swapcontext_ns(void)
{
	static char stack[64 * 1024];
	getcontext(&other_ctx);
	other_ctx.uc_stack = (stack_t){ .ss_sp = stack, .ss_size = sizeof stack };
	other_ctx.uc_link = NULL;
	makecontext(&other_ctx, uc_yielder, 0);
	const int uc_rounds = ROUNDS / 10;
	uint64_t t[RUNS];
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = bench_now_ns();
		for (int i = 0; i < uc_rounds; i++)
			swapcontext(&main_ctx, &other_ctx);
		t[r] = bench_now_ns() - t0;
	}
	return (double)bench_median(t, RUNS) / (2.0 * uc_rounds);
}

int main(void)
{
	coro_setup();
	double ours = coro_ns(), theirs = swapcontext_ns();
	printf("aic2018 unit context switch: %.1f ns (goal <= 20 ns); swapcontext: %.1f ns "
	       "(%.1fx)\n", ours, theirs, theirs / ours);
	return 0; /* a goal missed is reported, not failed: the machine may be busy */
}
