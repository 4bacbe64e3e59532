/* runtime.c - the AIC2018 kit's scheduler: for each step the judge sends,
 * it runs the team's units one after another, each in its own coroutine
 * (coro.h) with its energy counted (energy.h), on a copy of the world
 * (the team's view) changed by the same rules the engine applies, and
 * sends back what each unit did.
 *
 * Which units run: the acting one, then each next unit in the world's
 * order while it is one the view lists (the team's units before the
 * enemy's next one) or one spawned during this step; units that do not
 * act this turn (construction, upkeep unpaid) are passed as the engine
 * passes them.  The run stops early when the copy says the match is won.
 * A unit whose run() returns or faults dies (an order the engine applies
 * like any other), and so does one whose turn took far more CPU than its
 * energy allows (energy.h: the count tampered with).  One player per process: the state is this file's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/aic2018/kit/aic2018.h"
#include "games/aic2018/kit/coro.h"
#include "games/aic2018/kit/energy.h"
#include "games/aic2018/kit/kit.h"
#include "games/aic2018/proto.h"
#include "games/aic2018/rules/internal.h"
#include "games/kit/drawing.h"
#include "games/kit/io.h"

extern const char player_name[];

struct kit_unit {
	int id;            /* the world's id of the unit this coroutine runs */
	struct coro *co;
	int64_t debt;      /* energy overspent, owed to the next turns */
	struct energy_watch watch;
	const char *error; /* the last failed call's reason */
};

struct kit kit;
static struct kit_unit units[AIC_MAX_UNITS];
/* Slots whose unit has a coroutine (units[] in use), in no order. */
static int16_t with_coro[AIC_MAX_UNITS];
static int ncoro;
/* A slot runs in this step when its mark is the step's number: the batch
 * the view lists, and units spawned during the step. */
static unsigned run_mark[AIC_MAX_UNITS], step_no;
static int next_id; /* the next of kit.step.ids a spawn takes */
static struct aic_orders_w out;

static void unit_body(void *arg)
{
	(void)arg;
	run();
}

static void unit_main(void *arg)
{
	energy_enter(unit_body, arg);
}

/* ---- the calls' bookkeeping (kit.h) ------------------------------------- */

struct aic_unit *kit_me(void)
{
	return &kit.w.unit[kit.slot];
}

bool kit_fail(int error)
{
	units[kit.slot].error = aic_strerror(error);
	return false;
}

bool kit_check(int error)
{
	units[kit.slot].error = error ? aic_strerror(error) : "";
	return error == AIC_OK;
}

bool kit_room(void)
{
	if (out.actions < AIC_MAX_ACTIONS)
		return true;
	units[kit.slot].error = "too many actions: a unit may take 16 a turn";
	return false;
}

bool kit_record(int error, int kind, int a, int b)
{
	if (!kit_check(error))
		return false;
	aic_orders_action(&out, (struct aic_action){ (uint8_t)kind, (uint8_t)a, (uint8_t)b, 0 });
	return true;
}

const char *uc_lastError(void)
{
	energy_charge(AIC_E_GETTER);
	const char *e = kit.slot >= 0 ? units[kit.slot].error : NULL;
	return e ? e : "";
}

int kit_take_id(void)
{
	return next_id < kit.step.nids ? kit.step.ids[next_id++] : 0;
}

void kit_spawned(int id)
{
	int s = aic_slot_of(&kit.w, id);
	if (s != AIC_NO_UNIT)
		run_mark[s] = step_no;
}

/* ---- units ---------------------------------------------------------------- */

static enum aic_death why_dead(const struct coro *co)
{
	if (coro_state(co) == CORO_DONE)
		return AIC_DIED_RETURNED;
	if (coro_overflowed(co))
		return AIC_DIED_STACK;
	switch (coro_signal(co)) {
	case SIGFPE:
		return AIC_DIED_ARITHMETIC;
	case SIGSEGV:
	case SIGBUS:
		return AIC_DIED_MEMORY;
	default:
		return AIC_DIED_ILLEGAL;
	}
}

/* A unit that ends dies, with its reason: in the orders, for the engine to
 * name in the match's record, and in the log.  Played again by `judge
 * repro` (JUDGE_REPRO_UNIT_FAULTS), a death by fault ends the program. */
static void die(int slot, enum aic_death why)
{
	struct kit_unit *k = &units[slot];
	fprintf(stderr, "round %d: unit %d died: %s\n", kit.w.round, kit.w.unit[slot].id,
		aic_death_words((int)why));
	if (why != AIC_DIED_RETURNED && getenv("JUDGE_REPRO_UNIT_FAULTS"))
		abort();
	aic_orders_action(&out, (struct aic_action){ AIC_ACT_DIE, (uint8_t)why, 0, 0 });
	aic_hurt(&kit.w, slot, kit.w.unit[slot].hp, -1, 0);
	coro_free(k->co);
	*k = (struct kit_unit){ 0 };
}

/* The unit's coroutine: its own since it was spawned, or a fresh one. */
static struct kit_unit *unit_for(int slot)
{
	struct kit_unit *k = &units[slot];
	if (k->co && k->id == kit.w.unit[slot].id)
		return k;
	if (!k->co && ncoro < AIC_MAX_UNITS) /* a slot reused in one step may appear twice */
		with_coro[ncoro++] = (int16_t)slot;
	coro_free(k->co);
	*k = (struct kit_unit){ .id = kit.w.unit[slot].id, .co = coro_new(unit_main, NULL) };
	return k;
}

static void run_unit(int slot)
{
	aic_orders_entry(&out, slot);
	struct kit_unit *k = unit_for(slot);
	if (!k->co) {
		die(slot, AIC_DIED_NO_STACK);
		return;
	}
	kit.slot = slot;
	bool paused;
	enum coro_state st = energy_turn(k->co, &k->debt, &paused, &k->watch);
	kit.slot = -1;
	if (st != CORO_READY)
		die(slot, why_dead(k->co));
	else if (k->watch.tampered)
		die(slot, AIC_DIED_ENERGY);
}

/* The next unit of this step that acts, or -1 when the step is over. */
static int next_runnable(void)
{
	struct aic_world *w = &kit.w;
	for (;;) {
		if (aic_check_win(w) >= 0)
			return -1;
		int s = aic_next_unit(w);
		if (s < 0 || w->unit[s].team != kit.team || run_mark[s] != step_no)
			return -1;
		if (aic_turn_start(w, s) == AIC_TURN_ACT)
			return s;
	}
}

/* Coroutines of units that died since: their stacks go back to the pool.
 * (A unit that died in the kit's hands already gave its own back.) */
static void sweep(void)
{
	for (int i = 0; i < ncoro;) {
		int s = with_coro[i];
		if (units[s].co && units[s].id == kit.w.unit[s].id) {
			i++;
			continue;
		}
		coro_free(units[s].co);
		units[s] = (struct kit_unit){ 0 };
		with_coro[i] = with_coro[--ncoro];
	}
}

/* ---- the judge's messages --------------------------------------------------- */

/* The in-process build (bench/aic2018.c) hides every symbol but these two. */
#define KIT_ENTRY __attribute__((visibility("default")))
KIT_ENTRY int aickit_start(const uint8_t *msg, size_t len);
KIT_ENTRY long aickit_turn(const uint8_t *msg, size_t len, uint8_t *buf, size_t cap);

int aickit_start(const uint8_t *msg, size_t len)
{
	kit.team = aic_start_decode(msg, len);
	kit.slot = -1;
	aic_view_blank(&kit.w);
	kit_touch_team_array();
	coro_setup();
	if (getenv("JUDGE_REPRO_UNIT_FAULTS"))
		coro_faults_crash();
	return kit.team < 0 ? -1 : 0;
}

long aickit_turn(const uint8_t *msg, size_t len, uint8_t *buf, size_t cap)
{
	aic_view_forget(&kit.w, &kit.step);
	if (!aic_view_decode(msg, len, kit.team, &kit.step, &kit.w) || kit.w.cursor < 0)
		return -1;
	sweep();
	step_no++;
	for (int i = 0; i < kit.step.nbatch; i++)
		if (aic_slot_ok(kit.step.batch[i]))
			run_mark[kit.step.batch[i]] = step_no;
	next_id = 0;
	out = aic_orders_begin(buf, cap);
	for (int s = kit.w.order[kit.w.cursor]; s >= 0; s = next_runnable())
		run_unit(s);
	size_t n = aic_orders_end(&out);
	return n ? (long)n : -1;
}

#ifndef KIT_NO_MAIN
int main(void)
{
	static uint8_t in[FRAME_HEADER + AIC_VIEW_MAX], answer[AIC_ORDERS_MAX];
	return kit_main("aic2018", player_name, aickit_start, aickit_turn, in, sizeof in, answer,
			sizeof answer);
}
#endif
