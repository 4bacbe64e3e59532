/* test_aic_energy.c - deterministic energy (games/aic2018/kit/energy.h)
 * on unit bodies compiled with the contestant's instrumentation. */
#include <criterion/criterion.h>

#include "games/aic2018/kit/energy.h"
#include "tests/kit/player/energy_units.h"

TestSuite(aic_energy, .init = coro_setup);

Test(aic_energy, a_unit_that_never_yields_is_paused_every_turn_and_resumes_there)
{
	volatile long progress = 0;
	struct coro *c = coro_new(spin_forever, (void *)&progress);
	int64_t used = 0;
	long last = 0;
	for (int turn = 0; turn < 20; turn++) {
		bool paused = false;
		cr_assert_eq(energy_turn(c, &used, &paused), CORO_READY);
		cr_expect(paused, "turn %d: the allowance ran out", turn);
		cr_expect_gt(progress, last, "turn %d: it went on from where it stopped", turn);
		cr_expect_leq(progress - last, ENERGY_PER_TURN + 1, "at most one step per block");
		cr_expect_lt(used, 16, "the excess carried is a block or two, not %ld", (long)used);
		last = progress;
	}
	cr_expect_gt(progress, 20 * (ENERGY_PER_TURN / 4), "it did real work each turn");
}

Test(aic_energy, the_same_work_costs_the_same_energy)
{
	volatile long n = 1000;
	int64_t seen[2];
	for (int run = 0; run < 2; run++) {
		struct coro *c = coro_new(loop_then_yield, (void *)&n);
		int64_t used = 0;
		energy_counter = &used;
		cr_assert_eq(coro_resume(c), CORO_READY);
		energy_counter = NULL;
		seen[run] = used;
		coro_free(c);
	}
	cr_expect_eq(seen[0], seen[1]);
	cr_expect_geq(seen[0], 1000, "one block a round at least: %ld", (long)seen[0]);
	cr_expect_lt(seen[0], 5000, "a few blocks a round at most: %ld", (long)seen[0]);
}

Test(aic_energy, a_normal_yield_starts_the_next_turn_at_zero_and_game_calls_are_charged)
{
	volatile long n = 100;
	struct coro *c = coro_new(loop_then_yield, (void *)&n);
	int64_t used = 0;
	bool paused = true;
	cr_assert_eq(energy_turn(c, &used, &paused), CORO_READY);
	cr_expect_not(paused);
	cr_expect_eq(used, 0);
	n = 20000; /* more than a turn's allowance: paused, the excess carried */
	cr_assert_eq(energy_turn(c, &used, &paused), CORO_READY);
	cr_expect(paused);
	energy_counter = &used;
	energy_charge(20);
	energy_counter = NULL;
	cr_expect_geq(used, 20, "a game call's price counts");
	energy_charge(1000);
	cr_expect_lt(used, 40, "nothing is charged between units");
}

Test(aic_energy, the_carry_rule)
{
	cr_expect_eq(energy_carry(0), 0);
	cr_expect_eq(energy_carry(ENERGY_PER_TURN), 0);
	cr_expect_eq(energy_carry(ENERGY_PER_TURN + 7), 7);
	cr_expect_not(energy_spent(ENERGY_PER_TURN));
	cr_expect(energy_spent(ENERGY_PER_TURN + 1));
}
