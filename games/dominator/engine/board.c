/* board.c - Dominator's board (generated or fixed) and the first placement.
 *
 * A generated board follows the original engine's generator: walls around,
 * then wall "snakes" while some cell has no wall in the 9 x 9 square around
 * it.  A snake starts on such a cell, picked at random, and takes up to 15
 * orthogonal steps, never turning back: each step goes ahead, left or right
 * (at random among those that keep 5 free cells ahead and to both sides of
 * the new cell, and its two diagonal cells ahead free).  Then each of its
 * cells within 3 (Chebyshev) of a wall not its own is dropped, so corridors
 * stay at least 3 cells wide.  Diagonal pinches (two walls touching by a
 * corner between two free cells) are closed with one more wall, and the
 * board is drawn again until its free cells are one 4-connected region and
 * every unit fits.  On the default 37 x 37 board that makes about 108
 * inner walls.
 *
 * Witches start in their box 4 or more apart (Manhattan) from every other
 * witch, farmers and knights 4 or more from every witch (the original's
 * start; rebirth keeps 3, rules.c).
 */
#include <stdio.h>
#include <string.h>

#include "games/dominator/dom.h"

#define DOM_SNAKE_STEPS 15
#define DOM_SNAKE_ROOM 4  /* a snake starts with no wall this close (Chebyshev) */
#define DOM_SNAKE_GAP 3   /* pieces this close to another wall are dropped */
#define DOM_SNAKE_AHEAD 5 /* free cells a step needs ahead and to each side */
#define DOM_BOARD_ATTEMPTS 100
#define DOM_BORDER_LABEL 1 /* snake labels start at 2; 0 is no wall */

/* ---- units --------------------------------------------------------------- */

void dom_clear_units(struct game_state *d)
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
static int dom_new_unit(struct game_state *d, int type, int owner)
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

static void dom_put(struct game_state *d, int id, int row, int col)
{
	d->unit[id].row = row;
	d->unit[id].col = col;
	d->unit_at[dom_cell(d, row, col)] = (int16_t)id;
}

static bool dom_free_cell(const struct game_state *d, int row, int col)
{
	int cell = dom_cell(d, row, col);
	return !d->wall[cell] && d->unit_at[cell] == DOM_NO_UNIT;
}

int dom_add_unit(struct game_state *d, int type, int owner, int row, int col)
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

static bool dom_witch_spot(const struct game_state *d, int row, int col)
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

static bool dom_quiet_spot(const struct game_state *d, int row, int col)
{
	return dom_free_cell(d, row, col) && !dom_haunted(d, row, col);
}

/* Where the original starts farmers and knights: DOM_START_WITCH_DISTANCE
 * or more from every witch. */
static bool dom_start_spot(const struct game_state *d, int row, int col)
{
	if (!dom_free_cell(d, row, col))
		return false;
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		if (dom_manhattan(w->row, w->col, row, col) < DOM_START_WITCH_DISTANCE)
			return false;
	}
	return true;
}

/* Collects the box's cells that pass test into d->cells; picks one at
 * random.  False when none passes. */
static bool dom_pick_in_box(struct game_state *d, int player,
			    bool (*test)(const struct game_state *, int, int), int *row, int *col)
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
static bool dom_place_all(struct game_state *d)
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
		if (!dom_pick_in_box(d, owner, dom_start_spot, &row, &col) &&
		    !dom_pick_in_box(d, owner, dom_quiet_spot, &row, &col) &&
		    !dom_pick_in_box(d, owner, dom_free_cell, &row, &col))
			return false;
		dom_put(d, id, row, col);
	}
	return true;
}

/* ---- generated boards ---------------------------------------------------- */

static bool dom_wall_at(const struct game_state *d, int row, int col)
{
	return dom_inside(d, row, col) && d->wall[dom_cell(d, row, col)];
}

static void dom_set_wall(struct game_state *d, int row, int col, bool wall, int label)
{
	d->wall[dom_cell(d, row, col)] = wall;
	d->mark[dom_cell(d, row, col)] = (uint16_t)(wall ? label : 0);
}

/* The cells with no wall within DOM_SNAKE_ROOM (Chebyshev), into d->cells;
 * returns how many.  Row counts first, then columns of them: linear in
 * the board. */
static int dom_snake_starts(struct game_state *d)
{
	int n = d->n, k = DOM_SNAKE_ROOM, found = 0;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			int walls = 0;
			for (int x = c - k; x <= c + k; x++)
				walls += dom_wall_at(d, r, x);
			d->row_walls[dom_cell(d, r, c)] = (uint8_t)walls;
		}
	for (int r = k; r < n - k; r++)
		for (int c = k; c < n - k; c++) {
			int walls = 0;
			for (int y = r - k; y <= r + k; y++)
				walls += d->row_walls[dom_cell(d, y, c)];
			if (walls == 0)
				d->cells[found++] = dom_cell(d, r, c);
		}
	return found;
}

/* DOM_SNAKE_AHEAD cells from (row, col) on in direction dir are free. */
static bool dom_line_free(const struct game_state *d, int row, int col, int dir)
{
	int dr, dc;
	dom_dir_delta(dir, &dr, &dc);
	for (int i = 0; i < DOM_SNAKE_AHEAD; i++, row += dr, col += dc)
		if (!dom_inside(d, row, col) || d->wall[dom_cell(d, row, col)])
			return false;
	return true;
}

static int dom_left(int dir)
{
	return (dir + 2) % 8;
}

static int dom_right(int dir)
{
	return (dir + 6) % 8;
}

/* A snake at (row, col) may step in direction dir: the new cell has free
 * lines ahead and to both sides, and its two diagonal cells ahead free. */
static bool dom_snake_may_step(const struct game_state *d, int row, int col, int dir)
{
	int dr, dc, lr, lc, rr, rc;
	dom_dir_delta(dir, &dr, &dc);
	dom_dir_delta(dom_left(dir), &lr, &lc);
	dom_dir_delta(dom_right(dir), &rr, &rc);
	row += dr;
	col += dc;
	return dom_line_free(d, row, col, dir) && dom_line_free(d, row, col, dom_left(dir)) &&
	       dom_line_free(d, row, col, dom_right(dir)) &&
	       dom_inside(d, row + dr + lr, col + dc + lc) &&
	       !d->wall[dom_cell(d, row + dr + lr, col + dc + lc)] &&
	       dom_inside(d, row + dr + rr, col + dc + rc) &&
	       !d->wall[dom_cell(d, row + dr + rr, col + dc + rc)];
}

/* A wall not labelled `own` within DOM_SNAKE_GAP (Chebyshev). */
static bool dom_foreign_wall_near(const struct game_state *d, int row, int col, int own)
{
	for (int r = row - DOM_SNAKE_GAP; r <= row + DOM_SNAKE_GAP; r++)
		for (int c = col - DOM_SNAKE_GAP; c <= col + DOM_SNAKE_GAP; c++)
			if (dom_wall_at(d, r, c) && d->mark[dom_cell(d, r, c)] != own)
				return true;
	return false;
}

/* One snake from cell, labelled `label`.  Its first heading is one of the
 * four directions or, one time in five as in the original, none (then the
 * first step goes sideways: left or right of "none" is right or left). */
static void dom_snake(struct game_state *d, int cell, int label)
{
	int row = cell / d->n, col = cell % d->n, len = 0;
	int body[DOM_SNAKE_STEPS + 1];
	int dir = 2 * rng_uniform(&d->rng, 0, 4); /* 8: DOM_NONE */
	dom_set_wall(d, row, col, true, label);
	body[len++] = cell;
	for (int step = 0; step < DOM_SNAKE_STEPS; step++) {
		int options[3], n = 0;
		const int tries[3] = { dir, dom_left(dir), dom_right(dir) };
		for (int t = 0; t < 3; t++)
			if (tries[t] != DOM_NONE && dom_snake_may_step(d, row, col, tries[t]))
				options[n++] = tries[t];
		if (n == 0)
			break;
		dir = options[rng_uniform(&d->rng, 0, n - 1)];
		int dr, dc;
		dom_dir_delta(dir, &dr, &dc);
		row += dr;
		col += dc;
		dom_set_wall(d, row, col, true, label);
		body[len++] = dom_cell(d, row, col);
	}
	/* Decided on the whole snake before any piece goes. */
	bool drop[DOM_SNAKE_STEPS + 1];
	for (int i = 0; i < len; i++)
		drop[i] = dom_foreign_wall_near(d, body[i] / d->n, body[i] % d->n, label);
	for (int i = 0; i < len; i++)
		if (drop[i])
			dom_set_wall(d, body[i] / d->n, body[i] % d->n, false, 0);
}

/* Two walls touching only by a corner, between two free cells: a knight
 * could slip between them.  Closed with a wall on one of the two free
 * cells, at random, as the original does. */
static void dom_close_pinch(struct game_state *d, int r, int c)
{
	int a = dom_cell(d, r, c), b = a + 1, x = a + d->n, y = x + 1;
	bool *w = d->wall;
	int close;
	if (w[a] && w[y] && !w[b] && !w[x])
		close = rng_uniform(&d->rng, 0, 1) ? b : x;
	else if (w[b] && w[x] && !w[a] && !w[y])
		close = rng_uniform(&d->rng, 0, 1) ? a : y;
	else
		return;
	w[close] = true;
	d->mark[close] = DOM_BORDER_LABEL;
}

static void dom_close_pinches(struct game_state *d)
{
	for (int r = 0; r + 1 < d->n; r++)
		for (int c = 0; c + 1 < d->n; c++)
			dom_close_pinch(d, r, c);
}

static void dom_blank_board(struct game_state *d)
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

static void dom_generate(struct game_state *d)
{
	dom_blank_board(d);
	for (int label = DOM_BORDER_LABEL + 1;; label++) {
		int starts = dom_snake_starts(d);
		if (starts == 0)
			break;
		dom_snake(d, d->cells[rng_uniform(&d->rng, 0, starts - 1)], label);
	}
	dom_close_pinches(d);
}

static void dom_load_fixed(struct game_state *d)
{
	for (int cell = 0; cell < d->n * d->n; cell++) {
		int v = d->p.board[cell];
		d->wall[cell] = v == DOM_BOARD_WALL;
		d->owner[cell] = (int8_t)(v >= 0 ? v : DOM_NOBODY);
		if (v >= 0)
			d->land[v]++;
	}
}

bool dom_board_connected(struct game_state *d)
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

int dom_board_setup(struct game_state *d, err_t err)
{
	d->n = d->p.rows;
	memset(d->land, 0, sizeof d->land);
	memset(d->score, 0, sizeof d->score);
	if (d->p.fixed_board) {
		dom_load_fixed(d);
		if (dom_place_all(d))
			return 0;
		err_set(err,
			"board: a box lacks free cells for its units (witches %d apart)",
			DOM_WITCH_SPACING);
		return -1;
	}
	for (int attempt = 0; attempt < DOM_BOARD_ATTEMPTS; attempt++) {
		dom_generate(d);
		if (dom_board_connected(d) && dom_place_all(d))
			return 0;
	}
	err_set(err, "witches: %d per player do not fit %d apart in a box",
		d->p.witches, DOM_WITCH_SPACING);
	return -1;
}
