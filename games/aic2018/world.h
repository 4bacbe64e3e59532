/* world.h - AIC2018's world and rules, shared by the judge's engine and the
 * player's kit (games/aic2018/rules/, pure C, no allocation, no I/O; the
 * parameters file is read by games/aic2018/engine/world_params.c).
 *
 * AIC2018 is the seed shared/seeds/004_*.txt, completed by
 * shared/rules/aic2018.md; every point they leave open is decided in
 * docs/games/aic2018.md (the decision table).
 *
 * Promises:
 * - A match is one struct aic_world: fixed arrays, no pointers inside, so
 *   memcpy copies it and its bytes can be sent or compared as they are.
 * - Everything random (map, VP appearances, unit ids, the last tie-break)
 *   comes from w->rng, seeded from the match seed; the rules otherwise
 *   have no randomness and no floating point (cooldowns are fixed point,
 *   1/10000 of a turn), so the same calls on equal worlds give equal
 *   worlds, in the judge and in a kit alike.  Only the engine draws: the
 *   calls that draw say so (aic_round_start, aic_draw_id, aic_round_end);
 *   a kit passes the id the judge gave to aic_spawn.
 * - Every action has an aic_can_X (the check alone, no change) and an
 *   aic_X (the check, then the change); both return AIC_OK or an
 *   aic_error that aic_strerror() turns into a sentence for a contestant.
 *   Actions never trust their arguments: any slot, direction, location or
 *   type is checked.
 * - Queries and actions cost well under a microsecond (no allocation;
 *   each looks at the few cells it concerns).
 *
 * Coordinates: x grows east, y grows south, (0, 0) is the north-west
 * corner; cell index = y * AIC_STRIDE + x whatever the map's width.
 * Distances are squared Euclidean.  Teams are 0 (A) and 1 (B).
 *
 * The order of a round (the engine, or a test, drives it):
 *
 *     aic_round_start(w);                       // wood, trees, VP (draws)
 *     for (int s; (s = aic_next_unit(w)) >= 0;) {
 *         if (aic_turn_start(w, s) == AIC_TURN_ACT)
 *             ... the unit's code calls aic_move(), aic_attack(), ...
 *         if (aic_check_win(w) >= 0) break;     // after every unit
 *     }
 *     aic_round_end(w);                         // round++, end check
 */
#ifndef AIC_WORLD_H
#define AIC_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "games/kit/rng.h"

/* ---- sizes ------------------------------------------------------------ */

#define AIC_MIN_SIDE 20
#define AIC_MAX_SIDE 50
#define AIC_STRIDE AIC_MAX_SIDE
#define AIC_MAX_CELLS (AIC_MAX_SIDE * AIC_MAX_SIDE)
#define AIC_MAX_UNITS AIC_MAX_CELLS /* one unit per cell at most */
#define AIC_MAX_ID 10000            /* ids are drawn in 1..AIC_MAX_ID */
#define AIC_TEAMS 2
#define AIC_NO_UNIT (-1)
#define AIC_VP_SKIPS (AIC_MAX_CELLS / 2 + 2) /* more than the pairs of cells */
#define AIC_MAX_STARTS 16   /* initial locations kept per team */

/* ---- constants of the rules ------------------------------------------- */

#define AIC_ROUNDS 2000
#define AIC_START_WOOD 200
#define AIC_WOOD_PER_ROUND 10
#define AIC_UPKEEP 2
#define AIC_VP_TO_WIN 2000
#define AIC_VP_AMOUNT 10    /* points of one appearance */
#define AIC_VP_LIFETIME 50  /* rounds before VP vanish, and before a cell
			     * may get VP again */
#define AIC_VP_BASE_COST 50 /* buying one VP: 50 + round / 20 wood */
#define AIC_VP_COST_ROUNDS 20
#define AIC_ADJACENT 2      /* "adjacent": distance <= 2 */
#define AIC_EXP_RADIUS 48   /* a death gives EXP to enemies this close */
#define AIC_EXP_PER_DEATH 5
#define AIC_SHIELD_DISTANCE 5
#define AIC_POISON_TURNS 10
#define AIC_BINOCULARS_VISION 30
#define AIC_BARRACKS_COST 500
#define AIC_PLANT_COST 180
#define AIC_CHOP_OAK 24      /* damage to an oak, and its wood */
#define AIC_CHOP_OAK_WOOD 6
#define AIC_CHOP_SMALL 12
#define AIC_CHOP_SMALL_WOOD 12
#define AIC_SMALL_TREE_HP 40
#define AIC_SMALL_TREE_GROWTH_TURNS 10
#define AIC_SMALL_TREE_GROWING_HP 4 /* per round while growing */
#define AIC_SMALL_TREE_GROWN_HP 2   /* per round after */
#define AIC_OAK_HP_MIN 100          /* generated oaks */
#define AIC_OAK_HP_MAX 500
#define AIC_OAK_HP_DEFAULT 300      /* an oak of a text map without HP */

/* Cooldowns in fixed point: AIC_CD_ONE is one turn; an action is possible
 * while its cooldown is < AIC_CD_ONE; a diagonal move adds 1.4142 x. */
#define AIC_CD_ONE 10000
#define AIC_CD_DIAGONAL 14142

/* ---- energy of the game calls (the kit charges them) ------------------ */

#define AIC_ENERGY_PER_TURN 15000
enum aic_energy_cost {
	AIC_E_GETTER = 1,          /* getRound, getResources, read, write, yield */
	AIC_E_TYPE = 5,            /* getType-like look-ups, distanceSquared */
	AIC_E_CHECK = 10,          /* getInfo, can*, one-cell sensing, directionTo */
	AIC_E_ACTION = 20,         /* move, attack, ability, spawn, gather, buy */
	AIC_E_SENSE_MANY = 200,    /* sensing that returns a list */
};

/* ---- enumerations ----------------------------------------------------- */

enum aic_type {
	AIC_WORKER,
	AIC_BARRACKS,
	AIC_SOLDIER, /* the Java API's WARRIOR */
	AIC_ARCHER,
	AIC_KNIGHT,
	AIC_BALLISTA,
	AIC_TYPES
};

/* Java's Direction, in its order; ZERO is the unit's own cell. */
enum aic_dir {
	AIC_NORTH,
	AIC_NORTHEAST,
	AIC_EAST,
	AIC_SOUTHEAST,
	AIC_SOUTH,
	AIC_SOUTHWEST,
	AIC_WEST,
	AIC_NORTHWEST,
	AIC_ZERO,
	AIC_DIRS
};

enum aic_symmetry { AIC_SYM_NONE, AIC_SYM_HORIZONTAL, AIC_SYM_VERTICAL, AIC_SYM_ROTATIONAL };

enum aic_error {
	AIC_OK = 0,
	AIC_ERR_NO_UNIT,      /* no such unit (dead, or a bad slot) */
	AIC_ERR_CONSTRUCTION, /* the unit is still under construction */
	AIC_ERR_TYPE,         /* this unit type cannot do that */
	AIC_ERR_LEVEL,        /* the skill is not unlocked at this level */
	AIC_ERR_COOLDOWN,     /* the action's cooldown is still >= 1 */
	AIC_ERR_DIRECTION,    /* not a direction (or ZERO where it is not allowed) */
	AIC_ERR_OUT_OF_MAP,
	AIC_ERR_BLOCKED,      /* water, an oak or a unit on the cell */
	AIC_ERR_RANGE,        /* farther than the range */
	AIC_ERR_MIN_RANGE,    /* closer than the minimum range */
	AIC_ERR_OBSTRUCTED,   /* the segment crosses an oak */
	AIC_ERR_NO_TARGET,    /* nothing on the cell to hit, or no unit for a skill */
	AIC_ERR_NOT_SEEN,     /* the team does not see the target cell */
	AIC_ERR_WOOD,         /* not enough wood */
	AIC_ERR_BUSY,         /* a barracks already builds a unit */
	AIC_ERR_NO_VP,        /* no victory points on that cell */
	AIC_ERR_AMOUNT,       /* a count below 1 */
	AIC_ERR_FULL,         /* no unit id left (10000 were used) */
	AIC_ERR_TREE,         /* a tree is already there (plant) */
	AIC_ERRORS
};

/* What a unit's turn start left it able to do. */
enum aic_turn {
	AIC_TURN_ACT,          /* runs its code */
	AIC_TURN_CONSTRUCTION, /* counted down one construction turn */
	AIC_TURN_UNPAID,       /* the team could not pay the upkeep: turn lost */
	AIC_TURN_DIED,         /* poison killed it */
};

/* ---- the unit table --------------------------------------------------- */

struct aic_type_info {
	const char *name;        /* "worker": the replay's and the docs' name */
	int cost;                /* wood */
	int hp[2];               /* max HP below level 3, at level 3 */
	int attack[2];           /* the same for the attack */
	int attack_range, min_attack_range; /* 0: cannot attack, no minimum */
	int vision;
	int move_cd, attack_cd;  /* whole turns; 0: cannot move */
	int ability_cd, ability_range; /* 0: no active skill */
	int exp[3];              /* EXP for levels 1, 2, 3 (workers: none) */
	int construction;        /* turns under construction */
};

extern const struct aic_type_info aic_types[AIC_TYPES];

/* ---- the world -------------------------------------------------------- */

struct aic_loc {
	int x, y;
};

/* A cell: terrain, its tree, its victory points, its unit. */
struct aic_cell {
	uint8_t water;
	uint8_t tree;       /* AIC_TREE_NONE, _OAK, _SMALL */
	uint8_t growing;    /* a small tree's growing turns left */
	uint8_t pad;
	int16_t tree_hp;
	int16_t unit;       /* slot, AIC_NO_UNIT */
	int16_t vp;         /* points lying there (0: none) */
	int16_t vp_round;   /* round the last VP appeared; AIC_NEVER */
};

enum { AIC_TREE_NONE, AIC_TREE_OAK, AIC_TREE_SMALL };
#define AIC_NEVER INT16_MIN

struct aic_unit {
	int16_t id;         /* 1..10000; 0: the slot is free */
	uint8_t team, type;
	uint8_t x, y;
	uint8_t level;
	uint8_t construction; /* turns left under construction */
	int16_t hp;
	int16_t exp;
	int32_t move_cd, attack_cd, ability_cd; /* fixed point (AIC_CD_ONE) */
	uint8_t poison;       /* turns of poison left */
	uint8_t poison_team;  /* the team of the archer that poisoned it */
	uint8_t countered;    /* next attack adds twice its cooldown */
	uint8_t rooted;       /* next move adds twice its cooldown */
	int16_t building_id;  /* a barracks: id of the unit it builds (0: none) */
	int16_t pad;
};

struct aic_team {
	int32_t wood;
	int32_t vp;
	int32_t units;                 /* alive, barracks included */
	int32_t passive_exp[AIC_TYPES]; /* EXP every new unit of a type gets */
};

/* The parameters of a match (the parameters file's keys). */
struct aic_params {
	int rounds;       /* AIC_ROUNDS */
	int start_wood;   /* AIC_START_WOOD */
	int width, height; /* 0: drawn from size_min..size_max */
	int size_min, size_max;
	int symmetry;     /* enum aic_symmetry; -1: drawn */
	int workers;      /* per team, 1..3; 0: drawn */
	int vp;           /* 1: VP appear (the rules); 0: never (tests) */
	int oak_hp;       /* text maps: HP of an oak */
	/* A fixed map (the parameters file's `map` section), or none. */
	bool fixed_map;
	int map_width, map_height;
	char map[AIC_MAX_CELLS]; /* the text map's characters, stride AIC_STRIDE */
};

struct aic_world {
	struct aic_params p;
	int width, height, symmetry;
	int round;       /* 0-based; == p.rounds when the match is over */
	int winner;      /* -1 while playing, else the team, after the end */
	int win_reason;  /* enum aic_win */
	struct rng rng;  /* the engine's draws; a kit's copy never uses it */
	/* VP draws skip ahead: vp_skip[k] = 2^31 (1 - p)^k, so one draw u
	 * passes over the largest k pairs with u < vp_skip[k] (the number of
	 * failed Bernoulli(p) trials before a success, exactly distributed). */
	uint32_t vp_skip[AIC_VP_SKIPS];
	int non_water;   /* T of the rules */
	/* The cells the team's units started on, in the map's order (Java's
	 * Team.getInitialLocations): known to both teams, as in the original. */
	struct aic_loc start[AIC_TEAMS][AIC_MAX_STARTS];
	int nstarts[AIC_TEAMS];

	struct aic_team team[AIC_TEAMS];
	struct aic_cell cell[AIC_MAX_CELLS];
	struct aic_unit unit[AIC_MAX_UNITS];   /* by slot */
	int16_t slot_of_id[AIC_MAX_ID + 1];    /* AIC_NO_UNIT: unused/dead */
	uint8_t id_used[(AIC_MAX_ID + 8) / 8];  /* ids are never reused */
	int ids_used;
	/* Units in execution order (slots); cursor is the acting one's index. */
	int16_t order[AIC_MAX_UNITS];
	int norder;
	int cursor;
	/* How many of each team's units see each cell (vision counts). */
	uint8_t seen[AIC_TEAMS][AIC_MAX_CELLS];
};

enum aic_win {
	AIC_WIN_NONE,
	AIC_WIN_ANNIHILATION, /* the other team has no unit left */
	AIC_WIN_VP,           /* 2000 VP reached */
	AIC_WIN_MORE_VP,      /* after the last round: more VP */
	AIC_WIN_MORE_VALUE,   /* then: more wood + value of units */
	AIC_WIN_DRAW,         /* then: drawn by lot */
};

/* ---- setup (rules/map.c, engine/world_params.c) ----------------------- */

void aic_params_default(struct aic_params *p);
/* The parameters file (NULL: the defaults); -1 with err ("line N: key:
 * what") on a bad one.  Only the engine parses it: the kit, which shares
 * this header, never sees an err (judge/base/error.h). */
struct err;
int aic_params_parse(const char *text, struct aic_params *p, struct err *err);
/* The match's world: the map (generated from seed, or the fixed one),
 * the starting units in order, the teams' wood.  -1 when no generated map
 * of w->width x w->height joins the two starts in AIC_MAP_TRIES tries. */
#define AIC_MAP_TRIES 100
int aic_world_init(struct aic_world *w, const struct aic_params *p, uint64_t seed);

/* ---- geometry (rules/map.c) ------------------------------------------- */

static inline int aic_dist(struct aic_loc a, struct aic_loc b)
{
	return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
}

extern const int8_t aic_dx[AIC_DIRS], aic_dy[AIC_DIRS];

static inline struct aic_loc aic_add(struct aic_loc l, int dir)
{
	return (struct aic_loc){ l.x + aic_dx[dir], l.y + aic_dy[dir] };
}

static inline int aic_index(struct aic_loc l)
{
	return l.y * AIC_STRIDE + l.x;
}

static inline bool aic_in_map(const struct aic_world *w, struct aic_loc l)
{
	return l.x >= 0 && l.y >= 0 && l.x < w->width && l.y < w->height;
}

static inline struct aic_loc aic_unit_loc(const struct aic_world *w, int slot)
{
	return (struct aic_loc){ w->unit[slot].x, w->unit[slot].y };
}

/* The direction from a to b (Java's directionTo: the nearest of the
 * eight by angle; ZERO when a == b). */
int aic_direction_to(struct aic_loc a, struct aic_loc b);
/* The cell the map's symmetry pairs with l. */
struct aic_loc aic_mirror(const struct aic_world *w, struct aic_loc l);
/* True when the segment between the centres of a and b passes through
 * the interior of a cell holding an oak (touching a corner is fine). */
bool aic_obstructed(const struct aic_world *w, struct aic_loc a, struct aic_loc b);
/* No water, no oak, no unit: a unit could stand there. */
bool aic_accessible(const struct aic_world *w, struct aic_loc l);
/* Water or an oak. */
bool aic_obstacle(const struct aic_world *w, struct aic_loc l);

/* ---- units (rules/units.c) -------------------------------------------- */

/* The unit on a cell, AIC_NO_UNIT when none or out of the map. */
int aic_unit_at(const struct aic_world *w, struct aic_loc l);
/* The slot of a live unit by id, AIC_NO_UNIT. */
int aic_slot_of(const struct aic_world *w, int id);
bool aic_alive(const struct aic_world *w, int slot);
int aic_max_hp(const struct aic_unit *u);
int aic_attack_power(const struct aic_unit *u);
int aic_vision(const struct aic_unit *u);
/* Wood cost of the unit's type: its value for the second tie-break. */
int aic_value(const struct aic_unit *u);

/* ---- sensing (rules/units.c) ------------------------------------------ */

/* The cell is within the unit's vision. */
bool aic_can_sense(const struct aic_world *w, int slot, struct aic_loc l);
/* Some unit of the team sees the cell. */
static inline bool aic_team_sees(const struct aic_world *w, int team, struct aic_loc l)
{
	return aic_in_map(w, l) && w->seen[team][aic_index(l)] > 0;
}
/* The units within radius (squared; <= the unit's vision, larger is cut
 * to it) of the unit, team -1 for both, into out (at most cap), row by
 * row from the north-west; returns the count.  Also the cells with trees
 * and with VP, and every visible cell (out: cell indices). */
int aic_sense_units(const struct aic_world *w, int slot, int radius, int team, int16_t *out,
		    int cap);
int aic_sense_trees(const struct aic_world *w, int slot, int radius, int16_t *out, int cap);
int aic_sense_vps(const struct aic_world *w, int slot, int radius, int16_t *out, int cap);
int aic_sense_water(const struct aic_world *w, int slot, int radius, int16_t *out, int cap);
int aic_visible_cells(const struct aic_world *w, int slot, int radius, int16_t *out, int cap);
/* The same around any centre (Java's sense calls that take a location):
 * what lies within radius of centre and within the unit's vision; what is
 * one of enum aic_sense_what, team only for units. */
enum aic_sense_what { AIC_SENSE_UNITS, AIC_SENSE_TREES, AIC_SENSE_VPS, AIC_SENSE_WATER,
		      AIC_SENSE_CELLS };
int aic_sense_at(const struct aic_world *w, int slot, struct aic_loc centre, int radius, int what,
		 int team, int16_t *out, int cap);

/* ---- actions (rules/units.c, rules/skills.c, rules/economy.c) --------- */

/* The *_ready checks: whether the unit may act so this turn, any target. */
int aic_move_ready(const struct aic_world *w, int slot);
int aic_attack_ready(const struct aic_world *w, int slot);
int aic_ability_ready(const struct aic_world *w, int slot);
int aic_can_move(const struct aic_world *w, int slot, int dir);
int aic_move(struct aic_world *w, int slot, int dir);
/* Attack the cell: every object on it is hit (a worker chops trees). */
int aic_can_attack(const struct aic_world *w, int slot, struct aic_loc target);
int aic_attack(struct aic_world *w, int slot, struct aic_loc target);
/* The active skill: Plant, Counter, Poison, Dash, Root. */
int aic_can_use_ability(const struct aic_world *w, int slot, struct aic_loc target);
int aic_use_ability(struct aic_world *w, int slot, struct aic_loc target);
/* Workers spawn workers and barracks, barracks the four combat types;
 * id: the new unit's (the engine's aic_draw_id(); a kit the judge's). */
int aic_can_spawn(const struct aic_world *w, int slot, int dir, int type);
int aic_spawn(struct aic_world *w, int slot, int dir, int type, int id);
/* A fresh unit id (draws from w->rng); 0 when all 10000 are used. */
int aic_draw_id(struct aic_world *w);
int aic_can_gather_vps(const struct aic_world *w, int slot, int dir);
int aic_gather_vps(struct aic_world *w, int slot, int dir);
/* The wood one VP costs now. */
int aic_vp_cost(const struct aic_world *w);
int aic_can_buy_vps(const struct aic_world *w, int team, int n);
int aic_buy_vps(struct aic_world *w, int team, int n);

const char *aic_strerror(int error);

/* ---- turns and the end (rules/turns.c) -------------------------------- */

/* Start of a round: wood income, trees grow, VP vanish and appear
 * (draws), cursor back to the first unit. */
void aic_round_start(struct aic_world *w);
/* The next unit to act this round (a unit spawned by the acting one comes
 * right after it), -1 when the round is over. */
int aic_next_unit(struct aic_world *w);
/* Start of a unit's own turn: upkeep, cooldowns drop, poison,
 * construction. */
int aic_turn_start(struct aic_world *w, int slot);
/* Checks the win conditions (call after every unit): sets w->winner and
 * w->win_reason once one holds and returns the winner, -1 while none. */
int aic_check_win(struct aic_world *w);
/* End of a round: the round count, and the ranking after the last one. */
void aic_round_end(struct aic_world *w);
bool aic_over(const struct aic_world *w);
/* Ranks (1 best): the winner's once there is one; before, by VP then
 * value, equal ranks when both tie (the draw by lot happens at the end). */
void aic_ranks(const struct aic_world *w, int rank[AIC_TEAMS]);
/* A team's wood plus the wood cost of its live units (tie-break 2). */
int64_t aic_team_value(const struct aic_world *w, int team);

/* A team's view: a copy of src without the units, small trees and VP the
 * team does not see (oaks and water are the map, known to both), and
 * without the random state. */
void aic_fog(const struct aic_world *src, int team, struct aic_world *dst);

/* aic_fog's parts, for a view made without a whole copy (engine/view.c):
 * a cell the team does not see (w is the world whose units it names), the
 * units it no longer finds on their cells, and what is the enemy's alone
 * (and the random state). */
static inline void aic_fog_cell(const struct aic_world *w, struct aic_cell *c, int team)
{
	c->vp = 0;
	if (c->tree == AIC_TREE_SMALL) {
		c->tree = AIC_TREE_NONE;
		c->tree_hp = 0;
		c->growing = 0;
	}
	if (c->unit != AIC_NO_UNIT && w->unit[c->unit].team != team)
		c->unit = AIC_NO_UNIT;
}
void aic_fog_units(struct aic_world *w, int team);
void aic_fog_secrets(struct aic_world *w, int team);

#endif
