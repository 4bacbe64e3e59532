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

/* The most CPU a turn that spent this much energy may take. */
static int64_t cpu_limit_ns(int64_t spent)
{
	if (spent < ENERGY_PER_TURN)
		spent = ENERGY_PER_TURN;
	return spent * ENERGY_WORST_PS / 1000 * ENERGY_WATCH_RATIO;
}

/* The clock bounds a turn's CPU time from above: only a unit one of whose
 * turns passed the limit by the clock has its next ones timed closely. */
#define WATCH_CLOSELY 16

static void watch_start(const struct energy_watch *w, int64_t *clock0, int64_t *cpu0)
{
	*clock0 = clock_ns(CLOCK_MONOTONIC);
	*cpu0 = w->closely ? clock_ns(CLOCK_THREAD_CPUTIME_ID) : 0;
}

static void watch_end(struct energy_watch *w, int64_t clock0, int64_t cpu0, int64_t spent)
{
	int64_t limit = cpu_limit_ns(spent);
	w->tampered = false;
	if (w->closely) {
		w->closely--;
		w->tampered = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 > limit;
	}
	if (clock_ns(CLOCK_MONOTONIC) - clock0 > limit)
		w->closely = WATCH_CLOSELY;
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
	int64_t allowance = ENERGY_PER_TURN - *debt, clock0 = 0, cpu0 = 0;
	if (w)
		watch_start(w, &clock0, &cpu0);
	handoff = allowance;
	__asm__ volatile("fnclex");
	enum coro_state st = coro_resume(c);
	int64_t left = handoff;
	handoff = 0;
	*paused = st == CORO_READY && left < 0;
	*debt = left < 0 ? -left : 0;
	if (w)
		watch_end(w, clock0, cpu0, allowance - left);
	return st;
}
