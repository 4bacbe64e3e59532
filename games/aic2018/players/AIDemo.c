/* Demo: in the spirit of the original demo player.  Workers gather the
 * victory points they see, chop trees for wood, build more workers and
 * one barracks (the first worker, when the team can afford it); the
 * barracks builds soldiers; soldiers walk to the nearest enemy they see
 * and attack it.  Everybody buys victory points when wood piles up. */
#include "aic2018.h"

PLAYER_NAME(Demo);

/* The team array's cells: whether a barracks exists. */
enum { HAVE_BARRACKS = 0 };

static const Direction dirs[8] = { NORTH, NORTHEAST, EAST, SOUTHEAST,
				   SOUTH, SOUTHWEST, WEST, NORTHWEST };

/* One step toward target, or any free step when that one is blocked. */
static void step_toward(Location target, int salt)
{
	if (!uc_canMove())
		return;
	Direction d = loc_directionTo(uc_getLocation(), target);
	for (int i = 0; i < 8; i++) {
		Direction t = d == ZERO ? dirs[(salt + i) % 8] : i % 2 ? d : dirs[(d + i) % 8];
		if (uc_canMoveDir(t)) {
			uc_move(t);
			return;
		}
	}
}

static void wander(int salt)
{
	Location here = uc_getLocation();
	step_toward(loc_add(here, dirs[salt % 8]), salt);
}

static bool gather_nearby(void)
{
	for (int i = 0; i < 8; i++)
		if (uc_canGatherVPs(dirs[i]))
			return uc_gatherVPs(dirs[i]);
	return false;
}

static bool spawn_any(UnitType type)
{
	for (int i = 0; i < 8; i++)
		if (uc_canSpawn(dirs[i], type))
			return uc_spawn(dirs[i], type);
	return false;
}

static void chop_or_seek(int salt)
{
	TreeInfo trees[16];
	int n = uc_senseTrees(-1, trees, 16);
	Location here = uc_getLocation();
	for (int i = 0; i < n; i++)
		if (uc_canAttackTree(trees[i])) {
			uc_attackTree(trees[i]);
			return;
		}
	VictoryPointsInfo vps[8];
	int v = uc_senseVPs(-1, vps, 8);
	if (v > 0)
		step_toward(vpi_getLocation(vps[0]), salt);
	else if (n > 0 && loc_distanceSquared(here, ti_getLocation(trees[0])) >
				  GameConstants_WORKER_ATTACK_RANGE_SQUARED)
		step_toward(ti_getLocation(trees[0]), salt);
	else
		wander(salt);
}

static void worker(int salt)
{
	for (int turn = 0;; turn++) {
		gather_nearby();
		if (!uc_read(HAVE_BARRACKS) && uc_getResources() >= GameConstants_BARRACKS_COST &&
		    spawn_any(BARRACKS))
			uc_write(HAVE_BARRACKS, 1);
		else if (uc_getResources() >= 300 && turn % 20 == 0)
			spawn_any(WORKER);
		chop_or_seek(salt + turn);
		if (uc_getResources() > 1500 && uc_canBuyVP(1))
			uc_buyVP(1);
		uc_yield();
	}
}

static void barracks(void)
{
	for (;;) {
		if (uc_getResources() >= 2 * GameConstants_WARRIOR_COST)
			spawn_any(WARRIOR);
		uc_yield();
	}
}

static bool attack_nearest(void)
{
	UnitInfo enemies[32];
	int n = uc_senseUnits(-1, uc_getOpponent(), enemies, 32);
	if (n == 0)
		return false;
	Location here = uc_getLocation();
	int best = 0;
	for (int i = 1; i < n; i++)
		if (loc_distanceSquared(here, ui_getLocation(enemies[i])) <
		    loc_distanceSquared(here, ui_getLocation(enemies[best])))
			best = i;
	if (!uc_canAttackUnit(enemies[best]))
		step_toward(ui_getLocation(enemies[best]), best);
	if (uc_canAttackUnit(enemies[best]))
		uc_attackUnit(enemies[best]);
	return true;
}

static void soldier(int salt)
{
	for (int turn = 0;; turn++) {
		if (!attack_nearest()) {
			gather_nearby();
			wander(salt + turn / 8);
		}
		uc_yield();
	}
}

void run(void)
{
	UnitInfo me = uc_getInfo();
	int salt = ui_getID(me);
	switch (ui_getType(me)) {
	case WORKER:
		worker(salt);
		break;
	case BARRACKS:
		barracks();
		break;
	default:
		soldier(salt);
	}
}
