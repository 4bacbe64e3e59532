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
 * Java's classes become prefixes: Location's methods loc_, Direction's
 * dir_, UnitType's type_, Team's team_, UnitInfo's ui_, TreeInfo's ti_,
 * VictoryPointsInfo's vpi_, and GameConstants.X is GameConstants_X.  The
 * whole table, Java name to C name: docs/games/aic2018.md.
 */
#ifndef AIC2018_H
#define AIC2018_H

#include <stdbool.h>
#include <stddef.h> /* NULL: the record calls take it when only the answer matters */

typedef struct {
	int x, y;
} Location;

typedef enum {
	NORTH, NORTHEAST, EAST, SOUTHEAST, SOUTH, SOUTHWEST, WEST, NORTHWEST, ZERO
} Direction;

typedef enum { WORKER, BARRACKS, WARRIOR, ARCHER, KNIGHT, BALLISTA } UnitType;

typedef int Team; /* 0 or 1 */

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

/* ---- GameConstants (the rules' numbers; docs/games/aic2018.md) ------------ */

#define GameConstants_MAX_TURNS 2000 /* the default; a match's parameters may differ */
#define GameConstants_VICTORY_POINTS_MILESTONE 2000
#define GameConstants_BASE_VICTORY_POINTS_COST 50
#define GameConstants_VICTORY_POINTS_INFLATION_ROUNDS 20
#define GameConstants_VICTORY_POINTS_LIFETIME 50
#define GameConstants_INITIAL_WOOD 200
#define GameConstants_WOOD_PER_ROUND 10
#define GameConstants_UNIT_UPKEEP 2
#define GameConstants_TEAM_ARRAY_SIZE TEAM_ARRAY_SIZE
#define GameConstants_MAX_ENERGY 15000
#define GameConstants_OAK_CHOPPING_DMG 24
#define GameConstants_OAK_CHOPPING_WOOD 6
#define GameConstants_SMALL_TREE_CHOPPING_DMG 12
#define GameConstants_SMALL_TREE_CHOPPING_WOOD 12
#define GameConstants_SMALL_TREE_COST 180
#define GameConstants_SMALL_TREE_MAX_HEALTH 40
#define GameConstants_SMALL_TREE_GROWTH_TURNS 10
#define GameConstants_TREE_GROWTH_RATE 4       /* HP a round while growing */
#define GameConstants_TREE_REGENERATION_RATE 2 /* HP a round after */
#define GameConstants_EXPERIENCE_RANGE_SQUARED 48
#define GameConstants_EXPERIENCE_PER_DEATH 5
#define GameConstants_WARRIOR_MELEE_RANGE 2 /* Close Combat doubles up to here */
#define GameConstants_SHIELD_RANGE 5        /* Shield halves beyond here */
#define GameConstants_POISON_TURNS 10
#define GameConstants_ARCHER_BINOCULARS_SIGHT_RANGE_SQUARED 30
#define GameConstants_DIAGONAL_MOVEMENT_FACTOR 1.4142

/* Per unit type X: X_COST, X_MAX_HEALTH and X_ATTACK (below level 3),
 * X_MAX_HEALTH_LEVEL3, X_ATTACK_LEVEL3, X_ATTACK_RANGE_SQUARED,
 * X_MIN_ATTACK_RANGE_SQUARED, X_SIGHT_RANGE_SQUARED, X_MOVEMENT_DELAY,
 * X_ATTACK_DELAY, X_ACTIVE_ABILITY_DELAY, X_ACTIVE_ABILITY_RANGE, and the
 * experience of levels 1 to 3 X_EXPERIENCE_LEVEL1..3 (0 where none). */
#define GameConstants_WORKER_COST 100
#define GameConstants_WORKER_MAX_HEALTH 40
#define GameConstants_WORKER_MAX_HEALTH_LEVEL3 40
#define GameConstants_WORKER_ATTACK 1
#define GameConstants_WORKER_ATTACK_LEVEL3 1
#define GameConstants_WORKER_ATTACK_RANGE_SQUARED 2
#define GameConstants_WORKER_MIN_ATTACK_RANGE_SQUARED 0
#define GameConstants_WORKER_SIGHT_RANGE_SQUARED 16
#define GameConstants_WORKER_MOVEMENT_DELAY 2
#define GameConstants_WORKER_ATTACK_DELAY 1
#define GameConstants_WORKER_ACTIVE_ABILITY_DELAY 1
#define GameConstants_WORKER_ACTIVE_ABILITY_RANGE 2
#define GameConstants_WORKER_EXPERIENCE_LEVEL1 0
#define GameConstants_WORKER_EXPERIENCE_LEVEL2 0
#define GameConstants_WORKER_EXPERIENCE_LEVEL3 0

#define GameConstants_BARRACKS_COST 500
#define GameConstants_BARRACKS_MAX_HEALTH 300
#define GameConstants_BARRACKS_MAX_HEALTH_LEVEL3 300
#define GameConstants_BARRACKS_ATTACK 0
#define GameConstants_BARRACKS_ATTACK_LEVEL3 0
#define GameConstants_BARRACKS_ATTACK_RANGE_SQUARED 0
#define GameConstants_BARRACKS_MIN_ATTACK_RANGE_SQUARED 0
#define GameConstants_BARRACKS_SIGHT_RANGE_SQUARED 48
#define GameConstants_BARRACKS_MOVEMENT_DELAY 0
#define GameConstants_BARRACKS_ATTACK_DELAY 0
#define GameConstants_BARRACKS_ACTIVE_ABILITY_DELAY 0
#define GameConstants_BARRACKS_ACTIVE_ABILITY_RANGE 0
#define GameConstants_BARRACKS_EXPERIENCE_LEVEL1 0
#define GameConstants_BARRACKS_EXPERIENCE_LEVEL2 0
#define GameConstants_BARRACKS_EXPERIENCE_LEVEL3 0

#define GameConstants_WARRIOR_COST 100
#define GameConstants_WARRIOR_MAX_HEALTH 60
#define GameConstants_WARRIOR_MAX_HEALTH_LEVEL3 100
#define GameConstants_WARRIOR_ATTACK 6
#define GameConstants_WARRIOR_ATTACK_LEVEL3 8
#define GameConstants_WARRIOR_ATTACK_RANGE_SQUARED 8
#define GameConstants_WARRIOR_MIN_ATTACK_RANGE_SQUARED 0
#define GameConstants_WARRIOR_SIGHT_RANGE_SQUARED 24
#define GameConstants_WARRIOR_MOVEMENT_DELAY 2
#define GameConstants_WARRIOR_ATTACK_DELAY 1
#define GameConstants_WARRIOR_ACTIVE_ABILITY_DELAY 8
#define GameConstants_WARRIOR_ACTIVE_ABILITY_RANGE 8
#define GameConstants_WARRIOR_EXPERIENCE_LEVEL1 25
#define GameConstants_WARRIOR_EXPERIENCE_LEVEL2 75
#define GameConstants_WARRIOR_EXPERIENCE_LEVEL3 175

#define GameConstants_ARCHER_COST 140
#define GameConstants_ARCHER_MAX_HEALTH 20
#define GameConstants_ARCHER_MAX_HEALTH_LEVEL3 30
#define GameConstants_ARCHER_ATTACK 10
#define GameConstants_ARCHER_ATTACK_LEVEL3 14
#define GameConstants_ARCHER_ATTACK_RANGE_SQUARED 20
#define GameConstants_ARCHER_MIN_ATTACK_RANGE_SQUARED 9
#define GameConstants_ARCHER_SIGHT_RANGE_SQUARED 20
#define GameConstants_ARCHER_MOVEMENT_DELAY 3
#define GameConstants_ARCHER_ATTACK_DELAY 2
#define GameConstants_ARCHER_ACTIVE_ABILITY_DELAY 15
#define GameConstants_ARCHER_ACTIVE_ABILITY_RANGE 20
#define GameConstants_ARCHER_EXPERIENCE_LEVEL1 15
#define GameConstants_ARCHER_EXPERIENCE_LEVEL2 150
#define GameConstants_ARCHER_EXPERIENCE_LEVEL3 250

#define GameConstants_KNIGHT_COST 160
#define GameConstants_KNIGHT_MAX_HEALTH 120
#define GameConstants_KNIGHT_MAX_HEALTH_LEVEL3 170
#define GameConstants_KNIGHT_ATTACK 6
#define GameConstants_KNIGHT_ATTACK_LEVEL3 8
#define GameConstants_KNIGHT_ATTACK_RANGE_SQUARED 4
#define GameConstants_KNIGHT_MIN_ATTACK_RANGE_SQUARED 0
#define GameConstants_KNIGHT_SIGHT_RANGE_SQUARED 48
#define GameConstants_KNIGHT_MOVEMENT_DELAY 1
#define GameConstants_KNIGHT_ATTACK_DELAY 2
#define GameConstants_KNIGHT_ACTIVE_ABILITY_DELAY 10
#define GameConstants_KNIGHT_ACTIVE_ABILITY_RANGE 8
#define GameConstants_KNIGHT_EXPERIENCE_LEVEL1 20
#define GameConstants_KNIGHT_EXPERIENCE_LEVEL2 50
#define GameConstants_KNIGHT_EXPERIENCE_LEVEL3 150

#define GameConstants_BALLISTA_COST 200
#define GameConstants_BALLISTA_MAX_HEALTH 20
#define GameConstants_BALLISTA_MAX_HEALTH_LEVEL3 30
#define GameConstants_BALLISTA_ATTACK 32
#define GameConstants_BALLISTA_ATTACK_LEVEL3 48
#define GameConstants_BALLISTA_ATTACK_RANGE_SQUARED 35
#define GameConstants_BALLISTA_MIN_ATTACK_RANGE_SQUARED 20
#define GameConstants_BALLISTA_SIGHT_RANGE_SQUARED 10
#define GameConstants_BALLISTA_MOVEMENT_DELAY 4
#define GameConstants_BALLISTA_ATTACK_DELAY 4
#define GameConstants_BALLISTA_ACTIVE_ABILITY_DELAY 7
#define GameConstants_BALLISTA_ACTIVE_ABILITY_RANGE 35
#define GameConstants_BALLISTA_EXPERIENCE_LEVEL1 0
#define GameConstants_BALLISTA_EXPERIENCE_LEVEL2 90
#define GameConstants_BALLISTA_EXPERIENCE_LEVEL3 225

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

/* ---- sensing around a centre [200]: Java's senseUnits(loc, radius, team) --- */

/* What lies within radius (squared) of centre and within the unit's own
 * vision; radius -1: all the unit sees.  A unit never senses itself. */
int uc_senseUnitsAt(Location centre, int radius, int team, UnitInfo *out, int cap);
int uc_senseTreesAt(Location centre, int radius, TreeInfo *out, int cap);
int uc_senseVPsAt(Location centre, int radius, VictoryPointsInfo *out, int cap);
int uc_senseWaterAt(Location centre, int radius, Location *out, int cap);
int uc_getVisibleLocationsAt(Location centre, int radius, Location *out, int cap);

/* ---- attack(unit), attack(tree) [can* 10, actions 20]: their cell -------- */

bool uc_canAttackUnit(UnitInfo target);
bool uc_attackUnit(UnitInfo target);
bool uc_canAttackTree(TreeInfo target);
bool uc_attackTree(TreeInfo target);

/* ---- Team [1; getInitialLocations 10] ------------------------------------- */

/* The cells the team's units started on, in the order they play (at most
 * 16 kept); the count.  Known to both teams, as in the original. */
int team_getInitialLocations(Team team, Location *out, int cap);
Team team_getOpponent(Team team);
bool team_isEqual(Team a, Team b);
int team_getVictoryPoints(Team team);

/* ---- Location and Direction [1; distance 5, directionTo 10] --------------- */

/* loc_add(l, dir) is the adjacent cell; loc_add(l, dx, dy) the cell dx
 * east and dy south: Java's two add()s, by their argument count. */
#define AIC_BY_ARG_COUNT(a, b, c, name, ...) name
#define loc_add(...) AIC_BY_ARG_COUNT(__VA_ARGS__, loc_addXY, loc_addDir, _)(__VA_ARGS__)
Location loc_addDir(Location l, Direction d);
Location loc_addXY(Location l, int dx, int dy);
int loc_distanceSquared(Location a, Location b);
Direction loc_directionTo(Location from, Location to);
bool loc_isEqual(Location a, Location b);
Direction dir_rotateLeft(Direction d);
Direction dir_rotateRight(Direction d);
Direction dir_opposite(Direction d);
bool dir_isEqual(Direction a, Direction b);
int dir_dx(Direction d);                    /* east +1, west -1 */
int dir_dy(Direction d);                    /* south +1, north -1 */
double dir_length(Direction d);             /* 1, 1.4142 diagonally, 0 ZERO */

/* ---- UnitType, per level [5] ---------------------------------------------- */

int type_getCost(UnitType t);
int type_getAttack(UnitType t, int level);      /* level 3 hits harder */
int type_getMaxHealth(UnitType t, int level);
int type_getSightRangeSquared(UnitType t, int level); /* archers see farther from 1 */
int type_getAttackRangeSquared(UnitType t);
int type_getMinAttackRangeSquared(UnitType t);
double type_getMovementDelay(UnitType t);       /* cooldown a straight move adds */
double type_getAttackDelay(UnitType t);
double type_getActiveAbilityDelay(UnitType t);
int type_getActiveAbilityRange(UnitType t);
int type_getExperienceForLevel(UnitType t, int level); /* 1..3; 0: none */
bool type_isCombatUnit(UnitType t);             /* warrior, archer, knight, ballista */
bool type_canAttack(UnitType t);                /* all but the barracks */
/* The first names of this kit, kept: type_cost, type_attackRange,
 * type_minAttackRange and type_sight (at level 0). */
int type_cost(UnitType t);
int type_attackRange(UnitType t);
int type_minAttackRange(UnitType t);
int type_sight(UnitType t);

/* ---- UnitInfo, TreeInfo, VictoryPointsInfo: reading your copy -------------
 * Java's getters of the records the sense calls return; the fields can be
 * read directly too.  They cost what their code costs (an instruction or
 * two), as reading a struct does. */

static inline int ui_getID(UnitInfo u) { return u.id; }
static inline Team ui_getTeam(UnitInfo u) { return u.team; }
static inline UnitType ui_getType(UnitInfo u) { return u.type; }
static inline Location ui_getLocation(UnitInfo u) { return u.location; }
static inline int ui_getHealth(UnitInfo u) { return u.health; }
static inline int ui_getLevel(UnitInfo u) { return u.level; }
static inline int ui_getExperience(UnitInfo u) { return u.experience; }
static inline double ui_getMovementCooldown(UnitInfo u) { return u.movementCooldown; }
static inline double ui_getAttackCooldown(UnitInfo u) { return u.attackCooldown; }
static inline double ui_getAbilityCooldown(UnitInfo u) { return u.abilityCooldown; }
static inline int ui_getConstructionTurns(UnitInfo u) { return u.constructionTurns; }
static inline bool ui_isInConstruction(UnitInfo u) { return u.inConstruction; }
static inline bool ui_isCountered(UnitInfo u) { return u.countered; }
static inline bool ui_isRooted(UnitInfo u) { return u.rooted; }
static inline int ui_getPoisonTurns(UnitInfo u) { return u.poisonTurns; }

static inline Location ti_getLocation(TreeInfo t) { return t.location; }
static inline int ti_getHealth(TreeInfo t) { return t.health; }
static inline int ti_getMaxHealth(TreeInfo t) { return t.maxHealth; }
static inline bool ti_isOak(TreeInfo t) { return t.oak; }
static inline bool ti_isSmall(TreeInfo t) { return !t.oak; }
static inline bool ti_stillGrowing(TreeInfo t) { return t.growingTurns > 0; }
static inline int ti_getRemainingGrowthTurns(TreeInfo t) { return t.growingTurns; }

static inline Location vpi_getLocation(VictoryPointsInfo v) { return v.location; }
static inline int vpi_getVictoryPoints(VictoryPointsInfo v) { return v.points; }
static inline int vpi_getRoundsLeft(VictoryPointsInfo v) { return v.roundsLeft; }

#endif
