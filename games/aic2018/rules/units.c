/* units.c - AIC2018's units: the table, their ids and sight, placing and
 * moving them, sensing, attacks, damage, death and experience. */
#include <string.h>

#include "games/aic2018/rules/internal.h"

const struct aic_type_info aic_types[AIC_TYPES] = {
	[AIC_WORKER] = { "worker", 100, { 40, 40 }, { 1, 1 }, 2, 0, 16, 2, 1, 1, 2,
			 { 0, 0, 0 }, 5 },
	[AIC_BARRACKS] = { "barracks", AIC_BARRACKS_COST, { 300, 300 }, { 0, 0 }, 0, 0, 48, 0,
			   0, 0, 0, { 0, 0, 0 }, 25 },
	[AIC_SOLDIER] = { "soldier", 100, { 60, 100 }, { 6, 8 }, 8, 0, 24, 2, 1, 8, 8,
			  { 25, 75, 175 }, 5 },
	[AIC_ARCHER] = { "archer", 140, { 20, 30 }, { 10, 14 }, 20, 9, 20, 3, 2, 15, 20,
			 { 15, 150, 250 }, 5 },
	[AIC_KNIGHT] = { "knight", 160, { 120, 170 }, { 6, 8 }, 4, 0, 48, 1, 2, 10, 8,
			 { 20, 50, 150 }, 5 },
	[AIC_BALLISTA] = { "ballista", 200, { 20, 30 }, { 32, 48 }, 35, 20, 10, 4, 4, 7, 35,
			   { 0, 90, 225 }, 5 },
};

static bool combat_type(int type)
{
	return type >= AIC_SOLDIER && type < AIC_TYPES;
}

int aic_level_for(int type, int exp)
{
	if (!combat_type(type))
		return 0;
	int level = 0;
	while (level < 3 && exp >= aic_types[type].exp[level])
		level++;
	return level;
}

bool aic_has_passive(const struct aic_unit *u)
{
	return u->type == AIC_WORKER || (combat_type(u->type) && u->level >= 1);
}

bool aic_has_active(const struct aic_unit *u)
{
	return u->type == AIC_WORKER || (combat_type(u->type) && u->level >= 2);
}

int aic_max_hp(const struct aic_unit *u)
{
	return aic_types[u->type].hp[u->level >= 3];
}

int aic_attack_power(const struct aic_unit *u)
{
	return aic_types[u->type].attack[u->level >= 3];
}

int aic_vision(const struct aic_unit *u)
{
	if (u->type == AIC_ARCHER && aic_has_passive(u))
		return AIC_BINOCULARS_VISION;
	return aic_types[u->type].vision;
}

int aic_value(const struct aic_unit *u)
{
	return aic_types[u->type].cost;
}

int aic_unit_at(const struct aic_world *w, struct aic_loc l)
{
	return aic_in_map(w, l) ? aic_cell_c(w, l)->unit : AIC_NO_UNIT;
}

int aic_slot_of(const struct aic_world *w, int id)
{
	return id >= 1 && id <= AIC_MAX_ID ? w->slot_of_id[id] : AIC_NO_UNIT;
}

bool aic_alive(const struct aic_world *w, int slot)
{
	return aic_valid_slot(w, slot);
}

int aic_check_actor(const struct aic_world *w, int slot)
{
	if (!aic_valid_slot(w, slot))
		return AIC_ERR_NO_UNIT;
	if (w->unit[slot].construction)
		return AIC_ERR_CONSTRUCTION;
	return AIC_OK;
}

/* ---- placing, moving, removing -------------------------------------------- */

bool aic_id_free(const struct aic_world *w, int id)
{
	return id >= 1 && id <= AIC_MAX_ID && !(w->id_used[id / 8] & (1u << (id % 8)));
}

void aic_use_id(struct aic_world *w, int id)
{
	w->id_used[id / 8] = (uint8_t)(w->id_used[id / 8] | (1u << (id % 8)));
	w->ids_used++;
}

int aic_draw_id(struct aic_world *w)
{
	if (w->ids_used >= AIC_MAX_ID)
		return 0;
	for (;;) {
		int id = rng_uniform(&w->rng, 1, AIC_MAX_ID);
		if (aic_id_free(w, id))
			return id;
	}
}

void aic_vision_add(struct aic_world *w, int slot, int sign)
{
	const struct aic_unit *u = &w->unit[slot];
	uint8_t *seen = w->seen[u->team];
	struct aic_disc d;
	aic_disc(w, aic_unit_loc(w, slot), aic_vision(u), &d);
	for (int i = 0; i < d.rows; i++) {
		uint8_t *row = seen + d.row[i].y * AIC_STRIDE;
		for (int x = d.row[i].x0; x <= d.row[i].x1; x++)
			row[x] = (uint8_t)(row[x] + sign);
	}
}

static int free_slot(const struct aic_world *w)
{
	for (int s = 0; s < AIC_MAX_UNITS; s++)
		if (!w->unit[s].id)
			return s;
	return AIC_NO_UNIT;
}

/* Experience changes the level; level 3 adds the HP the larger maximum
 * gives, and an archer's Binoculars widen its vision. */
static void gain_exp(struct aic_world *w, int slot, int exp)
{
	struct aic_unit *u = &w->unit[slot];
	int old_hp = aic_max_hp(u);
	aic_vision_add(w, slot, -1);
	u->exp = (int16_t)(u->exp + exp > 30000 ? 30000 : u->exp + exp);
	u->level = (uint8_t)aic_level_for(u->type, u->exp);
	u->hp = (int16_t)(u->hp + aic_max_hp(u) - old_hp);
	aic_vision_add(w, slot, 1);
}

int aic_place_unit(struct aic_world *w, int team, int type, struct aic_loc l, int id, int pos,
		   int construction)
{
	int slot = free_slot(w);
	struct aic_unit *u = &w->unit[slot];
	*u = (struct aic_unit){ .id = (int16_t)id, .team = (uint8_t)team, .type = (uint8_t)type,
				.x = (uint8_t)l.x, .y = (uint8_t)l.y,
				.construction = (uint8_t)construction };
	u->exp = (int16_t)(combat_type(type) ? w->team[team].passive_exp[type] : 0);
	u->level = (uint8_t)aic_level_for(type, u->exp);
	u->hp = (int16_t)aic_max_hp(u);
	aic_use_id(w, id);
	w->slot_of_id[id] = (int16_t)slot;
	aic_cell_at(w, l)->unit = (int16_t)slot;
	memmove(&w->order[pos + 1], &w->order[pos], (size_t)(w->norder - pos) * sizeof w->order[0]);
	w->order[pos] = (int16_t)slot;
	w->norder++;
	if (pos <= w->cursor)
		w->cursor++;
	w->team[team].units++;
	aic_vision_add(w, slot, 1);
	return slot;
}

void aic_relocate(struct aic_world *w, int slot, struct aic_loc to)
{
	struct aic_unit *u = &w->unit[slot];
	aic_vision_add(w, slot, -1);
	aic_cell_at(w, aic_unit_loc(w, slot))->unit = AIC_NO_UNIT;
	u->x = (uint8_t)to.x;
	u->y = (uint8_t)to.y;
	aic_cell_at(w, to)->unit = (int16_t)slot;
	aic_vision_add(w, slot, 1);
}

static int order_index(const struct aic_world *w, int slot)
{
	for (int i = 0; i < w->norder; i++)
		if (w->order[i] == slot)
			return i;
	return -1;
}

/* A death gives EXP to the combat units of the other team within
 * AIC_EXP_RADIUS of where it happened. */
static void death_exp(struct aic_world *w, struct aic_loc l, int team)
{
	struct aic_disc d;
	aic_disc(w, l, AIC_EXP_RADIUS, &d);
	for (int i = 0; i < d.rows; i++)
		for (int x = d.row[i].x0; x <= d.row[i].x1; x++) {
			int s = w->cell[d.row[i].y * AIC_STRIDE + x].unit;
			if (s != AIC_NO_UNIT && w->unit[s].team == team && combat_type(w->unit[s].type))
				gain_exp(w, s, AIC_EXP_PER_DEATH);
		}
}

static void kill(struct aic_world *w, int slot, int by_team, int by_type)
{
	struct aic_unit *u = &w->unit[slot];
	struct aic_loc l = aic_unit_loc(w, slot);
	int team = u->team;
	aic_vision_add(w, slot, -1);
	aic_cell_at(w, l)->unit = AIC_NO_UNIT;
	w->slot_of_id[u->id] = AIC_NO_UNIT;
	int i = order_index(w, slot);
	memmove(&w->order[i], &w->order[i + 1], (size_t)(w->norder - i - 1) * sizeof w->order[0]);
	w->norder--;
	if (i <= w->cursor)
		w->cursor--;
	w->team[team].units--;
	memset(u, 0, sizeof *u);
	death_exp(w, l, 1 - team);
	if (by_team == 1 - team)
		w->team[by_team].passive_exp[by_type]++;
}

bool aic_hurt(struct aic_world *w, int slot, int damage, int by_team, int by_type)
{
	struct aic_unit *u = &w->unit[slot];
	u->hp = (int16_t)(u->hp - damage);
	if (u->hp > 0)
		return false;
	kill(w, slot, by_team, by_type);
	return true;
}

void aic_hurt_tree(struct aic_world *w, struct aic_loc l, int damage)
{
	struct aic_cell *c = aic_cell_at(w, l);
	c->tree_hp = (int16_t)(c->tree_hp - damage);
	if (c->tree_hp <= 0 || (c->tree == AIC_TREE_SMALL && c->growing)) {
		c->tree = AIC_TREE_NONE;
		c->tree_hp = 0;
		c->growing = 0;
	}
}

/* ---- sensing ---------------------------------------------------------------- */

bool aic_can_sense(const struct aic_world *w, int slot, struct aic_loc l)
{
	return aic_valid_slot(w, slot) && aic_in_map(w, l) &&
	       aic_dist(aic_unit_loc(w, slot), l) <= aic_vision(&w->unit[slot]);
}

/* What a sensing call lists of a cell: its unit's slot or the cell's
 * index, or -1 when the cell has nothing of the kind. */
static int sensed(const struct aic_world *w, int cell, int what, int team, int self)
{
	const struct aic_cell *c = &w->cell[cell];
	switch (what) {
	case AIC_SENSE_UNITS:
		if (c->unit == AIC_NO_UNIT || c->unit == self ||
		    (team >= 0 && w->unit[c->unit].team != team))
			return -1;
		return c->unit;
	case AIC_SENSE_TREES:
		return c->tree != AIC_TREE_NONE ? cell : -1;
	case AIC_SENSE_VPS:
		return c->vp ? cell : -1;
	case AIC_SENSE_WATER:
		return c->water ? cell : -1;
	default:
		return cell;
	}
}

/* A disc reaches at most AIC_MAX_SIDE - 1 cells from its centre: a centre
 * farther off the map sees nothing (and keeps the sums far from overflow). */
static bool centre_near_map(struct aic_loc c)
{
	return c.x > -AIC_MAX_SIDE && c.y > -AIC_MAX_SIDE && c.x < 2 * AIC_MAX_SIDE &&
	       c.y < 2 * AIC_MAX_SIDE;
}

int aic_sense_at(const struct aic_world *w, int slot, struct aic_loc centre, int radius, int what,
		 int team, int16_t *out, int cap)
{
	if (!aic_valid_slot(w, slot) || !centre_near_map(centre))
		return 0;
	struct aic_loc me = aic_unit_loc(w, slot);
	int vision = aic_vision(&w->unit[slot]), n = 0;
	bool own_disc = centre.x == me.x && centre.y == me.y;
	if (own_disc) /* the usual call: the disc is within the vision */
		radius = radius < 0 || radius > vision ? vision : radius;
	else if (radius < 0) /* all the unit sees */
		radius = 2 * AIC_MAX_SIDE * AIC_MAX_SIDE;
	struct aic_disc d;
	aic_disc(w, centre, radius, &d);
	for (int i = 0; i < d.rows; i++)
		for (int x = d.row[i].x0; x <= d.row[i].x1; x++) {
			struct aic_loc l = { x, d.row[i].y };
			if (!own_disc && aic_dist(me, l) > vision)
				continue;
			int v = sensed(w, aic_index(l), what, team, slot);
			if (v < 0)
				continue;
			if (n == cap)
				return n;
			out[n++] = (int16_t)v;
		}
	return n;
}

static int sense(const struct aic_world *w, int slot, int radius, int what, int team,
		 int16_t *out, int cap)
{
	if (!aic_valid_slot(w, slot))
		return 0;
	return aic_sense_at(w, slot, aic_unit_loc(w, slot), radius, what, team, out, cap);
}

int aic_sense_units(const struct aic_world *w, int slot, int radius, int team, int16_t *out,
		    int cap)
{
	return sense(w, slot, radius, AIC_SENSE_UNITS, team, out, cap);
}

int aic_sense_trees(const struct aic_world *w, int slot, int radius, int16_t *out, int cap)
{
	return sense(w, slot, radius, AIC_SENSE_TREES, -1, out, cap);
}

int aic_sense_vps(const struct aic_world *w, int slot, int radius, int16_t *out, int cap)
{
	return sense(w, slot, radius, AIC_SENSE_VPS, -1, out, cap);
}

int aic_sense_water(const struct aic_world *w, int slot, int radius, int16_t *out, int cap)
{
	return sense(w, slot, radius, AIC_SENSE_WATER, -1, out, cap);
}

int aic_visible_cells(const struct aic_world *w, int slot, int radius, int16_t *out, int cap)
{
	return sense(w, slot, radius, AIC_SENSE_CELLS, -1, out, cap);
}

/* ---- moving ------------------------------------------------------------------ */

int aic_move_ready(const struct aic_world *w, int slot)
{
	int e = aic_check_actor(w, slot);
	if (e)
		return e;
	const struct aic_unit *u = &w->unit[slot];
	if (!aic_types[u->type].move_cd)
		return AIC_ERR_TYPE;
	return u->move_cd >= AIC_CD_ONE ? AIC_ERR_COOLDOWN : AIC_OK;
}

int aic_can_move(const struct aic_world *w, int slot, int dir)
{
	int e = aic_move_ready(w, slot);
	/* a bad direction is reported before a cooldown */
	if ((!e || e == AIC_ERR_COOLDOWN) && (dir < 0 || dir >= AIC_ZERO))
		return AIC_ERR_DIRECTION;
	if (e)
		return e;
	struct aic_loc to = aic_add(aic_unit_loc(w, slot), dir);
	if (!aic_in_map(w, to))
		return AIC_ERR_OUT_OF_MAP;
	return aic_accessible(w, to) ? AIC_OK : AIC_ERR_BLOCKED;
}

/* Heavy Machinery: a ballista's moves and attacks add to both cooldowns. */
static void add_cooldown(struct aic_unit *u, int32_t *cd, int32_t amount)
{
	if (u->type == AIC_BALLISTA && aic_has_passive(u)) {
		u->move_cd += amount;
		u->attack_cd += amount;
	} else {
		*cd += amount;
	}
}

int aic_move(struct aic_world *w, int slot, int dir)
{
	int e = aic_can_move(w, slot, dir);
	if (e)
		return e;
	struct aic_unit *u = &w->unit[slot];
	int32_t cd = aic_types[u->type].move_cd * (dir % 2 ? AIC_CD_DIAGONAL : AIC_CD_ONE);
	if (u->rooted)
		cd *= 2;
	u->rooted = 0;
	add_cooldown(u, &u->move_cd, cd);
	aic_relocate(w, slot, aic_add(aic_unit_loc(w, slot), dir));
	return AIC_OK;
}

/* ---- attacking ---------------------------------------------------------------- */

/* The checks of an attack or a skill on a target cell within range. */
int aic_check_target(const struct aic_world *w, int slot, struct aic_loc t, int range,
		     int min_range)
{
	if (!aic_in_map(w, t))
		return AIC_ERR_OUT_OF_MAP;
	int d = aic_dist(aic_unit_loc(w, slot), t);
	if (d > range)
		return AIC_ERR_RANGE;
	if (d < min_range)
		return AIC_ERR_MIN_RANGE;
	if (!aic_team_sees(w, w->unit[slot].team, t))
		return AIC_ERR_NOT_SEEN;
	return aic_obstructed(w, aic_unit_loc(w, slot), t) ? AIC_ERR_OBSTRUCTED : AIC_OK;
}

int aic_attack_ready(const struct aic_world *w, int slot)
{
	int e = aic_check_actor(w, slot);
	if (e)
		return e;
	const struct aic_unit *u = &w->unit[slot];
	if (!aic_types[u->type].attack_range)
		return AIC_ERR_TYPE;
	return u->attack_cd >= AIC_CD_ONE ? AIC_ERR_COOLDOWN : AIC_OK;
}

int aic_can_attack(const struct aic_world *w, int slot, struct aic_loc t)
{
	int e = aic_attack_ready(w, slot);
	if (e)
		return e;
	const struct aic_type_info *ti = &aic_types[w->unit[slot].type];
	/* a unit does not hit its own cell */
	e = aic_check_target(w, slot, t, ti->attack_range, ti->min_attack_range > 1 ? ti->min_attack_range : 1);
	if (e)
		return e;
	const struct aic_cell *c = aic_cell_c(w, t);
	return c->unit != AIC_NO_UNIT || c->tree != AIC_TREE_NONE ? AIC_OK : AIC_ERR_NO_TARGET;
}

/* The damage of u's attack on a unit at distance d. */
static int unit_damage(const struct aic_unit *u, const struct aic_unit *target, int d)
{
	int damage = aic_attack_power(u);
	if (u->type == AIC_SOLDIER && aic_has_passive(u) && d <= AIC_ADJACENT)
		damage *= 2; /* Close Combat */
	if (target->type == AIC_KNIGHT && aic_has_passive(target) && d > AIC_SHIELD_DISTANCE)
		damage /= 2; /* Shield */
	return damage;
}

/* A worker chops (more damage to trees, and wood); others just hit. */
static void hit_tree(struct aic_world *w, const struct aic_unit *u, struct aic_loc t)
{
	const struct aic_cell *c = aic_cell_c(w, t);
	if (c->tree == AIC_TREE_NONE)
		return;
	int damage = aic_attack_power(u);
	if (u->type == AIC_WORKER) {
		bool oak = c->tree == AIC_TREE_OAK;
		damage = oak ? AIC_CHOP_OAK : AIC_CHOP_SMALL;
		w->team[u->team].wood += oak ? AIC_CHOP_OAK_WOOD : AIC_CHOP_SMALL_WOOD;
	}
	aic_hurt_tree(w, t, damage);
}

int aic_attack(struct aic_world *w, int slot, struct aic_loc t)
{
	int e = aic_can_attack(w, slot, t);
	if (e)
		return e;
	struct aic_unit *u = &w->unit[slot];
	int32_t cd = aic_types[u->type].attack_cd * AIC_CD_ONE;
	if (u->countered)
		cd *= 2;
	u->countered = 0;
	add_cooldown(u, &u->attack_cd, cd);
	int target = aic_cell_c(w, t)->unit;
	if (target != AIC_NO_UNIT)
		aic_hurt(w, target, unit_damage(u, &w->unit[target], aic_dist(aic_unit_loc(w, slot), t)),
			 u->team, u->type);
	hit_tree(w, u, t);
	return AIC_OK;
}
