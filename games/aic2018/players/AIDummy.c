/* Dummy: clearly stronger than the Demo.  Workers multiply early, head for
 * the nearest victory points they see and gather them, chop trees when
 * nothing else is to be done, and spread out in their own directions; one
 * barracks builds soldiers, which hunt the enemy: the nearest one in
 * sight, else the last place any unit of the team saw one (the team
 * array), else the enemy's starting cells one after the other, then they
 * sweep the map.  Wood left over buys victory points. */
#include "aic2018.h"

PLAYER_NAME(Dummy);

/* The team array's cells. */
enum {
	BARRACKS_BUILT, /* 1 once a worker has built it */
	WORKERS,        /* workers spawned so far */
	ENEMY_X,        /* the last enemy seen: x, y and the round + 1 */
	ENEMY_Y,
	ENEMY_ROUND,
};

#define MAX_WORKERS 9

static const Direction dirs[8] = { NORTH, NORTHEAST, EAST, SOUTHEAST,
				   SOUTH, SOUTHWEST, WEST, NORTHWEST };

static int abs_int(int v)
{
	return v < 0 ? -v : v;
}

/* A step toward target: the direct one, or the nearest turn that is free. */
static bool step_toward(Location target)
{
	if (!uc_canMove())
		return false;
	Location here = uc_getLocation();
	if (loc_isEqual(here, target))
		return false;
	Direction d = loc_directionTo(here, target);
	for (int i = 0; i < 5; i++) {
		Direction l = d, r = d;
		for (int k = 0; k < i; k++) {
			l = dir_rotateLeft(l);
			r = dir_rotateRight(r);
		}
		if (uc_canMoveDir(l))
			return uc_move(l);
		if (uc_canMoveDir(r))
			return uc_move(r);
	}
	return false;
}

/* Keeps going one way; a new way when blocked. */
static void roam(Direction *way)
{
	if (!uc_canMove())
		return;
	for (int i = 0; i < 8; i++) {
		if (uc_canMoveDir(*way)) {
			uc_move(*way);
			return;
		}
		*way = i % 2 ? dir_rotateLeft(dir_rotateLeft(*way)) : dir_opposite(*way);
		*way = dirs[(*way + uc_getRound()) % 8];
	}
}

static void report_enemies(void)
{
	UnitInfo seen[4];
	if (uc_senseUnits(-1, uc_getOpponent(), seen, 4) > 0) {
		uc_write(ENEMY_X, seen[0].location.x);
		uc_write(ENEMY_Y, seen[0].location.y);
		uc_write(ENEMY_ROUND, uc_getRound() + 1);
	}
}

static void gather_all(void)
{
	for (int i = 0; i < 8; i++)
		if (uc_canGatherVPs(dirs[i]))
			uc_gatherVPs(dirs[i]);
}

static bool spawn_any(UnitType type)
{
	for (int i = 0; i < 8; i++)
		if (uc_canSpawn(dirs[i], type))
			return uc_spawn(dirs[i], type);
	return false;
}

static void build(void)
{
	int wood = uc_getResources();
	if (!uc_read(BARRACKS_BUILT) && uc_getRound() >= 25 && wood >= GameConstants_BARRACKS_COST) {
		if (spawn_any(BARRACKS))
			uc_write(BARRACKS_BUILT, 1);
	} else if (uc_read(WORKERS) < MAX_WORKERS && wood >= GameConstants_WORKER_COST + 20 &&
		   (uc_read(BARRACKS_BUILT) || uc_read(WORKERS) < 4)) {
		if (spawn_any(WORKER))
			uc_write(WORKERS, uc_read(WORKERS) + 1);
	}
}

static bool go_for_vps(void)
{
	VictoryPointsInfo vps[16];
	int n = uc_senseVPs(-1, vps, 16);
	if (n == 0)
		return false;
	Location here = uc_getLocation();
	int best = 0;
	for (int i = 1; i < n; i++)
		if (loc_distanceSquared(here, vps[i].location) <
		    loc_distanceSquared(here, vps[best].location))
			best = i;
	return step_toward(vps[best].location) || true;
}

static bool chop(void)
{
	TreeInfo trees[8];
	int n = uc_senseTrees(GameConstants_WORKER_ATTACK_RANGE_SQUARED, trees, 8);
	for (int i = 0; i < n; i++)
		if (uc_canAttackTree(trees[i]))
			return uc_attackTree(trees[i]);
	return false;
}

static void spend_wood(void)
{
	int keep = uc_read(BARRACKS_BUILT) ? 250 : 650;
	int spare = uc_getResources() - keep, cost = uc_getVPCost();
	if (spare >= cost && uc_canBuyVP(spare / cost))
		uc_buyVP(spare / cost);
}

static void worker(int id)
{
	Direction way = dirs[id % 8];
	for (;;) {
		gather_all();
		build();
		report_enemies();
		if (!go_for_vps() && !chop())
			roam(&way);
		gather_all();
		spend_wood();
		uc_yield();
	}
}

static void barracks(void)
{
	for (;;) {
		if (uc_getResources() >= 220)
			spawn_any(uc_getRound() % 3 ? WARRIOR : KNIGHT);
		uc_yield();
	}
}

static bool fight(void)
{
	UnitInfo enemies[24];
	int n = uc_senseUnits(-1, uc_getOpponent(), enemies, 24);
	if (n == 0)
		return false;
	Location here = uc_getLocation();
	int best = 0;
	for (int i = 1; i < n; i++) {
		int di = loc_distanceSquared(here, enemies[i].location);
		int db = loc_distanceSquared(here, enemies[best].location);
		/* nearest first; among equals, the weakest */
		if (di < db || (di == db && ui_getHealth(enemies[i]) < ui_getHealth(enemies[best])))
			best = i;
	}
	Location target = ui_getLocation(enemies[best]);
	uc_write(ENEMY_X, target.x);
	uc_write(ENEMY_Y, target.y);
	uc_write(ENEMY_ROUND, uc_getRound() + 1);
	if (uc_canAttackLocation(target))
		uc_attack(target);
	else
		step_toward(target);
	if (uc_canAttackLocation(target))
		uc_attack(target);
	return true;
}

/* Near enough to a place to call it visited. */
static bool reached(Location here, Location there)
{
	return abs_int(here.x - there.x) + abs_int(here.y - there.y) <= 1;
}

static void soldier(int id)
{
	Direction way = dirs[id % 8];
	Location starts[4];
	int nstarts = team_getInitialLocations(team_getOpponent(uc_getTeam()), starts, 4);
	int visited = 0; /* enemy starts looked at so far */
	for (;;) {
		if (!fight()) {
			int seen = uc_read(ENEMY_ROUND);
			Location last = { uc_read(ENEMY_X), uc_read(ENEMY_Y) };
			Location here = uc_getLocation();
			if (visited < nstarts && reached(here, starts[visited]))
				visited++;
			if (seen && uc_getRound() + 1 - seen < 60 && !reached(here, last))
				step_toward(last);
			else if (visited < nstarts)
				step_toward(starts[visited]);
			else
				roam(&way);
			gather_all();
		}
		uc_yield();
	}
}

void run(void)
{
	UnitInfo me = uc_getInfo();
	switch (ui_getType(me)) {
	case WORKER:
		worker(ui_getID(me));
		break;
	case BARRACKS:
		barracks();
		break;
	default:
		soldier(ui_getID(me));
	}
}
