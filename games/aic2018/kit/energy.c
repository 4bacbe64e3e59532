/* energy.c - the count of energy.h: the hand-off between a unit's r15 and
 * the scheduler, and the pause the rewritten code calls. */
#include "games/aic2018/kit/energy.h"

#include <time.h>

/* The energy left, crossing a switch: the unit's side writes it just
 * before it yields and reads it just after it is resumed (and clears it:
 * kit code reached by a stray jump finds nothing to reload); the
 * scheduler's side reads it just after a resume returns and writes it just
 * before the next one.  No unit code runs in between. */
static int64_t handoff;

void energy_pause(void);

/* Where a rewritten block lands when its unit's energy is spent (see
 * energy_asm.h): any point in the code, so it keeps every register and the
 * flags, realigns the stack for C and saves the SSE state around the
 * switch. */
__asm__(".text\n"
	".globl __aic_energy_pause\n"
	".hidden __aic_energy_pause\n"
	".type __aic_energy_pause,@function\n"
	"__aic_energy_pause:\n"
	"	pushfq\n"
	"	pushq %rax\n"
	"	pushq %rcx\n"
	"	pushq %rdx\n"
	"	pushq %rsi\n"
	"	pushq %rdi\n"
	"	pushq %r8\n"
	"	pushq %r9\n"
	"	pushq %r10\n"
	"	pushq %r11\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	andq $-16, %rsp\n"
	"	subq $512, %rsp\n"
	"	fxsave64 (%rsp)\n"
	"	cld\n"
	"	call energy_pause\n"
	"	fxrstor64 (%rsp)\n"
	"	movq %rbp, %rsp\n"
	"	popq %rbp\n"
	"	popq %r11\n"
	"	popq %r10\n"
	"	popq %r9\n"
	"	popq %r8\n"
	"	popq %rdi\n"
	"	popq %rsi\n"
	"	popq %rdx\n"
	"	popq %rcx\n"
	"	popq %rax\n"
	"	popfq\n"
	"	ret\n"
	".size __aic_energy_pause, .-__aic_energy_pause\n");

void energy_yield(void)
{
	handoff = energy_left;
	coro_yield();
	energy_left = handoff;
	handoff = 0;
}

/* Called by __aic_energy_pause only. */
void energy_pause(void)
{
	energy_yield();
}

int64_t energy_used(void)
{
	return coro_running() ? ENERGY_PER_TURN - energy_left : 0;
}

void energy_enter(void (*fn)(void *), void *arg)
{
	int64_t kept = energy_left; /* the coroutine's first frame may use r15 */
	energy_left = handoff;
	handoff = 0;
	fn(arg);
	energy_left = kept;
}

static int64_t clock_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void energy_watch_step(struct energy_watch *w)
{
	w->step_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w->step_clock_ns = clock_ns(CLOCK_MONOTONIC);
	w->tampered = false;
}

/* The most CPU a turn that spent this much energy may take. */
static int64_t cpu_limit_ns(int64_t spent)
{
	if (spent < ENERGY_PER_TURN)
		spent = ENERGY_PER_TURN;
	return spent * ENERGY_WORST_PS / 1000 * ENERGY_WATCH_RATIO;
}

/* The clock bounds the CPU a turn took from above, so only a turn whose
 * clock time passes the limit is looked at closer: the CPU since the step
 * began, less the clock time from the step's start to the turn's (which
 * bounds the CPU the earlier turns took), was the turn's own at least. */
static bool watch_tampered(const struct energy_watch *w, int64_t start_ns, int64_t spent)
{
	int64_t limit = cpu_limit_ns(spent), end_ns = clock_ns(CLOCK_MONOTONIC);
	if (end_ns - start_ns <= limit)
		return false;
	int64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - w->step_cpu_ns;
	return cpu - (start_ns - w->step_clock_ns) > limit;
}

enum coro_state energy_turn(struct coro *c, int64_t *debt, bool *paused, struct energy_watch *w)
{
	if (*debt < 0)
		*debt = 0;
	if (*debt >= ENERGY_PER_TURN) {
		*debt -= ENERGY_PER_TURN;
		*paused = true;
		return CORO_READY;
	}
	int64_t allowance = ENERGY_PER_TURN - *debt, start_ns = w ? clock_ns(CLOCK_MONOTONIC) : 0;
	handoff = allowance;
	__asm__ volatile("fnclex");
	enum coro_state st = coro_resume(c);
	int64_t left = handoff;
	handoff = 0;
	*paused = st == CORO_READY && left < 0;
	*debt = left < 0 ? -left : 0;
	if (w)
		w->tampered = watch_tampered(w, start_ns, allowance - left);
	return st;
}
