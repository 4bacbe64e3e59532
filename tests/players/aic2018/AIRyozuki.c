/* A public AIC2018 team bot (Ryozuki's, one Java class) ported call by
 * call to the C API: every uc.X is uc_X, loc.add(d) loc_add, the Java
 * fields of its UnitPlayer are the unit's struct bot, and its quirks are
 * kept (the "nearest" helpers take the first, as the original's did).
 * Only Math.random() is replaced: by a generator seeded from the unit's
 * id, since a unit may not call rand().  It shows that a real team's code
 * needs nothing the kit lacks. */
#include <stdint.h>

#include "aic2018.h"

PLAYER_NAME(Ryozuki);

/* The team array's cells, as the original numbered them. */
enum { BARRACKS_AMOUNT = 0, WORKER_AMOUNT = 1, UNIT_FOUND = 2, WORKER_INDEX_OFFSET = 20 };

#define MAX_SEEN 64 /* the sense calls' arrays: Java's grow, ours are capped */

struct bot {
	Team opponent;
	Location enemy_starts[16], base_starts[16];
	int nenemy_starts, nbase_starts;
	int enemy_base_index, base_index;
	bool reached_all_enemy_bases, surrounded_by_trees;
	int worker_index;
	uint32_t random; /* Math.random()'s state */
};

static const Direction dirs[9] = { NORTH, NORTHEAST, EAST, SOUTHEAST, SOUTH,
				   SOUTHWEST, WEST, NORTHWEST, ZERO };

/* Math.random() * n, from a xorshift of the unit's own. */
static int random_below(struct bot *b, int n)
{
	b->random ^= b->random << 13;
	b->random ^= b->random >> 17;
	b->random ^= b->random << 5;
	return (int)(b->random % (uint32_t)n);
}

static bool move(Direction dir)
{
	if (uc_canMoveDir(dir)) {
		uc_move(dir);
		return true;
	}
	return false;
}

static int try_plant_tree(int resources, Location loc)
{
	if (resources > GameConstants_SMALL_TREE_COST && uc_canUseActiveAbility() &&
	    uc_canUseActiveAbilityAt(loc)) {
		uc_useActiveAbility(loc);
		return resources - GameConstants_SMALL_TREE_COST;
	}
	return resources;
}

static void spawn_near(UnitType type)
{
	for (int i = 0; i < 8; ++i)
		if (uc_canSpawn(dirs[i], type)) {
			uc_spawn(dirs[i], type);
			return;
		}
}

/* The original compared locations by reference (never equal), so a tree
 * under the unit was not skipped: neither is it here. */
static int nearest_tree(const TreeInfo *trees, int n)
{
	Location loc = uc_getLocation();
	int nearest = -1, index = -1;
	for (int i = 0; i < n; i++) {
		int dist = loc_distanceSquared(loc, ti_getLocation(trees[i]));
		if (ti_stillGrowing(trees[i]) || trees[i].health <= GameConstants_SMALL_TREE_CHOPPING_DMG)
			continue;
		if (nearest == -1 || dist < nearest) {
			nearest = dist;
			index = i;
		}
	}
	return index;
}

/* The original measured every candidate against the first one: the first
 * of the list wins. */
static int nearest_of(int n)
{
	return n > 0 ? 0 : -1;
}

static bool all_surrounded(int worker_num)
{
	for (int i = 0; i < worker_num; i++)
		if (uc_read(WORKER_INDEX_OFFSET + i) < 1)
			return false;
	return true;
}

static bool is_obstructed(Location loc1, Location loc2)
{
	Direction dir = loc_directionTo(loc1, loc2);
	while (!loc_isEqual(loc1, loc2)) {
		loc1 = loc_add(loc1, dir);
		if (uc_canSenseLocation(loc1) && !uc_isAccessible(loc1))
			return true;
	}
	return false;
}

static void buy_vps_when_rich(void)
{
	if (uc_getResources() > 10000) {
		float cost = GameConstants_BASE_VICTORY_POINTS_COST +
			     uc_getRound() / GameConstants_VICTORY_POINTS_INFLATION_ROUNDS;
		int amount = (int)(uc_getResources() / cost);
		if (uc_canBuyVP(amount))
			uc_buyVP(amount);
	}
}

static void attack_and_spread(void)
{
	UnitInfo near[MAX_SEEN];
	int n = uc_senseUnits(type_getAttackRangeSquared(uc_getType()), team_getOpponent(uc_getTeam()),
			      near, MAX_SEEN);
	for (int i = 0; i < n; i++) {
		UnitType t = ui_getType(near[i]);
		if (t != WORKER && t != BARRACKS)
			uc_write(UNIT_FOUND, (int)t);
		if (uc_canAttackUnit(near[i]))
			uc_attackUnit(near[i]);
	}
	/* move away from ally workers */
	n = uc_senseUnits(type_getAttackRangeSquared(uc_getType()) + 2, uc_getTeam(), near, MAX_SEEN);
	for (int i = 0; i < n; i++) {
		if (ui_getType(near[i]) != WORKER || ui_getID(near[i]) == ui_getID(uc_getInfo()))
			continue;
		Direction away = dir_opposite(loc_directionTo(uc_getLocation(), ui_getLocation(near[i])));
		if (move(away))
			break;
		for (int j = 0; j < 8; j++)
			move(dirs[j]);
	}
}

static void note_if_surrounded(struct bot *b)
{
	if (b->surrounded_by_trees)
		return;
	b->surrounded_by_trees = true;
	for (int i = 0; i < 8; i++) {
		Location loc = loc_add(uc_getLocation(), dirs[i]);
		if (!uc_isAccessible(loc) || uc_isOutOfMap(loc))
			continue;
		if (!uc_senseTree(loc_add(uc_getLocation(), dirs[i]), NULL)) {
			b->surrounded_by_trees = false;
			break;
		}
	}
	if (b->surrounded_by_trees)
		uc_write(WORKER_INDEX_OFFSET + b->worker_index, 1);
}

/* A unit of the team stands there (a tree under it is spared). */
static bool ally_on(Location l)
{
	UnitInfo inf;
	return uc_senseUnitAtLocation(l, &inf) && team_isEqual(ui_getTeam(inf), uc_getTeam());
}

static void chop_trees(const TreeInfo *trees, int n)
{
	for (int i = 0; i < n; i++) {
		if (!uc_canAttackTree(trees[i]) ||
		    ti_getHealth(trees[i]) <= GameConstants_SMALL_TREE_CHOPPING_DMG ||
		    ti_stillGrowing(trees[i]))
			continue;
		if (!ally_on(ti_getLocation(trees[i])))
			uc_attackTree(trees[i]);
	}
}

/* No tree near: walk toward the enemy's first base, planting on the way. */
static void expand(struct bot *b, int ntrees)
{
	if (!uc_canMove() || ntrees >= 1)
		return;
	Direction dir_op = loc_directionTo(uc_getLocation(), b->enemy_starts[0]);
	bool moved = false;
	for (int i = 0; i < 8; i++) {
		if (!move(dir_op)) {
			dir_op = dir_rotateRight(dir_op);
		} else {
			moved = true;
			break;
		}
	}
	/* cannot move: dig under us if there is a tree */
	if (!uc_canMove() && uc_canAttack() && !moved)
		uc_attack(uc_getLocation());
}

static void gather_points(void)
{
	VictoryPointsInfo points[MAX_SEEN];
	int n = uc_senseVPs(-1, points, MAX_SEEN);
	for (int i = 0; i < n; i++) {
		Direction d = loc_directionTo(uc_getLocation(), vpi_getLocation(points[i]));
		if (uc_canGatherVPs(d))
			uc_gatherVPs(d);
	}
}

static void worker_logic(struct bot *b)
{
	int barrack_num = uc_read(BARRACKS_AMOUNT);
	int worker_num = uc_read(WORKER_AMOUNT);
	if (worker_num == 0)
		worker_num = 1;
	int max_worker_num = uc_getRound() / 40;
	if (b->worker_index == -1)
		b->worker_index = worker_num - 1;
	buy_vps_when_rich();
	if (uc_getRound() < 40)
		for (int i = 0; i < 8; i++)
			if (!uc_isAccessible(loc_add(uc_getLocation(), dirs[i])))
				move(dir_opposite(dirs[i]));
	attack_and_spread();
	if (uc_getResources() >= GameConstants_BARRACKS_COST &&
	    barrack_num < uc_getRound() / 300 + 2) {
		barrack_num++;
		uc_write(BARRACKS_AMOUNT, barrack_num);
		spawn_near(BARRACKS);
	}
	if (uc_getResources() > 1000)
		max_worker_num = 9999;
	if ((barrack_num > 0 || worker_num < 2) && uc_getResources() > 100 &&
	    worker_num < max_worker_num && all_surrounded(worker_num))
		for (int i = 0; i < 8; ++i)
			if (uc_canSpawn(dirs[i], WORKER)) {
				worker_num++;
				uc_write(WORKER_AMOUNT, worker_num);
				uc_spawn(dirs[i], WORKER);
				break;
			}
	if (uc_canUseActiveAbility())
		for (int i = 0; i < 8; ++i) {
			Location loc = uc_getLocation();
			loc.x += dir_dx(dirs[i]);
			loc.y += dir_dy(dirs[i]);
			try_plant_tree(uc_getResources(), loc);
		}
	note_if_surrounded(b);
	TreeInfo trees[MAX_SEEN];
	int ntrees = uc_senseTrees(-1, trees, MAX_SEEN);
	chop_trees(trees, ntrees);
	if (uc_getRound() < 40)
		return;
	int tree = nearest_tree(trees, ntrees);
	if (tree >= 0 && uc_canAttack() &&
	    !is_obstructed(uc_getLocation(), ti_getLocation(trees[tree])))
		move(loc_directionTo(uc_getLocation(), ti_getLocation(trees[tree])));
	expand(b, ntrees);
	gather_points();
}

static UnitType counter_of(UnitType seen)
{
	switch (seen) {
	case ARCHER:
		return KNIGHT;
	case WARRIOR:
		return ARCHER;
	default: /* knights and ballistas */
		return WARRIOR;
	}
}

static void barracks_logic(struct bot *b)
{
	if (uc_getResources() <= 500 && random_below(b, 100) >= 20)
		return;
	int ordinal = uc_read(UNIT_FOUND);
	if (ordinal <= 0 || ordinal > BALLISTA) /* Java's values()[] would throw */
		ordinal = KNIGHT;
	UnitType spawn_type = counter_of((UnitType)ordinal);
	for (int i = 0; i < 8; ++i)
		if (uc_canSpawn(dirs[i], spawn_type))
			uc_spawn(dirs[i], spawn_type);
}

/* Walks the ring of bases: the enemy's, then back round the team's own. */
static void patrol(struct bot *b)
{
	bool enemy = !b->reached_all_enemy_bases;
	Location *bases = enemy ? b->enemy_starts : b->base_starts;
	int *index = enemy ? &b->enemy_base_index : &b->base_index;
	int nbases = enemy ? b->nenemy_starts : b->nbase_starts;
	Direction dir_op = loc_directionTo(uc_getLocation(), bases[*index]);
	for (int i = 0; i < 8; i++) {
		if (!move(dir_op))
			dir_op = dir_rotateRight(dir_op);
		else
			break;
	}
	if (loc_distanceSquared(uc_getLocation(), bases[*index]) > 1)
		return;
	if (*index + 1 < nbases) {
		(*index)++;
	} else if (enemy) {
		b->reached_all_enemy_bases = true;
		b->enemy_base_index = 0;
	} else {
		b->base_index = 0;
		b->enemy_base_index = 0;
		b->reached_all_enemy_bases = false;
	}
}

static void chop_oaks_in_the_way(void)
{
	TreeInfo trees[MAX_SEEN];
	int n = uc_senseTrees(-1, trees, MAX_SEEN);
	for (int i = 0; i < n; i++) {
		if (!uc_canAttackTree(trees[i]) || !ti_isOak(trees[i]))
			continue;
		if (!ally_on(ti_getLocation(trees[i])))
			uc_attackTree(trees[i]);
	}
}

static void wander_or_gather(struct bot *b)
{
	VictoryPointsInfo points[MAX_SEEN];
	int point = nearest_of(uc_senseVPs(-1, points, MAX_SEEN));
	if (point < 0) {
		move(dirs[random_below(b, 8)]);
		return;
	}
	Location at = points[point].location;
	Direction dir_vp = loc_directionTo(uc_getLocation(), at);
	if (b->reached_all_enemy_bases)
		uc_gatherVPs(dir_vp);
	if (loc_distanceSquared(uc_getLocation(), at) <= 2 && uc_canGatherVPs(dir_vp))
		uc_gatherVPs(dir_vp);
}

static void offensive_unit_logic(struct bot *b)
{
	UnitInfo enemies[MAX_SEEN];
	int n = uc_senseUnits(-1, b->opponent, enemies, MAX_SEEN);
	int enemy = nearest_of(n);
	/* focus workers, else barracks */
	for (int i = 0; i < n; i++) {
		UnitType t = ui_getType(enemies[i]);
		if (t == WORKER) {
			if (uc_canAttackUnit(enemies[enemy]))
				enemy = i;
		} else if (t != BARRACKS) {
			uc_write(UNIT_FOUND, (int)t);
		} else {
			enemy = i;
		}
	}
	Location here = uc_getLocation();
	if (enemy >= 0 && uc_getType() == ARCHER &&
	    loc_distanceSquared(here, ui_getLocation(enemies[enemy])) <
		    type_getMinAttackRangeSquared(uc_getType()))
		move(dir_opposite(loc_directionTo(here, ui_getLocation(enemies[enemy]))));
	if (enemy >= 0 && uc_canAttackUnit(enemies[enemy])) {
		Location target = ui_getLocation(enemies[enemy]);
		if (uc_canUseActiveAbility() && uc_canUseActiveAbilityAt(target))
			uc_useActiveAbility(target);
		if (uc_canAttackUnit(enemies[enemy]))
			uc_attackUnit(enemies[enemy]);
		return;
	}
	chop_oaks_in_the_way();
	patrol(b);
	wander_or_gather(b);
}

void run(void)
{
	struct bot b = { .worker_index = -1 };
	b.random = (uint32_t)ui_getID(uc_getInfo()) * 2654435761u | 1;
	b.opponent = uc_getOpponent();
	b.nenemy_starts = team_getInitialLocations(b.opponent, b.enemy_starts, 16);
	b.nbase_starts = team_getInitialLocations(uc_getTeam(), b.base_starts, 16);
	for (;;) {
		if (uc_getType() == WORKER)
			worker_logic(&b);
		else if (uc_getType() == BARRACKS)
			barracks_logic(&b);
		else
			offensive_unit_logic(&b);
		uc_yield();
	}
}
