/* economy.c - AIC2018's economy: spawning, victory points gathered and
 * bought, and the error messages. */
#include "games/aic2018/rules/internal.h"

static bool can_build(int builder, int type)
{
	if (builder == AIC_WORKER)
		return type == AIC_WORKER || type == AIC_BARRACKS;
	if (builder == AIC_BARRACKS)
		return type >= AIC_SOLDIER && type < AIC_TYPES;
	return false;
}

/* A barracks builds one unit at a time: busy while it is under construction. */
static bool busy(const struct aic_world *w, const struct aic_unit *u)
{
	int s = aic_slot_of(w, u->building_id);
	return s != AIC_NO_UNIT && w->unit[s].construction > 0;
}

int aic_can_spawn(const struct aic_world *w, int slot, int dir, int type)
{
	int e = aic_check_actor(w, slot);
	if (e)
		return e;
	const struct aic_unit *u = &w->unit[slot];
	if (type < 0 || type >= AIC_TYPES || !can_build(u->type, type))
		return AIC_ERR_TYPE;
	if (dir < 0 || dir >= AIC_ZERO)
		return AIC_ERR_DIRECTION;
	struct aic_loc to = aic_add(aic_unit_loc(w, slot), dir);
	if (!aic_in_map(w, to))
		return AIC_ERR_OUT_OF_MAP;
	if (!aic_accessible(w, to))
		return AIC_ERR_BLOCKED;
	if (w->team[u->team].wood < aic_types[type].cost)
		return AIC_ERR_WOOD;
	if (busy(w, u))
		return AIC_ERR_BUSY;
	return w->ids_used >= AIC_MAX_ID ? AIC_ERR_FULL : AIC_OK;
}

int aic_spawn(struct aic_world *w, int slot, int dir, int type, int id)
{
	int e = aic_can_spawn(w, slot, dir, type);
	if (e)
		return e;
	if (!aic_id_free(w, id))
		return AIC_ERR_FULL;
	struct aic_unit *u = &w->unit[slot];
	int team = u->team, pos = 0;
	while (w->order[pos] != slot)
		pos++;
	w->team[team].wood -= aic_types[type].cost;
	if (u->type == AIC_BARRACKS)
		u->building_id = (int16_t)id;
	aic_place_unit(w, team, type, aic_add(aic_unit_loc(w, slot), dir), id, pos + 1,
		       aic_types[type].construction);
	return AIC_OK;
}

int aic_can_gather_vps(const struct aic_world *w, int slot, int dir)
{
	int e = aic_check_actor(w, slot);
	if (e)
		return e;
	if (w->unit[slot].type == AIC_BARRACKS)
		return AIC_ERR_TYPE;
	if (dir < 0 || dir >= AIC_DIRS)
		return AIC_ERR_DIRECTION;
	struct aic_loc at = aic_add(aic_unit_loc(w, slot), dir);
	if (!aic_in_map(w, at))
		return AIC_ERR_OUT_OF_MAP;
	return w->cell[aic_index(at)].vp > 0 ? AIC_OK : AIC_ERR_NO_VP;
}

int aic_gather_vps(struct aic_world *w, int slot, int dir)
{
	int e = aic_can_gather_vps(w, slot, dir);
	if (e)
		return e;
	struct aic_cell *c = &w->cell[aic_index(aic_add(aic_unit_loc(w, slot), dir))];
	w->team[w->unit[slot].team].vp += c->vp;
	c->vp = 0;
	return AIC_OK;
}

int aic_vp_cost(const struct aic_world *w)
{
	return AIC_VP_BASE_COST + w->round / AIC_VP_COST_ROUNDS;
}

int aic_can_buy_vps(const struct aic_world *w, int team, int n)
{
	if (team < 0 || team >= AIC_TEAMS)
		return AIC_ERR_NO_UNIT;
	if (n < 1)
		return AIC_ERR_AMOUNT;
	return (int64_t)n * aic_vp_cost(w) > w->team[team].wood ? AIC_ERR_WOOD : AIC_OK;
}

int aic_buy_vps(struct aic_world *w, int team, int n)
{
	int e = aic_can_buy_vps(w, team, n);
	if (e)
		return e;
	w->team[team].wood -= n * aic_vp_cost(w);
	w->team[team].vp += n;
	return AIC_OK;
}

const char *aic_strerror(int error)
{
	static const char *const text[AIC_ERRORS] = {
		[AIC_OK] = "done",
		[AIC_ERR_NO_UNIT] = "no such unit: it is dead or was never there",
		[AIC_ERR_CONSTRUCTION] = "the unit is still under construction",
		[AIC_ERR_TYPE] = "this unit type cannot do that",
		[AIC_ERR_LEVEL] = "the skill is not unlocked yet: the unit needs more experience",
		[AIC_ERR_COOLDOWN] = "the action's cooldown is not below 1 yet: wait a turn",
		[AIC_ERR_DIRECTION] = "not a valid direction for this action",
		[AIC_ERR_OUT_OF_MAP] = "the location is outside the map",
		[AIC_ERR_BLOCKED] = "the cell is taken (water, an oak or a unit)",
		[AIC_ERR_RANGE] = "the target is out of range",
		[AIC_ERR_MIN_RANGE] = "the target is closer than the minimum range",
		[AIC_ERR_OBSTRUCTED] = "an oak stands between the unit and the target",
		[AIC_ERR_NO_TARGET] = "nothing to hit there (a skill needs an enemy unit)",
		[AIC_ERR_NOT_SEEN] = "no unit of the team sees that cell",
		[AIC_ERR_WOOD] = "not enough wood",
		[AIC_ERR_BUSY] = "the barracks is still building its last unit",
		[AIC_ERR_NO_VP] = "no victory points on that cell",
		[AIC_ERR_AMOUNT] = "the number must be at least 1",
		[AIC_ERR_FULL] = "no unit id left (all 10000 were used), or the id is taken",
		[AIC_ERR_TREE] = "a tree already grows there",
	};
	return error >= 0 && error < AIC_ERRORS && text[error] ? text[error] : "unknown error";
}
