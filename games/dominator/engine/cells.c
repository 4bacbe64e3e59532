/* cells.c - what Dominator's board generator and its rules both stand on:
 * directions, a unit type's full health, painting a cell, and where the
 * witches haunt.
 */
#include <string.h>

#include "games/dominator/dom.h"

int dom_full_health(const struct game_state *d, int type)
{
	return type == DOM_FARMER ? d->p.farmer_health
	       : type == DOM_KNIGHT ? d->p.knight_health
				    : 0;
}

void dom_paint(struct game_state *d, int row, int col, int owner)
{
	int cell = dom_cell(d, row, col);
	int old = d->owner[cell];
	if (old == owner)
		return;
	if (old != DOM_NOBODY)
		d->land[old]--;
	if (owner != DOM_NOBODY)
		d->land[owner]++;
	d->owner[cell] = (int8_t)owner;
}

/* Row and column steps of the directions 0..8 (Bottom .. LB, None). */
static const int dom_delta[DOM_DIRS][2] = {
	{ 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 }, { 0, 0 },
};

void dom_dir_delta(int dir, int *dr, int *dc)
{
	if (dir < 0 || dir >= DOM_DIRS)
		dir = DOM_NONE;
	*dr = dom_delta[dir][0];
	*dc = dom_delta[dir][1];
}

/* A quarter turn is 2 steps of the direction circle, and player p's view is
 * turned p quarters; None has no way to turn. */
int dom_turn_dir(int player, int dir)
{
	return dir == DOM_NONE ? DOM_NONE : (dir + 2 * player) % 8;
}

/* ---- witches ------------------------------------------------------------- */

void dom_update_witches(struct game_state *d)
{
	for (int i = 0; i < d->nwitches; i++) {
		struct dom_unit *w = &d->unit[d->witch[i]];
		w->active = true;
		for (int j = 0; j < d->nwitches && w->active; j++) {
			const struct dom_unit *o = &d->unit[d->witch[j]];
			if (j != i && dom_manhattan(w->row, w->col, o->row, o->col) <= DOM_HAUNT_RADIUS)
				w->active = false;
		}
	}
}

int dom_haunters(const struct game_state *d, int row, int col, int count[DOM_PLAYERS])
{
	int total = 0;
	memset(count, 0, DOM_PLAYERS * sizeof *count);
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		if (w->active && dom_manhattan(w->row, w->col, row, col) <= DOM_HAUNT_RADIUS) {
			count[w->owner]++;
			total++;
		}
	}
	return total;
}

int dom_witch_reach(const struct game_state *d, const struct dom_unit *w,
		    int cells[DOM_REACH_MAX])
{
	int n = 0;
	for (int r = w->row - DOM_HAUNT_RADIUS; r <= w->row + DOM_HAUNT_RADIUS; r++)
		for (int c = w->col - DOM_HAUNT_RADIUS; c <= w->col + DOM_HAUNT_RADIUS; c++)
			if (dom_inside(d, r, c) &&
			    dom_manhattan(r, c, w->row, w->col) <= DOM_HAUNT_RADIUS &&
			    !d->wall[dom_cell(d, r, c)])
				cells[n++] = dom_cell(d, r, c);
	return n;
}

bool dom_haunted(const struct game_state *d, int row, int col)
{
	int count[DOM_PLAYERS];
	return dom_haunters(d, row, col, count) > 0;
}
