/* world_params.c - AIC2018's parameters file and its text maps.
 *
 * `key value` lines (games/params_text.h): rounds, start_wood, width,
 * height, size_min, size_max, symmetry (1 horizontal, 2 vertical, 3
 * rotational; 0 none, fixed maps only), workers (1..3 per team), vp (1:
 * victory points appear, 0: never, for tests), oak_hp (of a text map's
 * oaks).  An optional last section starts with a line `map`: one text line
 * per row, north first, one character per cell:
 *
 *     .  land                  ~  water
 *     O  an oak (oak_hp HP)    t  a grown small tree (40 HP)
 *     $  land with victory points (AIC_VP_AMOUNT)
 *     W B S A K L  a unit of team A: worker, barracks, soldier, archer,
 *                  knight, ballista; lower case: team B
 *
 * Units start in the order they are read (row by row), team A's then
 * team B's, none under construction.  With a symmetry the map must be
 * symmetric (team A's units mirrored by team B's).
 */
#include <string.h>

#include "games/aic2018/world.h"
#include "games/params_text.h"

void aic_params_default(struct aic_params *p)
{
	memset(p, 0, sizeof *p);
	p->rounds = AIC_ROUNDS;
	p->start_wood = AIC_START_WOOD;
	p->size_min = AIC_MIN_SIDE;
	p->size_max = AIC_MAX_SIDE;
	p->symmetry = -1;
	p->vp = 1;
	p->oak_hp = AIC_OAK_HP_DEFAULT;
}

#define AIC_KEY(field, lo, hi) PT_KEY(struct aic_params, field, lo, hi)

static const struct pt_key aic_keys[] = {
	AIC_KEY(rounds, 1, 10000),
	AIC_KEY(start_wood, 0, 1000000),
	AIC_KEY(width, AIC_MIN_SIDE, AIC_MAX_SIDE),
	AIC_KEY(height, AIC_MIN_SIDE, AIC_MAX_SIDE),
	AIC_KEY(size_min, AIC_MIN_SIDE, AIC_MAX_SIDE),
	AIC_KEY(size_max, AIC_MIN_SIDE, AIC_MAX_SIDE),
	AIC_KEY(symmetry, 0, 3),
	AIC_KEY(workers, 1, 3),
	AIC_KEY(vp, 0, 1),
	AIC_KEY(oak_hp, 1, 10000),
};

#define AIC_NKEYS ((int)(sizeof aic_keys / sizeof aic_keys[0]))

struct aic_parse {
	struct pt_parse pt;
	struct aic_params *p;
	int map_line, rows, cols;
};

static const char aic_map_chars[] = ".~Ot$WBSAKLwbsakl";

static int map_row(void *ctx, const struct pt_line *l)
{
	struct aic_parse *ps = ctx;
	if (ps->rows == AIC_MAX_SIDE)
		return pt_fail(&ps->pt, l->number, "map", "more than %d rows", AIC_MAX_SIDE);
	if (l->len > AIC_MAX_SIDE)
		return pt_fail(&ps->pt, l->number, "map", "%zu cells in a row, at most %d", l->len,
			       AIC_MAX_SIDE);
	for (size_t i = 0; i < l->len; i++)
		if (!l->s[i] || !strchr(aic_map_chars, l->s[i]))
			return pt_fail(&ps->pt, l->number, "map",
				       "cell %zu: '%c' is none of %s", i + 1, l->s[i], aic_map_chars);
	if (ps->rows == 0)
		ps->cols = (int)l->len;
	if ((int)l->len != ps->cols)
		return pt_fail(&ps->pt, l->number, "map", "a row of %zu cells, the first had %d",
			       l->len, ps->cols);
	memcpy(ps->p->map + ps->rows * AIC_STRIDE, l->s, l->len);
	ps->rows++;
	return 0;
}

static int map_begin(void *ctx, int line)
{
	((struct aic_parse *)ctx)->map_line = line;
	return 0;
}

/* The character a cell's mirror must hold: the same terrain, a unit of
 * the other team. */
static char mirrored(char c)
{
	if (c >= 'A' && c <= 'Z' && c != 'O')
		return (char)(c - 'A' + 'a');
	if (c >= 'a' && c <= 'z' && c != 't')
		return (char)(c - 'a' + 'A');
	return c;
}

static int check_symmetry(struct aic_parse *ps)
{
	const struct aic_params *p = ps->p;
	int w = ps->cols, h = ps->rows;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int mx = p->symmetry == AIC_SYM_HORIZONTAL ? x : w - 1 - x;
			int my = p->symmetry == AIC_SYM_VERTICAL ? y : h - 1 - y;
			char a = p->map[y * AIC_STRIDE + x], b = p->map[my * AIC_STRIDE + mx];
			if (b != mirrored(a) && !(mx == x && my == y && a == b))
				return pt_fail(&ps->pt, ps->map_line + 1 + y, "map",
					       "column %d: '%c' but its mirror (row %d, column %d) "
					       "holds '%c' (symmetry %d)",
					       x + 1, a, my + 1, mx + 1, b, p->symmetry);
		}
	return 0;
}

static int check_map(struct aic_parse *ps)
{
	struct aic_params *p = ps->p;
	if (ps->rows < 2 || ps->cols < 2)
		return pt_fail(&ps->pt, ps->map_line, "map", "%d rows of %d cells: at least 2 of each",
			       ps->rows, ps->cols);
	if (pt_line_of(&ps->pt, "width") || pt_line_of(&ps->pt, "height") ||
	    pt_line_of(&ps->pt, "size_min") || pt_line_of(&ps->pt, "size_max") ||
	    pt_line_of(&ps->pt, "workers"))
		return pt_fail(&ps->pt, ps->map_line, "map",
			       "a fixed map sets the size and the units: leave out width, height, "
			       "size_min, size_max and workers");
	int units[2] = { 0, 0 };
	for (int y = 0; y < ps->rows; y++)
		for (int x = 0; x < ps->cols; x++) {
			char c = p->map[y * AIC_STRIDE + x];
			if (strchr("WBSAKL", c))
				units[0]++;
			else if (strchr("wbsakl", c))
				units[1]++;
		}
	if (!units[0] || !units[1])
		return pt_fail(&ps->pt, ps->map_line, "map",
			       "team %c has no unit: give each team at least one (W B S A K L for "
			       "team A, lower case for team B)", units[0] ? 'B' : 'A');
	p->fixed_map = true;
	p->map_width = ps->cols;
	p->map_height = ps->rows;
	if (p->symmetry < 0)
		p->symmetry = AIC_SYM_NONE;
	return p->symmetry == AIC_SYM_NONE ? 0 : check_symmetry(ps);
}

static int check_generated(struct aic_parse *ps)
{
	const struct aic_params *p = ps->p;
	if (p->symmetry == AIC_SYM_NONE)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "symmetry"), "symmetry",
			       "0 (none) is for fixed maps only: give 1, 2 or 3");
	if (p->size_min > p->size_max)
		return pt_fail(&ps->pt, pt_line_of(&ps->pt, "size_max"), "size_max",
			       "%d, less than size_min %d", p->size_max, p->size_min);
	return 0;
}

int aic_params_parse(const char *text, struct aic_params *p, struct err *err)
{
	static const struct pt_section map = { "map", map_begin, map_row, NULL };
	aic_params_default(p);
	struct aic_parse ps = { .pt = { aic_keys, AIC_NKEYS, p, err, { 0 } }, .p = p };
	int section = pt_read(&ps.pt, text, &map, &ps);
	if (section < 0)
		return -1;
	return section ? check_map(&ps) : check_generated(&ps);
}
