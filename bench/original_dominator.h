/* original_dominator.h - the first round of the original Dominator engine,
 * modelled from its public source (Board.cc, State.hh), for
 * bench/fidelity.c: the figure our engine's first round is compared with
 * when no published figure was measured with the same players.
 *
 * Written apart from games/dominator/ on purpose, in the original's own
 * terms, so that a slip in either shows as a gap: the original places each
 * player in turn (its witches by rejection sampling at Manhattan distance 4
 * or more from every witch so far, then its knights, then its farmers, each
 * group on a shuffled list of its box's cells 4 or more from every witch);
 * it keeps one "haunted" flag per cell, set around the witches at the start
 * and recomputed, active witches first, only when a witch moves; a farmer or
 * knight stepping onto a flagged cell is captured, and after a witch's move
 * every farmer or knight on a flagged cell is.  Diagonal orders of farmers
 * and witches are dropped before the round, as the original drops them.
 *
 * The players are modelled too, choosing from the state the round starts
 * from as the kit's players do (a uniform choice of direction is the same
 * in any player's rotated view).  The board's walls come from our generator:
 * the walls are compared on their own.
 */
#ifndef BENCH_ORIGINAL_DOMINATOR_H
#define BENCH_ORIGINAL_DOMINATOR_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "games/dominator/dom.h"
#include "games/kit/rng.h"
#include "games/seed.h"

/* The logic of the players modelled. */
enum odom_player {
	ODOM_SHIPPED_DEMO, /* games/dominator/players/AIDemo.c */
	ODOM_PUBLIC_DEMO,  /* bench/originals/dominator.c */
	ODOM_RANDOM_STEPS, /* each unit a random step of its kind (the unit tests') */
};

struct odom_unit {
	int type, player, row, col, health;
	bool active, captured;
};

struct odom {
	int n;
	struct rng rng;
	bool wall[DOM_MAX_CELLS], haunted[DOM_MAX_CELLS];
	int at[DOM_MAX_CELLS]; /* a unit's index, or -1 */
	int nunits, captures;
	struct odom_unit u[DOM_MAX_UNITS];
	int order[DOM_MAX_UNITS];
	int cells[DOM_MAX_CELLS], perm[DOM_MAX_CELLS];
};

static const int odom_dr[9] = { 1, 1, 0, -1, -1, -1, 0, 1, 0 };
static const int odom_dc[9] = { 0, 1, 1, 1, 0, -1, -1, -1, 0 };

static bool odom_inside(const struct odom *o, int r, int c)
{
	return r >= 0 && c >= 0 && r < o->n && c < o->n;
}

/* The unit at (r, c), or NULL (outside the board too). */
static struct odom_unit *odom_unit_at(struct odom *o, int r, int c)
{
	if (!odom_inside(o, r, c) || o->at[r * o->n + c] < 0)
		return NULL;
	return &o->u[o->at[r * o->n + c]];
}

/* On the board, no wall, nobody there. */
static bool odom_empty(struct odom *o, int r, int c)
{
	return odom_inside(o, r, c) && !o->wall[r * o->n + c] && !odom_unit_at(o, r, c);
}

/* Sets the diamond of radius 2 around (r, c). */
static void odom_haunt_around(struct odom *o, int r, int c)
{
	for (int dr = -2; dr <= 2; dr++)
		for (int dc = -2; dc <= 2; dc++)
			if (abs(dr) + abs(dc) <= 2 && odom_inside(o, r + dr, c + dc))
				o->haunted[(r + dr) * o->n + c + dc] = true;
}

/* A witch within `reach` (Manhattan) of (r, c), other than the one there. */
static bool odom_witch_near(struct odom *o, int r, int c, int reach)
{
	for (int dr = -reach; dr <= reach; dr++)
		for (int dc = -reach; dc <= reach; dc++) {
			struct odom_unit *w = odom_unit_at(o, r + dr, c + dc);
			if ((dr || dc) && abs(dr) + abs(dc) <= reach && w && w->type == DOM_WITCH)
				return true;
		}
	return false;
}

static void odom_update_haunted(struct odom *o)
{
	memset(o->haunted, 0, sizeof o->haunted);
	for (int k = 0; k < o->nunits; k++) {
		struct odom_unit *w = &o->u[k];
		if (w->type != DOM_WITCH)
			continue;
		w->active = !odom_witch_near(o, w->row, w->col, DOM_HAUNT_RADIUS);
		if (w->active)
			odom_haunt_around(o, w->row, w->col);
	}
}

static bool odom_start_cell(struct odom *o, int r, int c)
{
	return odom_empty(o, r, c) && !o->haunted[r * o->n + c] && !odom_witch_near(o, r, c, 3);
}

static void odom_place(struct odom *o, int type, int player, int r, int c, int health)
{
	o->u[o->nunits] = (struct odom_unit){ .type = type, .player = player, .row = r,
					       .col = c, .health = health, .active = true };
	o->at[r * o->n + c] = o->nunits++;
}

/* The original's boxes, in its own words (the same as dom_box()'s). */
static void odom_box(int n, int player, int *r0, int *r1, int *c0, int *c1)
{
	bool top = (player + 1) % 4 < 2, left = player < 2;
	*r0 = top ? 1 : n / 2 + 2;
	*r1 = top ? n / 2 - 2 : n - 2;
	*c0 = left ? 1 : n / 2 + 2;
	*c1 = left ? n / 2 - 2 : n - 2;
}

/* `count` units of a type on a shuffled list of the box's start cells;
 * false when they do not fit (never with the default parameters). */
static bool odom_spawn(struct odom *o, int player, int type, int count, int health)
{
	int r0, r1, c0, c1, k = 0;
	odom_box(o->n, player, &r0, &r1, &c0, &c1);
	for (int r = r0; r <= r1; r++)
		for (int c = c0; c <= c1; c++)
			if (odom_start_cell(o, r, c))
				o->cells[k++] = r * o->n + c;
	if (k < count)
		return false;
	rng_permutation(&o->rng, o->perm, k);
	for (int i = 0; i < count; i++)
		odom_place(o, type, player, o->cells[o->perm[i]] / o->n, o->cells[o->perm[i]] % o->n,
			   health);
	return true;
}

static bool odom_setup(struct odom *o, const struct game_state *d, uint64_t seed)
{
	const struct dom_params *p = &d->p;
	o->n = d->n;
	o->rng = rng_seeded(seed_derive(seed, "original dominator", 0)); /* apart from ours */
	o->nunits = o->captures = 0;
	memcpy(o->wall, d->wall, sizeof o->wall);
	memset(o->haunted, 0, sizeof o->haunted);
	memset(o->at, -1, sizeof o->at);
	for (int pl = 0; pl < DOM_PLAYERS; pl++) {
		int r0, r1, c0, c1, r, c;
		odom_box(o->n, pl, &r0, &r1, &c0, &c1);
		for (int w = 0; w < p->witches; w++) {
			do {
				r = rng_uniform(&o->rng, r0, r1);
				c = rng_uniform(&o->rng, c0, c1);
			} while (!odom_start_cell(o, r, c));
			odom_haunt_around(o, r, c);
			odom_place(o, DOM_WITCH, pl, r, c, 0);
		}
		if (!odom_spawn(o, pl, DOM_KNIGHT, p->knights, p->knight_health) ||
		    !odom_spawn(o, pl, DOM_FARMER, p->farmers, p->farmer_health))
			return false;
	}
	return true;
}

/* ---- the players ----------------------------------------------------------- */

static bool odom_safe(struct odom *o, int r, int c)
{
	return odom_empty(o, r, c) && !o->haunted[r * o->n + c];
}

/* AIDemo.c: a farmer tries up to four random straight steps to a free cell
 * out of reach of the witches and takes the first one (it prefers a cell
 * not yet its team's, and the only coloured cells, under its team's
 * farmers at the original's start, are not free); a knight attacks an adjacent enemy farmer or knight, else
 * takes one random step of the eight if it is free and out of reach; a
 * witch takes a random straight step to a free cell. */
static int odom_shipped_demo(struct odom *o, const struct odom_unit *u)
{
	if (u->type == DOM_FARMER) {
		for (int tries = 0; tries < 4; tries++) {
			int d = 2 * rng_uniform(&o->rng, 0, 3);
			if (odom_safe(o, u->row + odom_dr[d], u->col + odom_dc[d]))
				return d;
		}
		return DOM_NONE;
	}
	int d = u->type == DOM_KNIGHT ? rng_uniform(&o->rng, 0, 7) : 2 * rng_uniform(&o->rng, 0, 3);
	if (u->type == DOM_WITCH)
		return odom_empty(o, u->row + odom_dr[d], u->col + odom_dc[d]) ? d : DOM_NONE;
	for (int a = 0; a < 8; a++) {
		struct odom_unit *e = odom_unit_at(o, u->row + odom_dr[a], u->col + odom_dc[a]);
		if (e && e->player != u->player && e->type != DOM_WITCH)
			return a;
	}
	return odom_safe(o, u->row + odom_dr[d], u->col + odom_dc[d]) ? d : DOM_NONE;
}

/* bench/originals/dominator.c: farmers and knights a random straight step,
 * witches nothing. */
static int odom_public_demo(struct odom *o, const struct odom_unit *u)
{
	return u->type == DOM_WITCH ? DOM_NONE : 2 * rng_uniform(&o->rng, 0, 3);
}

/* Knights one of the eight steps, farmers and witches one of the four
 * straight ones, whatever lies there. */
static int odom_random_step(struct odom *o, const struct odom_unit *u)
{
	return u->type == DOM_KNIGHT ? rng_uniform(&o->rng, 0, 7) : 2 * rng_uniform(&o->rng, 0, 3);
}

static int odom_choose(struct odom *o, const struct odom_unit *u, enum odom_player who)
{
	switch (who) {
	case ODOM_SHIPPED_DEMO:
		return odom_shipped_demo(o, u);
	case ODOM_PUBLIC_DEMO:
		return odom_public_demo(o, u);
	default:
		return odom_random_step(o, u);
	}
}

/* ---- the round ----------------------------------------------------------- */

static void odom_capture(struct odom *o, struct odom_unit *u)
{
	o->at[u->row * o->n + u->col] = -1;
	u->captured = true;
	o->captures++;
}

static void odom_step(struct odom *o, struct odom_unit *u, int r, int c)
{
	o->at[r * o->n + c] = o->at[u->row * o->n + u->col];
	o->at[u->row * o->n + u->col] = -1;
	u->row = r;
	u->col = c;
}

/* Board::move(), but for who gets a captured unit, which the count does
 * not need. */
static void odom_move(struct odom *o, struct odom_unit *u, int d, const struct dom_params *p)
{
	int r = u->row + odom_dr[d], c = u->col + odom_dc[d];
	if (!odom_inside(o, r, c) || o->wall[r * o->n + c])
		return;
	struct odom_unit *v = odom_unit_at(o, r, c);
	if (!v) {
		odom_step(o, u, r, c);
		if (u->type != DOM_WITCH) {
			if (o->haunted[r * o->n + c])
				odom_capture(o, u);
			return;
		}
		odom_update_haunted(o);
		for (int k = 0; k < o->nunits; k++)
			if (o->u[k].type != DOM_WITCH && !o->u[k].captured &&
			    o->haunted[o->u[k].row * o->n + o->u[k].col])
				odom_capture(o, &o->u[k]);
		return;
	}
	if (u->type == DOM_KNIGHT && v->type != DOM_WITCH && v->player != u->player) {
		v->health -= rng_uniform(&o->rng, p->damage_min, p->damage_max);
		if (v->health <= 0)
			odom_capture(o, v);
	}
}

/* Units captured in the first round of seed's match on d's board, four
 * players of logic `who`; -1 when the units do not fit. */
static int odom_first_round_captures(struct odom *o, const struct game_state *d, uint64_t seed,
				     enum odom_player who)
{
	if (!odom_setup(o, d, seed))
		return -1;
	for (int k = 0; k < o->nunits; k++) {
		const struct odom_unit *u = &o->u[k];
		int dir = odom_choose(o, u, who);
		bool dropped = dir % 2 && u->type != DOM_KNIGHT;
		o->order[k] = dropped ? DOM_NONE : dir;
	}
	int moves = 0;
	for (int k = 0; k < o->nunits; k++)
		if (o->order[k] != DOM_NONE)
			o->cells[moves++] = k;
	rng_permutation(&o->rng, o->perm, moves);
	for (int i = 0; i < moves; i++) {
		struct odom_unit *u = &o->u[o->cells[o->perm[i]]];
		if (!u->captured)
			odom_move(o, u, o->order[o->cells[o->perm[i]]], &d->p);
	}
	return o->captures;
}

#endif
