/* test_aic2018_rules.c - AIC2018's rules, one scenario each, on small text
 * maps: moving and cooldowns, attacks (ranges, the oak segment rule, area
 * hits, chopping), upkeep, spawning and the execution order, experience
 * and levels, victory points. */
#include "tests/unit/aic_testlib.h"

static struct aic_world W;

Test(aic_move, a_move_adds_its_cooldown_and_a_diagonal_1_4142_times)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_move(w, s, AIC_EAST), AIC_OK);
	cr_assert_eq(aic_unit_at(w, AIC_L(1, 0)), s);
	cr_assert_eq(aic_unit_at(w, AIC_L(0, 0)), AIC_NO_UNIT);
	cr_assert_eq(w->unit[s].move_cd, 2 * AIC_CD_ONE);
	cr_assert_eq(aic_can_move(w, s, AIC_EAST), AIC_ERR_COOLDOWN);
	aic_turn_start(w, s);
	cr_assert_eq(aic_can_move(w, s, AIC_EAST), AIC_ERR_COOLDOWN, "1.0 is not below 1");
	aic_turn_start(w, s);
	cr_assert_eq(aic_move(w, s, AIC_SOUTHEAST), AIC_OK);
	cr_assert_eq(w->unit[s].move_cd, 2 * AIC_CD_DIAGONAL);
	aic_turn_start(w, s);
	aic_turn_start(w, s);
	cr_assert_eq(w->unit[s].move_cd, 2 * AIC_CD_DIAGONAL - 2 * AIC_CD_ONE);
	cr_assert_eq(aic_can_move(w, s, AIC_EAST), AIC_OK, "0.8284 is below 1");
}

Test(aic_move, water_oaks_units_the_edge_and_barracks_refuse)
{
	const char *const rows[] = { "W~....", "OS....", "......", "......", "B....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_can_move(w, s, AIC_EAST), AIC_ERR_BLOCKED);
	cr_assert_eq(aic_can_move(w, s, AIC_SOUTH), AIC_ERR_BLOCKED);
	cr_assert_eq(aic_can_move(w, s, AIC_SOUTHEAST), AIC_ERR_BLOCKED);
	cr_assert_eq(aic_can_move(w, s, AIC_NORTH), AIC_ERR_OUT_OF_MAP);
	cr_assert_eq(aic_can_move(w, s, AIC_ZERO), AIC_ERR_DIRECTION);
	cr_assert_eq(aic_can_move(w, s, 99), AIC_ERR_DIRECTION);
	cr_assert_eq(aic_can_move(w, aic_test_unit(w, 0, 4), AIC_EAST), AIC_ERR_TYPE);
	cr_assert_eq(aic_can_move(w, 2000, AIC_EAST), AIC_ERR_NO_UNIT);
	cr_assert_eq(aic_can_move(w, -1, AIC_EAST), AIC_ERR_NO_UNIT);
}

Test(aic_attack, damage_ranges_and_the_minimum_range)
{
	const char *const rows[] = { "A.s.....s", ".........", "......s..", "w........", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int a = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_can_attack(w, a, AIC_L(2, 0)), AIC_ERR_MIN_RANGE, "distance 4 < 9");
	cr_assert_eq(aic_can_attack(w, a, AIC_L(8, 0)), AIC_ERR_RANGE, "distance 64 > 20");
	cr_assert_eq(aic_can_attack(w, a, AIC_L(3, 0)), AIC_ERR_NO_TARGET);
	int t = aic_test_unit(w, 6, 2);
	cr_assert_eq(aic_can_attack(w, a, AIC_L(6, 2)), AIC_ERR_RANGE, "distance 40");
	int near = aic_test_unit(w, 0, 3);
	cr_assert_eq(aic_attack(w, a, AIC_L(0, 3)), AIC_OK, "distance 9");
	cr_assert_eq(w->unit[near].hp, 40 - 10);
	cr_assert_eq(w->unit[a].attack_cd, 2 * AIC_CD_ONE);
	cr_assert_eq(aic_can_attack(w, a, AIC_L(0, 3)), AIC_ERR_COOLDOWN);
	(void)t;
}

Test(aic_attack, an_oak_blocks_the_segment_but_not_at_its_corner)
{
	const char *const rows[] = { "S.w.", ".O..", "..w.", "....", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert(aic_obstructed(w, AIC_L(0, 0), AIC_L(2, 2)), "through the oak's centre");
	cr_assert_eq(aic_can_attack(w, s, AIC_L(2, 2)), AIC_ERR_OBSTRUCTED);
	cr_assert_not(aic_obstructed(w, AIC_L(0, 0), AIC_L(2, 0)), "along the row above it");
	cr_assert_eq(aic_can_attack(w, s, AIC_L(2, 0)), AIC_OK);
	/* (0,1)-(2,3) touches the oak's corner (0.5, 1.5) only */
	cr_assert_not(aic_obstructed(w, AIC_L(0, 1), AIC_L(2, 3)));
	/* (0,0)-(2,1) crosses the oak's edge at (1, 0.5), then its inside */
	cr_assert(aic_obstructed(w, AIC_L(0, 0), AIC_L(2, 1)));
	/* (0,0)-(3,2): at x = 1 y = 0.667, inside the oak's cell (1,1) */
	cr_assert(aic_obstructed(w, AIC_L(0, 0), AIC_L(3, 2)));
	cr_assert(aic_obstructed(w, AIC_L(2, 2), AIC_L(0, 0)), "both ways");
	cr_assert_not(aic_obstructed(w, AIC_L(0, 0), AIC_L(1, 1)), "the oak itself is the target");
}

Test(aic_attack, a_hit_reaches_every_object_of_the_cell_and_workers_chop)
{
	const char *const rows[] = { "S.....", "......", "......", ".W.O..", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int worker = aic_test_unit(w, 1, 3);
	/* a small tree under an enemy unit: one hit, two victims */
	w->cell[aic_index(AIC_L(2, 0))].tree = AIC_TREE_SMALL;
	w->cell[aic_index(AIC_L(2, 0))].tree_hp = 30;
	aic_relocate(w, aic_test_unit(w, 5, 5), AIC_L(2, 0));
	int enemy = aic_test_unit(w, 2, 0);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_attack(w, s, AIC_L(2, 0)), AIC_OK);
	cr_assert_eq(w->unit[enemy].hp, 40 - 6);
	cr_assert_eq(w->cell[aic_index(AIC_L(2, 0))].tree_hp, 30 - 6);
	/* chop an oak: -24 HP, +6 wood */
	int wood = w->team[0].wood, hp = w->cell[aic_index(AIC_L(3, 3))].tree_hp;
	cr_assert_eq(aic_attack(w, worker, AIC_L(3, 3)), AIC_ERR_RANGE, "distance 4 > 2");
	aic_relocate(w, worker, AIC_L(2, 3));
	cr_assert_eq(aic_attack(w, worker, AIC_L(3, 3)), AIC_OK);
	cr_assert_eq(w->cell[aic_index(AIC_L(3, 3))].tree_hp, hp - 24);
	cr_assert_eq(w->team[0].wood, wood + 6);
}

Test(aic_attack, chopping_a_small_tree_and_a_growing_one)
{
	const char *const rows[] = { "Wt....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0);
	int wood = w->team[0].wood;
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	cr_assert_eq(w->cell[1].tree_hp, 40 - 12);
	cr_assert_eq(w->team[0].wood, wood + 12);
	w->cell[1].growing = 3;
	aic_turn_start(w, s);
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	cr_assert_eq(w->cell[1].tree, AIC_TREE_NONE, "a growing tree hit is gone");
}

Test(aic_attack, an_oak_at_0_hp_is_gone_and_opens_the_cell)
{
	const char *const rows[] = { "WO....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "oak_hp 30", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	aic_turn_start(w, s);
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	cr_assert_eq(w->cell[1].tree, AIC_TREE_NONE);
	aic_turn_start(w, s);
	cr_assert_eq(aic_move(w, s, AIC_EAST), AIC_OK);
}

Test(aic_attack, the_target_cell_must_be_seen_by_the_team)
{
	const char *const rows[] = { "L.........", "..........", "..........", "..........",
				     "....s.....", "..........", "..........", "..........", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int b = aic_test_unit(w, 0, 0);
	/* distance 32: in range (20..35) but beyond the ballista's vision 10 */
	cr_assert_eq(aic_can_attack(w, b, AIC_L(4, 4)), AIC_ERR_NOT_SEEN);
	aic_place_unit(w, 0, AIC_WORKER, AIC_L(4, 6), aic_draw_id(w), w->norder, 0);
	cr_assert_eq(aic_can_attack(w, b, AIC_L(4, 4)), AIC_OK, "a worker spots it");
}

Test(aic_skills, close_combat_doubles_adjacent_hits_from_level_1)
{
	const char *const rows[] = { "Ss..", "....", "..s.", "....", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0), a = aic_test_unit(w, 1, 0), far = aic_test_unit(w, 2, 2);
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	cr_assert_eq(w->unit[a].hp, 60 - 6, "level 0: no Close Combat");
	aic_test_exp(w, s, 25);
	aic_turn_start(w, s);
	cr_assert_eq(aic_attack(w, s, AIC_L(1, 0)), AIC_OK);
	cr_assert_eq(w->unit[a].hp, 60 - 6 - 12);
	aic_turn_start(w, s);
	cr_assert_eq(aic_attack(w, s, AIC_L(2, 2)), AIC_OK);
	cr_assert_eq(w->unit[far].hp, 60 - 6, "distance 8 is not adjacent");
}

Test(aic_skills, shield_halves_hits_from_beyond_5)
{
	const char *const rows[] = { "k.....", "......", "A.....", "......", ".....W", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int k = aic_test_unit(w, 0, 0), a = aic_test_unit(w, 0, 2);
	aic_relocate(w, a, AIC_L(0, 3));
	cr_assert_eq(aic_attack(w, a, AIC_L(0, 0)), AIC_OK);
	cr_assert_eq(w->unit[k].hp, 120 - 10);
	aic_test_exp(w, k, 20);
	aic_turn_start(w, a);
	aic_turn_start(w, a);
	cr_assert_eq(aic_attack(w, a, AIC_L(0, 0)), AIC_OK);
	cr_assert_eq(w->unit[k].hp, 120 - 10 - 5, "distance 9 > 5: halved");
}

Test(aic_skills, counter_doubles_the_targets_next_attack_cooldown)
{
	const char *const rows[] = { "S.s...", "......", "......", "......", "......", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0), e = aic_test_unit(w, 2, 0);
	cr_assert_eq(aic_use_ability(w, s, AIC_L(2, 0)), AIC_ERR_LEVEL);
	aic_test_exp(w, s, 75);
	cr_assert_eq(aic_use_ability(w, s, AIC_L(2, 0)), AIC_OK);
	cr_assert_eq(w->unit[s].ability_cd, 8 * AIC_CD_ONE);
	cr_assert_eq(aic_attack(w, e, AIC_L(0, 0)), AIC_OK);
	cr_assert_eq(w->unit[e].attack_cd, 2 * AIC_CD_ONE, "doubled once");
	aic_turn_start(w, e);
	aic_turn_start(w, e);
	cr_assert_eq(aic_attack(w, e, AIC_L(0, 0)), AIC_OK);
	cr_assert_eq(w->unit[e].attack_cd, AIC_CD_ONE, "then back to normal");
}

Test(aic_skills, counter_needs_an_enemy_unit)
{
	const char *const rows[] = { "S.S...", "......", "......", "......", ".....s", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0);
	aic_test_exp(w, s, 75);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(2, 0)), AIC_ERR_NO_TARGET);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(1, 0)), AIC_ERR_NO_TARGET);
}

Test(aic_skills, poison_takes_1_hp_for_10_turns_and_does_not_stack)
{
	const char *const rows[] = { "A...s.", "......", "......", "......", "......", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int a = aic_test_unit(w, 0, 0), e = aic_test_unit(w, 4, 0);
	aic_test_exp(w, a, 150);
	cr_assert_eq(aic_use_ability(w, a, AIC_L(4, 0)), AIC_OK);
	for (int i = 0; i < 5; i++)
		aic_turn_start(w, e);
	cr_assert_eq(w->unit[e].hp, 60 - 5);
	w->unit[a].ability_cd = 0;
	cr_assert_eq(aic_use_ability(w, a, AIC_L(4, 0)), AIC_OK, "poisoned again");
	for (int i = 0; i < 12; i++)
		aic_turn_start(w, e);
	cr_assert_eq(w->unit[e].hp, 60 - 5 - 10, "ten more turns, not fifteen");
}

Test(aic_skills, death_by_poison_credits_the_archers_team)
{
	const char *const rows[] = { "A...w.", "......", "......", "......", "......", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int a = aic_test_unit(w, 0, 0), e = aic_test_unit(w, 4, 0);
	aic_test_exp(w, a, 150);
	w->unit[e].hp = 2;
	cr_assert_eq(aic_use_ability(w, a, AIC_L(4, 0)), AIC_OK);
	cr_assert_eq(aic_turn_start(w, e), AIC_TURN_ACT);
	cr_assert_eq(aic_turn_start(w, e), AIC_TURN_DIED);
	cr_assert_not(aic_alive(w, e));
	cr_assert_eq(w->team[0].passive_exp[AIC_ARCHER], 1);
	cr_assert_eq(aic_check_win(w), 0);
	cr_assert_eq(w->win_reason, AIC_WIN_ANNIHILATION);
}

Test(aic_skills, dash_moves_the_knight_to_a_free_cell_within_8)
{
	const char *const rows[] = { "K.....", "......", "..s...", "......", "......", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int k = aic_test_unit(w, 0, 0);
	aic_test_exp(w, k, 50);
	cr_assert_eq(aic_can_use_ability(w, k, AIC_L(2, 2)), AIC_ERR_BLOCKED, "occupied");
	cr_assert_eq(aic_can_use_ability(w, k, AIC_L(3, 0)), AIC_ERR_RANGE, "distance 9");
	cr_assert_eq(aic_use_ability(w, k, AIC_L(2, 1)), AIC_OK);
	cr_assert_eq(aic_unit_at(w, AIC_L(2, 1)), k);
	cr_assert_eq(w->unit[k].move_cd, 0, "no move cooldown");
	cr_assert_eq(w->unit[k].ability_cd, 10 * AIC_CD_ONE);
}

Test(aic_skills, root_doubles_the_next_move_cooldown)
{
	const char *const rows[] = { "L.........", "..........", "..........", "..........",
				     "....s.....", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int b = aic_test_unit(w, 0, 0), e = aic_test_unit(w, 4, 4);
	aic_place_unit(w, 0, AIC_WORKER, AIC_L(4, 2), aic_draw_id(w), w->norder, 0);
	aic_test_exp(w, b, 90);
	cr_assert_eq(aic_use_ability(w, b, AIC_L(4, 4)), AIC_OK);
	cr_assert_eq(aic_move(w, e, AIC_EAST), AIC_OK);
	cr_assert_eq(w->unit[e].move_cd, 4 * AIC_CD_ONE);
	for (int i = 0; i < 4; i++)
		aic_turn_start(w, e);
	cr_assert_eq(aic_move(w, e, AIC_EAST), AIC_OK);
	cr_assert_eq(w->unit[e].move_cd, 2 * AIC_CD_ONE, "once only");
}

Test(aic_skills, heavy_machinery_shares_the_ballistas_cooldowns)
{
	const char *const rows[] = { "L.........", "..........", "..........", "..........",
				     "....s.....", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int b = aic_test_unit(w, 0, 0);
	cr_assert_eq(w->unit[b].level, 1, "a ballista starts at level 1 (0 EXP)");
	aic_place_unit(w, 0, AIC_WORKER, AIC_L(4, 2), aic_draw_id(w), w->norder, 0);
	cr_assert_eq(aic_attack(w, b, AIC_L(4, 4)), AIC_OK);
	cr_assert_eq(w->unit[b].attack_cd, 4 * AIC_CD_ONE);
	cr_assert_eq(w->unit[b].move_cd, 4 * AIC_CD_ONE);
	cr_assert_eq(aic_can_move(w, b, AIC_EAST), AIC_ERR_COOLDOWN);
}

Test(aic_skills, binoculars_widen_an_archers_vision_to_30)
{
	const char *const rows[] = { "B.........", "..........", "..........", "..........",
				     "..........", "..........", ".........w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int b = aic_test_unit(w, 0, 0);
	w->team[0].passive_exp[AIC_ARCHER] = 15;
	cr_assert_eq(aic_spawn(w, b, AIC_SOUTH, AIC_ARCHER, 4242), AIC_OK);
	int a = aic_slot_of(w, 4242);
	cr_assert_eq(w->unit[a].level, 1);
	cr_assert_eq(aic_vision(&w->unit[a]), 30);
	cr_assert(aic_can_sense(w, a, AIC_L(5, 3)), "distance 29");
	cr_assert_not(aic_can_sense(w, a, AIC_L(5, 4)), "distance 34");
	cr_assert(aic_team_sees(w, 0, AIC_L(5, 1)));
}

Test(aic_skills, plant_a_small_tree_that_grows)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "start_wood 200", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(2, 0)), AIC_ERR_RANGE);
	cr_assert_eq(aic_use_ability(w, s, AIC_L(1, 1)), AIC_OK);
	cr_assert_eq(w->team[0].wood, 20);
	const struct aic_cell *c = &w->cell[aic_index(AIC_L(1, 1))];
	cr_assert_eq(c->tree, AIC_TREE_SMALL);
	cr_assert_eq(c->tree_hp, 1);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(1, 0)), AIC_ERR_COOLDOWN);
	aic_turn_start(w, s);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(1, 1)), AIC_ERR_TREE);
	cr_assert_eq(aic_can_use_ability(w, s, AIC_L(1, 0)), AIC_ERR_WOOD);
	cr_assert_eq(aic_move(w, s, AIC_SOUTHEAST), AIC_OK, "units stand on small trees");
	for (int i = 0; i < 10; i++)
		aic_round_start(w);
	cr_assert_eq(c->tree_hp, 40, "1 + 10 x 4, at most 40");
	cr_assert_eq(c->growing, 0);
	w->cell[aic_index(AIC_L(1, 1))].tree_hp = 30;
	aic_round_start(w);
	cr_assert_eq(c->tree_hp, 32, "+2 once grown");
}

Test(aic_units, passive_skills_and_experience_from_deaths)
{
	const char *const rows[] = { "S.w.......", "..........", "..........", "..........",
				     "..........", "..........", "..........", ".........S", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0), e = aic_test_unit(w, 2, 0), far = aic_test_unit(w, 9, 7);
	aic_test_exp(w, s, 174);
	w->unit[e].hp = 6;
	cr_assert_eq(aic_attack(w, s, AIC_L(2, 0)), AIC_OK);
	cr_assert_not(aic_alive(w, e));
	cr_assert_eq(w->unit[s].exp, 179);
	cr_assert_eq(w->unit[s].level, 3);
	cr_assert_eq(w->unit[s].hp, 100, "level 3: 60 + 40");
	cr_assert_eq(aic_attack_power(&w->unit[s]), 8);
	cr_assert_eq(w->unit[far].exp, 0, "distance 113 > 48");
	cr_assert_eq(w->team[0].passive_exp[AIC_SOLDIER], 1);
}

Test(aic_units, upkeep_is_paid_at_each_turn_and_an_unpaid_turn_is_lost)
{
	const char *const rows[] = { "WB....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "start_wood 3", rows);
	int s = aic_test_unit(w, 0, 0), b = aic_test_unit(w, 1, 0);
	cr_assert_eq(aic_turn_start(w, b), AIC_TURN_ACT);
	cr_assert_eq(w->team[0].wood, 3, "barracks pay nothing");
	cr_assert_eq(aic_turn_start(w, s), AIC_TURN_ACT);
	cr_assert_eq(w->team[0].wood, 1);
	w->unit[s].move_cd = 3 * AIC_CD_ONE;
	cr_assert_eq(aic_turn_start(w, s), AIC_TURN_UNPAID);
	cr_assert_eq(w->team[0].wood, 1, "wood never goes below 0");
	cr_assert_eq(w->unit[s].move_cd, 2 * AIC_CD_ONE, "time passes all the same");
}

Test(aic_units, a_spawned_unit_acts_right_after_its_spawner_under_construction)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	aic_round_start(w);
	int s = aic_next_unit(w);
	cr_assert_eq(s, aic_test_unit(w, 0, 0));
	cr_assert_eq(aic_turn_start(w, s), AIC_TURN_ACT);
	int wood = w->team[0].wood;
	cr_assert_eq(aic_can_spawn(w, s, AIC_EAST, AIC_SOLDIER), AIC_ERR_TYPE);
	cr_assert_eq(aic_spawn(w, s, AIC_EAST, AIC_WORKER, 77), AIC_OK);
	cr_assert_eq(w->team[0].wood, wood - 100);
	cr_assert_eq(aic_spawn(w, s, AIC_SOUTH, AIC_WORKER, 77), AIC_ERR_FULL, "id taken");
	int n = aic_next_unit(w);
	cr_assert_eq(n, aic_slot_of(w, 77), "the new unit comes next");
	for (int i = 0; i < 5; i++)
		cr_assert_eq(aic_turn_start(w, n), AIC_TURN_CONSTRUCTION, "turn %d", i);
	cr_assert_eq(aic_can_move(w, n, AIC_SOUTH), AIC_OK);
	cr_assert_eq(aic_turn_start(w, n), AIC_TURN_ACT);
	cr_assert_eq(aic_next_unit(w), aic_test_unit(w, 5, 4), "then team B's");
	cr_assert_eq(aic_next_unit(w), -1);
}

Test(aic_units, a_barracks_builds_one_unit_at_a_time)
{
	const char *const rows[] = { "B.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int b = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_can_spawn(w, b, AIC_EAST, AIC_WORKER), AIC_ERR_TYPE);
	cr_assert_eq(aic_spawn(w, b, AIC_EAST, AIC_KNIGHT, 1), AIC_OK);
	int k = aic_slot_of(w, 1);
	cr_assert_eq(w->unit[k].construction, 5);
	cr_assert_eq(aic_can_spawn(w, b, AIC_SOUTH, AIC_ARCHER), AIC_ERR_BUSY);
	for (int i = 0; i < 5; i++)
		aic_turn_start(w, k);
	cr_assert_eq(aic_can_spawn(w, b, AIC_SOUTH, AIC_ARCHER), AIC_OK);
	cr_assert_eq(aic_can_spawn(w, b, AIC_EAST, AIC_ARCHER), AIC_ERR_BLOCKED);
}

Test(aic_units, a_barracks_takes_25_turns_and_500_wood)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "start_wood 599", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_spawn(w, s, AIC_EAST, AIC_BARRACKS, 9), AIC_OK);
	cr_assert_eq(w->team[0].wood, 99);
	cr_assert_eq(w->unit[aic_slot_of(w, 9)].construction, 25);
	cr_assert_eq(aic_can_spawn(w, s, AIC_SOUTH, AIC_WORKER), AIC_ERR_WOOD);
}

Test(aic_units, sensing_stays_within_vision_and_skips_the_unit_itself)
{
	struct aic_world *w = aic_test_world(&W, "", (const char *const[]){
		"W.w.......", "..........", "..........", "....s.....", "..........",
		"..........", "..........", "..........", "..........", ".........s", NULL });
	int s = aic_test_unit(w, 0, 0);
	int16_t out[64];
	int n = aic_sense_units(w, s, -1, -1, out, 64);
	cr_assert_eq(n, 1, "(2,0) at 4; (4,3) at 25 > 16");
	cr_assert_eq(out[0], aic_test_unit(w, 2, 0));
	cr_assert_eq(aic_sense_units(w, s, 3, -1, out, 64), 0, "radius 3");
	cr_assert_eq(aic_visible_cells(w, s, -1, out, 64), 17, "the quarter disc of 16");
	cr_assert_not(aic_can_sense(w, s, AIC_L(4, 3)));
}

Test(aic_vp, gathering_and_buying)
{
	const char *const rows[] = { "W$....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "start_wood 1000", rows);
	int s = aic_test_unit(w, 0, 0);
	cr_assert_eq(aic_can_gather_vps(w, s, AIC_SOUTH), AIC_ERR_NO_VP);
	cr_assert_eq(aic_gather_vps(w, s, AIC_EAST), AIC_OK);
	cr_assert_eq(w->team[0].vp, AIC_VP_AMOUNT);
	cr_assert_eq(w->cell[1].vp, 0);
	w->round = 399;
	cr_assert_eq(aic_vp_cost(w), 50 + 19);
	cr_assert_eq(aic_buy_vps(w, 0, 15), AIC_ERR_WOOD);
	cr_assert_eq(aic_buy_vps(w, 0, 0), AIC_ERR_AMOUNT);
	cr_assert_eq(aic_buy_vps(w, 0, 14), AIC_OK);
	cr_assert_eq(w->team[0].wood, 1000 - 14 * 69);
	cr_assert_eq(w->team[0].vp, AIC_VP_AMOUNT + 14);
}

Test(aic_vp, victory_points_vanish_after_50_rounds)
{
	const char *const rows[] = { "W$....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	for (w->round = 0; w->round < 50; w->round++) {
		aic_round_start(w);
		cr_assert_eq(w->cell[1].vp, AIC_VP_AMOUNT, "round %d", w->round);
	}
	aic_round_start(w);
	cr_assert_eq(w->cell[1].vp, 0);
}

Test(aic_end, two_thousand_vp_win_at_once)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	cr_assert_eq(aic_check_win(w), -1);
	w->team[1].vp = AIC_VP_TO_WIN;
	cr_assert_eq(aic_check_win(w), 1);
	cr_assert_eq(w->win_reason, AIC_WIN_VP);
	cr_assert(aic_over(w));
	int rank[2];
	aic_ranks(w, rank);
	cr_assert_eq(rank[0], 2);
	cr_assert_eq(rank[1], 1);
}

Test(aic_end, the_tie_breaks_in_order)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "rounds 3", rows);
	for (int r = 0; r < 3; r++)
		aic_round_end(w);
	cr_assert(aic_over(w));
	cr_assert_neq(w->win_reason, AIC_WIN_MORE_VP);
	cr_assert_eq(w->win_reason, AIC_WIN_DRAW, "same VP, same value: by lot");

	w = aic_test_world(&W, "rounds 1", rows);
	w->team[1].vp = 1;
	w->team[0].wood += 500;
	aic_round_end(w);
	cr_assert_eq(w->winner, 1, "VP first");
	cr_assert_eq(w->win_reason, AIC_WIN_MORE_VP);

	w = aic_test_world(&W, "rounds 1", rows);
	w->team[1].wood += 1;
	aic_round_end(w);
	cr_assert_eq(w->winner, 1, "then wood and units");
	cr_assert_eq(w->win_reason, AIC_WIN_MORE_VALUE);
	cr_assert_eq(aic_team_value(w, 1), 10000 + 1 + 100);
}

Test(aic_end, the_draw_by_lot_follows_the_seed)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	int wins[2] = { 0, 0 };
	for (uint64_t seed = 0; seed < 40; seed++) {
		struct aic_world *w = aic_test_world(&W, "rounds 1", rows);
		w->rng = rng_seeded(seed * 7919);
		aic_round_end(w);
		wins[w->winner]++;
	}
	cr_assert(wins[0] > 5 && wins[1] > 5, "%d / %d", wins[0], wins[1]);
}

Test(aic_geometry, direction_to_picks_the_nearest_of_eight)
{
	struct aic_loc o = { 10, 10 };
	cr_assert_eq(aic_direction_to(o, AIC_L(10, 10)), AIC_ZERO);
	cr_assert_eq(aic_direction_to(o, AIC_L(10, 3)), AIC_NORTH);
	cr_assert_eq(aic_direction_to(o, AIC_L(15, 11)), AIC_EAST);
	cr_assert_eq(aic_direction_to(o, AIC_L(13, 12)), AIC_SOUTHEAST);
	cr_assert_eq(aic_direction_to(o, AIC_L(5, 15)), AIC_SOUTHWEST);
	cr_assert_eq(aic_direction_to(o, AIC_L(9, 0)), AIC_NORTH);
}

Test(aic_fog, a_team_view_hides_what_it_does_not_see)
{
	static struct aic_world fogged;
	const char *const rows[] = { "W$.......$", "..........", "..........", "..........",
				     "..........", "..........", "..........", "w........w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	aic_fog(w, 0, &fogged);
	cr_assert_eq(fogged.cell[1].vp, AIC_VP_AMOUNT);
	cr_assert_eq(fogged.cell[9].vp, 0);
	cr_assert_eq(aic_unit_at(&fogged, AIC_L(0, 7)), AIC_NO_UNIT, "distance 49 > 16");
	cr_assert_eq(aic_unit_at(&fogged, AIC_L(9, 7)), AIC_NO_UNIT);
	cr_assert_eq(fogged.norder, 1);
	cr_assert_eq(fogged.team[1].wood, 0, "the enemy's wood is hidden");
	cr_assert_eq(aic_unit_at(&fogged, AIC_L(0, 0)), aic_unit_at(w, AIC_L(0, 0)));
}

Test(aic_vp, a_cell_gets_no_vp_again_within_50_rounds_of_the_last)
{
	const char *const rows[] = { "W.", ".w", NULL };
	struct aic_world *w = aic_test_world(&W, "vp 1\nsymmetry 3", rows);
	aic_vp_chance(w, 1.0); /* every cell that may get VP gets them */
	aic_round_start(w);
	cr_assert_eq(w->cell[aic_index(AIC_L(1, 0))].vp, AIC_VP_AMOUNT);
	cr_assert_eq(w->cell[aic_index(AIC_L(0, 1))].vp, AIC_VP_AMOUNT, "and its mirror");
	cr_assert_eq(aic_gather_vps(w, aic_test_unit(w, 0, 0), AIC_EAST), AIC_OK);
	for (w->round = 1; w->round < 50; w->round++) {
		aic_round_start(w);
		cr_assert_eq(w->cell[aic_index(AIC_L(1, 0))].vp, 0, "round %d", w->round);
	}
	aic_round_start(w);
	cr_assert_eq(w->cell[aic_index(AIC_L(1, 0))].vp, AIC_VP_AMOUNT, "50 rounds later");
}

Test(aic_units, friendly_fire_hurts_but_earns_no_passive_exp)
{
	const char *const rows[] = { "S.S...", "......", "......", "......", ".....s", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	int s = aic_test_unit(w, 0, 0), f = aic_test_unit(w, 2, 0), e = aic_test_unit(w, 5, 4);
	w->unit[f].hp = 6;
	cr_assert_eq(aic_attack(w, s, AIC_L(2, 0)), AIC_OK);
	cr_assert_not(aic_alive(w, f));
	cr_assert_eq(w->team[0].passive_exp[AIC_SOLDIER], 0);
	cr_assert_eq(w->unit[e].exp, 5, "the enemy within 48 gains 5 EXP (distance 25)");
	cr_assert_eq(w->unit[s].exp, 0, "the dead unit's own team gains none");
}

Test(aic_units, a_unit_killed_before_its_turn_is_skipped)
{
	const char *const rows[] = { "S.w...", "......", "......", "......", "......", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	aic_round_start(w);
	int s = aic_next_unit(w);
	w->unit[aic_test_unit(w, 2, 0)].hp = 1;
	aic_turn_start(w, s);
	cr_assert_eq(aic_attack(w, s, AIC_L(2, 0)), AIC_OK);
	cr_assert_eq(aic_check_win(w), 0);
	cr_assert_eq(aic_next_unit(w), -1, "the dead worker does not play");
}
