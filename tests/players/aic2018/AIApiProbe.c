/* Asks the original API's calls about a small known world
 * (tests/players/aic2018/api.cnf) and logs each answer as "probe NAME
 * VALUE" for tests/unit/test_aic2018_api.c to check; also what each call
 * cost ("cost NAME ENERGY"): the energy used across the call alone.  The
 * log's lines cost energy too (printf): the probe is paused now and then
 * and goes on in the next rounds, where nothing it looks at changes. */
#include <stdio.h>

#include "aic2018.h"

PLAYER_NAME(ApiProbe);

static void show_loc(const char *name, Location l)
{
	printf("probe %s %d,%d\n", name, l.x, l.y);
}

static void show_int(const char *name, int v)
{
	printf("probe %s %d\n", name, v);
}

static void locations(void)
{
	Location l = { 3, 4 };
	show_loc("loc_add_dir", loc_add(l, EAST));
	show_loc("loc_add_diagonal", loc_add(l, NORTHWEST));
	show_loc("loc_add_zero", loc_add(l, ZERO));
	show_loc("loc_add_xy", loc_add(l, -2, 5));
	show_loc("loc_add_bad_dir", loc_add(l, (Direction)42));
	show_int("loc_distanceSquared", loc_distanceSquared(l, loc_add(l, 2, -3)));
	show_int("loc_directionTo", loc_directionTo(l, (Location){ 3, 0 }));
}

static void directions(void)
{
	show_int("rotateLeft_NORTH", dir_rotateLeft(NORTH));
	show_int("rotateRight_NORTHWEST", dir_rotateRight(NORTHWEST));
	show_int("rotateRight_rotateLeft_EAST", dir_rotateRight(dir_rotateLeft(EAST)));
	show_int("opposite_NORTHEAST", dir_opposite(NORTHEAST));
	show_int("rotateLeft_ZERO", dir_rotateLeft(ZERO));
	show_int("dx_EAST", dir_dx(EAST));
	show_int("dy_NORTH", dir_dy(NORTH));
	show_int("dx_SOUTHWEST", dir_dx(SOUTHWEST));
	show_int("dy_SOUTHWEST", dir_dy(SOUTHWEST));
	show_int("length_NORTHEAST_x10000", (int)(dir_length(NORTHEAST) * 10000 + 0.5));
	show_int("length_SOUTH_x10000", (int)(dir_length(SOUTH) * 10000 + 0.5));
	show_int("length_ZERO_x10000", (int)(dir_length(ZERO) * 10000 + 0.5));
	show_int("isEqual_WEST_WEST", dir_isEqual(WEST, WEST));
	show_int("isEqual_WEST_EAST", dir_isEqual(WEST, EAST));
}

static void types(void)
{
	show_int("attack_WARRIOR_0", type_getAttack(WARRIOR, 0));
	show_int("attack_WARRIOR_3", type_getAttack(WARRIOR, 3));
	show_int("maxHealth_KNIGHT_2", type_getMaxHealth(KNIGHT, 2));
	show_int("maxHealth_KNIGHT_3", type_getMaxHealth(KNIGHT, 3));
	show_int("sight_ARCHER_0", type_getSightRangeSquared(ARCHER, 0));
	show_int("sight_ARCHER_1", type_getSightRangeSquared(ARCHER, 1));
	show_int("attackRange_BALLISTA", type_getAttackRangeSquared(BALLISTA));
	show_int("minAttackRange_BALLISTA", type_getMinAttackRangeSquared(BALLISTA));
	show_int("movementDelay_ARCHER", (int)type_getMovementDelay(ARCHER));
	show_int("attackDelay_KNIGHT", (int)type_getAttackDelay(KNIGHT));
	show_int("abilityDelay_WARRIOR", (int)type_getActiveAbilityDelay(WARRIOR));
	show_int("abilityRange_KNIGHT", type_getActiveAbilityRange(KNIGHT));
	show_int("experience_WARRIOR_2", type_getExperienceForLevel(WARRIOR, 2));
	show_int("experience_WARRIOR_4", type_getExperienceForLevel(WARRIOR, 4));
	show_int("cost_ARCHER", type_getCost(ARCHER));
	show_int("isCombatUnit_WORKER", type_isCombatUnit(WORKER));
	show_int("isCombatUnit_BALLISTA", type_isCombatUnit(BALLISTA));
	show_int("canAttack_BARRACKS", type_canAttack(BARRACKS));
	show_int("canAttack_WORKER", type_canAttack(WORKER));
	show_int("attack_bad_type", type_getAttack((UnitType)99, 0));
}

static void team(void)
{
	Location l[16];
	Team me = uc_getTeam(), them = team_getOpponent(me);
	int n = team_getInitialLocations(me, l, 16);
	show_int("initial_mine", n);
	for (int i = 0; i < n; i++)
		show_loc(i ? "initial_mine_1" : "initial_mine_0", l[i]);
	n = team_getInitialLocations(them, l, 16);
	show_int("initial_theirs", n);
	show_loc("initial_theirs_0", l[0]);
	show_int("initial_mine_cap_1", team_getInitialLocations(me, l, 1));
	show_int("initial_bad_team", team_getInitialLocations(7, l, 16));
	show_int("team_isEqual", team_isEqual(me, uc_getTeam()));
	show_int("team_opponent_of_opponent", team_getOpponent(them) == me);
}

static void sensing(void)
{
	UnitInfo units[8];
	TreeInfo trees[8];
	VictoryPointsInfo vps[8];
	Location cells[8];
	int n = uc_senseUnitsAt((Location){ 4, 3 }, 2, -1, units, 8);
	show_int("unitsAt_ally", n);
	show_loc("unitsAt_ally_0", ui_getLocation(units[0]));
	show_int("unitsAt_beyond_vision", uc_senseUnitsAt((Location){ 10, 6 }, 2, -1, units, 8));
	show_int("unitsAt_self_only", uc_senseUnitsAt((Location){ 2, 2 }, 0, -1, units, 8));
	show_int("unitsAt_enemy_team", uc_senseUnitsAt((Location){ 4, 3 }, 2, 1 - uc_getTeam(), units, 8));
	n = uc_senseTreesAt((Location){ 6, 2 }, 1, trees, 8);
	show_int("treesAt_oaks", n);
	show_loc("treesAt_oaks_0", ti_getLocation(trees[0]));
	show_int("treesAt_oak_isSmall", ti_isSmall(trees[0]));
	show_int("treesAt_oak_isOak", ti_isOak(trees[0]));
	show_int("treesAt_whole_vision", uc_senseTreesAt((Location){ 0, 0 }, -1, trees, 8));
	n = uc_senseTrees(1, trees, 8);
	show_int("trees_near", n);
	show_int("tree_small_isSmall", ti_isSmall(trees[0]));
	show_int("tree_small_isOak", ti_isOak(trees[0]));
	show_int("tree_small_stillGrowing", ti_stillGrowing(trees[0]));
	show_int("tree_small_maxHealth", ti_getMaxHealth(trees[0]));
	show_int("tree_small_health", ti_getHealth(trees[0]));
	show_int("waterAt", uc_senseWaterAt((Location){ 2, 5 }, 0, cells, 8));
	n = uc_senseVPsAt((Location){ 2, 1 }, 1, vps, 8);
	show_int("vpsAt", n);
	show_int("vpsAt_points", vpi_getVictoryPoints(vps[0]));
	show_loc("vpsAt_location", vpi_getLocation(vps[0]));
	show_int("visibleAt_corner", uc_getVisibleLocationsAt((Location){ 0, 0 }, 0, cells, 8));
	show_int("visibleAt_off_map", uc_getVisibleLocationsAt((Location){ -1, 0 }, 0, cells, 8));
	show_int("visibleAt_hostile_centre",
		 uc_getVisibleLocationsAt((Location){ 2147483647, -2147483647 }, 2147483647, cells, 8));
	show_int("visibleAt_cap_0", uc_getVisibleLocationsAt((Location){ 2, 2 }, -1, cells, 0));
	show_int("visibleAt_cap_8", uc_getVisibleLocationsAt((Location){ 2, 2 }, -1, cells, 8));
}

static void attacks(void)
{
	TreeInfo trees[1];
	UnitInfo ally[1];
	uc_senseTrees(1, trees, 1);
	uc_senseUnits(-1, uc_getTeam(), ally, 1);
	show_int("canAttackUnit_ally_too_far", uc_canAttackUnit(ally[0]));
	show_int("canAttackTree", uc_canAttackTree(trees[0]));
	show_int("attackTree", uc_attackTree(trees[0]));
	TreeInfo after;
	uc_senseTree(trees[0].location, &after);
	show_int("tree_health_after", ti_getHealth(after));
}

/* The energy of one call: the difference of two readings, less the cost
 * of a reading with nothing between (both readings cost the same). */
#define COST(name, call)                                                 \
	do {                                                             \
		int before = uc_getEnergyUsed();                         \
		int empty = uc_getEnergyUsed() - before;                 \
		before = uc_getEnergyUsed();                             \
		call;                                                    \
		printf("cost %s %d\n", name, uc_getEnergyUsed() - before - empty); \
	} while (0)

static void costs(void)
{
	uc_yield(); /* a fresh turn: the readings never straddle a pause */
	Location cells[4];
	UnitInfo units[4];
	Location l = uc_getLocation();
	COST("loc_add_xy", l = loc_add(l, 1, 1));
	COST("dir_dx", l.x += dir_dx(EAST));
	COST("team_getInitialLocations", team_getInitialLocations(0, cells, 4));
	COST("type_getAttack", l.y += type_getAttack(WARRIOR, 3));
	COST("uc_senseUnitsAt", uc_senseUnitsAt(l, 8, -1, units, 4));
	COST("uc_getVisibleLocationsAt", uc_getVisibleLocationsAt(l, 8, cells, 4));
	show_loc("cost_sink", l);
}

void run(void)
{
	Location me = uc_getLocation();
	if (uc_getRound() == 0 && me.x == 2 && me.y == 2) {
		locations();
		directions();
		types();
		team();
		sensing();
		costs();
		attacks();
		printf("probe done 1\n");
	}
	for (;;)
		uc_yield();
}
