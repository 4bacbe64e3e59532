/* coro.c - the coroutines of coro.h: stacks with a guard page, a context
 * switch in x86-64 assembly, and a fault handler that ends only the
 * coroutine that faulted. */
#include "games/aic2018/kit/coro.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOT (CORO_STACK + CORO_GUARD)
#define STACK_PREFAULT (32 * 1024)
/* Where stacks go: far from the heap and the libraries, one slot after
 * another in the order they were first needed. */
#define STACK_AREA ((uintptr_t)0x100000000000ULL)

struct coro {
	void *sp;                /* saved stack pointer while not running */
	uint8_t *slot;           /* guard page, then the stack */
	void (*fn)(void *);
	void *arg;
	enum coro_state state;
	int signal;
	bool overflowed;
	struct coro *next_free;  /* in the pool of stacks */
};

static void *scheduler_sp;     /* the resumer's stack pointer while one runs */
static struct coro *running;
static struct coro *pool;      /* ended coroutines whose stacks wait */
static unsigned slots_mapped;

/* Saves the callee-saved registers and the control words on the current
 * stack, stores the stack pointer in *save, and continues on `load`'s
 * stack where the same was saved.  coro_enter is where a new coroutine's
 * first switch "returns" to: r12 holds its entry, r13 the coroutine. */
void coro_switch(void **save, void *load);
void coro_enter(void);
__asm__(".text\n"
	".globl coro_switch\n"
	".hidden coro_switch\n"
	".type coro_switch,@function\n"
	"coro_switch:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size coro_switch, .-coro_switch\n"
	".globl coro_enter\n"
	".hidden coro_enter\n"
	".type coro_enter,@function\n"
	"coro_enter:\n"
	"	movq %r13, %rdi\n"
	"	call *%r12\n"
	"	ud2\n"
	".size coro_enter, .-coro_enter\n");

/* Called by a unit's code (energy_asm.h) before its stack pointer goes down
 * by a page or more; 8(%rsp) holds by how much.  Touches every page of
 * the way, top down, so the first one past the stack is in its guard: the
 * fault is the unit's own.  Each page costs 6 energy (the loop's
 * instructions).  Keeps every register and the flags. */
__asm__(".text\n"
	".globl __aic_stack_probe\n"
	".hidden __aic_stack_probe\n"
	".type __aic_stack_probe,@function\n"
	"__aic_stack_probe:\n"
	"	pushfq\n"
	"	pushq %rax\n"
	"	pushq %rcx\n"
	"	movq 32(%rsp), %rcx\n"
	"	movq %rsp, %rax\n"
	"1:	cmpq $4096, %rcx\n"
	"	jb 2f\n"
	"	subq $4096, %rax\n"
	"	orq $0, (%rax)\n"
	"	leaq -6(%r15), %r15\n"
	"	subq $4096, %rcx\n"
	"	jmp 1b\n"
	"2:	subq %rcx, %rax\n"
	"	orq $0, (%rax)\n"
	"	popq %rcx\n"
	"	popq %rax\n"
	"	popfq\n"
	"	ret\n"
	".size __aic_stack_probe, .-__aic_stack_probe\n");

static void finish(struct coro *c, enum coro_state why)
{
	c->state = why;
	running = NULL;
	void *dead;
	coro_switch(&dead, scheduler_sp);
	abort(); /* never resumed */
}

/* The first frame of every coroutine. */
static void run_coroutine(struct coro *c)
{
	c->fn(c->arg);
	finish(c, CORO_DONE);
}

static uint8_t *map_slot(void)
{
	void *want = (void *)(STACK_AREA + (uintptr_t)slots_mapped * SLOT);
	void *p = mmap(want, SLOT, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != want) {
		if (p != MAP_FAILED)
			munmap(p, SLOT);
		p = mmap(NULL, SLOT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);
		if (p == MAP_FAILED)
			return NULL;
	}
	if (mprotect(p, CORO_GUARD, PROT_NONE) < 0) {
		munmap(p, SLOT);
		return NULL;
	}
	/* The top of the stack, where most units live, faulted in now by the
	 * scheduler: a unit's first turn costs little more CPU than its energy
	 * says (energy.h's watch).  Old kernels: lazily. */
	madvise((uint8_t *)p + SLOT - STACK_PREFAULT, STACK_PREFAULT, MADV_POPULATE_WRITE);
	slots_mapped++;
	return p;
}

/* A stack as coro_switch leaves one: control words, six registers, then
 * the address it returns to. */
static void *initial_stack(struct coro *c)
{
	uint64_t *top = (uint64_t *)(c->slot + SLOT);
	uint64_t *sp = top - 8; /* 16-aligned after coro_enter's "return" */
	uint32_t mxcsr = 0x1f80, fpucw = 0x37f; /* the ABI's initial values */
	memcpy(&sp[0], &mxcsr, 4);
	memcpy((uint8_t *)&sp[0] + 4, &fpucw, 2);
	sp[1] = 0;                        /* r15 */
	sp[2] = 0;                        /* r14 */
	sp[3] = (uint64_t)(uintptr_t)c;   /* r13 */
	sp[4] = (uint64_t)(uintptr_t)run_coroutine; /* r12 */
	sp[5] = 0;                        /* rbx */
	sp[6] = 0;                        /* rbp */
	sp[7] = (uint64_t)(uintptr_t)coro_enter;
	return sp;
}

struct coro *coro_new(void (*fn)(void *), void *arg)
{
	struct coro *c = pool;
	if (c) {
		pool = c->next_free;
	} else {
		c = malloc(sizeof *c);
		if (!c)
			return NULL;
		c->slot = map_slot();
		if (!c->slot) {
			free(c);
			return NULL;
		}
	}
	uint8_t *slot = c->slot;
	*c = (struct coro){ .slot = slot, .fn = fn, .arg = arg, .state = CORO_READY };
	c->sp = initial_stack(c);
	return c;
}

void coro_free(struct coro *c)
{
	if (!c || c == running)
		return;
	c->next_free = pool;
	pool = c;
}

enum coro_state coro_resume(struct coro *c)
{
	if (running || c->state != CORO_READY)
		return c->state;
	running = c;
	coro_switch(&scheduler_sp, c->sp);
	return c->state;
}

void coro_yield(void)
{
	struct coro *c = running;
	if (!c)
		return;
	running = NULL;
	coro_switch(&c->sp, scheduler_sp);
}

struct coro *coro_running(void)
{
	return running;
}

enum coro_state coro_state(const struct coro *c)
{
	return c->state;
}

int coro_signal(const struct coro *c)
{
	return c->signal;
}

bool coro_overflowed(const struct coro *c)
{
	return c->overflowed;
}

/* ---- faults ------------------------------------------------------------- */

static bool faults_crash;

void coro_faults_crash(void)
{
	faults_crash = true;
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	struct coro *c = running;
	if (c && faults_crash) {
		/* the faulting instruction runs again, and kills */
		signal(sig, SIG_DFL);
		return;
	}
	if (!c) {
		/* the kit's own fault: crash as io.h's handler would */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	uintptr_t addr = (uintptr_t)info->si_addr, guard = (uintptr_t)c->slot;
	c->signal = sig;
	c->overflowed = sig == SIGSEGV && addr >= guard && addr < guard + CORO_GUARD;
	/* Leave the signal frame behind for good: SA_NODEFER kept the signal
	 * unblocked, and the alternate stack is free again once we are off it. */
	finish(c, CORO_CRASHED);
}

void coro_setup(void)
{
	static char altstack[64 * 1024];
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
	sigaltstack(&ss, NULL);
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER };
	for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
		sigaction(faults[i], &sa, NULL);
}
