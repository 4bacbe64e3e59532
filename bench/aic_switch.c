/* aic_switch.c - the AIC2018 kit's unit context switch: two coroutines'
 * worth of resume and yield, timed over many rounds (one switch = one
 * direction).  Goal: <= 20 ns.  For scale, the same round trip through
 * swapcontext(3), which changes the signal mask by system call each time.
 * Where the processor has memory protection keys, also the switch with
 * the rights change a keyed isolation of the units would add (one WRPKRU
 * each way: the other units' memory made unreadable while one runs). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
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
	const int rounds = ROUNDS;
	uint64_t t[RUNS];
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = bench_now_ns();
		for (int i = 0; i < rounds; i++)
			coro_resume(c);
		t[r] = bench_now_ns() - t0;
	}
	coro_free(c);
	return (double)bench_median(t, RUNS) / (2.0 * rounds);
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

/* The switch with a key's rights taken away before each resume and given
 * back after it, or a negative errno where the processor has no keys. */
static double keyed_switch_ns(void)
{
	int key = pkey_alloc(0, 0);
	if (key < 0)
		return -errno;
	struct coro *c = coro_new(yielder, NULL);
	const int rounds = ROUNDS;
	uint64_t t[RUNS];
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = bench_now_ns();
		for (int i = 0; i < rounds; i++) {
			pkey_set(key, PKEY_DISABLE_ACCESS);
			coro_resume(c);
			pkey_set(key, 0);
		}
		t[r] = bench_now_ns() - t0;
	}
	coro_free(c);
	pkey_free(key);
	return (double)bench_median(t, RUNS) / (2.0 * rounds);
}

int main(void)
{
	coro_setup();
	double ours = coro_ns(), theirs = swapcontext_ns(), keyed = keyed_switch_ns();
	printf("aic2018 unit context switch: %.1f ns (goal <= 20 ns); swapcontext: %.1f ns "
	       "(%.1fx)\n", ours, theirs, theirs / ours);
	if (keyed >= 0)
		printf("aic2018 unit switch with memory protection keys (other units' memory "
		       "unreadable): %.1f ns (goal <= 20 ns)\n", keyed);
	else
		printf("aic2018 memory protection keys: this processor has none (pkey_alloc: %s), "
		       "so a keyed switch cannot be measured or used here\n", strerror((int)-keyed));
	return 0; /* a goal missed is reported, not failed: the machine may be busy */
}
