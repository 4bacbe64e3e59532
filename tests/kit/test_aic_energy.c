/* test_aic_energy.c - deterministic energy that measures work
 * (games/aic2018/kit/energy.h), on the unit bodies of the corpus
 * (tests/kit/player/corpus.h), compiled and rewritten as a contestant's
 * file is. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "games/aic2018/kit/energy.h"
#include "tests/kit/kit_testlib.h"

/* What the corpus calls to end a turn (the kit's is in api.c). */
void uc_yield(void);
void uc_yield(void)
{
	energy_yield();
}

TestSuite(aic_energy, .init = coro_setup, .timeout = 60);

/* A corpus body as the kit's runtime starts a unit's run(). */
struct unit {
	void (*body)(void *);
	volatile long *rounds;
};

static void unit_main(void *arg)
{
	struct unit *u = arg;
	energy_enter(u->body, (void *)u->rounds);
}

struct turns {
	long rounds_per_turn[8];
	int paused, ran;
	int64_t debt;
};

/* Plays a body for n turns, counting what each turn did. */
static struct turns play(void (*body)(void *), int n)
{
	struct turns t = { 0 };
	volatile long rounds = 0;
	struct unit u = { body, &rounds };
	struct coro *c = coro_new(unit_main, &u);
	cr_assert(c);
	for (int turn = 0; turn < n; turn++) {
		long before = rounds;
		int64_t owed = t.debt;
		bool paused = false;
		cr_assert_eq(energy_turn(c, &t.debt, &paused, NULL), CORO_READY, "turn %d", turn);
		t.paused += paused;
		t.ran += owed < ENERGY_PER_TURN;
		t.rounds_per_turn[turn] = rounds - before;
	}
	coro_free(c);
	return t;
}

ParameterizedTestParameters(aic_energy, every_program_is_paused_and_pays_for_its_work)
{
	return corpus_params();
}

ParameterizedTest(int *i, aic_energy, every_program_is_paused_and_pays_for_its_work)
{
	const struct corpus_program *p = &corpus[*i];
	struct turns t = play(p->body, 8);
	cr_expect_eq(t.paused, 8, "%s: paused every turn, %d of 8", p->name, t.paused);
	cr_expect_gt(t.ran, 0, "%s ran", p->name);
	if (p->floor == 0)
		return;
	long most = ENERGY_PER_TURN / p->floor + 1;
	for (int turn = 0; turn < 8; turn++)
		cr_expect_leq(t.rounds_per_turn[turn], most,
			      "%s: %ld rounds in turn %d, when one costs at least %ld of 15000",
			      p->name, t.rounds_per_turn[turn], turn, p->floor);
}

ParameterizedTestParameters(aic_energy, the_same_program_spends_the_same_energy)
{
	return corpus_params();
}

ParameterizedTest(int *i, aic_energy, the_same_program_spends_the_same_energy)
{
	struct turns a = play(corpus[*i].body, 6), b = play(corpus[*i].body, 6);
	cr_expect(memcmp(a.rounds_per_turn, b.rounds_per_turn, sizeof a.rounds_per_turn) == 0,
		  "%s did the same work each turn both times", corpus[*i].name);
	cr_expect_eq(a.debt, b.debt);
}

Test(aic_energy, an_empty_loop_is_paused_every_turn_and_the_next_unit_runs)
{
	volatile long rounds = 0, spins = 0;
	struct unit a = { corpus[0].body, &spins }, b = { corpus_yield_each_round, &rounds };
	struct coro *spin = coro_new(unit_main, &a), *other = coro_new(unit_main, &b);
	int64_t spin_debt = 0, other_debt = 0;
	for (int turn = 0; turn < 5; turn++) {
		bool paused = false;
		cr_assert_eq(energy_turn(spin, &spin_debt, &paused, NULL), CORO_READY);
		cr_expect(paused, "turn %d: the empty loop was paused", turn);
		cr_assert_eq(energy_turn(other, &other_debt, &paused, NULL), CORO_READY);
		cr_expect_not(paused);
		cr_expect_eq(rounds, turn + 1, "the other unit played turn %d", turn);
	}
}

Test(aic_energy, a_normal_yield_starts_the_next_turn_with_the_whole_allowance)
{
	struct turns t = play(corpus_yield_each_round, 4);
	cr_expect_eq(t.paused, 0);
	cr_expect_eq(t.debt, 0);
	for (int turn = 0; turn < 4; turn++)
		cr_expect_eq(t.rounds_per_turn[turn], 1);
}

Test(aic_energy, a_debt_of_whole_turns_is_paid_by_not_running)
{
	volatile long rounds = 0;
	struct unit u = { corpus_yield_each_round, &rounds };
	struct coro *c = coro_new(unit_main, &u);
	int64_t debt = 2 * ENERGY_PER_TURN + 5;
	bool paused = false;
	cr_assert_eq(energy_turn(c, &debt, &paused, NULL), CORO_READY);
	cr_expect(paused);
	cr_expect_eq(rounds, 0, "it did not run");
	cr_expect_eq(debt, ENERGY_PER_TURN + 5);
	energy_turn(c, &debt, &paused, NULL);
	cr_expect_eq(debt, 5);
	energy_turn(c, &debt, &paused, NULL);
	cr_expect_eq(rounds, 1, "it ran once the debt was under a turn");
	cr_expect_eq(debt, 0);
	coro_free(c);
}

Test(aic_energy, nothing_is_charged_outside_a_unit)
{
	int64_t before = energy_left;
	energy_charge(1000);
	cr_expect_eq(energy_left, before);
	cr_expect_eq(energy_used(), 0);
}
