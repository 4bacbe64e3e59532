/* params.c - Star War's default parameters and the game file.
 *
 * The file is `key value` lines with `#` comments, `start SHIP ROW COL`
 * lines, and an optional last section that starts with a line `map` and
 * gives the universe as text rows (. empty, X asteroid, P point bonus,
 * M missile bonus) up to the end.  The map sets rows, cols and the two
 * bonus counts; keys given as well must agree.  Every error names its line
 * and key; every value is range-checked.
 *
 * The defaults are the original's default game, map and start cells
 * included.  A file without a map keeps that map only while it leaves
 * rows, cols and the bonus counts alone; one that changes any of them
 * plays without asteroids, its bonuses drawn from the seed.  Start cells go
 * with their map: the default ones hold while the default map and two
 * ships a player do; otherwise a file lists every ship's, or the ships
 * spread over columns 0..3.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "games/params_text.h"
#include "games/starwar/sw.h"

/* The original's default universe: walls of asteroids, 10 bonuses of
 * each kind. */
static const char *const sw_original_map[] = {
	"...........................................................X",
	"..................P........X.....X........X.....P........X..",
	"...............X..XPXX..XXXM.....XXXX..XXXX..X..XPXX..MXXM..",
	"................X...........X....P...........M...........X..",
	"...............X..X.......................X..X..X...........",
	"...............X..X.....XXXXXX.XXXXXX.....X..X..X.....XXXXXX",
	"...............X..X.......................X..M..X...........",
	".............................XXX............................",
	"...............X..X.......................X..M..X...........",
	"...............X..X.....XXXXXX.XXXXXX.....X..X..X.....XXXXXX",
	"...............X..X.......................X..X..X...........",
	"................X...........X....P...........M...........X..",
	"...............X..XPXX..XXXM.....XXXX..XXXX..X..XPXX..MXXM..",
	"..................P........X.....X........X.....P........X..",
	"...........................................................X",
};

#define SW_ORIGINAL_ROWS 15
#define SW_ORIGINAL_COLS 60
#define SW_ORIGINAL_SHIPS 2
#define SW_ORIGINAL_BONUSES 10 /* of each kind */

/* Its start cells, ship by ship (ships 2p and 2p + 1 are player p's). */
static const uint8_t sw_original_start[SW_PLAYERS * SW_ORIGINAL_SHIPS][2] = {
	{ 0, 0 }, { 10, 2 }, { 2, 1 }, { 8, 3 }, { 4, 2 }, { 14, 0 }, { 6, 3 }, { 12, 1 },
};

static int sw_map_char(char ch)
{
	switch (ch) {
	case '.':
		return SW_EMPTY;
	case 'X':
		return SW_ASTEROID;
	case 'P':
		return SW_POINT_BONUS;
	case 'M':
		return SW_MISSILE_BONUS;
	default:
		return PT_NO_CELL;
	}
}

static void sw_original_starts(struct sw_params *p)
{
	p->nstarts = SW_PLAYERS * SW_ORIGINAL_SHIPS;
	for (int id = 0; id < p->nstarts; id++) {
		p->start_row[id] = sw_original_start[id][0];
		p->start_col[id] = sw_original_start[id][1];
	}
}

void sw_params_default(struct sw_params *p)
{
	memset(p, 0, sizeof *p); /* padding too: parameters compare with memcmp */
	p->rounds = 300;
	p->rows = SW_ORIGINAL_ROWS;
	p->cols = SW_ORIGINAL_COLS;
	p->window = 31;
	p->ships = SW_ORIGINAL_SHIPS;
	p->regen_rounds = 10;
	p->missile_bonuses = SW_ORIGINAL_BONUSES;
	p->point_bonuses = SW_ORIGINAL_BONUSES;
	p->bonus_missiles = 5;
	p->bonus_points = 10;
	p->kill_points = 30;
	p->initial_missiles = 5;
	p->has_map = true;
	for (int r = 0; r < SW_ORIGINAL_ROWS; r++)
		for (int c = 0; c < SW_ORIGINAL_COLS; c++)
			p->map[r * SW_ORIGINAL_COLS + c] = (uint8_t)sw_map_char(sw_original_map[r][c]);
	sw_original_starts(p);
}

/* ---- keys ---------------------------------------------------------------- */

#define SW_KEY(field, lo, hi) PT_KEY(struct sw_params, field, lo, hi),

static const struct pt_key sw_keys[] = {
	PT_FIXED("players", SW_PLAYERS),
	SW_PARAMS(SW_KEY)
};

/* The parse in progress: pt knows where each key was given. */
struct sw_parse {
	struct pt_parse pt;
	struct sw_params *p;
	int map_line;
	struct pt_grid_size map;
	int map_count[SW_KINDS];
	int start_line[SW_MAX_SHIPS]; /* where each ship's start was given */
	uint8_t start_row[SW_MAX_SHIPS], start_col[SW_MAX_SHIPS];
	int nstart_lines, first_start_line;
};

/* ---- start lines --------------------------------------------------------- */

/* The next blank-separated word of l from *at, as an integer. */
static bool sw_next_int(const struct pt_line *l, size_t *at, int *out)
{
	size_t i = *at;
	while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	size_t from = i;
	while (i < l->len && l->s[i] != ' ' && l->s[i] != '\t')
		i++;
	*at = i;
	return pt_parse_int(l->s + from, i - from, out);
}

static bool sw_is_start_line(const struct pt_line *l)
{
	return l->len > 6 && memcmp(l->s, "start", 5) == 0 && (l->s[5] == ' ' || l->s[5] == '\t');
}

/* `start SHIP ROW COL`: checked against the universe once it is known. */
static int sw_parse_start(struct sw_parse *ps, const struct pt_line *l)
{
	size_t at = 5;
	int id, row, col;
	bool three = sw_next_int(l, &at, &id) && sw_next_int(l, &at, &row) &&
		     sw_next_int(l, &at, &col);
	while (at < l->len && (l->s[at] == ' ' || l->s[at] == '\t'))
		at++;
	if (!three || at < l->len)
		return pt_fail(&ps->pt, l->number, "start",
			       "expected three non-negative integers: ship, row and column");
	if (id >= SW_MAX_SHIPS || row >= SW_MAX_ROWS || col >= SW_MAX_COLS)
		return pt_fail(&ps->pt, l->number, "start",
			       "ship %d at (%d, %d): ships go up to %d, rows %d, columns %d", id,
			       row, col, SW_MAX_SHIPS - 1, SW_MAX_ROWS - 1, SW_MAX_COLS - 1);
	if (ps->start_line[id])
		return pt_fail(&ps->pt, l->number, "start", "ship %d given twice (first on line %d)",
			       id, ps->start_line[id]);
	ps->start_line[id] = l->number;
	if (!ps->nstart_lines++)
		ps->first_start_line = l->number;
	ps->start_row[id] = (uint8_t)row;
	ps->start_col[id] = (uint8_t)col;
	return 0;
}

/* Every ship has a start line, inside the first window, on an empty map
 * cell of its own. */
static int sw_check_starts(struct sw_parse *ps)
{
	struct sw_params *p = ps->p;
	int n = SW_PLAYERS * p->ships;
	for (int id = 0; id < n; id++) {
		int line = ps->start_line[id], row = ps->start_row[id], col = ps->start_col[id];
		if (!line)
			return pt_fail(&ps->pt, ps->first_start_line, "start",
				       "ship %d has no start line (give all %d ships one, or none)",
				       id, n);
		if (row >= p->rows || col >= p->window)
			return pt_fail(&ps->pt, line, "start",
				       "ship %d at (%d, %d) is outside the first window (rows 0..%d, "
				       "columns 0..%d)",
				       id, row, col, p->rows - 1, p->window - 1);
		if (p->has_map && p->map[row * p->cols + col] != SW_EMPTY)
			return pt_fail(&ps->pt, line, "start", "ship %d at (%d, %d): the map is not empty there",
				       id, row, col);
		for (int other = 0; other < id; other++)
			if (ps->start_row[other] == row && ps->start_col[other] == col)
				return pt_fail(&ps->pt, line, "start", "ships %d and %d both at (%d, %d)",
					       other, id, row, col);
	}
	for (int id = n; id < SW_MAX_SHIPS; id++)
		if (ps->start_line[id])
			return pt_fail(&ps->pt, ps->start_line[id], "start",
				       "there is no ship %d (%d players of %d ships: 0..%d)", id,
				       SW_PLAYERS, p->ships, n - 1);
	p->nstarts = n;
	memcpy(p->start_row, ps->start_row, sizeof p->start_row);
	memcpy(p->start_col, ps->start_col, sizeof p->start_col);
	return 0;
}

/* ---- the map section ----------------------------------------------------- */

static void sw_put_map_cell(void *ctx, int index, int value)
{
	struct sw_parse *ps = ctx;
	ps->p->map[index] = (uint8_t)value;
	ps->map_count[value]++;
}

static const struct pt_grid sw_map_grid = { "map", SW_MAX_ROWS, SW_MAX_COLS, "'.', X, P or M",
					    sw_map_char, sw_put_map_cell };

static int sw_parse_map_row(void *ctx, const struct pt_line *l)
{
	struct sw_parse *ps = ctx;
	return pt_grid_row(&ps->pt, &sw_map_grid, &ps->map, l, ps);
}

static void sw_drop_starts(struct sw_params *p)
{
	p->nstarts = 0;
	memset(p->start_row, 0, sizeof p->start_row);
	memset(p->start_col, 0, sizeof p->start_col);
}

/* A file's map replaces the default one, and its start cells. */
static int sw_begin_map(void *ctx, int line)
{
	struct sw_parse *ps = ctx;
	struct sw_params *p = ps->p;
	ps->map_line = line;
	memset(p->map, 0, sizeof p->map);
	sw_drop_starts(p);
	return 0;
}

/* A key the map also sets: given, it must say the same. */
static int sw_map_agrees(struct sw_parse *ps, const char *key, int *field, int value)
{
	int line = pt_line_of(&ps->pt, key);
	if (line && *field != value)
		return pt_fail(&ps->pt, line, key, "%d, but the map has %d", *field, value);
	*field = value;
	return 0;
}

static int sw_check_map(void *ctx, int line)
{
	struct sw_parse *ps = ctx;
	struct sw_params *p = ps->p;
	int rows = ps->map.rows, cols = ps->map.cols;
	if (rows < SW_MIN_ROWS || cols < SW_MIN_COLS)
		return pt_fail(&ps->pt, line, "map", "%d rows of %d cells: at least %d x %d", rows,
			       cols, SW_MIN_ROWS, SW_MIN_COLS);
	if (sw_map_agrees(ps, "rows", &p->rows, rows) < 0 ||
	    sw_map_agrees(ps, "cols", &p->cols, cols) < 0 ||
	    sw_map_agrees(ps, "point_bonuses", &p->point_bonuses,
			  ps->map_count[SW_POINT_BONUS]) < 0 ||
	    sw_map_agrees(ps, "missile_bonuses", &p->missile_bonuses,
			  ps->map_count[SW_MISSILE_BONUS]) < 0)
		return -1;
	p->has_map = true;
	return 0;
}

/* ---- checks across keys -------------------------------------------------- */

/* Without a map section, the default map stays only while the file leaves
 * the four values it fixes alone; and its start cells only while the ships
 * are the original's too. */
static void sw_keep_default_map(struct sw_parse *ps)
{
	struct sw_params *p = ps->p;
	if (p->rows != SW_ORIGINAL_ROWS || p->cols != SW_ORIGINAL_COLS ||
	    p->point_bonuses != SW_ORIGINAL_BONUSES || p->missile_bonuses != SW_ORIGINAL_BONUSES) {
		p->has_map = false;
		memset(p->map, 0, sizeof p->map);
	}
	if (!p->has_map || p->ships != SW_ORIGINAL_SHIPS)
		sw_drop_starts(p);
}

static int sw_check_all(void *ctx)
{
	struct sw_parse *ps = ctx;
	if (!ps->map_line)
		sw_keep_default_map(ps);
	struct sw_params *p = ps->p;
	if (p->window > p->cols)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "window"), "window",
			       "%d is wider than the universe (%d columns)", p->window, p->cols);
	if (ps->nstart_lines)
		return sw_check_starts(ps);
	if (p->nstarts)
		return 0; /* the original's, on its map */
	if (p->ships * SW_PLAYERS > p->rows * SW_START_COLS)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "ships"), "ships",
			       "%d per player do not fit in columns 0..3 of %d rows", p->ships,
			       p->rows);
	/* Bonuses outside the map are drawn outside the first window. */
	long room = (long)p->rows * (p->cols - p->window);
	if (!p->has_map && p->point_bonuses + p->missile_bonuses > room)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "point_bonuses"), "point_bonuses",
			       "%d bonuses in all, more than the %ld cells outside the window",
			       p->point_bonuses + p->missile_bonuses, room);
	return 0;
}

/* The ships' start cells, given before any map. */
static int sw_start_line(void *ps, const struct pt_line *l)
{
	return !sw_is_start_line(l) ? 0 : sw_parse_start(ps, l) < 0 ? -1 : 1;
}

static const struct pt_section sw_map = { "map", sw_begin_map, sw_parse_map_row, sw_start_line };

_Static_assert(sizeof sw_keys / sizeof *sw_keys <= PT_MAX_KEYS,
	       "sw_keys: more keys than struct pt_parse has room for");

static const struct pt_format sw_params_format = {
	sw_keys, (int)(sizeof sw_keys / sizeof *sw_keys), &sw_map, sw_check_map, sw_check_all
};

int sw_params_parse(const char *text, struct sw_params *p, err_t err)
{
	sw_params_default(p);
	struct sw_parse ps = { .p = p };
	return pt_read_params(&sw_params_format, &ps.pt, p, text, err);
}

json_t *sw_params_json(const struct sw_params *p)
{
	return pt_json(&sw_params_format, p);
}
