/* coro.h - one coroutine per unit inside a player's process.
 *
 * Promises.  Each coroutine runs on its own stack (CORO_STACK bytes, mapped
 * at an address that depends only on the order stacks were first needed,
 * so the same program lays out its memory the same way every match), with
 * a guard region below it (CORO_GUARD) that no access may touch: a unit's
 * code probes every page of a large frame on the way down (energy_asm.h,
 * __aic_stack_probe), so no frame, however large, steps over the guard
 * into the stack of another coroutine.  Switching in and out is a
 * handful of instructions in this file's assembly: the callee-saved
 * registers, the stack pointer and the SSE and x87 control words; no
 * system call, no signal mask.  A coroutine ends in one of three ways the
 * scheduler can tell apart: its function returned (CORO_DONE), it faulted
 * (CORO_CRASHED: a stack overflow onto the guard page, a bad pointer, a
 * division by zero; the fault is handled on an alternate signal stack and
 * only that coroutine dies), or it is still alive and gave the CPU back
 * (CORO_READY).  A fault outside every coroutine crashes the process as
 * before (games/kit/io.h).  The stacks of ended coroutines are kept and
 * handed to the next ones, so creating thousands in turn maps only as many
 * as were alive at once.  Single-threaded: the state is this file's.
 */
#ifndef AIC_CORO_H
#define AIC_CORO_H

#include <stdbool.h>
#include <stddef.h>

#define CORO_STACK (256 * 1024)
/* Larger than any stretch a unit's code leaves unprobed (a page, the red
 * zone, the energy pause's saved registers). */
#define CORO_GUARD (64 * 1024)

enum coro_state { CORO_READY, CORO_DONE, CORO_CRASHED };

struct coro;

/* Installs the fault handlers (once, before the first coroutine runs). */
void coro_setup(void);
/* From now on a fault in a coroutine crashes the process as a fault
 * outside one would, where it happened (for `judge repro`: the debugger or
 * AddressSanitizer then stops in the unit's code). */
void coro_faults_crash(void);

/* A coroutine that will run fn(arg) when first resumed; NULL when no
 * stack could be mapped (the memory limit). */
struct coro *coro_new(void (*fn)(void *), void *arg);

/* Runs c until it yields, returns or faults; says which.  Only from
 * outside every coroutine, and only while c is CORO_READY. */
enum coro_state coro_resume(struct coro *c);

/* From inside a coroutine: back to whoever resumed it.  Outside one it
 * does nothing. */
void coro_yield(void);

/* The coroutine running now, or NULL. */
struct coro *coro_running(void);

enum coro_state coro_state(const struct coro *c);
/* When CORO_CRASHED: the signal, and whether it hit the guard. */
int coro_signal(const struct coro *c);
bool coro_overflowed(const struct coro *c);

/* Gives c's stack back to the pool.  Not while it runs. */
void coro_free(struct coro *c);

#endif
