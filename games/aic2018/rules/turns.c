/* turns.c - AIC2018's time: the start of a round (wood, trees, victory
 * points), the units' turns in order, the win checks and the ranking. */
#include <string.h>

#include "games/aic2018/rules/internal.h"

/* A round passes on a cell: its small tree grows, old VP vanish. */
static void age_cell(struct aic_world *w, struct aic_cell *c)
{
	if (c->vp && w->round - c->vp_round >= AIC_VP_LIFETIME)
		c->vp = 0;
	if (c->tree != AIC_TREE_SMALL)
		return;
	int hp = c->tree_hp + (c->growing ? AIC_SMALL_TREE_GROWING_HP : AIC_SMALL_TREE_GROWN_HP);
	c->tree_hp = (int16_t)(hp > AIC_SMALL_TREE_HP ? AIC_SMALL_TREE_HP : hp);
	if (c->growing)
		c->growing--;
}

/* No water, no oak, no VP now nor in the last AIC_VP_LIFETIME rounds. */
static bool vp_may_appear(const struct aic_world *w, int cell)
{
	const struct aic_cell *c = &w->cell[cell];
	return !c->water && c->tree != AIC_TREE_OAK && !c->vp &&
	       (c->vp_round == AIC_NEVER || w->round - c->vp_round >= AIC_VP_LIFETIME);
}

static void put_vp(struct aic_world *w, int cell)
{
	w->cell[cell].vp = AIC_VP_AMOUNT;
	w->cell[cell].vp_round = (int16_t)w->round;
}

void aic_vp_chance(struct aic_world *w, double p)
{
	double left = 1.0; /* (1 - p)^k, exact IEEE arithmetic: the same everywhere */
	for (int k = 0; k < AIC_VP_SKIPS; k++) {
		w->vp_skip[k] = (uint32_t)(left * 2147483648.0 > 2147483648.0 ? 2147483648.0
									 : left * 2147483648.0);
		left *= 1.0 - p;
	}
}

/* How many pairs fail before the next success: the largest k with
 * u < vp_skip[k] (vp_skip[0] = 2^31 is above every draw). */
static int vp_failures(struct aic_world *w)
{
	uint32_t u = rng_next(&w->rng);
	int lo = 0, hi = AIC_VP_SKIPS - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (u < w->vp_skip[mid])
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Every cell ages (a cell's age touches only that cell). */
static void age_all(struct aic_world *w)
{
	for (int y = 0; y < w->height; y++) {
		struct aic_cell *row = &w->cell[y * AIC_STRIDE];
		for (int x = 0; x < w->width; x++)
			age_cell(w, &row[x]);
	}
}

/* Each pair of mirrored cells that may get VP is one Bernoulli trial of
 * the rules' chance, and both cells get VP together; one draw tells how
 * many pairs fail before the next success.  Each pair is visited once,
 * from its first cell in reading order: the rows down to the mirror
 * line, and on that line the cells up to their mirror. */
static void draw_vps(struct aic_world *w)
{
	bool flip_x = w->symmetry == AIC_SYM_VERTICAL || w->symmetry == AIC_SYM_ROTATIONAL;
	bool flip_y = w->symmetry == AIC_SYM_HORIZONTAL || w->symmetry == AIC_SYM_ROTATIONAL;
	int failures = vp_failures(w);
	for (int y = 0; y < w->height; y++) {
		int my = flip_y ? w->height - 1 - y : y;
		if (my < y)
			break;
		int xs = my == y && flip_x ? (w->width + 1) / 2 : w->width;
		for (int x = 0; x < xs; x++) {
			int cell = y * AIC_STRIDE + x;
			int m = my * AIC_STRIDE + (flip_x ? w->width - 1 - x : x);
			if (!vp_may_appear(w, cell) || !vp_may_appear(w, m) || failures-- > 0)
				continue;
			put_vp(w, cell);
			put_vp(w, m);
			failures = vp_failures(w);
		}
	}
}

void aic_round_start(struct aic_world *w)
{
	for (int t = 0; t < AIC_TEAMS; t++)
		w->team[t].wood += AIC_WOOD_PER_ROUND;
	age_all(w);
	if (w->p.vp)
		draw_vps(w);
	w->cursor = -1;
}

int aic_next_unit(struct aic_world *w)
{
	if (w->cursor + 1 >= w->norder)
		return -1;
	return w->order[++w->cursor];
}

static int32_t cooled(int32_t cd)
{
	return cd > AIC_CD_ONE ? cd - AIC_CD_ONE : 0;
}

int aic_turn_start(struct aic_world *w, int slot)
{
	if (!aic_valid_slot(w, slot))
		return AIC_TURN_DIED;
	struct aic_unit *u = &w->unit[slot];
	bool paid = true;
	if (u->type != AIC_BARRACKS) {
		struct aic_team *t = &w->team[u->team];
		paid = t->wood >= AIC_UPKEEP;
		if (paid)
			t->wood -= AIC_UPKEEP;
	}
	u->move_cd = cooled(u->move_cd);
	u->attack_cd = cooled(u->attack_cd);
	u->ability_cd = cooled(u->ability_cd);
	if (u->poison) {
		u->poison--;
		if (aic_hurt(w, slot, 1, u->poison_team, AIC_ARCHER))
			return AIC_TURN_DIED;
	}
	if (!paid)
		return AIC_TURN_UNPAID;
	if (u->construction) {
		u->construction--;
		return AIC_TURN_CONSTRUCTION;
	}
	return AIC_TURN_ACT;
}

int64_t aic_team_value(const struct aic_world *w, int team)
{
	int64_t v = w->team[team].wood;
	for (int i = 0; i < w->norder; i++)
		if (w->unit[w->order[i]].team == team)
			v += aic_value(&w->unit[w->order[i]]);
	return v;
}

/* Team 0 or 1 ahead on VP then value; -1 with the reason of the
 * comparison that still ties. */
static int ahead(const struct aic_world *w, int *reason)
{
	*reason = AIC_WIN_MORE_VP;
	if (w->team[0].vp != w->team[1].vp)
		return w->team[0].vp > w->team[1].vp ? 0 : 1;
	*reason = AIC_WIN_MORE_VALUE;
	int64_t a = aic_team_value(w, 0), b = aic_team_value(w, 1);
	if (a != b)
		return a > b ? 0 : 1;
	*reason = AIC_WIN_DRAW;
	return -1;
}

static void decide(struct aic_world *w, int winner, int reason)
{
	w->winner = winner;
	w->win_reason = reason;
}

/* Both sides reached an end at once (no units on either side): the
 * tie-breaks of the last round decide. */
static void decide_by_tie_breaks(struct aic_world *w)
{
	int reason, team = ahead(w, &reason);
	if (team < 0)
		team = rng_uniform(&w->rng, 0, 1);
	decide(w, team, reason);
}

int aic_check_win(struct aic_world *w)
{
	if (w->winner >= 0)
		return w->winner;
	bool vp0 = w->team[0].vp >= AIC_VP_TO_WIN, vp1 = w->team[1].vp >= AIC_VP_TO_WIN;
	bool out0 = w->team[0].units == 0, out1 = w->team[1].units == 0;
	if (vp0 != vp1)
		decide(w, vp0 ? 0 : 1, AIC_WIN_VP);
	else if (vp0 || (out0 && out1))
		decide_by_tie_breaks(w);
	else if (out0 != out1)
		decide(w, out0 ? 1 : 0, AIC_WIN_ANNIHILATION);
	return w->winner;
}

void aic_round_end(struct aic_world *w)
{
	if (w->winner >= 0)
		return;
	w->round++;
	if (w->round >= w->p.rounds)
		decide_by_tie_breaks(w);
}

bool aic_over(const struct aic_world *w)
{
	return w->winner >= 0;
}

void aic_ranks(const struct aic_world *w, int rank[AIC_TEAMS])
{
	int reason, team = w->winner >= 0 ? w->winner : ahead(w, &reason);
	rank[0] = team == 1 ? 2 : 1;
	rank[1] = team == 0 ? 2 : 1;
}

/* ---- a team's view -------------------------------------------------------- */

void aic_fog_units(struct aic_world *w, int team)
{
	/* the hidden enemies leave the order and their slots: an enemy stays
	 * where its cell, fogged, still holds it */
	int n = 0, cursor = w->cursor;
	for (int i = 0; i < w->norder; i++) {
		int s = w->order[i];
		struct aic_unit *u = &w->unit[s];
		if (u->team == team || w->cell[u->y * AIC_STRIDE + u->x].unit == s) {
			w->order[n++] = (int16_t)s;
			continue;
		}
		w->slot_of_id[u->id] = AIC_NO_UNIT;
		memset(u, 0, sizeof *u);
		if (i <= w->cursor)
			cursor--;
	}
	w->norder = n;
	w->cursor = cursor;
}

void aic_fog_secrets(struct aic_world *w, int team)
{
	w->rng.s = 0;
	/* the enemy's wood is its secret; VP are public */
	struct aic_team *enemy = &w->team[1 - team];
	enemy->wood = 0;
	memset(enemy->passive_exp, 0, sizeof enemy->passive_exp);
	memset(w->seen[1 - team], 0, sizeof w->seen[1 - team]);
}

void aic_fog(const struct aic_world *src, int team, struct aic_world *dst)
{
	if (dst != src)
		memcpy(dst, src, sizeof *dst);
	for (int y = 0; y < dst->height; y++)
		for (int x = 0; x < dst->width; x++)
			if (!dst->seen[team][y * AIC_STRIDE + x])
				aic_fog_cell(dst, &dst->cell[y * AIC_STRIDE + x], team);
	aic_fog_units(dst, team);
	aic_fog_secrets(dst, team);
}
