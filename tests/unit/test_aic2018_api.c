/* AIC2018's original API by its Java names: the rules under the new calls
 * (sensing around a centre, the teams' initial locations), GameConstants
 * against the rules' own table, and every new call asked by a real player
 * (tests/players/aic2018/AIApiProbe.c) about a small known world. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/aic2018/kit/aic2018.h"
#include "tests/unit/aic_testlib.h"
#include "tests/unit/cli_testlib.h"

/* ---- the rules: sensing around a centre, initial locations ------------------ */

static const char *const probe_map[] = {
	"..$.........", "............", "..Wt.O.O....", "............",
	"....W.......", "..~.........", "..........w.", NULL,
};

static int sensed_at(const struct aic_world *w, int slot, struct aic_loc c, int r, int what,
		     int16_t *out)
{
	return aic_sense_at(w, slot, c, r, what, -1, out, AIC_MAX_CELLS);
}

Test(aic2018_api, sensing_around_a_centre_sees_only_what_the_unit_sees)
{
	static struct aic_world w;
	aic_test_world(&w, "", probe_map);
	int me = aic_test_unit(&w, 2, 2);
	int16_t out[AIC_MAX_CELLS];
	/* the oaks at (5,2) (distance 9) and (7,2) (25, past the worker's 16) */
	cr_assert_eq(sensed_at(&w, me, AIC_L(6, 2), 1, AIC_SENSE_TREES, out), 1);
	cr_expect_eq(out[0], aic_index(AIC_L(5, 2)));
	cr_expect_eq(sensed_at(&w, me, AIC_L(7, 2), 0, AIC_SENSE_TREES, out), 0);
	/* the other worker, not the unit itself, nor the enemy out of sight */
	cr_assert_eq(sensed_at(&w, me, AIC_L(3, 3), 2, AIC_SENSE_UNITS, out), 1);
	cr_expect_eq(out[0], aic_test_unit(&w, 4, 4));
	cr_expect_eq(sensed_at(&w, me, AIC_L(10, 6), 4, AIC_SENSE_UNITS, out), 0);
	/* radius -1 around another centre: everything the unit sees */
	cr_expect_eq(sensed_at(&w, me, AIC_L(0, 0), -1, AIC_SENSE_CELLS, out),
		     aic_visible_cells(&w, me, -1, out, AIC_MAX_CELLS));
	cr_expect_eq(sensed_at(&w, me, AIC_L(2, 5), 0, AIC_SENSE_WATER, out), 1);
	cr_expect_eq(sensed_at(&w, me, AIC_L(2, 1), 1, AIC_SENSE_VPS, out), 1);
	cr_expect_eq(out[0], aic_index(AIC_L(2, 0)));
}

Test(aic2018_api, a_centre_far_off_the_map_or_a_bad_slot_senses_nothing)
{
	static struct aic_world w;
	aic_test_world(&w, "", probe_map);
	int me = aic_test_unit(&w, 2, 2);
	int16_t out[AIC_MAX_CELLS];
	cr_expect_eq(sensed_at(&w, me, AIC_L(2147483647, 2), 2147483647, AIC_SENSE_CELLS, out), 0);
	cr_expect_eq(sensed_at(&w, me, AIC_L(-2147483647, -5), -1, AIC_SENSE_CELLS, out), 0);
	cr_expect_eq(sensed_at(&w, -3, AIC_L(2, 2), 4, AIC_SENSE_CELLS, out), 0);
	cr_expect_eq(sensed_at(&w, AIC_MAX_UNITS + 9, AIC_L(2, 2), 4, AIC_SENSE_CELLS, out), 0);
	/* the cap holds */
	cr_expect_eq(aic_sense_at(&w, me, AIC_L(2, 2), -1, AIC_SENSE_CELLS, -1, out, 3), 3);
}

Test(aic2018_api, the_sense_calls_without_a_centre_are_the_unit_centred_ones)
{
	static struct aic_world w;
	aic_test_world(&w, "", probe_map);
	int me = aic_test_unit(&w, 2, 2);
	int16_t a[AIC_MAX_CELLS], b[AIC_MAX_CELLS];
	for (int r = -1; r <= 30; r++) {
		int n = aic_visible_cells(&w, me, r, a, AIC_MAX_CELLS);
		cr_assert_eq(sensed_at(&w, me, AIC_L(2, 2), r, AIC_SENSE_CELLS, b), n);
		cr_assert_eq(memcmp(a, b, sizeof *a * (size_t)n), 0, "radius %d", r);
	}
}

Test(aic2018_api, a_text_map_keeps_each_teams_starting_cells_in_order)
{
	static struct aic_world w;
	aic_test_world(&w, "", probe_map);
	cr_assert_eq(w.nstarts[0], 2);
	cr_expect_eq(w.start[0][0].x, 2);
	cr_expect_eq(w.start[0][0].y, 2);
	cr_expect_eq(w.start[0][1].x, 4);
	cr_expect_eq(w.start[0][1].y, 4);
	cr_assert_eq(w.nstarts[1], 1);
	cr_expect_eq(w.start[1][0].x, 10);
	cr_expect_eq(w.start[1][0].y, 6);
}

Test(aic2018_api, a_generated_map_keeps_the_workers_cells_mirrored_and_fog_keeps_them)
{
	static struct aic_world w, view;
	struct aic_params p;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		aic_params_default(&p);
		cr_assert_eq(aic_world_init(&w, &p, seed), 0, "no map for seed %llu",
			     (unsigned long long)seed);
		cr_assert_eq(w.nstarts[0], w.team[0].units);
		cr_assert_eq(w.nstarts[1], w.nstarts[0]);
		for (int i = 0; i < w.nstarts[0]; i++) {
			struct aic_loc m = aic_mirror(&w, w.start[0][i]);
			cr_expect(m.x == w.start[1][i].x && m.y == w.start[1][i].y, "seed %d",
				  (int)seed);
		}
		/* known to both teams, as in the original */
		aic_fog(&w, 1, &view);
		cr_expect_eq(memcmp(view.start, w.start, sizeof w.start), 0);
		cr_expect_eq(memcmp(view.nstarts, w.nstarts, sizeof w.nstarts), 0);
	}
}

/* ---- GameConstants: the header's numbers are the rules' ------------------------ */

struct per_type {
	int cost, hp, hp3, attack, attack3, range, min_range, sight, move, attack_cd,
		ability_cd, ability_range, exp1, exp2, exp3;
};

#define PER_TYPE(X)                                                                          \
	{ GameConstants_##X##_COST, GameConstants_##X##_MAX_HEALTH,                          \
	  GameConstants_##X##_MAX_HEALTH_LEVEL3, GameConstants_##X##_ATTACK,                 \
	  GameConstants_##X##_ATTACK_LEVEL3, GameConstants_##X##_ATTACK_RANGE_SQUARED,       \
	  GameConstants_##X##_MIN_ATTACK_RANGE_SQUARED, GameConstants_##X##_SIGHT_RANGE_SQUARED, \
	  GameConstants_##X##_MOVEMENT_DELAY, GameConstants_##X##_ATTACK_DELAY,               \
	  GameConstants_##X##_ACTIVE_ABILITY_DELAY, GameConstants_##X##_ACTIVE_ABILITY_RANGE, \
	  GameConstants_##X##_EXPERIENCE_LEVEL1, GameConstants_##X##_EXPERIENCE_LEVEL2,       \
	  GameConstants_##X##_EXPERIENCE_LEVEL3 }

Test(aic2018_api, game_constants_per_unit_type_are_the_rules_table)
{
	const struct per_type c[AIC_TYPES] = {
		[WORKER] = PER_TYPE(WORKER),     [BARRACKS] = PER_TYPE(BARRACKS),
		[WARRIOR] = PER_TYPE(WARRIOR),   [ARCHER] = PER_TYPE(ARCHER),
		[KNIGHT] = PER_TYPE(KNIGHT),     [BALLISTA] = PER_TYPE(BALLISTA),
	};
	for (int t = 0; t < AIC_TYPES; t++) {
		const struct aic_type_info *i = &aic_types[t];
		const char *n = i->name;
		cr_expect_eq(c[t].cost, i->cost, "%s", n);
		cr_expect_eq(c[t].hp, i->hp[0], "%s", n);
		cr_expect_eq(c[t].hp3, i->hp[1], "%s", n);
		cr_expect_eq(c[t].attack, i->attack[0], "%s", n);
		cr_expect_eq(c[t].attack3, i->attack[1], "%s", n);
		cr_expect_eq(c[t].range, i->attack_range, "%s", n);
		cr_expect_eq(c[t].min_range, i->min_attack_range, "%s", n);
		cr_expect_eq(c[t].sight, i->vision, "%s", n);
		cr_expect_eq(c[t].move, i->move_cd, "%s", n);
		cr_expect_eq(c[t].attack_cd, i->attack_cd, "%s", n);
		cr_expect_eq(c[t].ability_cd, i->ability_cd, "%s", n);
		cr_expect_eq(c[t].ability_range, i->ability_range, "%s", n);
		cr_expect_eq(c[t].exp1, i->exp[0], "%s", n);
		cr_expect_eq(c[t].exp2, i->exp[1], "%s", n);
		cr_expect_eq(c[t].exp3, i->exp[2], "%s", n);
	}
}

Test(aic2018_api, game_constants_of_the_match_are_the_rules_numbers)
{
	cr_expect_eq(GameConstants_MAX_TURNS, AIC_ROUNDS);
	cr_expect_eq(GameConstants_VICTORY_POINTS_MILESTONE, AIC_VP_TO_WIN);
	cr_expect_eq(GameConstants_BASE_VICTORY_POINTS_COST, AIC_VP_BASE_COST);
	cr_expect_eq(GameConstants_VICTORY_POINTS_INFLATION_ROUNDS, AIC_VP_COST_ROUNDS);
	cr_expect_eq(GameConstants_VICTORY_POINTS_LIFETIME, AIC_VP_LIFETIME);
	cr_expect_eq(GameConstants_INITIAL_WOOD, AIC_START_WOOD);
	cr_expect_eq(GameConstants_WOOD_PER_ROUND, AIC_WOOD_PER_ROUND);
	cr_expect_eq(GameConstants_UNIT_UPKEEP, AIC_UPKEEP);
	cr_expect_eq(GameConstants_MAX_ENERGY, AIC_ENERGY_PER_TURN);
	cr_expect_eq(GameConstants_OAK_CHOPPING_DMG, AIC_CHOP_OAK);
	cr_expect_eq(GameConstants_OAK_CHOPPING_WOOD, AIC_CHOP_OAK_WOOD);
	cr_expect_eq(GameConstants_SMALL_TREE_CHOPPING_DMG, AIC_CHOP_SMALL);
	cr_expect_eq(GameConstants_SMALL_TREE_CHOPPING_WOOD, AIC_CHOP_SMALL_WOOD);
	cr_expect_eq(GameConstants_SMALL_TREE_COST, AIC_PLANT_COST);
	cr_expect_eq(GameConstants_SMALL_TREE_MAX_HEALTH, AIC_SMALL_TREE_HP);
	cr_expect_eq(GameConstants_SMALL_TREE_GROWTH_TURNS, AIC_SMALL_TREE_GROWTH_TURNS);
	cr_expect_eq(GameConstants_TREE_GROWTH_RATE, AIC_SMALL_TREE_GROWING_HP);
	cr_expect_eq(GameConstants_TREE_REGENERATION_RATE, AIC_SMALL_TREE_GROWN_HP);
	cr_expect_eq(GameConstants_EXPERIENCE_RANGE_SQUARED, AIC_EXP_RADIUS);
	cr_expect_eq(GameConstants_EXPERIENCE_PER_DEATH, AIC_EXP_PER_DEATH);
	cr_expect_eq(GameConstants_WARRIOR_MELEE_RANGE, AIC_ADJACENT);
	cr_expect_eq(GameConstants_SHIELD_RANGE, AIC_SHIELD_DISTANCE);
	cr_expect_eq(GameConstants_POISON_TURNS, AIC_POISON_TURNS);
	cr_expect_eq(GameConstants_ARCHER_BINOCULARS_SIGHT_RANGE_SQUARED, AIC_BINOCULARS_VISION);
	cr_expect_eq((int)(GameConstants_DIAGONAL_MOVEMENT_FACTOR * AIC_CD_ONE + 0.5),
		     AIC_CD_DIAGONAL);
	cr_expect_eq(GameConstants_TEAM_ARRAY_SIZE, TEAM_ARRAY_SIZE);
}

/* ---- the records' getters ------------------------------------------------------ */

Test(aic2018_api, the_records_getters_read_their_fields)
{
	UnitInfo u = { .id = 42, .team = 1, .type = KNIGHT, .location = { 3, 9 }, .health = 77,
		       .level = 2, .experience = 60, .movementCooldown = 1.5,
		       .attackCooldown = 0.25, .abilityCooldown = 3, .inConstruction = true,
		       .constructionTurns = 4, .countered = true, .rooted = false,
		       .poisonTurns = 6 };
	cr_expect_eq(ui_getID(u), 42);
	cr_expect_eq(ui_getTeam(u), 1);
	cr_expect_eq(ui_getType(u), KNIGHT);
	cr_expect_eq(ui_getLocation(u).x, 3);
	cr_expect_eq(ui_getLocation(u).y, 9);
	cr_expect_eq(ui_getHealth(u), 77);
	cr_expect_eq(ui_getLevel(u), 2);
	cr_expect_eq(ui_getExperience(u), 60);
	cr_expect_eq(ui_getMovementCooldown(u), 1.5);
	cr_expect_eq(ui_getAttackCooldown(u), 0.25);
	cr_expect_eq(ui_getAbilityCooldown(u), 3);
	cr_expect(ui_isInConstruction(u));
	cr_expect_eq(ui_getConstructionTurns(u), 4);
	cr_expect(ui_isCountered(u));
	cr_expect_not(ui_isRooted(u));
	cr_expect_eq(ui_getPoisonTurns(u), 6);
	TreeInfo growing = { .location = { 1, 2 }, .health = 5, .maxHealth = 40, .oak = false,
			     .growingTurns = 7 };
	TreeInfo oak = { .location = { 4, 4 }, .health = 250, .maxHealth = 250, .oak = true };
	cr_expect(ti_isSmall(growing));
	cr_expect_not(ti_isOak(growing));
	cr_expect(ti_stillGrowing(growing));
	cr_expect_eq(ti_getRemainingGrowthTurns(growing), 7);
	cr_expect_eq(ti_getHealth(growing), 5);
	cr_expect_eq(ti_getMaxHealth(growing), 40);
	cr_expect_eq(ti_getLocation(growing).x, 1);
	cr_expect(ti_isOak(oak));
	cr_expect_not(ti_isSmall(oak));
	cr_expect_not(ti_stillGrowing(oak));
	VictoryPointsInfo v = { .location = { 6, 1 }, .points = 10, .roundsLeft = 31 };
	cr_expect_eq(vpi_getLocation(v).x, 6);
	cr_expect_eq(vpi_getVictoryPoints(v), 10);
	cr_expect_eq(vpi_getRoundsLeft(v), 31);
}

/* ---- every call, asked by a real player about api.cnf's world ------------------ */

#define PLAYERS "tests/players/aic2018/"

/* The probe's log (its seat's), from one match against Null. */
static const char *probe_log(void)
{
	static char dir[] = "/tmp/aic-api-XXXXXX", out[16384], log[1 << 16];
	cr_assert_not_null(mkdtemp(dir));
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s play aic2018 " PLAYERS "AIApiProbe.c Null -i " PLAYERS
		 "api.cnf --logs %s 2>&1 && cat %s/seat0.log && rm -rf %s",
		 cli_judge(), dir, dir, dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(log, sizeof log, "%s", out);
	cr_assert(strstr(log, "probe done 1\n"), "the probe did not finish:\n%s", log);
	return log;
}

struct answer {
	const char *name, *value;
};

static void expect_answers(const struct answer *a)
{
	const char *log = probe_log();
	for (; a->name; a++) {
		char line[128];
		snprintf(line, sizeof line, "probe %s %s\n", a->name, a->value);
		cr_expect(strstr(log, line), "want \"%.*s\" in:\n%s", (int)strlen(line) - 1, line,
			  log);
	}
}

Test(aic2018_api, location_arithmetic, .timeout = 60)
{
	expect_answers((const struct answer[]){
		{ "loc_add_dir", "4,4" },       { "loc_add_diagonal", "2,3" },
		{ "loc_add_zero", "3,4" },      { "loc_add_xy", "1,9" },
		{ "loc_add_bad_dir", "3,4" },   { "loc_distanceSquared", "13" },
		{ "loc_directionTo", "0" },     { NULL, NULL } });
}

Test(aic2018_api, direction_rotation_and_steps, .timeout = 60)
{
	expect_answers((const struct answer[]){
		{ "rotateLeft_NORTH", "7" },             { "rotateRight_NORTHWEST", "0" },
		{ "rotateRight_rotateLeft_EAST", "2" },  { "opposite_NORTHEAST", "5" },
		{ "rotateLeft_ZERO", "8" },              { "dx_EAST", "1" },
		{ "dy_NORTH", "-1" },                    { "dx_SOUTHWEST", "-1" },
		{ "dy_SOUTHWEST", "1" },                 { "length_NORTHEAST_x10000", "14142" },
		{ "length_SOUTH_x10000", "10000" },      { "length_ZERO_x10000", "0" },
		{ "isEqual_WEST_WEST", "1" },            { "isEqual_WEST_EAST", "0" },
		{ NULL, NULL } });
}

Test(aic2018_api, unit_types_per_level, .timeout = 60)
{
	expect_answers((const struct answer[]){
		{ "attack_WARRIOR_0", "6" },        { "attack_WARRIOR_3", "8" },
		{ "maxHealth_KNIGHT_2", "120" },    { "maxHealth_KNIGHT_3", "170" },
		{ "sight_ARCHER_0", "20" },         { "sight_ARCHER_1", "30" },
		{ "attackRange_BALLISTA", "35" },   { "minAttackRange_BALLISTA", "20" },
		{ "movementDelay_ARCHER", "3" },    { "attackDelay_KNIGHT", "2" },
		{ "abilityDelay_WARRIOR", "8" },    { "abilityRange_KNIGHT", "8" },
		{ "experience_WARRIOR_2", "75" },   { "experience_WARRIOR_4", "0" },
		{ "cost_ARCHER", "140" },           { "isCombatUnit_WORKER", "0" },
		{ "isCombatUnit_BALLISTA", "1" },   { "canAttack_BARRACKS", "0" },
		{ "canAttack_WORKER", "1" },        { "attack_bad_type", "0" },
		{ NULL, NULL } });
}

Test(aic2018_api, initial_locations_of_both_teams, .timeout = 60)
{
	expect_answers((const struct answer[]){
		{ "initial_mine", "2" },          { "initial_mine_0", "2,2" },
		{ "initial_mine_1", "4,4" },      { "initial_theirs", "1" },
		{ "initial_theirs_0", "10,6" },   { "initial_mine_cap_1", "1" },
		{ "initial_bad_team", "0" },      { "team_isEqual", "1" },
		{ "team_opponent_of_opponent", "1" }, { NULL, NULL } });
}

Test(aic2018_api, sensing_with_a_centre_and_tree_sizes, .timeout = 60)
{
	expect_answers((const struct answer[]){
		{ "unitsAt_ally", "1" },            { "unitsAt_ally_0", "4,4" },
		{ "unitsAt_beyond_vision", "0" },   { "unitsAt_self_only", "0" },
		{ "unitsAt_enemy_team", "0" },      { "treesAt_oaks", "1" },
		{ "treesAt_oaks_0", "5,2" },        { "treesAt_oak_isSmall", "0" },
		{ "treesAt_oak_isOak", "1" },       { "treesAt_whole_vision", "2" },
		{ "trees_near", "1" },              { "tree_small_isSmall", "1" },
		{ "tree_small_isOak", "0" },        { "tree_small_stillGrowing", "0" },
		{ "tree_small_maxHealth", "40" },   { "tree_small_health", "40" },
		{ "waterAt", "1" },                 { "vpsAt", "1" },
		{ "vpsAt_points", "10" },           { "vpsAt_location", "2,0" },
		{ "visibleAt_corner", "1" },        { "visibleAt_off_map", "0" },
		{ "visibleAt_hostile_centre", "0" }, { "visibleAt_cap_0", "0" },
		{ "visibleAt_cap_8", "8" },         { NULL, NULL } });
}

Test(aic2018_api, attacking_a_unit_or_a_tree_by_its_record, .timeout = 60)
{
	/* the worker chops the grown small tree next to it: 40 - 12 */
	expect_answers((const struct answer[]){
		{ "canAttackUnit_ally_too_far", "0" }, { "canAttackTree", "1" },
		{ "attackTree", "1" },                 { "tree_health_after", "28" },
		{ NULL, NULL } });
}

Test(aic2018_api, each_new_call_costs_its_class_of_the_cost_table, .timeout = 60)
{
	const char *log = probe_log();
	const struct {
		const char *name;
		int price;
	} want[] = { { "loc_add_xy", AIC_E_GETTER },   { "dir_dx", AIC_E_GETTER },
		     { "team_getInitialLocations", AIC_E_CHECK },
		     { "type_getAttack", AIC_E_TYPE },  { "uc_senseUnitsAt", AIC_E_SENSE_MANY },
		     { "uc_getVisibleLocationsAt", AIC_E_SENSE_MANY } };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		char key[96];
		snprintf(key, sizeof key, "cost %s ", want[i].name);
		const char *p = strstr(log, key);
		cr_assert_not_null(p, "no cost of %s in:\n%s", want[i].name, log);
		int got = atoi(p + strlen(key));
		/* the price, and the few instructions of the call itself */
		cr_expect(got >= want[i].price && got <= want[i].price + 8, "%s cost %d, not %d",
			  want[i].name, got, want[i].price);
	}
}
