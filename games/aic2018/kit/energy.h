/* energy.h - deterministic energy: what a unit's turn may spend.
 *
 * The contestant's file (and only it) is compiled with
 * -fsanitize-coverage=trace-pc: gcc calls __sanitizer_cov_trace_pc() at
 * the start of every basic block it executes, and that adds one to the
 * running unit's count.  Game calls add their fixed prices (energy_charge).
 * Once a unit's count passes ENERGY_PER_TURN, the next block it enters
 * hands the CPU back to the scheduler (the unit is paused mid-code and
 * resumes there next round).  At every hand-back the count becomes
 * max(0, used - ENERGY_PER_TURN): an overrun's excess is paid next turn,
 * a normal yield starts the next turn at 0.  The same program in the same
 * state always spends the same energy.  Outside every unit (the kit's own
 * code, which is not instrumented anyway) nothing is counted.
 */
#ifndef AIC_ENERGY_H
#define AIC_ENERGY_H

#include <stdbool.h>
#include <stdint.h>

#include "games/aic2018/kit/coro.h"

#define ENERGY_PER_TURN 15000

/* The running unit's count; NULL between units.  The kit points it at
 * the unit's own count before resuming the unit. */
extern int64_t *energy_counter;

/* Adds a game call's price to the running unit's count. */
static inline void energy_charge(int64_t price)
{
	if (energy_counter)
		*energy_counter += price;
}

/* The count carried into the next turn after a hand-back. */
static inline int64_t energy_carry(int64_t used)
{
	return used > ENERGY_PER_TURN ? used - ENERGY_PER_TURN : 0;
}

/* True when the count has passed the turn's allowance. */
static inline bool energy_spent(int64_t used)
{
	return used > ENERGY_PER_TURN;
}

void __sanitizer_cov_trace_pc(void);

/* One turn of the unit running as c, whose count is *used: resumes c with
 * the counter pointing at *used until it yields, is paused, returns or
 * faults, then applies the carry.  *paused says whether the allowance ran
 * out mid-code. */
enum coro_state energy_turn(struct coro *c, int64_t *used, bool *paused);

#endif
