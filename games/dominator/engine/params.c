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

#include "games/dominator/dom.h"

void dom_params_default(struct dom_params *p)
{
	memset(p, 0, sizeof *p); /* padding too: parameters compare with memcmp */
	*p = (struct dom_params){
		.players = DOM_PLAYERS,
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

struct dom_key {
	const char *name;
	size_t offset;
	int min, max;
};

#define DOM_KEY(field, lo, hi) { #field, offsetof(struct dom_params, field), lo, hi }

static const struct dom_key dom_keys[] = {
	DOM_KEY(players, DOM_PLAYERS, DOM_PLAYERS),
	DOM_KEY(rounds, 1, DOM_MAX_VALUE),
	DOM_KEY(rows, DOM_MIN_ROWS, DOM_MAX_ROWS),
	DOM_KEY(cols, DOM_MIN_ROWS, DOM_MAX_ROWS),
	DOM_KEY(farmers, 0, DOM_MAX_PLAYER_UNITS),
	DOM_KEY(knights, 0, DOM_MAX_PLAYER_UNITS),
	DOM_KEY(witches, 0, DOM_MAX_WITCHES),
	DOM_KEY(farmer_health, 1, DOM_MAX_VALUE),
	DOM_KEY(knight_health, 1, DOM_MAX_VALUE),
	DOM_KEY(farmer_regen, 0, DOM_MAX_VALUE),
	DOM_KEY(knight_regen, 0, DOM_MAX_VALUE),
	DOM_KEY(damage_min, 1, DOM_MAX_VALUE),
	DOM_KEY(damage_max, 1, DOM_MAX_VALUE),
};

#define DOM_NKEYS ((int)(sizeof dom_keys / sizeof dom_keys[0]))

static int *dom_key_field(struct dom_params *p, int k)
{
	return (int *)((char *)p + dom_keys[k].offset);
}

static int dom_key_find(const char *name, size_t len)
{
	for (int k = 0; k < DOM_NKEYS; k++)
		if (strlen(dom_keys[k].name) == len && memcmp(dom_keys[k].name, name, len) == 0)
			return k;
	return -1;
}

/* ---- lines --------------------------------------------------------------- */

/* One line of the text, without its comment and surrounding blanks. */
struct dom_line {
	const char *s;
	size_t len;
	int number;
};

/* The parse in progress: where each key was given (0: not given). */
struct dom_parse {
	struct dom_params *p;
	char *err;
	int key_line[DOM_NKEYS];
	int board_line, board_rows, board_cols;
};

/* err = "line N: key: what", or "key: what" for a key left at its default. */
__attribute__((format(printf, 4, 5))) static int dom_fail(struct dom_parse *ps, int line,
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

static bool dom_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Cuts the next line off *text; false at the end. */
static bool dom_next_line(const char **text, struct dom_line *line)
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
	while (len && dom_blank(*s))
		s++, len--;
	while (len && dom_blank(s[len - 1]))
		len--;
	line->s = s;
	line->len = len;
	line->number++;
	return true;
}

/* A decimal integer of at most 9 digits filling the whole word. */
static bool dom_parse_int(const char *s, size_t len, int *out)
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

/* ---- key lines ----------------------------------------------------------- */

static int dom_parse_key_line(struct dom_parse *ps, const struct dom_line *l)
{
	size_t klen = 0;
	while (klen < l->len && !dom_blank(l->s[klen]))
		klen++;
	char key[32];
	snprintf(key, sizeof key, "%.*s", (int)(klen < 31 ? klen : 31), l->s);
	int k = dom_key_find(l->s, klen);
	if (k < 0)
		return dom_fail(ps, l->number, key, "unknown key");
	if (ps->key_line[k])
		return dom_fail(ps, l->number, key, "given twice (first on line %d)",
				ps->key_line[k]);
	const char *v = l->s + klen;
	size_t vlen = l->len - klen;
	while (vlen && dom_blank(*v))
		v++, vlen--;
	int value;
	if (!dom_parse_int(v, vlen, &value))
		return dom_fail(ps, l->number, key, "expected one non-negative integer");
	const struct dom_key *dk = &dom_keys[k];
	if (value < dk->min || value > dk->max)
		return dom_fail(ps, l->number, key, "%d is out of range (%d..%d)", value, dk->min,
				dk->max);
	*dom_key_field(ps->p, k) = value;
	ps->key_line[k] = l->number;
	return 0;
}

/* ---- the board section --------------------------------------------------- */

static int dom_board_char(char ch)
{
	if (ch == 'X')
		return DOM_BOARD_WALL;
	if (ch == '.')
		return DOM_BOARD_FREE;
	if (ch >= '0' && ch < '0' + DOM_PLAYERS)
		return ch - '0';
	return DOM_BOARD_WALL - 1;
}

static int dom_parse_board_row(struct dom_parse *ps, const struct dom_line *l)
{
	if (l->len > DOM_MAX_ROWS)
		return dom_fail(ps, l->number, "board", "a row of %zu cells (at most %d)", l->len,
				DOM_MAX_ROWS);
	if (ps->board_rows == 0)
		ps->board_cols = (int)l->len;
	if (l->len != (size_t)ps->board_cols)
		return dom_fail(ps, l->number, "board", "a row of %zu cells, the first had %d",
				l->len, ps->board_cols);
	if (ps->board_rows == DOM_MAX_ROWS)
		return dom_fail(ps, l->number, "board", "more than %d rows", DOM_MAX_ROWS);
	int row = ps->board_rows, cols = ps->board_cols;
	for (int c = 0; c < cols; c++) {
		int v = dom_board_char(l->s[c]);
		if (v < DOM_BOARD_WALL)
			return dom_fail(ps, l->number, "board",
					"column %d: '%c' is not X, '.' or a player 0..3", c,
					l->s[c]);
		ps->p->board[row * cols + c] = (int8_t)v;
	}
	ps->board_rows++;
	return 0;
}

static bool dom_board_border_ok(const struct dom_params *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p->board[i] != DOM_BOARD_WALL || p->board[(n - 1) * n + i] != DOM_BOARD_WALL ||
		    p->board[i * n] != DOM_BOARD_WALL || p->board[i * n + n - 1] != DOM_BOARD_WALL)
			return false;
	return true;
}

static int dom_line_of(const struct dom_parse *ps, const char *key)
{
	return ps->key_line[dom_key_find(key, strlen(key))];
}

/* The board sets rows and cols; keys that were given must agree with it. */
static int dom_check_board(struct dom_parse *ps)
{
	struct dom_params *p = ps->p;
	int rows = ps->board_rows, cols = ps->board_cols, line = ps->board_line;
	if (rows != cols)
		return dom_fail(ps, line, "board", "%d rows of %d cells: it must be square", rows,
				cols);
	if (rows < DOM_MIN_ROWS || rows % 2 == 0)
		return dom_fail(ps, line, "board", "%d rows: it must be odd and at least %d", rows,
				DOM_MIN_ROWS);
	if (dom_line_of(ps, "rows") && p->rows != rows)
		return dom_fail(ps, dom_line_of(ps, "rows"), "rows", "%d, but the board has %d",
				p->rows, rows);
	if (dom_line_of(ps, "cols") && p->cols != cols)
		return dom_fail(ps, dom_line_of(ps, "cols"), "cols", "%d, but the board has %d",
				p->cols, cols);
	if (!dom_board_border_ok(p, rows))
		return dom_fail(ps, line, "board", "its border must be walls (X)");
	p->rows = rows;
	p->cols = cols;
	p->fixed_board = true;
	return 0;
}

/* ---- checks across keys -------------------------------------------------- */

static int dom_last_line(const struct dom_parse *ps, const char *a, const char *b,
			 const char *c)
{
	int la = dom_line_of(ps, a), lb = dom_line_of(ps, b), lc = dom_line_of(ps, c);
	int m = la > lb ? la : lb;
	return m > lc ? m : lc;
}

static int dom_check_all(struct dom_parse *ps)
{
	struct dom_params *p = ps->p;
	/* rows = cols: one given alone sets both. */
	if (dom_line_of(ps, "rows") && !dom_line_of(ps, "cols"))
		p->cols = p->rows;
	if (dom_line_of(ps, "cols") && !dom_line_of(ps, "rows"))
		p->rows = p->cols;
	if (p->rows % 2 == 0)
		return dom_fail(ps, dom_line_of(ps, "rows"), "rows", "%d is even; it must be odd",
				p->rows);
	if (p->cols != p->rows)
		return dom_fail(ps, dom_line_of(ps, "cols"), "cols", "%d differs from rows %d",
				p->cols, p->rows);
	if (p->damage_max < p->damage_min)
		return dom_fail(ps, dom_line_of(ps, "damage_max"), "damage_max",
				"%d is below damage_min %d", p->damage_max, p->damage_min);
	/* Half a box leaves room to place and to reborn every unit. */
	int side = p->rows / 2 - 2;
	int room = side * side / 2 < DOM_MAX_PLAYER_UNITS ? side * side / 2 : DOM_MAX_PLAYER_UNITS;
	int units = p->farmers + p->knights + p->witches;
	if (units < 1 || units > room)
		return dom_fail(ps, dom_last_line(ps, "farmers", "knights", "witches"),
				"farmers + knights + witches", "%d, must be 1 to %d for %d rows",
				units, room, p->rows);
	return 0;
}

int dom_params_parse(const char *text, struct dom_params *p, char err[GAME_ERRLEN])
{
	dom_params_default(p);
	struct dom_parse ps = { .p = p, .err = err };
	struct dom_line l = { 0 };
	if (!text)
		text = "";
	while (dom_next_line(&text, &l)) {
		if (l.len == 0)
			continue;
		int rc;
		if (ps.board_line)
			rc = dom_parse_board_row(&ps, &l);
		else if (l.len == 5 && memcmp(l.s, "board", 5) == 0)
			rc = (ps.board_line = l.number, 0);
		else
			rc = dom_parse_key_line(&ps, &l);
		if (rc < 0)
			return -1;
	}
	if (ps.board_line && ps.board_rows == 0)
		return dom_fail(&ps, ps.board_line, "board", "no rows follow");
	if (ps.board_line && dom_check_board(&ps) < 0)
		return -1;
	return dom_check_all(&ps);
}
