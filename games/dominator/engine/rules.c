/* rules.c - Dominator's orders and the resolution of a round.
 *
 * A round: the first valid order of each unit is selected; the selected
 * moves run in one random order (so a move may become invalid because of an
 * earlier one); units that got no order, or None, heal; units captured
 * during the round are reborn in their new owner's box; each team scores
 * its cells.  Nothing here allocates: every buffer is in the state.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/dominator/dom.h"

/* ---- orders -------------------------------------------------------------- */

static void dom_drop_orders(struct game_state *d, int player)
{
	for (int id = 0; id < d->nunits; id++)
		if (d->unit[id].owner == player)
			d->order[id] = DOM_NO_ORDER;
}

static void dom_freeze(struct game_state *d, int player)
{
	if (game_seat_freeze(d->frozen, d->cpu, player))
		dom_drop_orders(d, player);
}

/* Orders naming another player's unit, a unit that does not exist or a
 * direction outside 0..8 are ignored, and do not use up the unit's order
 * (the original engine drops them the same way). */
static void dom_select_order(struct game_state *d, int player, struct dom_msg_order o)
{
	if (o.id >= d->nunits || o.dir >= DOM_DIRS)
		return;
	const struct dom_unit *u = &d->unit[o.id];
	if (u->owner != player || u->captured || d->order[o.id] != DOM_NO_ORDER)
		return;
	d->order[o.id] = (int8_t)dom_turn_dir(player, o.dir);
}

int dom_take_orders(struct game_state *d, int player, const uint8_t *buf, size_t len,
		    err_t err)
{
	struct game_seats seats = { DOM_PLAYERS, d->frozen, d->norders, DOM_MAX_ORDERS, NULL };
	bool broken;
	int n = game_seat_orders(&seats, player, &dom_orders, buf, len, d->incoming, &broken, err);
	if (broken)
		dom_freeze(d, player);
	for (int i = 0; i < n; i++)
		dom_select_order(d, player, d->incoming[i]);
	return n < 0 ? -1 : 0;
}

void dom_set_status(struct game_state *d, int player, double cpu_share)
{
	if (game_seat_status(DOM_PLAYERS, d->frozen, d->cpu, player, cpu_share))
		dom_freeze(d, player);
}

/* ---- captures ------------------------------------------------------------ */

/* Off the board until the rebirth at the end of the round. */
static void dom_capture(struct game_state *d, struct dom_unit *u, int team)
{
	d->unit_at[dom_cell(d, u->row, u->col)] = DOM_NO_UNIT;
	u->owner = team;
	u->captured = true;
	d->reborn[d->nreborn++] = (int16_t)u->id;
}

/* The team that gets a unit killed by witches: enemy witches vote with
 * their count; when only its own team's witches killed it, one of the
 * other three teams, uniformly. */
static int dom_witch_team(struct game_state *d, int victim_owner, const int count[DOM_PLAYERS])
{
	int enemies = 0;
	for (int q = 0; q < DOM_PLAYERS; q++)
		if (q != victim_owner)
			enemies += count[q];
	if (enemies == 0) {
		int k = rng_uniform(&d->rng, 0, DOM_PLAYERS - 2);
		return k < victim_owner ? k : k + 1;
	}
	int pick = rng_uniform(&d->rng, 0, enemies - 1);
	for (int q = 0; q < DOM_PLAYERS; q++) {
		if (q == victim_owner)
			continue;
		if (pick < count[q])
			return q;
		pick -= count[q];
	}
	return victim_owner; /* not reached: the counts add up to enemies */
}

/* Captures a farmer or knight standing on a haunted cell; true if it was. */
static bool dom_haunt_kill(struct game_state *d, struct dom_unit *u)
{
	int count[DOM_PLAYERS];
	if (dom_haunters(d, u->row, u->col, count) == 0)
		return false;
	dom_capture(d, u, dom_witch_team(d, u->owner, count));
	return true;
}

/* After a witch moved, witches may have woken up or gone quiet: every
 * farmer or knight now inside an active witch's reach dies.  Outside this
 * sweep no unit ever rests on a haunted cell, so these are exactly the units
 * where a zone has just arrived. */
static void dom_haunt_sweep(struct game_state *d)
{
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		if (!w->active)
			continue;
		int cells[DOM_REACH_MAX], n = dom_witch_reach(d, w, cells);
		for (int k = 0; k < n; k++) {
			int id = d->unit_at[cells[k]];
			if (id != DOM_NO_UNIT && d->unit[id].type != DOM_WITCH)
				dom_haunt_kill(d, &d->unit[id]);
		}
	}
}

/* ---- moves --------------------------------------------------------------- */

static void dom_step(struct game_state *d, struct dom_unit *u, int row, int col, int dir)
{
	d->unit_at[dom_cell(d, u->row, u->col)] = DOM_NO_UNIT;
	d->unit_at[dom_cell(d, row, col)] = (int16_t)u->id;
	u->row = row;
	u->col = col;
	d->log.step[u->id] = (int8_t)dir;
}

static void dom_attack(struct game_state *d, const struct dom_unit *knight, struct dom_unit *target)
{
	target->health -= rng_uniform(&d->rng, d->p.damage_min, d->p.damage_max);
	if (target->health <= 0)
		dom_capture(d, target, knight->owner);
}

static void dom_farmer_step(struct game_state *d, struct dom_unit *u, int row, int col, int dir)
{
	dom_step(d, u, row, col, dir);
	if (dom_haunt_kill(d, u))
		return;
	int cell = dom_cell(d, row, col);
	d->log.painted[u->id] = d->owner[cell] != u->owner;
	dom_paint(d, row, col, u->owner);
}

/* Runs one selected order.  Invalid ones (a wall, an occupied cell the unit
 * cannot attack, a diagonal for a farmer or a witch) leave it in place.
 * Farmers and witches need an empty cell, whoever is in it: the seed says
 * "adjacent empty cell" where the rules page names only walls and own
 * units. */
static void dom_execute(struct game_state *d, int id)
{
	struct dom_unit *u = &d->unit[id];
	int dir = d->order[id], dr, dc;
	dom_dir_delta(dir, &dr, &dc);
	int row = u->row + dr, col = u->col + dc;
	if (u->captured || !dom_inside(d, row, col) || d->wall[dom_cell(d, row, col)])
		return;
	bool diagonal = dr && dc;
	int other = d->unit_at[dom_cell(d, row, col)];
	if (u->type == DOM_KNIGHT) {
		if (other == DOM_NO_UNIT) {
			dom_step(d, u, row, col, dir);
			dom_haunt_kill(d, u);
		} else if (d->unit[other].type != DOM_WITCH && d->unit[other].owner != u->owner) {
			dom_attack(d, u, &d->unit[other]);
		}
		return;
	}
	if (diagonal || other != DOM_NO_UNIT)
		return;
	if (u->type == DOM_FARMER) {
		dom_farmer_step(d, u, row, col, dir);
	} else {
		dom_step(d, u, row, col, dir);
		dom_update_witches(d);
		dom_haunt_sweep(d);
	}
}

/* ---- rebirth ------------------------------------------------------------- */

static bool dom_enemy_at(const struct game_state *d, int row, int col, int team, bool knights_only)
{
	if (!dom_inside(d, row, col))
		return false;
	int id = d->unit_at[dom_cell(d, row, col)];
	if (id == DOM_NO_UNIT)
		return false;
	const struct dom_unit *o = &d->unit[id];
	return o->owner != team && (!knights_only || o->type == DOM_KNIGHT);
}

/* The seed's wish: at Manhattan distance at least 3 from every witch (the
 * rules page says "no witch within 3", i.e. at least 4; the seed wins), a
 * farmer with no rival knight in its 4 neighbours, a knight with no rival
 * unit in its 8 neighbours. */
static bool dom_rebirth_ideal(const struct game_state *d, const struct dom_unit *u, int row,
			      int col)
{
	if (d->near_witch[dom_cell(d, row, col)])
		return false;
	for (int dir = 0; dir < 8; dir++) {
		int dr, dc;
		dom_dir_delta(dir, &dr, &dc);
		bool diagonal = dr && dc;
		if (u->type == DOM_FARMER && diagonal)
			continue;
		if (dom_enemy_at(d, row + dr, col + dc, u->owner, u->type == DOM_FARMER))
			return false;
	}
	return true;
}

enum dom_rebirth_tier { DOM_IDEAL, DOM_QUIET, DOM_ANY };

static bool dom_rebirth_ok(const struct game_state *d, const struct dom_unit *u, int row, int col,
			   enum dom_rebirth_tier tier)
{
	int cell = dom_cell(d, row, col);
	if (d->wall[cell] || d->unit_at[cell] != DOM_NO_UNIT)
		return false;
	if (tier == DOM_IDEAL)
		return dom_rebirth_ideal(d, u, row, col);
	return tier == DOM_ANY || !dom_haunted(d, row, col);
}

/* A random cell of the rectangle fit for tier, or -1. */
static int dom_rebirth_pick(struct game_state *d, const struct dom_unit *u, int r0, int r1, int c0,
			    int c1, enum dom_rebirth_tier tier)
{
	int k = 0;
	for (int r = r0; r <= r1; r++)
		for (int c = c0; c <= c1; c++)
			if (dom_rebirth_ok(d, u, r, c, tier))
				d->cells[k++] = dom_cell(d, r, c);
	return k ? d->cells[rng_uniform(&d->rng, 0, k - 1)] : -1;
}

/* Marks the cells closer than DOM_REBIRTH_WITCH_DISTANCE to a witch: the
 * witches stand still while units are reborn, so once a round is enough. */
static void dom_mark_near_witches(struct game_state *d)
{
	const int k = DOM_REBIRTH_WITCH_DISTANCE - 1;
	memset(d->near_witch, 0, (size_t)d->n * d->n * sizeof *d->near_witch);
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		for (int r = w->row - k; r <= w->row + k; r++)
			for (int c = w->col - k; c <= w->col + k; c++)
				if (dom_inside(d, r, c) && dom_manhattan(w->row, w->col, r, c) <= k)
					d->near_witch[dom_cell(d, r, c)] = true;
	}
}

/* The ideal cell of the box; else a free cell of the box, then of the
 * board.  "Legal" in the seed is read as "not haunted" as long as such a
 * cell exists, so a reborn unit is never killed by standing still. */
static void dom_rebirth(struct game_state *d, struct dom_unit *u)
{
	int r0, r1, c0, c1, n = d->n;
	dom_box(n, u->owner, &r0, &r1, &c0, &c1);
	int cell = dom_rebirth_pick(d, u, r0, r1, c0, c1, DOM_IDEAL);
	if (cell < 0)
		cell = dom_rebirth_pick(d, u, r0, r1, c0, c1, DOM_QUIET);
	if (cell < 0)
		cell = dom_rebirth_pick(d, u, 0, n - 1, 0, n - 1, DOM_QUIET);
	if (cell < 0)
		cell = dom_rebirth_pick(d, u, 0, n - 1, 0, n - 1, DOM_ANY);
	if (cell < 0)
		return; /* the parameters leave room for every unit: not reached */
	u->row = cell / n;
	u->col = cell % n;
	u->health = dom_full_health(d, u->type);
	u->captured = false;
	d->unit_at[cell] = (int16_t)u->id;
}

/* ---- the round ----------------------------------------------------------- */

void dom_begin_log(struct game_state *d)
{
	memcpy(d->log.before, d->unit, (size_t)d->nunits * sizeof *d->unit);
	memset(d->log.step, -1, (size_t)d->nunits);
	memset(d->log.painted, 0, (size_t)d->nunits * sizeof *d->log.painted);
	d->nreborn = 0;
}

/* Units with a move to make, by id; None orders only keep their unit
 * healing.  The owner's freeze drops orders, this is a second guard. */
static int dom_selected_moves(struct game_state *d)
{
	int n = 0;
	for (int id = 0; id < d->nunits; id++) {
		int dir = d->order[id];
		if (dir != DOM_NO_ORDER && dir != DOM_NONE && !d->frozen[d->unit[id].owner])
			d->exec[n++] = (int16_t)id;
	}
	return n;
}

/* "Deliberately not moving a unit (or moving it in the None direction)":
 * units with no order or None; any other order, valid or not, keeps them
 * from healing.  Captured units are reborn at full health anyway. */
static void dom_heal(struct game_state *d)
{
	for (int id = 0; id < d->nunits; id++) {
		struct dom_unit *u = &d->unit[id];
		if (u->type == DOM_WITCH || u->captured)
			continue;
		if (d->order[id] != DOM_NO_ORDER && d->order[id] != DOM_NONE)
			continue;
		int regen = u->type == DOM_FARMER ? d->p.farmer_regen : d->p.knight_regen;
		int full = dom_full_health(d, u->type);
		u->health = u->health + regen < full ? u->health + regen : full;
	}
}

static void dom_forget_orders(struct game_state *d)
{
	memset(d->order, DOM_NO_ORDER, (size_t)d->nunits);
	memset(d->norders, 0, sizeof d->norders);
}

/* Healing, the rebirth of the units captured, the scores. */
static void dom_end_round(struct game_state *d)
{
	dom_heal(d);
	if (d->nreborn)
		dom_mark_near_witches(d);
	for (int i = 0; i < d->nreborn; i++)
		dom_rebirth(d, &d->unit[d->reborn[i]]);
	for (int q = 0; q < DOM_PLAYERS; q++)
		d->score[q] += d->land[q];
}

/* The units with an order act one at a time, in one random order (the
 * seed's rule), then the round closes.  Once the match is over, orders
 * that come anyway go nowhere. */
void dom_advance(struct game_state *d)
{
	if (d->round >= d->p.rounds) {
		dom_forget_orders(d);
		return;
	}
	dom_begin_log(d);
	int n = dom_selected_moves(d);
	rng_permutation(&d->rng, d->perm, n);
	for (int i = 0; i < n; i++)
		dom_execute(d, d->exec[d->perm[i]]);
	dom_end_round(d);
	dom_forget_orders(d);
	d->round++;
}
