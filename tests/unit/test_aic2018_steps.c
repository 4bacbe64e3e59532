/* test_aic2018_steps.c - AIC2018's engine as the runner drives it (games/
 * game.h's next_seat): steps of one team's consecutive units, the view's
 * batch, orders applied and checked, frozen teams passed over, and the
 * replay's steps fed back. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "games/aic2018/engine/engine.h"
#include "games/aic2018/rules/internal.h"
#include "games/game.h"

/* A 20 x 20 map: team A's two workers (slots 0 and 1, in order) at (1, 1)
 * and (2, 1), water at (0, 2), team B's worker (slot 2) at (18, 18). */
static char two_on_one[512];

static void make_map(void)
{
	char *p = two_on_one + sprintf(two_on_one, "symmetry 0\nvp 0\nmap\n");
	for (int y = 0; y < 20; y++) {
		for (int x = 0; x < 20; x++)
			*p++ = y == 1 && (x == 1 || x == 2) ? 'W' : y == 18 && x == 18 ? 'w'
							    : y == 2 && x == 0 ? '~' : '.';
		*p++ = '\n';
	}
	*p = '\0';
}

static const struct game *gm;
static struct game_state *g;
static uint8_t buf[AIC_ORDERS_MAX], view_buf[AIC_VIEW_MAX];
static err_t err;

static void setup(void)
{
	make_map();
	gm = game_find("aic2018");
	cr_assert_not_null(gm);
	g = gm->create(two_on_one, 1, err);
	cr_assert_not_null(g, "%s", err);
}

static void teardown(void)
{
	gm->destroy(g);
}

TestSuite(aic2018_steps, .init = setup, .fini = teardown);

/* An orders message: for each slot, an entry with its actions (kind, a, b). */
static size_t message(int n, const int *slots, const struct aic_action *acts, int nacts)
{
	struct aic_orders_w o = aic_orders_begin(buf, sizeof buf);
	for (int i = 0; i < n; i++) {
		aic_orders_entry(&o, slots[i]);
		for (int k = 0; i == 0 && k < nacts; k++)
			cr_assert(aic_orders_action(&o, acts[k]));
	}
	return aic_orders_end(&o);
}

Test(aic2018_steps, a_round_is_a_step_per_run_of_one_teams_units)
{
	cr_assert_eq(gm->next_seat(g), 0, "team A's units come first");
	static struct aic_world w;
	static struct aic_step st;
	aic_view_blank(&w);
	size_t len = gm->view(g, 0, view_buf, sizeof view_buf);
	cr_assert(aic_view_decode(view_buf, len, 0, &st, &w));
	cr_expect_eq(st.nbatch, 2, "both of A's workers act before B's");
	cr_expect_eq(gm->view(g, 1, view_buf, sizeof view_buf), 0, "B is not asked now");
	cr_assert_eq(gm->orders(g, 0, buf, message(2, (int[]){ 1, 0 }, NULL, 0), err), -1,
		     "the units in another order");
	gm->destroy(g);
	setup();
	cr_assert_eq(gm->next_seat(g), 0);
	cr_assert_eq(gm->orders(g, 0, buf, message(2, (int[]){ 0, 1 }, NULL, 0), err), 0, "%s",
		     err);
	cr_assert_eq(gm->next_seat(g), 1, "then team B's");
	cr_assert_eq(gm->orders(g, 1, buf, message(1, (int[]){ 2 }, NULL, 0), err), 0, "%s", err);
	cr_expect_eq(gm->next_seat(g), -1, "the round's turns are over");
	gm->advance(g);
	cr_expect_eq(gm->round(g), 1);
}

Test(aic2018_steps, orders_beyond_the_teams_run_are_refused_and_the_enemy_keeps_its_turn)
{
	cr_assert_eq(gm->next_seat(g), 0);
	cr_expect_eq(gm->orders(g, 0, buf, message(3, (int[]){ 0, 1, 2 }, NULL, 0), err), -1);
	cr_expect(strstr(err->msg, "only 2 of the team's units act"), "%s", err->msg);
	gm->status(g, 0, -1);
	cr_expect_eq(gm->next_seat(g), 1, "B's unit still acts this round");
}

Test(aic2018_steps, orders_from_the_team_not_asked_are_refused)
{
	cr_assert_eq(gm->next_seat(g), 0);
	cr_expect_eq(gm->orders(g, 1, buf, message(1, (int[]){ 2 }, NULL, 0), err), -1);
	cr_expect(err->msg[0]);
}

Test(aic2018_steps, an_action_the_rules_refuse_freezes_the_team)
{
	cr_assert_eq(gm->next_seat(g), 0);
	/* south-west of (1, 1) is water */
	struct aic_action wet = { AIC_ACT_MOVE, AIC_SOUTHWEST, 0, 0 };
	cr_expect_eq(gm->orders(g, 0, buf, message(1, (int[]){ 0 }, &wet, 1), err), -1);
	cr_expect(strstr(err->msg, "breaks the rules"), "%s", err->msg);
}

Test(aic2018_steps, a_frozen_team_is_passed_over)
{
	gm->status(g, 0, -1);
	cr_expect_eq(gm->next_seat(g), 1, "A's units take no orders");
}

Test(aic2018_steps, the_replay_gives_back_each_step_as_it_was_taken)
{
	struct aic_action west = { AIC_ACT_MOVE, AIC_WEST, 0, 0 };
	cr_assert_eq(gm->next_seat(g), 0);
	size_t len = message(2, (int[]){ 0, 1 }, &west, 1);
	uint8_t sent[64];
	cr_assert_lt(len, sizeof sent);
	memcpy(sent, buf, len);
	struct game_state *twin = gm->create(two_on_one, 1, err);
	cr_assert_eq(gm->orders(g, 0, sent, len, err), 0, "%s", err);
	json_t *rec = gm->replay_orders(g);
	cr_assert_eq(gm->next_seat(twin), 0);
	size_t back = gm->replay_message(twin, 0, rec, buf, sizeof buf);
	cr_expect_eq(back, len);
	cr_expect_arr_eq(buf, sent, len);
	cr_expect_eq(gm->replay_message(twin, 1, rec, buf, sizeof buf), 0, "not B's step");
	json_decref(rec);
	gm->destroy(twin);
}

/* The view the runner sends, by aic_fog() as the rules define it: the
 * world copied, its team's vision counts replaced by the margin (every
 * cell within (sqrt(vision) + 5)^2 of one of its units, aic_disc's rows),
 * fogged, its vision counts put back. */
static void reference_view(const struct aic_world *w, int team, struct aic_world *ref)
{
	memcpy(ref, w, sizeof *ref);
	memset(ref->seen[team], 0, sizeof ref->seen[team]);
	for (int i = 0; i < w->norder; i++) {
		const struct aic_unit *u = &w->unit[w->order[i]];
		if (u->team != team)
			continue;
		int k = 0;
		while (k * k < aic_vision(u))
			k++;
		k += 5;
		struct aic_disc d;
		aic_disc(w, aic_unit_loc(w, w->order[i]), k * k, &d);
		for (int r = 0; r < d.rows; r++)
			for (int x = d.row[r].x0; x <= d.row[r].x1; x++)
				ref->seen[team][d.row[r].y * AIC_STRIDE + x] = 1;
	}
	aic_fog(ref, team, ref);
	memcpy(ref->seen[team], w->seen[team], sizeof ref->seen[team]);
}

static void expect_view_is_the_fogged_world(int seed, int round)
{
	static struct aic_world ref, got;
	static struct aic_step st;
	int team = g->w.unit[g->acting].team;
	reference_view(&g->w, team, &ref);
	aic_view_blank(&got);
	size_t len = gm->view(g, team, view_buf, sizeof view_buf);
	cr_assert(aic_view_decode(view_buf, len, team, &st, &got), "seed %d round %d", seed, round);
	cr_assert_eq(memcmp(&got, &ref, AIC_WORLD_HEAD), 0, "the head, seed %d round %d", seed,
		     round);
	for (int y = 0; y < ref.height; y++)
		cr_assert_eq(memcmp(&got.cell[y * AIC_STRIDE], &ref.cell[y * AIC_STRIDE],
				    sizeof ref.cell[0] * (size_t)ref.width), 0,
			     "row %d, seed %d round %d", y, seed, round);
	cr_assert_eq(got.norder, ref.norder, "seed %d round %d", seed, round);
	cr_assert_eq(got.cursor, ref.cursor);
	for (int i = 0; i < ref.norder; i++) {
		cr_assert_eq(got.order[i], ref.order[i]);
		cr_assert_eq(memcmp(&got.unit[got.order[i]], &ref.unit[ref.order[i]],
				    sizeof ref.unit[0]), 0, "unit %d", ref.order[i]);
	}
}

/* Generated maps, VP appearing and vanishing, trees growing: at every
 * step the view decodes to the world aic_fog() makes (the engine builds
 * it without copying the whole world, fogging each row as it copies it). */
Test(aic2018_steps, every_view_is_the_world_fogged_outside_the_margin)
{
	for (int seed = 1; seed <= 6; seed++) {
		gm->destroy(g);
		g = gm->create(NULL, (uint64_t)seed, err);
		cr_assert_not_null(g, "%s", err);
		for (int round = 0; round < 40 && !game_over(gm, g); round++) {
			for (int team; (team = gm->next_seat(g)) >= 0;) {
				expect_view_is_the_fogged_world(seed, round);
				int slots[AIC_MAX_UNITS];
				for (int i = 0; i < g->step.nbatch; i++)
					slots[i] = g->step.batch[i];
				cr_assert_eq(gm->orders(g, team, buf,
							message(g->step.nbatch, slots, NULL, 0), err),
					     0, "%s", err->msg);
			}
			gm->advance(g);
		}
	}
}
