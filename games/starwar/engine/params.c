/* params.c - Star War's default parameters and the game file.
 *
 * The file is `key value` lines with `#` comments; an optional last section
 * starts with a line `map` and gives the universe as text rows (. empty,
 * X asteroid, P point bonus, M missile bonus) up to the end.  The map sets
 * rows, cols and the two bonus counts; keys given as well must agree.
 * Every error names its line and key; every value is range-checked.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "games/params_text.h"
#include "games/starwar/sw.h"

/* The course's default game (shared/rules/starwar.md). */
void sw_params_default(struct sw_params *p)
{
	memset(p, 0, sizeof *p); /* padding too: parameters compare with memcmp */
	p->players = SW_PLAYERS;
	p->rounds = 300;
	p->rows = 15;
	p->cols = 60;
	p->window = 31;
	p->ships = 2;
	p->regen_rounds = 10;
	p->missile_bonuses = 10;
	p->point_bonuses = 10;
	p->bonus_missiles = 5;
	p->bonus_points = 10;
	p->kill_points = 30;
	p->initial_missiles = 5;
}

/* ---- keys ---------------------------------------------------------------- */

#define SW_KEY(field, lo, hi) PT_KEY(struct sw_params, field, lo, hi)

static const struct pt_key sw_keys[] = {
	SW_KEY(players, SW_PLAYERS, SW_PLAYERS),
	SW_KEY(rounds, 1, SW_MAX_VALUE),
	SW_KEY(rows, SW_MIN_ROWS, SW_MAX_ROWS),
	SW_KEY(cols, SW_MIN_COLS, SW_MAX_COLS),
	SW_KEY(window, SW_START_COLS, SW_MAX_COLS),
	SW_KEY(ships, 1, SW_MAX_PLAYER_SHIPS),
	SW_KEY(regen_rounds, 0, SW_MAX_VALUE),
	SW_KEY(missile_bonuses, 0, SW_MAX_CELLS),
	SW_KEY(point_bonuses, 0, SW_MAX_CELLS),
	SW_KEY(bonus_missiles, 0, SW_MAX_VALUE),
	SW_KEY(bonus_points, 0, SW_MAX_VALUE),
	SW_KEY(kill_points, 0, SW_MAX_VALUE),
	SW_KEY(initial_missiles, 0, SW_MAX_VALUE),
};

#define SW_NKEYS ((int)(sizeof sw_keys / sizeof sw_keys[0]))

/* ---- lines --------------------------------------------------------------- */

/* The parse in progress: where each key was given (0: not given). */
struct sw_parse {
	struct pt_parse pt;
	struct sw_params *p;
	int map_line, map_rows, map_cols;
	int map_count[SW_KINDS];
};

/* ---- the map section ----------------------------------------------------- */

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
		return SW_NONE;
	}
}

static int sw_parse_map_row(struct sw_parse *ps, const struct pt_line *l)
{
	if (l->len > SW_MAX_COLS)
		return pt_fail(&ps->pt, l->number, "map", "a row of %zu cells (at most %d)", l->len,
			       SW_MAX_COLS);
	if (ps->map_rows == 0)
		ps->map_cols = (int)l->len;
	if (l->len != (size_t)ps->map_cols)
		return pt_fail(&ps->pt, l->number, "map", "a row of %zu cells, the first had %d",
			       l->len, ps->map_cols);
	if (ps->map_rows == SW_MAX_ROWS)
		return pt_fail(&ps->pt, l->number, "map", "more than %d rows", SW_MAX_ROWS);
	int row = ps->map_rows, cols = ps->map_cols;
	for (int c = 0; c < cols; c++) {
		int v = sw_map_char(l->s[c]);
		if (v == SW_NONE)
			return pt_fail(&ps->pt, l->number, "map",
				       "column %d: '%c' is not '.', X, P or M", c, l->s[c]);
		ps->p->map[row * cols + c] = (uint8_t)v;
		ps->map_count[v]++;
	}
	ps->map_rows++;
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

static int sw_check_map(struct sw_parse *ps)
{
	struct sw_params *p = ps->p;
	int rows = ps->map_rows, cols = ps->map_cols, line = ps->map_line;
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

static int sw_check_all(struct sw_parse *ps)
{
	struct sw_params *p = ps->p;
	if (p->window > p->cols)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "window"), "window",
			       "%d is wider than the universe (%d columns)", p->window, p->cols);
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

int sw_params_parse(const char *text, struct sw_params *p, char err[GAME_ERRLEN])
{
	sw_params_default(p);
	struct sw_parse ps = { .pt = { sw_keys, SW_NKEYS, p, err, { 0 } }, .p = p };
	struct pt_line l = { 0 };
	if (!text)
		text = "";
	while (pt_next_line(&text, &l)) {
		if (l.len == 0)
			continue;
		int rc;
		if (ps.map_line)
			rc = sw_parse_map_row(&ps, &l);
		else if (l.len == 3 && memcmp(l.s, "map", 3) == 0)
			rc = (ps.map_line = l.number, 0);
		else
			rc = pt_key_line(&ps.pt, &l);
		if (rc < 0)
			return -1;
	}
	if (ps.map_line && ps.map_rows == 0)
		return pt_fail(&ps.pt, ps.map_line, "map", "no rows follow");
	if (ps.map_line && sw_check_map(&ps) < 0)
		return -1;
	return sw_check_all(&ps);
}
