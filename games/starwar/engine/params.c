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

struct sw_key {
	const char *name;
	size_t offset;
	int min, max;
};

#define SW_KEY(field, lo, hi) { #field, offsetof(struct sw_params, field), lo, hi }

static const struct sw_key sw_keys[] = {
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

static int *sw_key_field(struct sw_params *p, int k)
{
	return (int *)((char *)p + sw_keys[k].offset);
}

static int sw_key_find(const char *name, size_t len)
{
	for (int k = 0; k < SW_NKEYS; k++)
		if (strlen(sw_keys[k].name) == len && memcmp(sw_keys[k].name, name, len) == 0)
			return k;
	return -1;
}

/* ---- lines --------------------------------------------------------------- */

struct sw_line {
	const char *s;
	size_t len;
	int number;
};

/* The parse in progress: where each key was given (0: not given). */
struct sw_parse {
	struct sw_params *p;
	char *err;
	int key_line[SW_NKEYS];
	int map_line, map_rows, map_cols;
	int map_count[SW_KINDS];
};

/* err = "line N: key: what", or "key: what" for a key left at its default. */
__attribute__((format(printf, 4, 5))) static int sw_fail(struct sw_parse *ps, int line,
								   const char *key, const char *fmt, ...)
{
	int n = line > 0 ? snprintf(ps->err, GAME_ERRLEN, "line %d: %s: ", line, key)
			 : snprintf(ps->err, GAME_ERRLEN, "%s: ", key);
	if (n < 0 || n >= GAME_ERRLEN)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, GAME_ERRLEN - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool sw_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Cuts the next line off *text, without comment and blanks; false at the
 * end. */
static bool sw_next_line(const char **text, struct sw_line *line)
{
	const char *s = *text;
	if (!*s)
		return false;
	const char *end = strchr(s, '\n');
	size_t len = end ? (size_t)(end - s) : strlen(s);
	*text = end ? end + 1 : s + len;
	const char *hash = memchr(s, '#', len);
	if (hash)
		len = (size_t)(hash - s);
	while (len && sw_blank(*s))
		s++, len--;
	while (len && sw_blank(s[len - 1]))
		len--;
	line->s = s;
	line->len = len;
	line->number++;
	return true;
}

/* A decimal integer of at most 9 digits filling the whole word. */
static bool sw_parse_int(const char *s, size_t len, int *out)
{
	if (len == 0 || len > 9)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static int sw_parse_key_line(struct sw_parse *ps, const struct sw_line *l)
{
	size_t klen = 0;
	while (klen < l->len && !sw_blank(l->s[klen]))
		klen++;
	char key[32];
	snprintf(key, sizeof key, "%.*s", (int)(klen < 31 ? klen : 31), l->s);
	int k = sw_key_find(l->s, klen);
	if (k < 0)
		return sw_fail(ps, l->number, key, "unknown key");
	if (ps->key_line[k])
		return sw_fail(ps, l->number, key, "given twice (first on line %d)",
			       ps->key_line[k]);
	const char *v = l->s + klen;
	size_t vlen = l->len - klen;
	while (vlen && sw_blank(*v))
		v++, vlen--;
	int value;
	if (!sw_parse_int(v, vlen, &value))
		return sw_fail(ps, l->number, key, "expected one non-negative integer");
	const struct sw_key *sk = &sw_keys[k];
	if (value < sk->min || value > sk->max)
		return sw_fail(ps, l->number, key, "%d is out of range (%d..%d)", value, sk->min,
			       sk->max);
	*sw_key_field(ps->p, k) = value;
	ps->key_line[k] = l->number;
	return 0;
}

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

static int sw_parse_map_row(struct sw_parse *ps, const struct sw_line *l)
{
	if (l->len > SW_MAX_COLS)
		return sw_fail(ps, l->number, "map", "a row of %zu cells (at most %d)", l->len,
			       SW_MAX_COLS);
	if (ps->map_rows == 0)
		ps->map_cols = (int)l->len;
	if (l->len != (size_t)ps->map_cols)
		return sw_fail(ps, l->number, "map", "a row of %zu cells, the first had %d",
			       l->len, ps->map_cols);
	if (ps->map_rows == SW_MAX_ROWS)
		return sw_fail(ps, l->number, "map", "more than %d rows", SW_MAX_ROWS);
	int row = ps->map_rows, cols = ps->map_cols;
	for (int c = 0; c < cols; c++) {
		int v = sw_map_char(l->s[c]);
		if (v == SW_NONE)
			return sw_fail(ps, l->number, "map",
				       "column %d: '%c' is not '.', X, P or M", c, l->s[c]);
		ps->p->map[row * cols + c] = (uint8_t)v;
		ps->map_count[v]++;
	}
	ps->map_rows++;
	return 0;
}

static int sw_line_of(const struct sw_parse *ps, const char *key)
{
	return ps->key_line[sw_key_find(key, strlen(key))];
}

/* A key the map also sets: given, it must say the same. */
static int sw_map_agrees(struct sw_parse *ps, const char *key, int *field, int value)
{
	int line = sw_line_of(ps, key);
	if (line && *field != value)
		return sw_fail(ps, line, key, "%d, but the map has %d", *field, value);
	*field = value;
	return 0;
}

static int sw_check_map(struct sw_parse *ps)
{
	struct sw_params *p = ps->p;
	int rows = ps->map_rows, cols = ps->map_cols, line = ps->map_line;
	if (rows < SW_MIN_ROWS || cols < SW_MIN_COLS)
		return sw_fail(ps, line, "map", "%d rows of %d cells: at least %d x %d", rows,
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
		return sw_fail(ps, sw_line_of(ps, "window"), "window",
			       "%d is wider than the universe (%d columns)", p->window, p->cols);
	if (p->ships * SW_PLAYERS > p->rows * SW_START_COLS)
		return sw_fail(ps, sw_line_of(ps, "ships"), "ships",
			       "%d per player do not fit in columns 0..3 of %d rows", p->ships,
			       p->rows);
	/* Bonuses outside the map are drawn outside the first window. */
	long room = (long)p->rows * (p->cols - p->window);
	if (!p->has_map && p->point_bonuses + p->missile_bonuses > room)
		return sw_fail(ps, sw_line_of(ps, "point_bonuses"), "point_bonuses",
			       "%d bonuses in all, more than the %ld cells outside the window",
			       p->point_bonuses + p->missile_bonuses, room);
	return 0;
}

int sw_params_parse(const char *text, struct sw_params *p, char err[GAME_ERRLEN])
{
	sw_params_default(p);
	struct sw_parse ps = { .p = p, .err = err };
	struct sw_line l = { 0 };
	if (!text)
		text = "";
	while (sw_next_line(&text, &l)) {
		if (l.len == 0)
			continue;
		int rc;
		if (ps.map_line)
			rc = sw_parse_map_row(&ps, &l);
		else if (l.len == 3 && memcmp(l.s, "map", 3) == 0)
			rc = (ps.map_line = l.number, 0);
		else
			rc = sw_parse_key_line(&ps, &l);
		if (rc < 0)
			return -1;
	}
	if (ps.map_line && ps.map_rows == 0)
		return sw_fail(&ps, ps.map_line, "map", "no rows follow");
	if (ps.map_line && sw_check_map(&ps) < 0)
		return -1;
	return sw_check_all(&ps);
}
