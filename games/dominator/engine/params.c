/* params.c - Dominator's default parameters and the parameters file.
 *
 * The file is `key value` lines with `#` comments; an optional last section
 * starts with a line `board` and gives the board as text rows (X wall,
 * . free, a digit the owner of an already painted cell) up to the end.
 * Every error names its line and key; every value is range-checked.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "games/params_text.h"
#include "games/dominator/dom.h"

void dom_params_default(struct dom_params *p)
{
	memset(p, 0, sizeof *p); /* padding too: parameters compare with memcmp */
	*p = (struct dom_params){
		.rounds = 200,
		.rows = 37,
		.cols = 37,
		.farmers = 20,
		.knights = 10,
		.witches = 2,
		.farmer_health = 100,
		.knight_health = 200,
		.farmer_regen = 30,
		.knight_regen = 30,
		.damage_min = 60,
		.damage_max = 90,
	};
}

/* Boxes: rows 1 .. n/2-2 or n/2+2 .. n-2, the same for columns; player 0
 * top-left, 1 bottom-left, 2 bottom-right, 3 top-right. */
void dom_box(int n, int player, int *r0, int *r1, int *c0, int *c1)
{
	bool bottom = player == 1 || player == 2;
	bool right = player == 2 || player == 3;
	int lo = 1, hi = n / 2 - 2, far_lo = n / 2 + 2, far_hi = n - 2;
	*r0 = bottom ? far_lo : lo;
	*r1 = bottom ? far_hi : hi;
	*c0 = right ? far_lo : lo;
	*c1 = right ? far_hi : hi;
}

/* ---- keys ---------------------------------------------------------------- */

#define DOM_KEY(field, lo, hi) PT_KEY(struct dom_params, field, lo, hi),

static const struct pt_key dom_keys[] = {
	PT_FIXED("players", DOM_PLAYERS),
	DOM_PARAMS(DOM_KEY)
};

/* The parse in progress: pt knows where each key was given. */
struct dom_parse {
	struct pt_parse pt;
	struct dom_params *p;
	int board_line;
	struct pt_grid_size board;
};

/* ---- the board section --------------------------------------------------- */

static int dom_board_char(char ch)
{
	if (ch == 'X')
		return DOM_BOARD_WALL;
	if (ch == '.')
		return DOM_BOARD_FREE;
	if (ch >= '0' && ch < '0' + DOM_PLAYERS)
		return ch - '0';
	return PT_NO_CELL;
}

static void dom_put_board_cell(void *ctx, int index, int value)
{
	struct dom_parse *ps = ctx;
	ps->p->board[index] = (int8_t)value;
}

static const struct pt_grid dom_board_grid = { "board", DOM_MAX_ROWS, DOM_MAX_ROWS,
					       "X, '.' or a player 0..3", dom_board_char,
					       dom_put_board_cell };

static int dom_parse_board_row(void *ctx, const struct pt_line *l)
{
	struct dom_parse *ps = ctx;
	return pt_grid_row(&ps->pt, &dom_board_grid, &ps->board, l, ps);
}

static bool dom_board_border_ok(const struct dom_params *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p->board[i] != DOM_BOARD_WALL || p->board[(n - 1) * n + i] != DOM_BOARD_WALL ||
		    p->board[i * n] != DOM_BOARD_WALL || p->board[i * n + n - 1] != DOM_BOARD_WALL)
			return false;
	return true;
}

/* The board sets rows and cols; keys that were given must agree with it. */
static int dom_check_board(void *ctx, int line)
{
	struct dom_parse *ps = ctx;
	ps->board_line = line;
	struct dom_params *p = ps->p;
	int rows = ps->board.rows, cols = ps->board.cols;
	if (rows != cols)
		return pt_fail(&ps->pt, line, "board", "%d rows of %d cells: it must be square", rows,
				cols);
	if (rows < DOM_MIN_ROWS || rows % 2 == 0)
		return pt_fail(&ps->pt, line, "board", "%d rows: it must be odd and at least %d", rows,
				DOM_MIN_ROWS);
	if (pt_line_of(&ps->pt, "rows") && p->rows != rows)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "rows"), "rows", "%d, but the board has %d",
				p->rows, rows);
	if (pt_line_of(&ps->pt, "cols") && p->cols != cols)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "cols"), "cols", "%d, but the board has %d",
				p->cols, cols);
	if (!dom_board_border_ok(p, rows))
		return pt_fail(&ps->pt, line, "board", "its border must be walls (X)");
	p->rows = rows;
	p->cols = cols;
	p->fixed_board = true;
	return 0;
}

/* ---- checks across keys -------------------------------------------------- */

static int dom_last_line(const struct dom_parse *ps, const char *a, const char *b,
			 const char *c)
{
	int la = pt_line_of(&ps->pt, a), lb = pt_line_of(&ps->pt, b), lc = pt_line_of(&ps->pt, c);
	int m = la > lb ? la : lb;
	return m > lc ? m : lc;
}

static int dom_check_all(void *ctx)
{
	struct dom_parse *ps = ctx;
	struct dom_params *p = ps->p;
	/* rows = cols: one given alone sets both. */
	if (pt_line_of(&ps->pt, "rows") && !pt_line_of(&ps->pt, "cols"))
		p->cols = p->rows;
	if (pt_line_of(&ps->pt, "cols") && !pt_line_of(&ps->pt, "rows"))
		p->rows = p->cols;
	if (p->rows % 2 == 0)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "rows"), "rows", "%d is even; it must be odd",
				p->rows);
	if (p->cols != p->rows)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "cols"), "cols", "%d differs from rows %d",
				p->cols, p->rows);
	if (p->damage_max < p->damage_min)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "damage_max"), "damage_max",
				"%d is below damage_min %d", p->damage_max, p->damage_min);
	/* Half a box leaves room to place and to reborn every unit. */
	int side = p->rows / 2 - 2;
	int room = side * side / 2 < DOM_MAX_PLAYER_UNITS ? side * side / 2 : DOM_MAX_PLAYER_UNITS;
	int units = p->farmers + p->knights + p->witches;
	if (units < 1 || units > room)
		return pt_fail(&ps->pt, dom_last_line(ps, "farmers", "knights", "witches"),
				"farmers + knights + witches", "%d, must be 1 to %d for %d rows",
				units, room, p->rows);
	return 0;
}

static const struct pt_section dom_board = { "board", NULL, dom_parse_board_row, NULL };

_Static_assert(sizeof dom_keys / sizeof *dom_keys <= PT_MAX_KEYS,
	       "dom_keys: more keys than struct pt_parse has room for");

static const struct pt_format dom_params_format = {
	dom_keys, (int)(sizeof dom_keys / sizeof *dom_keys), &dom_board, dom_check_board, dom_check_all
};

int dom_params_parse(const char *text, struct dom_params *p, err_t err)
{
	dom_params_default(p);
	struct dom_parse ps = { .p = p };
	return pt_read_params(&dom_params_format, &ps.pt, p, text, err);
}

json_t *dom_params_json(const struct dom_params *p)
{
	return pt_json(&dom_params_format, p);
}
