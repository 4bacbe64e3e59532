/* energy.c - the block counter of energy.h. */
#include "games/aic2018/kit/energy.h"

int64_t *energy_counter;

/* Called by the instrumented code at every block: keep it short, it is
 * the hottest function of a player.  The pause is a plain yield; the
 * scheduler sees from the count that the turn was cut short. */
void __sanitizer_cov_trace_pc(void)
{
	int64_t *c = energy_counter;
	if (c && energy_spent(++*c))
		coro_yield();
}

enum coro_state energy_turn(struct coro *c, int64_t *used, bool *paused)
{
	energy_counter = used;
	enum coro_state st = coro_resume(c);
	energy_counter = NULL;
	*paused = st == CORO_READY && energy_spent(*used);
	*used = energy_carry(*used);
	return st;
}
