/* energy.h - deterministic energy: what a unit's turn may spend.
 *
 * The contestant's file is compiled with -ffixed-r15 and its assembly
 * rewritten by games/aic2018/engine/energy_asm.h: every block it runs
 * takes its instruction count off r15, which holds the energy the running
 * unit has left this turn, and every loop head and function entry calls
 * __aic_energy_pause once it is below 0.  No code of the contestant's can
 * name r15, and no memory holds the count while the unit runs.  The kit's
 * code that units call (the uc_* calls, the counted C library) reserves
 * r15 too and takes its prices off it (energy_charge).  At every hand-back
 * the count crosses to the scheduler through energy.c's hand-off, which
 * only the kit reads and writes between units.  A unit that overspent
 * carries the excess into the next turns (energy_turn); a normal yield
 * starts the next turn with the whole allowance.  The same program in the
 * same state always spends the same energy.
 *
 * The count is checked from outside too (struct energy_watch): a turn that
 * took far more CPU than its energy could ever take (ENERGY_WATCH_RATIO
 * times the dearest energy of the cost table) had its count tampered with
 * or not charged (code of the kit's reached by a computed jump, a debt
 * rewritten in memory).  The clock only chooses which units to time
 * closely; the verdict is the CPU time's: a loaded machine makes turns
 * slower, not dearer, and an honest unit is never caught, so matches
 * repeat whatever else runs.
 */
#ifndef AIC_ENERGY_H
#define AIC_ENERGY_H

#include <stdbool.h>
#include <stdint.h>

#include "games/aic2018/kit/coro.h"

#define ENERGY_PER_TURN 15000
/* The most CPU one energy takes in the dearest program of the cost table
 * (bench-aic_energy: 34 programs), in picoseconds, and how far past it a
 * turn must go to be called tampered with.  A turn is judged on at least a
 * whole turn's energy, so a short turn's first touch of its stack pages
 * is never mistaken for one. */
#define ENERGY_WORST_PS 1000
#define ENERGY_WATCH_RATIO 50

/* The running unit's energy left.  Only meaningful inside a unit; code of
 * the kit running between units leaves r15 alone (it is callee-saved for
 * the code that calls the kit). */
register int64_t energy_left __asm__("r15");

/* Takes a game or library call's price off the running unit's energy. */
static inline void energy_charge(int64_t price)
{
	if (coro_running())
		energy_left -= price;
}

/* The running unit's energy used this turn (0 outside a unit). */
int64_t energy_used(void);

/* From a unit: hands the CPU back (its energy goes with it) and returns
 * when the scheduler resumes it. */
void energy_yield(void);

/* Runs fn(arg) as a unit's body (the first frame of its coroutine): r15
 * gets the energy the scheduler handed over. */
void energy_enter(void (*fn)(void *), void *arg);

/* The check from outside, one per unit.  Each turn is timed by the clock;
 * a turn whose clock time passes the limit (a loaded machine, or a count
 * tampered with) has the unit's next turns timed by the thread's CPU
 * clock too (a system call each), and a turn whose CPU time passes the
 * limit is a tampered one. */
struct energy_watch {
	int closely;   /* turns still to be timed by the CPU clock */
	bool tampered; /* the last turn's verdict */
};

/* One turn of the unit running as c, which owes *debt from earlier turns:
 * a debt of a whole turn or more is paid by not running (*paused);
 * otherwise c runs with the rest until it yields, is paused, returns or
 * faults.  *debt becomes what it overspent (never below 0: no turn gets
 * more than the allowance), *paused whether its energy ran out mid-code.
 * With w (the unit's; NULL: no check), w->tampered says whether the
 * turn's CPU time disagreed with its energy.  Each turn starts with the x87 exception
 * flags clear, whatever the unit before left there. */
enum coro_state energy_turn(struct coro *c, int64_t *debt, bool *paused, struct energy_watch *w);

#endif
