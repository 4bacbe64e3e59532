/* skills.c - AIC2018's active skills: Plant (worker), Counter (soldier),
 * Poison (archer), Dash (knight), Root (ballista).  The passive ones act
 * where they matter (units.c: Chop, Close Combat, Binoculars, Shield,
 * Heavy Machinery). */
#include "games/aic2018/rules/internal.h"

/* The enemy unit on the cell, or AIC_NO_UNIT. */
static int enemy_at(const struct aic_world *w, int slot, struct aic_loc t)
{
	int s = aic_cell_c(w, t)->unit;
	return s != AIC_NO_UNIT && w->unit[s].team != w->unit[slot].team ? s : AIC_NO_UNIT;
}

/* What the target cell must hold for the unit's skill. */
static int check_skill_target(const struct aic_world *w, int slot, struct aic_loc t)
{
	const struct aic_cell *c = aic_cell_c(w, t);
	switch (w->unit[slot].type) {
	case AIC_WORKER:
		if (c->water)
			return AIC_ERR_BLOCKED;
		if (c->tree != AIC_TREE_NONE)
			return AIC_ERR_TREE;
		return w->team[w->unit[slot].team].wood < AIC_PLANT_COST ? AIC_ERR_WOOD : AIC_OK;
	case AIC_KNIGHT:
		if (aic_dist(aic_unit_loc(w, slot), t) == 0)
			return AIC_ERR_RANGE;
		return aic_accessible(w, t) ? AIC_OK : AIC_ERR_BLOCKED;
	default:
		return enemy_at(w, slot, t) != AIC_NO_UNIT ? AIC_OK : AIC_ERR_NO_TARGET;
	}
}

int aic_ability_ready(const struct aic_world *w, int slot)
{
	int e = aic_check_actor(w, slot);
	if (e)
		return e;
	const struct aic_unit *u = &w->unit[slot];
	if (!aic_types[u->type].ability_cd)
		return AIC_ERR_TYPE;
	if (!aic_has_active(u))
		return AIC_ERR_LEVEL;
	return u->ability_cd >= AIC_CD_ONE ? AIC_ERR_COOLDOWN : AIC_OK;
}

int aic_can_use_ability(const struct aic_world *w, int slot, struct aic_loc t)
{
	int e = aic_ability_ready(w, slot);
	if (e)
		return e;
	e = aic_check_target(w, slot, t, aic_types[w->unit[slot].type].ability_range, 0);
	return e ? e : check_skill_target(w, slot, t);
}

static void plant(struct aic_world *w, int team, struct aic_loc t)
{
	struct aic_cell *c = &w->cell[aic_index(t)];
	w->team[team].wood -= AIC_PLANT_COST;
	c->tree = AIC_TREE_SMALL;
	c->tree_hp = 1;
	c->growing = AIC_SMALL_TREE_GROWTH_TURNS;
}

int aic_use_ability(struct aic_world *w, int slot, struct aic_loc t)
{
	int e = aic_can_use_ability(w, slot, t);
	if (e)
		return e;
	struct aic_unit *u = &w->unit[slot];
	u->ability_cd += aic_types[u->type].ability_cd * AIC_CD_ONE;
	int target = enemy_at(w, slot, t);
	switch (u->type) {
	case AIC_WORKER:
		plant(w, u->team, t);
		break;
	case AIC_SOLDIER:
		w->unit[target].countered = 1;
		break;
	case AIC_ARCHER: /* a new poison replaces the old one: no stacking */
		w->unit[target].poison = AIC_POISON_TURNS;
		w->unit[target].poison_team = u->team;
		break;
	case AIC_KNIGHT:
		aic_relocate(w, slot, t);
		break;
	case AIC_BALLISTA:
		w->unit[target].rooted = 1;
		break;
	}
	return AIC_OK;
}
