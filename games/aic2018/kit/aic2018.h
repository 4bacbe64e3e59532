/* aic2018.h - the AIC2018 player API: what a unit's code may call.
 *
 * Write one function, `void run(void)`.  Every unit of your team runs its
 * own copy of it, from its first turn until it returns (then the unit
 * dies): loop forever, and call uc_yield() to end the unit's turn.  A
 * unit's state is its run()'s local variables; the units of a team share
 * nothing but the team array (uc_read / uc_write).  Writable global and
 * static variables are refused when your file is compiled (constants are
 * fine).
 *
 * Energy: each turn a unit may spend 15000.  Your code costs one per
 * instruction it executes, the C library functions you may call (memcpy,
 * qsort, sin, snprintf...: docs/games/aic2018.md) by the work they do, the
 * calls below their price in brackets.  Past 15000 the unit is paused where
 * it stands and resumes there next round, the excess taken from the next
 * turns.
 *
 * The names mirror the original Java UnitController (uc.move(dir) is
 * uc_move(dir)); where Java overloads a name, the C name says which:
 * uc_canAttack() (cooldown only) and uc_canAttackLocation(loc).  Calls
 * that return records fill a struct and return whether there was one;
 * calls that return arrays fill yours (at most cap) and return the count.
 */
#ifndef AIC2018_H
#define AIC2018_H

#include <stdbool.h>

typedef struct {
	int x, y;
} Location;

typedef enum {
	NORTH, NORTHEAST, EAST, SOUTHEAST, SOUTH, SOUTHWEST, WEST, NORTHWEST, ZERO
} Direction;

typedef enum { WORKER, BARRACKS, WARRIOR, ARCHER, KNIGHT, BALLISTA } UnitType;

typedef struct {
	int id, team;
	UnitType type;
	Location location;
	int health, level, experience;
	double movementCooldown, attackCooldown, abilityCooldown;
	bool inConstruction;
	int constructionTurns;
	bool countered, rooted;
	int poisonTurns;
} UnitInfo;

typedef struct {
	Location location;
	int health, maxHealth;
	bool oak;
	int growingTurns;
} TreeInfo;

typedef struct {
	Location location;
	int points, roundsLeft;
} VictoryPointsInfo;

#define TEAM_ARRAY_SIZE 100000

/* ---- you write this ----------------------------------------------------- */

/* Your player's name, once in the file: PLAYER_NAME(Sauron); */
#define PLAYER_NAME(name) const char player_name[] = #name

void run(void);

/* ---- your unit and team [1; uc_getInfo 10] ------------------------------ */

UnitInfo uc_getInfo(void);
Location uc_getLocation(void);
UnitType uc_getType(void);
int uc_getTeam(void);          /* 0 or 1 */
int uc_getOpponent(void);
int uc_getLevel(void);
int uc_getResources(void);     /* the team's wood */
int uc_getRound(void);         /* 0-based */
int uc_getVPCost(void);        /* wood for one VP now */
int uc_getVictoryPoints(int team);
int uc_getEnergyUsed(void);
int uc_getEnergyLeft(void);

/* ---- actions [can* 10, actions 20] --------------------------------------- */

bool uc_canMove(void);                      /* cooldown only */
bool uc_canMoveDir(Direction dir);
bool uc_move(Direction dir);
bool uc_canAttack(void);                    /* cooldown only */
bool uc_canAttackLocation(Location target);
bool uc_attack(Location target);            /* hits everything there; workers chop */
bool uc_canUseActiveAbility(void);          /* cooldown and level only */
bool uc_canUseActiveAbilityAt(Location target);
bool uc_useActiveAbility(Location target);  /* workers: plant */
bool uc_canSpawn(Direction dir, UnitType type);
bool uc_spawn(Direction dir, UnitType type);
bool uc_canGatherVPs(Direction dir);
bool uc_gatherVPs(Direction dir);
bool uc_canBuyVP(int n);
bool uc_buyVP(int n);
/* Why the last action or can* of this unit failed: "" when it did not. */
const char *uc_lastError(void);

/* ---- sensing [one cell 10, lists 200] ------------------------------------ */

bool uc_canSenseLocation(Location l);
bool uc_isOutOfMap(Location l);
bool uc_isAccessible(Location l);           /* seen, in the map, nothing on it */
bool uc_hasObstacle(Location l);            /* water or an oak */
bool uc_isObstructed(Location a, Location b); /* an oak on the segment */
bool uc_senseUnitAtLocation(Location l, UnitInfo *out);
bool uc_senseTree(Location l, TreeInfo *out);
int uc_senseVPsAtLocation(Location l);
bool uc_senseWaterAtLocation(Location l);
/* radius: squared, cut to the unit's vision (-1: all of it); team -1: both */
int uc_senseUnits(int radius, int team, UnitInfo *out, int cap);
int uc_senseTrees(int radius, TreeInfo *out, int cap);
int uc_senseVPs(int radius, VictoryPointsInfo *out, int cap);
int uc_senseWater(int radius, Location *out, int cap);
int uc_getVisibleLocations(int radius, Location *out, int cap);

/* ---- the team array and the turn [1] -------------------------------------- */

int uc_read(int index);                     /* 0 outside 0..TEAM_ARRAY_SIZE-1 */
void uc_write(int index, int value);
void uc_yield(void);

/* ---- debug drawing [1]: marks in the replay, for you and the organisers --- */

/* colour: 0xRRGGBB.  At most about 1 KB of marks a step of your team (some
 * 80 points or 30 short texts): the rest is dropped, and the replay counts
 * it.  The other team never sees your marks. */
void uc_drawPoint(Location l, int colour);
void uc_drawLine(Location from, Location to, int colour);
void uc_drawText(Location l, int colour, const char *text); /* its first 32 characters */

/* ---- locations and unit types [1; distance 5, directionTo 10] ------------- */

Location loc_add(Location l, Direction d);
int loc_distanceSquared(Location a, Location b);
Direction loc_directionTo(Location from, Location to);
bool loc_isEqual(Location a, Location b);
Direction dir_rotateLeft(Direction d);
Direction dir_rotateRight(Direction d);
Direction dir_opposite(Direction d);
int type_cost(UnitType t);
int type_attackRange(UnitType t);
int type_minAttackRange(UnitType t);
int type_sight(UnitType t);

#endif
