/* board.c - Ants' board: water rivers, food rectangles, the colonies.
 *
 * Rivers as the original engine draws them: 10 to 20 tries, each from a
 * random cell with no water within 2 (Chebyshev); a river is a smooth curve
 * of 5 to 15 cells in the eight directions, turning at most 45 degrees a
 * step and always moving away from its source, kept only when no cell of
 * it comes within 2 of another river (100 curves are tried).  The whole
 * board is drawn again until all soil is one 4-connected region (and, here,
 * until no food rectangle is all water).  About 59 water cells on 25 x 25.
 *
 * Each player gets a bread, a seed and a leaf rectangle placed at random
 * inside its own quadrant.  The initial colony walks its corner's
 * anti-diagonals from the corner, skipping water, and each ant's type is
 * drawn as the original draws it: one of the three types at random, the
 * next one in the cycle queen, soldier, worker when none of it is left.
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
#define ANT_RIVER_TRIES_MIN 10 /* river sources tried per board */
#define ANT_RIVER_TRIES_MAX 20
#define ANT_RIVER_MIN 5 /* cells of a river, at most: a curve may stop early */
#define ANT_RIVER_MAX 15
#define ANT_RIVER_GAP 2 /* Chebyshev distance kept between rivers */
#define ANT_RIVER_CURVES 100 /* curves tried from one source */

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

/* ---- ants ---------------------------------------------------------------- */

void ant_clear(struct game_state *g)
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

int ant_add(struct game_state *g, int type, int player, int row, int col)
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

/* Cell k of a corner's anti-diagonal walk, (i, j) with i + j the diagonal,
 * turned to player's corner as the original turns it. */
static void ant_corner_cell(const struct ant_params *p, int player, int i, int j, int *row,
			    int *col)
{
	int r = p->rows, c = p->cols;
	*row = player == 0 ? i : player == 1 ? j : player == 2 ? r - 1 - i : r - 1 - j;
	*col = player == 0 ? j : player == 1 ? c - 1 - i : player == 2 ? c - 1 - j : i;
}

/* The next cell of the walk: down the diagonal, then the next diagonal. */
static void ant_walk_on(int *i, int *j)
{
	if (*i > 0) {
		--*i;
		++*j;
	} else {
		*i = *j + 1;
		*j = 0;
	}
}

/* One of the three types at random; when none of it is left, the next one
 * in the cycle that has some (so the draw is not uniform over what is
 * left: the original's). */
static int ant_draw_type(struct game_state *g, const int left[ANT_TYPES])
{
	int t = rng_uniform(&g->rng, 0, ANT_TYPES - 1);
	while (left[t] == 0)
		t = (t + 1) % ANT_TYPES;
	return t;
}

/* The colony on its corner's anti-diagonals, nearest first, skipping water
 * and taken cells; -1 when the board runs out of soil. */
static int ant_place_colony(struct game_state *g, int player)
{
	const struct ant_params *p = &g->p;
	int left[ANT_TYPES] = { [ANT_QUEEN] = 1, [ANT_SOLDIER] = p->ini_soldiers,
				[ANT_WORKER] = p->ini_workers };
	int i = 0, j = 0;
	for (int total = 1 + p->ini_soldiers + p->ini_workers; total > 0; total--) {
		int type = ant_draw_type(g, left), row, col;
		for (;;) {
			if (i + j > p->rows + p->cols)
				return -1;
			ant_corner_cell(p, player, i, j, &row, &col);
			if (ant_inside(g, row, col) && !g->water[ant_cell(g, row, col)] &&
			    g->ant_at[ant_cell(g, row, col)] == ANT_NONE)
				break;
			ant_walk_on(&i, &j);
		}
		ant_add(g, type, player, row, col);
		left[type]--;
	}
	return 0;
}

/* ---- water --------------------------------------------------------------- */

/* Water within ANT_RIVER_GAP (Chebyshev) of (row, col). */
static bool ant_water_near(const struct game_state *g, int row, int col)
{
	for (int r = row - ANT_RIVER_GAP; r <= row + ANT_RIVER_GAP; r++)
		for (int c = col - ANT_RIVER_GAP; c <= col + ANT_RIVER_GAP; c++)
			if (ant_inside(g, r, c) && g->water[ant_cell(g, r, c)])
				return true;
	return false;
}

/* The eight directions in a circle, so that k - 1 and k + 1 are k's
 * neighbours (45 degrees either way). */
static const int ant_circle[8][2] = { { 1, -1 }, { 1, 0 }, { 1, 1 }, { 0, 1 },
				      { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 } };

static int ant_dist2(int r0, int c0, int r, int c)
{
	return (r - r0) * (r - r0) + (c - c0) * (c - c0);
}

/* A curve from (r0, c0) into river[] (cells), returns its length: each
 * step turns by -1, 0 or +1 eighths, a random one tried first and then
 * the three in order, into the board, onto a cell not yet in the curve and
 * farther from the source. */
static int ant_curve(struct game_state *g, int r0, int c0, int river[ANT_RIVER_MAX])
{
	int row = r0, col = c0, k = rng_uniform(&g->rng, 0, 7), n = 0;
	int length = rng_uniform(&g->rng, ANT_RIVER_MIN, ANT_RIVER_MAX);
	while (n < length) {
		river[n++] = ant_cell(g, row, col);
		int next = -1;
		for (int s = -2; s <= 1 && next < 0; s++) {
			int kk = (8 + k + (s < -1 ? rng_uniform(&g->rng, -1, 1) : s)) % 8;
			int r = row + ant_circle[kk][0], c = col + ant_circle[kk][1];
			bool in_curve = false;
			for (int i = 0; i < n && ant_inside(g, r, c); i++)
				in_curve |= river[i] == ant_cell(g, r, c);
			if (ant_inside(g, r, c) && !in_curve &&
			    ant_dist2(r0, c0, row, col) < ant_dist2(r0, c0, r, c)) {
				next = kk;
				row = r;
				col = c;
			}
		}
		if (next < 0)
			break;
		k = next;
	}
	return n;
}

/* A river from (row, col): the first of ANT_RIVER_CURVES curves that keeps
 * clear of every river so far. */
static void ant_river(struct game_state *g, int row, int col)
{
	int river[ANT_RIVER_MAX];
	for (int t = 0; t < ANT_RIVER_CURVES; t++) {
		int n = ant_curve(g, row, col, river);
		bool clear = true;
		for (int i = 0; i < n && clear; i++)
			clear = !ant_water_near(g, river[i] / g->p.cols, river[i] % g->p.cols);
		if (clear) {
			for (int i = 0; i < n; i++)
				g->water[river[i]] = true;
			return;
		}
	}
}

bool ant_board_connected(struct game_state *g)
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

static void ant_place_rects(struct game_state *g)
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

static bool ant_rects_have_soil(const struct game_state *g)
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

static void ant_draw_water(struct game_state *g)
{
	int tries = rng_uniform(&g->rng, ANT_RIVER_TRIES_MIN, ANT_RIVER_TRIES_MAX);
	for (int t = 0; t < tries; t++) {
		int row = rng_uniform(&g->rng, 0, g->p.rows - 1);
		int col = rng_uniform(&g->rng, 0, g->p.cols - 1);
		if (!ant_water_near(g, row, col))
			ant_river(g, row, col);
	}
}

int ant_board_setup(struct game_state *g, err_t err)
{
	bool ok = false;
	for (int attempt = 0; attempt < ANT_BOARD_ATTEMPTS && !ok; attempt++) {
		ant_clear(g);
		ant_draw_water(g);
		ant_place_rects(g);
		ok = ant_board_connected(g) && ant_rects_have_soil(g);
	}
	if (!ok) { /* a dry board always works, as the original falls back to */
		ant_clear(g);
		ant_place_rects(g);
	}
	for (int q = 0; q < ANT_PLAYERS; q++)
		if (ant_place_colony(g, q) < 0) {
			err_set(err, "the colonies do not fit on the board's soil");
			return -1;
		}
	return 0;
}
