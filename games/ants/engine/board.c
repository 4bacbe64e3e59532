/* board.c - Ants' board: water rivers, food rectangles, the colonies.
 *
 * The rules page: rivers are drawn at random and redrawn until all soil is
 * connected.  A river here is a random walk from a border cell heading
 * across the board, drifting sideways now and then.  The corners stay dry
 * one diagonal past the initial colony, so every colony has its cells and a
 * way out.  Each player gets a bread, a seed and a leaf rectangle placed at
 * random inside its own quadrant; a board where a rectangle is all water is
 * drawn again too, so food can appear everywhere it is meant to.
 */
#include <stdio.h>
#include <string.h>

#include "games/ants/ants.h"

/* Row and column steps of the directions 0..3; the rules walk with them too. */
static const int ant_delta[ANT_DIRS][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };

void ant_dir_delta(int dir, int *dr, int *dc)
{
	*dr = dir >= 0 && dir < ANT_DIRS ? ant_delta[dir][0] : 0;
	*dc = dir >= 0 && dir < ANT_DIRS ? ant_delta[dir][1] : 0;
}

#define ANT_BOARD_ATTEMPTS 100
#define ANT_CELLS_PER_RIVER 200 /* 25 x 25: three rivers */

int ant_full_life(const struct ant_params *p, int type)
{
	return type == ANT_QUEEN ? p->queen_life
	       : type == ANT_SOLDIER ? p->soldier_life
				     : p->worker_life;
}

void ant_corner(const struct ant_params *p, int player, int *row, int *col)
{
	*row = player == 2 || player == 3 ? p->rows - 1 : 0;
	*col = player == 1 || player == 2 ? p->cols - 1 : 0;
}

/* Manhattan distance to the nearest corner. */
static int ant_corner_distance(const struct ant_params *p, int row, int col)
{
	int best = p->rows + p->cols;
	for (int q = 0; q < ANT_PLAYERS; q++) {
		int r, c;
		ant_corner(p, q, &r, &c);
		int d = (r > row ? r - row : row - r) + (c > col ? c - col : col - c);
		best = d < best ? d : best;
	}
	return best;
}

/* ---- ants ---------------------------------------------------------------- */

void ant_clear(struct ant_state *g)
{
	int cells = g->p.rows * g->p.cols;
	for (int i = 0; i < cells; i++) {
		g->ant_at[i] = ANT_NONE;
		g->bonus[i] = ANT_NONE;
		g->water[i] = false;
	}
	g->nids = 0;
	g->neggs = 0;
}

int ant_add(struct ant_state *g, int type, int player, int row, int col)
{
	if (!ant_inside(g, row, col) || type < 0 || type >= ANT_TYPES || player < 0 ||
	    player >= ANT_PLAYERS || g->nids == ANT_MAX_IDS)
		return -1;
	int cell = ant_cell(g, row, col);
	if (g->water[cell] || g->ant_at[cell] != ANT_NONE)
		return -1;
	int id = g->nids++;
	g->ant[id] = (struct ant){ .alive = true, .type = (int8_t)type, .player = (int8_t)player,
				   .carried = ANT_NONE, .row = row, .col = col,
				   .life = ant_full_life(&g->p, type) };
	g->cmd[id].kind = ANT_NONE;
	g->ant_at[cell] = (int16_t)id;
	return id;
}

/* The colony along its corner's anti-diagonals, nearest first: queen,
 * soldiers, then workers, so soldiers shield the queen from the middle. */
static void ant_place_colony(struct ant_state *g, int player)
{
	int r0, c0, placed = 0;
	int total = 1 + g->p.ini_soldiers + g->p.ini_workers;
	ant_corner(&g->p, player, &r0, &c0);
	int sr = r0 == 0 ? 1 : -1, sc = c0 == 0 ? 1 : -1;
	for (int d = 0; placed < total; d++)
		for (int i = 0; i <= d && placed < total; i++, placed++) {
			int type = placed == 0			     ? ANT_QUEEN
				   : placed <= g->p.ini_soldiers ? ANT_SOLDIER
								 : ANT_WORKER;
			ant_add(g, type, player, r0 + sr * i, c0 + sc * (d - i));
		}
}

/* ---- water --------------------------------------------------------------- */

static void ant_wet(struct ant_state *g, int row, int col, int dry)
{
	if (ant_corner_distance(&g->p, row, col) > dry)
		g->water[ant_cell(g, row, col)] = true;
}

/* From a random border cell heading across, a sideways step one time in
 * three.  side names the border as a direction (ANT_UP: the top row) and
 * the river heads the opposite way. */
static void ant_river(struct ant_state *g, int dry)
{
	int rows = g->p.rows, cols = g->p.cols;
	int side = rng_uniform(&g->rng, 0, 3), dir = (side + 2) % 4;
	int row = side == ANT_UP ? 0 : side == ANT_DOWN ? rows - 1 : rng_uniform(&g->rng, 0, rows - 1);
	int col = side == ANT_LEFT ? 0 : side == ANT_RIGHT ? cols - 1 : rng_uniform(&g->rng, 0, cols - 1);
	/* Two thirds of the steps go forward: a river reaches some two thirds
	 * of the way across, so it rarely cuts the board in two. */
	int length = (rows + cols) / 2;
	for (int steps = 0; ant_inside(g, row, col) && steps < length; steps++) {
		ant_wet(g, row, col, dry);
		int d = dir;
		if (rng_uniform(&g->rng, 0, 2) == 0)
			d = (dir + (rng_uniform(&g->rng, 0, 1) ? 1 : 3)) % 4;
		int dr, dc;
		ant_dir_delta(d, &dr, &dc);
		row += dr;
		col += dc;
	}
}

bool ant_board_connected(struct ant_state *g)
{
	int cells = g->p.rows * g->p.cols, head = 0, tail = 0, soil = 0, start = -1;
	bool *seen = g->seen;
	memset(seen, 0, (size_t)cells);
	for (int i = 0; i < cells; i++)
		if (!g->water[i]) {
			soil++;
			start = start < 0 ? i : start;
		}
	if (start < 0)
		return false;
	g->cells[tail++] = start;
	seen[start] = true;
	while (head < tail) {
		int cell = g->cells[head++];
		for (int d = 0; d < ANT_DIRS; d++) {
			int dr, dc, r = cell / g->p.cols, c = cell % g->p.cols;
			ant_dir_delta(d, &dr, &dc);
			int n = ant_cell(g, r + dr, c + dc);
			if (ant_inside(g, r + dr, c + dc) && !g->water[n] && !seen[n]) {
				seen[n] = true;
				g->cells[tail++] = n;
			}
		}
	}
	return tail == soil;
}

/* ---- food rectangles ----------------------------------------------------- */

static void ant_place_rects(struct ant_state *g)
{
	const struct ant_params *p = &g->p;
	int qr = p->rows / 2, qc = p->cols / 2;
	for (int q = 0; q < ANT_PLAYERS; q++) {
		int r0 = q == 2 || q == 3 ? p->rows - qr : 0;
		int c0 = q == 1 || q == 2 ? p->cols - qc : 0;
		for (int b = 0; b < ANT_BONUSES; b++) {
			g->rect_row[q][b] = r0 + rng_uniform(&g->rng, 0, qr - p->bonus_rows);
			g->rect_col[q][b] = c0 + rng_uniform(&g->rng, 0, qc - p->bonus_cols);
		}
	}
}

static bool ant_rects_have_soil(const struct ant_state *g)
{
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++) {
			bool soil = false;
			for (int r = 0; r < g->p.bonus_rows; r++)
				for (int c = 0; c < g->p.bonus_cols; c++)
					soil |= !g->water[ant_cell(g, g->rect_row[q][b] + r,
								   g->rect_col[q][b] + c)];
			if (!soil)
				return false;
		}
	return true;
}

/* Fewer rivers as attempts fail: on rare seeds the rivers keep cutting
 * the board, and a board with one river less beats a dry one. */
static void ant_draw_water(struct ant_state *g, int attempt)
{
	int dry = ant_corner_diagonals(&g->p);
	int rivers = g->p.rows * g->p.cols / ANT_CELLS_PER_RIVER;
	rivers -= attempt * rivers / ANT_BOARD_ATTEMPTS;
	for (int i = 0; i < rivers; i++)
		ant_river(g, dry);
}

int ant_board_setup(struct ant_state *g, char err[GAME_ERRLEN])
{
	bool ok = false;
	for (int attempt = 0; attempt < ANT_BOARD_ATTEMPTS && !ok; attempt++) {
		ant_clear(g);
		ant_draw_water(g, attempt);
		ant_place_rects(g);
		ok = ant_board_connected(g) && ant_rects_have_soil(g);
	}
	if (!ok) { /* a dry board always works: corners apart, rectangles soil */
		ant_clear(g);
		ant_place_rects(g);
	}
	for (int q = 0; q < ANT_PLAYERS; q++)
		ant_place_colony(g, q);
	if (g->nids != ANT_PLAYERS * (1 + g->p.ini_soldiers + g->p.ini_workers)) {
		snprintf(err, GAME_ERRLEN, "the colonies do not fit in their corners");
		return -1;
	}
	return 0;
}
