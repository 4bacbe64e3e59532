/* api.c - the uc_* calls of aic2018.h: each charges its price, checks and
 * acts on the kit's copy of the world with the rules the engine applies,
 * and records actions for the judge.  Sensing sees what the rules let
 * the calling unit see (its vision), never the rest of the copy. */
#include <stddef.h>
#include <string.h>

#include "games/aic2018/kit/aic2018.h"

#include "games/aic2018/kit/coro.h"
#include "games/aic2018/kit/energy.h"
#include "games/aic2018/kit/kit.h"
#include "games/aic2018/rules/internal.h"
#include "games/kit/draw.h"

static int team_array[TEAM_ARRAY_SIZE];

static struct aic_loc at(Location l)
{
	return (struct aic_loc){ l.x, l.y };
}

static Location loc_of(struct aic_loc l)
{
	return (Location){ l.x, l.y };
}

static Location cell_loc(int cell)
{
	return (Location){ cell % AIC_STRIDE, cell / AIC_STRIDE };
}

static bool running(void)
{
	return kit.slot >= 0;
}

/* The running unit's location: the centre of the sense calls without one. */
static Location here(void)
{
	return running() ? (Location){ kit_me()->x, kit_me()->y } : (Location){ -1, -1 };
}

static UnitInfo unit_info(int slot)
{
	const struct aic_unit *u = &kit.w.unit[slot];
	return (UnitInfo){
		.id = u->id, .team = u->team, .type = (UnitType)u->type,
		.location = { u->x, u->y }, .health = u->hp, .level = u->level,
		.experience = u->exp,
		.movementCooldown = u->move_cd / (double)AIC_CD_ONE,
		.attackCooldown = u->attack_cd / (double)AIC_CD_ONE,
		.abilityCooldown = u->ability_cd / (double)AIC_CD_ONE,
		.inConstruction = u->construction > 0, .constructionTurns = u->construction,
		.countered = u->countered, .rooted = u->rooted, .poisonTurns = u->poison,
	};
}

/* ---- your unit and team ----------------------------------------------------- */

UnitInfo uc_getInfo(void)
{
	energy_charge(AIC_E_CHECK);
	return running() ? unit_info(kit.slot) : (UnitInfo){ 0 };
}

Location uc_getLocation(void)
{
	energy_charge(AIC_E_GETTER);
	return here();
}

UnitType uc_getType(void)
{
	energy_charge(AIC_E_TYPE);
	return running() ? (UnitType)kit_me()->type : WORKER;
}

int uc_getTeam(void)
{
	energy_charge(AIC_E_GETTER);
	return kit.team;
}

int uc_getOpponent(void)
{
	energy_charge(AIC_E_GETTER);
	return 1 - kit.team;
}

int uc_getLevel(void)
{
	energy_charge(AIC_E_GETTER);
	return running() ? kit_me()->level : 0;
}

int uc_getResources(void)
{
	energy_charge(AIC_E_GETTER);
	return kit.w.team[kit.team].wood;
}

int uc_getRound(void)
{
	energy_charge(AIC_E_GETTER);
	return kit.w.round;
}

int uc_getVPCost(void)
{
	energy_charge(AIC_E_GETTER);
	return aic_vp_cost(&kit.w);
}

int uc_getVictoryPoints(int team)
{
	energy_charge(AIC_E_GETTER);
	return team == 0 || team == 1 ? kit.w.team[team].vp : 0;
}

int uc_getEnergyUsed(void)
{
	energy_charge(AIC_E_GETTER);
	return (int)energy_used();
}

int uc_getEnergyLeft(void)
{
	int used = uc_getEnergyUsed();
	return used < ENERGY_PER_TURN ? ENERGY_PER_TURN - used : 0;
}

/* ---- debug drawing: a Location's y is its row, x its column ------------------- */

void uc_drawPoint(Location l, int colour)
{
	energy_charge(AIC_E_GETTER);
	kit_draw(DRAW_DOT, colour, l.y, l.x, 0, 0, NULL);
}

void uc_drawLine(Location from, Location to, int colour)
{
	energy_charge(AIC_E_GETTER);
	kit_draw(DRAW_LINE, colour, from.y, from.x, to.y, to.x, NULL);
}

void uc_drawText(Location l, int colour, const char *text)
{
	energy_charge(AIC_E_GETTER);
	kit_draw(DRAW_TEXT, colour, l.y, l.x, 0, 0, text);
}

/* ---- actions ------------------------------------------------------------------ */

bool uc_canMove(void)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_move_ready(&kit.w, kit.slot));
}

bool uc_canMoveDir(Direction dir)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_move(&kit.w, kit.slot, (int)dir));
}

bool uc_move(Direction dir)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room())
		return false;
	return kit_record(aic_move(&kit.w, kit.slot, (int)dir), AIC_ACT_MOVE, (int)dir, 0);
}

bool uc_canAttack(void)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_attack_ready(&kit.w, kit.slot));
}

bool uc_canAttackLocation(Location target)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_attack(&kit.w, kit.slot, at(target)));
}

bool uc_attack(Location target)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room())
		return false;
	return kit_record(aic_attack(&kit.w, kit.slot, at(target)), AIC_ACT_ATTACK, target.x,
			  target.y);
}

bool uc_canAttackUnit(UnitInfo target)
{
	return uc_canAttackLocation(target.location);
}

bool uc_attackUnit(UnitInfo target)
{
	return uc_attack(target.location);
}

bool uc_canAttackTree(TreeInfo target)
{
	return uc_canAttackLocation(target.location);
}

bool uc_attackTree(TreeInfo target)
{
	return uc_attack(target.location);
}

bool uc_canUseActiveAbility(void)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_ability_ready(&kit.w, kit.slot));
}

bool uc_canUseActiveAbilityAt(Location target)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_use_ability(&kit.w, kit.slot, at(target)));
}

bool uc_useActiveAbility(Location target)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room())
		return false;
	return kit_record(aic_use_ability(&kit.w, kit.slot, at(target)), AIC_ACT_ABILITY,
			  target.x, target.y);
}

bool uc_canSpawn(Direction dir, UnitType type)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_spawn(&kit.w, kit.slot, (int)dir, (int)type));
}

bool uc_spawn(Direction dir, UnitType type)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room() ||
	    !kit_check(aic_can_spawn(&kit.w, kit.slot, (int)dir, (int)type)))
		return false;
	int id = kit_take_id();
	if (!id) /* more spawns in one step than the judge foresaw: next round */
		return kit_fail(AIC_ERR_FULL);
	if (!kit_record(aic_spawn(&kit.w, kit.slot, (int)dir, (int)type, id), AIC_ACT_SPAWN,
			(int)dir, (int)type))
		return false;
	kit_spawned(id);
	return true;
}

bool uc_canGatherVPs(Direction dir)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_gather_vps(&kit.w, kit.slot, (int)dir));
}

bool uc_gatherVPs(Direction dir)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room())
		return false;
	return kit_record(aic_gather_vps(&kit.w, kit.slot, (int)dir), AIC_ACT_GATHER, (int)dir, 0);
}

bool uc_canBuyVP(int n)
{
	energy_charge(AIC_E_CHECK);
	return running() && kit_check(aic_can_buy_vps(&kit.w, kit.team, n));
}

bool uc_buyVP(int n)
{
	energy_charge(AIC_E_ACTION);
	if (!running() || !kit_room())
		return false;
	if (n > 0xffff)
		return kit_fail(AIC_ERR_WOOD);
	return kit_record(aic_buy_vps(&kit.w, kit.team, n), AIC_ACT_BUY, n & 0xff, n >> 8);
}

/* ---- sensing --------------------------------------------------------------------- */

static bool sees(Location l)
{
	return running() && aic_can_sense(&kit.w, kit.slot, at(l));
}

bool uc_canSenseLocation(Location l)
{
	energy_charge(AIC_E_CHECK);
	return sees(l);
}

bool uc_isOutOfMap(Location l)
{
	energy_charge(AIC_E_CHECK);
	return !aic_in_map(&kit.w, at(l));
}

bool uc_isAccessible(Location l)
{
	energy_charge(AIC_E_CHECK);
	return sees(l) && aic_accessible(&kit.w, at(l));
}

bool uc_hasObstacle(Location l)
{
	energy_charge(AIC_E_CHECK);
	return sees(l) && aic_obstacle(&kit.w, at(l));
}

bool uc_isObstructed(Location a, Location b)
{
	energy_charge(AIC_E_CHECK);
	return aic_in_map(&kit.w, at(a)) && aic_in_map(&kit.w, at(b)) &&
	       aic_obstructed(&kit.w, at(a), at(b));
}

bool uc_senseUnitAtLocation(Location l, UnitInfo *out)
{
	energy_charge(AIC_E_CHECK);
	int s = sees(l) ? aic_unit_at(&kit.w, at(l)) : AIC_NO_UNIT;
	if (s != AIC_NO_UNIT && out)
		*out = unit_info(s);
	return s != AIC_NO_UNIT;
}

static TreeInfo tree_info(int cell)
{
	const struct aic_cell *c = &kit.w.cell[cell];
	bool oak = c->tree == AIC_TREE_OAK;
	return (TreeInfo){ .location = cell_loc(cell), .health = c->tree_hp,
			   .maxHealth = oak ? c->tree_hp : AIC_SMALL_TREE_HP, .oak = oak,
			   .growingTurns = c->growing };
}

bool uc_senseTree(Location l, TreeInfo *out)
{
	energy_charge(AIC_E_CHECK);
	if (!sees(l) || kit.w.cell[aic_index(at(l))].tree == AIC_TREE_NONE)
		return false;
	if (out)
		*out = tree_info(aic_index(at(l)));
	return true;
}

int uc_senseVPsAtLocation(Location l)
{
	energy_charge(AIC_E_CHECK);
	return sees(l) ? kit.w.cell[aic_index(at(l))].vp : 0;
}

bool uc_senseWaterAtLocation(Location l)
{
	energy_charge(AIC_E_CHECK);
	return sees(l) && kit.w.cell[aic_index(at(l))].water;
}

/* At most one entry per cell of the largest disc. */
#define SENSE_CAP AIC_MAX_CELLS

/* Charges a list's price and finds what lies around centre (cells, or
 * unit slots for AIC_SENSE_UNITS), at most cap of them. */
static int sense_around(Location centre, int radius, int what, int team, int16_t *found,
			int cap)
{
	energy_charge(AIC_E_SENSE_MANY);
	if (!running() || cap <= 0)
		return 0;
	return aic_sense_at(&kit.w, kit.slot, at(centre), radius, what, team, found,
			    cap < SENSE_CAP ? cap : SENSE_CAP);
}

static VictoryPointsInfo vp_info(int cell)
{
	const struct aic_cell *c = &kit.w.cell[cell];
	return (VictoryPointsInfo){ cell_loc(cell), c->vp,
				    AIC_VP_LIFETIME - (kit.w.round - c->vp_round) };
}

int uc_senseUnitsAt(Location centre, int radius, int team, UnitInfo *out, int cap)
{
	int16_t found[SENSE_CAP];
	int n = sense_around(centre, radius, AIC_SENSE_UNITS, team, found, cap);
	for (int i = 0; i < n; i++)
		out[i] = unit_info(found[i]);
	return n;
}

int uc_senseTreesAt(Location centre, int radius, TreeInfo *out, int cap)
{
	int16_t found[SENSE_CAP];
	int n = sense_around(centre, radius, AIC_SENSE_TREES, -1, found, cap);
	for (int i = 0; i < n; i++)
		out[i] = tree_info(found[i]);
	return n;
}

int uc_senseVPsAt(Location centre, int radius, VictoryPointsInfo *out, int cap)
{
	int16_t found[SENSE_CAP];
	int n = sense_around(centre, radius, AIC_SENSE_VPS, -1, found, cap);
	for (int i = 0; i < n; i++)
		out[i] = vp_info(found[i]);
	return n;
}

static int locations_at(Location centre, int radius, int what, Location *out, int cap)
{
	int16_t found[SENSE_CAP];
	int n = sense_around(centre, radius, what, -1, found, cap);
	for (int i = 0; i < n; i++)
		out[i] = cell_loc(found[i]);
	return n;
}

int uc_senseWaterAt(Location centre, int radius, Location *out, int cap)
{
	return locations_at(centre, radius, AIC_SENSE_WATER, out, cap);
}

int uc_getVisibleLocationsAt(Location centre, int radius, Location *out, int cap)
{
	return locations_at(centre, radius, AIC_SENSE_CELLS, out, cap);
}

int uc_senseUnits(int radius, int team, UnitInfo *out, int cap)
{
	return uc_senseUnitsAt(here(), radius, team, out, cap);
}

int uc_senseTrees(int radius, TreeInfo *out, int cap)
{
	return uc_senseTreesAt(here(), radius, out, cap);
}

int uc_senseVPs(int radius, VictoryPointsInfo *out, int cap)
{
	return uc_senseVPsAt(here(), radius, out, cap);
}

int uc_senseWater(int radius, Location *out, int cap)
{
	return uc_senseWaterAt(here(), radius, out, cap);
}

int uc_getVisibleLocations(int radius, Location *out, int cap)
{
	return uc_getVisibleLocationsAt(here(), radius, out, cap);
}

/* ---- the team array and the turn ---------------------------------------------------- */

void kit_touch_team_array(void)
{
	memset(team_array, 0, sizeof team_array);
}

int uc_read(int index)
{
	energy_charge(AIC_E_GETTER);
	return index >= 0 && index < TEAM_ARRAY_SIZE ? team_array[index] : 0;
}

void uc_write(int index, int value)
{
	energy_charge(AIC_E_GETTER);
	if (index >= 0 && index < TEAM_ARRAY_SIZE)
		team_array[index] = value;
}

void uc_yield(void)
{
	energy_charge(AIC_E_GETTER);
	energy_yield();
}

/* ---- Team ------------------------------------------------------------------------------ */

static bool is_team(Team t)
{
	return t == 0 || t == 1;
}

int team_getInitialLocations(Team team, Location *out, int cap)
{
	energy_charge(AIC_E_CHECK);
	int n = is_team(team) ? kit.w.nstarts[team] : 0;
	n = n < cap ? n : cap;
	for (int i = 0; i < n; i++)
		out[i] = loc_of(kit.w.start[team][i]);
	return n > 0 ? n : 0;
}

Team team_getOpponent(Team team)
{
	energy_charge(AIC_E_GETTER);
	return 1 - team;
}

bool team_isEqual(Team a, Team b)
{
	energy_charge(AIC_E_GETTER);
	return a == b;
}

int team_getVictoryPoints(Team team)
{
	return uc_getVictoryPoints(team);
}

/* ---- locations and directions -------------------------------------------------------- */

static bool is_dir(Direction d)
{
	return (unsigned)d < AIC_DIRS;
}

Location loc_addDir(Location l, Direction d)
{
	energy_charge(AIC_E_GETTER);
	return is_dir(d) ? loc_of(aic_add(at(l), (int)d)) : l;
}

Location loc_addXY(Location l, int dx, int dy)
{
	energy_charge(AIC_E_GETTER);
	/* unsigned: a hostile offset wraps instead of overflowing */
	return (Location){ (int)((unsigned)l.x + (unsigned)dx), (int)((unsigned)l.y + (unsigned)dy) };
}

int loc_distanceSquared(Location a, Location b)
{
	energy_charge(AIC_E_TYPE);
	return aic_dist(at(a), at(b));
}

Direction loc_directionTo(Location from, Location to)
{
	energy_charge(AIC_E_CHECK);
	return (Direction)aic_direction_to(at(from), at(to));
}

bool loc_isEqual(Location a, Location b)
{
	energy_charge(AIC_E_GETTER);
	return a.x == b.x && a.y == b.y;
}

/* d turned by eighths clockwise; ZERO (or no direction) stays ZERO. */
static Direction turned(Direction d, int eighths)
{
	energy_charge(AIC_E_GETTER);
	return (unsigned)d < ZERO ? (Direction)((d + eighths) % 8) : ZERO;
}

Direction dir_rotateLeft(Direction d)
{
	return turned(d, 7);
}

Direction dir_rotateRight(Direction d)
{
	return turned(d, 1);
}

Direction dir_opposite(Direction d)
{
	return turned(d, 4);
}

bool dir_isEqual(Direction a, Direction b)
{
	energy_charge(AIC_E_GETTER);
	return a == b;
}

int dir_dx(Direction d)
{
	energy_charge(AIC_E_GETTER);
	return is_dir(d) ? aic_dx[d] : 0;
}

int dir_dy(Direction d)
{
	energy_charge(AIC_E_GETTER);
	return is_dir(d) ? aic_dy[d] : 0;
}

double dir_length(Direction d)
{
	energy_charge(AIC_E_GETTER);
	if (!is_dir(d) || d == ZERO)
		return 0.0;
	return aic_dx[d] && aic_dy[d] ? AIC_CD_DIAGONAL / (double)AIC_CD_ONE : 1.0;
}

/* ---- unit types, per level -------------------------------------------------------------- */

/* One int of a unit type's row in the rules' table, the look-up charged;
 * 0 for what is no type. */
static int type_field(UnitType t, size_t offset)
{
	energy_charge(AIC_E_TYPE);
	if ((unsigned)t >= AIC_TYPES)
		return 0;
	int v;
	memcpy(&v, (const char *)&aic_types[t] + offset, sizeof v);
	return v;
}

#define TYPE_FIELD(t, field) type_field(t, offsetof(struct aic_type_info, field))

int type_getCost(UnitType t)
{
	return TYPE_FIELD(t, cost);
}

int type_getAttack(UnitType t, int level)
{
	return level >= 3 ? TYPE_FIELD(t, attack[1]) : TYPE_FIELD(t, attack[0]);
}

int type_getMaxHealth(UnitType t, int level)
{
	return level >= 3 ? TYPE_FIELD(t, hp[1]) : TYPE_FIELD(t, hp[0]);
}

int type_getSightRangeSquared(UnitType t, int level)
{
	int vision = TYPE_FIELD(t, vision);
	return t == ARCHER && level >= 1 ? AIC_BINOCULARS_VISION : vision;
}

int type_getAttackRangeSquared(UnitType t)
{
	return TYPE_FIELD(t, attack_range);
}

int type_getMinAttackRangeSquared(UnitType t)
{
	return TYPE_FIELD(t, min_attack_range);
}

double type_getMovementDelay(UnitType t)
{
	return TYPE_FIELD(t, move_cd);
}

double type_getAttackDelay(UnitType t)
{
	return TYPE_FIELD(t, attack_cd);
}

double type_getActiveAbilityDelay(UnitType t)
{
	return TYPE_FIELD(t, ability_cd);
}

int type_getActiveAbilityRange(UnitType t)
{
	return TYPE_FIELD(t, ability_range);
}

int type_getExperienceForLevel(UnitType t, int level)
{
	bool known = level >= 1 && level <= 3;
	int exp = type_field(t, offsetof(struct aic_type_info, exp) +
					(size_t)(known ? level - 1 : 0) * sizeof(int));
	return known ? exp : 0;
}

bool type_isCombatUnit(UnitType t)
{
	energy_charge(AIC_E_TYPE);
	return t == WARRIOR || t == ARCHER || t == KNIGHT || t == BALLISTA;
}

bool type_canAttack(UnitType t)
{
	return type_getAttackRangeSquared(t) > 0;
}

int type_cost(UnitType t)
{
	return type_getCost(t);
}

int type_attackRange(UnitType t)
{
	return type_getAttackRangeSquared(t);
}

int type_minAttackRange(UnitType t)
{
	return type_getMinAttackRangeSquared(t);
}

int type_sight(UnitType t)
{
	return type_getSightRangeSquared(t, 0);
}
