/* board.c - Dominator's board (generated or fixed) and the first placement.
 *
 * A generated board is walls around random wall "snakes": short random
 * walks that start at least 4 cells from any wall and drop every piece that
 * would come within 3 cells (Chebyshev) of another snake or of the border,
 * so corridors stay at least 3 cells wide.  Diagonal pinches are opened, and
 * the board is drawn again until its free cells are one 4-connected region
 * and every unit fits.  Witches start in their box 4 or more apart (Manhattan)
 * from every other witch, the others on free cells no witch haunts.
 */
#include <stdio.h>
#include <string.h>

#include "games/dominator/dom.h"

#define DOM_SNAKE_STEPS 15
#define DOM_SNAKE_START_GAP 4 /* from any wall */
#define DOM_SNAKE_GAP 3       /* pieces this close to another snake are dropped */
#define DOM_CELLS_PER_SNAKE 50
#define DOM_SNAKE_START_TRIES 64
#define DOM_BOARD_ATTEMPTS 100
#define DOM_BORDER_LABEL 1 /* snake labels start at 2; 0 is no wall */

/* ---- units --------------------------------------------------------------- */

void dom_clear_units(struct dom_state *d)
{
	for (int i = 0; i < d->n * d->n; i++)
		d->unit_at[i] = DOM_NO_UNIT;
	d->nunits = 0;
	d->nwitches = 0;
	d->nreborn = 0;
	memset(d->order, DOM_NO_ORDER, sizeof d->order);
	memset(d->norders, 0, sizeof d->norders);
}

/* A unit off the board (row -1) until dom_put() places it. */
static int dom_new_unit(struct dom_state *d, int type, int owner)
{
	if (d->nunits == DOM_MAX_UNITS || type < 0 || type >= DOM_TYPES || owner < 0 ||
	    owner >= DOM_PLAYERS)
		return -1;
	if (type == DOM_WITCH && d->nwitches == DOM_PLAYERS * DOM_MAX_WITCHES)
		return -1;
	int id = d->nunits++;
	d->unit[id] = (struct dom_unit){ .id = id, .type = type, .owner = owner, .row = -1,
					 .col = -1, .health = dom_full_health(d, type) };
	d->order[id] = DOM_NO_ORDER;
	if (type == DOM_WITCH)
		d->witch[d->nwitches++] = (int16_t)id;
	return id;
}

static void dom_put(struct dom_state *d, int id, int row, int col)
{
	d->unit[id].row = row;
	d->unit[id].col = col;
	d->unit_at[dom_cell(d, row, col)] = (int16_t)id;
}

static bool dom_free_cell(const struct dom_state *d, int row, int col)
{
	int cell = dom_cell(d, row, col);
	return !d->wall[cell] && d->unit_at[cell] == DOM_NO_UNIT;
}

int dom_add_unit(struct dom_state *d, int type, int owner, int row, int col)
{
	if (!dom_inside(d, row, col) || !dom_free_cell(d, row, col))
		return -1;
	int id = dom_new_unit(d, type, owner);
	if (id < 0)
		return -1;
	dom_put(d, id, row, col);
	if (type == DOM_WITCH)
		dom_update_witches(d);
	return id;
}

/* ---- placement ----------------------------------------------------------- */

static bool dom_witch_spot(const struct dom_state *d, int row, int col)
{
	if (!dom_free_cell(d, row, col))
		return false;
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		if (w->row >= 0 && dom_manhattan(w->row, w->col, row, col) < DOM_WITCH_SPACING)
			return false;
	}
	return true;
}

static bool dom_quiet_spot(const struct dom_state *d, int row, int col)
{
	return dom_free_cell(d, row, col) && !dom_haunted(d, row, col);
}

/* Collects the box's cells that pass test into d->cells; picks one at
 * random.  False when none passes. */
static bool dom_pick_in_box(struct dom_state *d, int player,
			    bool (*test)(const struct dom_state *, int, int), int *row, int *col)
{
	int r0, r1, c0, c1, k = 0;
	dom_box(d->n, player, &r0, &r1, &c0, &c1);
	for (int r = r0; r <= r1; r++)
		for (int c = c0; c <= c1; c++)
			if (test(d, r, c))
				d->cells[k++] = dom_cell(d, r, c);
	if (k == 0)
		return false;
	int cell = d->cells[rng_uniform(&d->rng, 0, k - 1)];
	*row = cell / d->n;
	*col = cell % d->n;
	return true;
}

/* Ids by player, then farmers, knights, witches; witches placed first. */
static bool dom_place_all(struct dom_state *d)
{
	const struct dom_params *p = &d->p;
	dom_clear_units(d);
	for (int pl = 0; pl < DOM_PLAYERS; pl++) {
		for (int i = 0; i < p->farmers; i++)
			dom_new_unit(d, DOM_FARMER, pl);
		for (int i = 0; i < p->knights; i++)
			dom_new_unit(d, DOM_KNIGHT, pl);
		for (int i = 0; i < p->witches; i++)
			dom_new_unit(d, DOM_WITCH, pl);
	}
	int row, col;
	for (int i = 0; i < d->nwitches; i++) {
		int id = d->witch[i];
		if (!dom_pick_in_box(d, d->unit[id].owner, dom_witch_spot, &row, &col))
			return false;
		dom_put(d, id, row, col);
	}
	dom_update_witches(d);
	for (int id = 0; id < d->nunits; id++) {
		int owner = d->unit[id].owner;
		if (d->unit[id].type == DOM_WITCH)
			continue;
		if (!dom_pick_in_box(d, owner, dom_quiet_spot, &row, &col) &&
		    !dom_pick_in_box(d, owner, dom_free_cell, &row, &col))
			return false;
		dom_put(d, id, row, col);
	}
	return true;
}

/* ---- generated boards ---------------------------------------------------- */

/* No wall but those labelled `own` within Chebyshev distance `gap`. */
static bool dom_clear_around(const struct dom_state *d, int row, int col, int gap, int own)
{
	for (int r = row - gap; r <= row + gap; r++)
		for (int c = col - gap; c <= col + gap; c++) {
			if (!dom_inside(d, r, c))
				continue;
			int cell = dom_cell(d, r, c);
			if (d->wall[cell] && d->mark[cell] != own)
				return false;
		}
	return true;
}

static void dom_snake(struct dom_state *d, int label)
{
	int n = d->n, row = 0, col = 0, tries = 0;
	do {
		if (tries++ == DOM_SNAKE_START_TRIES)
			return;
		row = rng_uniform(&d->rng, 1, n - 2);
		col = rng_uniform(&d->rng, 1, n - 2);
	} while (!dom_clear_around(d, row, col, DOM_SNAKE_START_GAP - 1, -1));
	int steps = rng_uniform(&d->rng, 0, DOM_SNAKE_STEPS);
	for (int i = 0;; i++) {
		if (dom_clear_around(d, row, col, DOM_SNAKE_GAP, label)) {
			d->wall[dom_cell(d, row, col)] = true;
			d->mark[dom_cell(d, row, col)] = (uint16_t)label;
		}
		if (i == steps)
			return;
		int dr, dc;
		dom_dir_delta(2 * rng_uniform(&d->rng, 0, 3), &dr, &dc);
		row += dr;
		col += dc;
		if (row < 1 || col < 1 || row > n - 2 || col > n - 2)
			return;
	}
}

/* Two walls touching only by a corner, between two free cells: a knight
 * could slip between them.  Opens one of the two walls at random. */
static bool dom_open_pinch(struct dom_state *d, int r, int c)
{
	int a = dom_cell(d, r, c), b = a + 1, x = a + d->n, y = x + 1;
	bool *w = d->wall;
	int open;
	if (w[a] && w[y] && !w[b] && !w[x])
		open = rng_uniform(&d->rng, 0, 1) ? a : y;
	else if (w[b] && w[x] && !w[a] && !w[y])
		open = rng_uniform(&d->rng, 0, 1) ? b : x;
	else
		return false;
	if (d->mark[open] == DOM_BORDER_LABEL)
		return false;
	w[open] = false;
	d->mark[open] = 0;
	return true;
}

static void dom_open_pinches(struct dom_state *d)
{
	bool again = true;
	while (again) {
		again = false;
		for (int r = 0; r + 1 < d->n; r++)
			for (int c = 0; c + 1 < d->n; c++)
				again |= dom_open_pinch(d, r, c);
	}
}

static void dom_blank_board(struct dom_state *d)
{
	int n = d->n;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			int cell = dom_cell(d, r, c);
			bool border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
			d->wall[cell] = border;
			d->mark[cell] = border ? DOM_BORDER_LABEL : 0;
			d->owner[cell] = DOM_NOBODY;
		}
}

static void dom_generate(struct dom_state *d)
{
	dom_blank_board(d);
	int snakes = (d->n - 2) * (d->n - 2) / DOM_CELLS_PER_SNAKE;
	for (int s = 0; s < snakes; s++)
		dom_snake(d, s + 2);
	dom_open_pinches(d);
}

static void dom_load_fixed(struct dom_state *d)
{
	for (int cell = 0; cell < d->n * d->n; cell++) {
		int v = d->p.board[cell];
		d->wall[cell] = v == DOM_BOARD_WALL;
		d->owner[cell] = (int8_t)(v >= 0 ? v : DOM_NOBODY);
		if (v >= 0)
			d->land[v]++;
	}
}

bool dom_board_connected(struct dom_state *d)
{
	int cells = d->n * d->n, start = -1, free_cells = 0;
	for (int i = 0; i < cells; i++) {
		d->mark[i] = 0;
		if (!d->wall[i]) {
			free_cells++;
			if (start < 0)
				start = i;
		}
	}
	if (start < 0)
		return false;
	int head = 0, tail = 0;
	d->cells[tail++] = start;
	d->mark[start] = 1;
	static const int step[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
	while (head < tail) {
		int cell = d->cells[head++], r = cell / d->n, c = cell % d->n;
		for (int k = 0; k < 4; k++) {
			int nr = r + step[k][0], nc = c + step[k][1];
			if (!dom_inside(d, nr, nc))
				continue;
			int next = dom_cell(d, nr, nc);
			if (!d->wall[next] && !d->mark[next]) {
				d->mark[next] = 1;
				d->cells[tail++] = next;
			}
		}
	}
	return tail == free_cells;
}

int dom_board_setup(struct dom_state *d, char err[GAME_ERRLEN])
{
	d->n = d->p.rows;
	memset(d->land, 0, sizeof d->land);
	memset(d->score, 0, sizeof d->score);
	if (d->p.fixed_board) {
		dom_load_fixed(d);
		if (dom_place_all(d))
			return 0;
		snprintf(err, GAME_ERRLEN,
			 "board: a box lacks free cells for its units (witches %d apart)",
			 DOM_WITCH_SPACING);
		return -1;
	}
	for (int attempt = 0; attempt < DOM_BOARD_ATTEMPTS; attempt++) {
		dom_generate(d);
		if (dom_board_connected(d) && dom_place_all(d))
			return 0;
	}
	snprintf(err, GAME_ERRLEN, "witches: %d per player do not fit %d apart in a box",
		 d->p.witches, DOM_WITCH_SPACING);
	return -1;
}
