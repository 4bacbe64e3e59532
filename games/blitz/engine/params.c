/* params.c - Blitz2018's default parameters and the parameters file.
 *
 * `key value` lines with `#` comments (games/params_text.h); an optional
 * last section starts with a line `map` and gives a fixed map, one text
 * line per row of sites, north first: each site is `production/strength`
 * (the map's) or `production/strength/owner` (a player's piece, owner
 * 1..6), separated by blanks.  Every row has the same number of sites.
 */
#include <stdio.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/params_text.h"

void bz_params_default(struct bz_params *p)
{
	memset(p, 0, sizeof *p);
	p->width = 30;
	p->height = 30;
	p->fog = 2;
	p->rounds = 0;
	p->start_strength = BZ_MAX_STRENGTH;
}

#define BZ_KEY(field, lo, hi) PT_KEY(struct bz_params, field, lo, hi)

static const struct pt_key bz_keys[] = {
	BZ_KEY(width, BZ_MIN_SIDE, BZ_MAX_SIDE),
	BZ_KEY(height, BZ_MIN_SIDE, BZ_MAX_SIDE),
	BZ_KEY(fog, 0, BZ_MAX_FOG),
	BZ_KEY(rounds, 0, 10000),
	BZ_KEY(start_strength, 0, BZ_MAX_STRENGTH),
	BZ_KEY(size_min, BZ_MIN_SIDE, BZ_MAX_SIDE),
	BZ_KEY(size_max, BZ_MIN_SIDE, BZ_MAX_SIDE),
};

struct bz_parse {
	struct pt_parse pt;
	struct bz_params *p;
	int map_line, rows, cols;
};

/* One number of a site, up to '/' or the end of the word. */
static const char *bz_site_number(const char *s, const char *end, int max, int *out)
{
	const char *e = s;
	while (e < end && *e != '/')
		e++;
	if (!pt_parse_int(s, (size_t)(e - s), out) || *out > max)
		return NULL;
	return e;
}

/* `P/S` or `P/S/O` filling [s, end): 0, or -1 when it is not one. */
static int bz_parse_site(const char *s, const char *end, struct bz_params *p, int site)
{
	int v[3] = { 0, 0, 0 }, max[3] = { BZ_MAX_STRENGTH, BZ_MAX_STRENGTH, BZ_MAX_PLAYERS };
	for (int i = 0; i < 3; i++) {
		s = bz_site_number(s, end, max[i], &v[i]);
		if (!s)
			return -1;
		if (s == end)
			return i == 0 ? -1
				      : (p->production[site] = (uint8_t)v[0],
					 p->strength[site] = (uint8_t)v[1],
					 p->owner[site] = (uint8_t)v[2], 0);
		s++; /* the '/' */
	}
	return -1;
}

static int bz_parse_map_row(void *ctx, const struct pt_line *l)
{
	struct bz_parse *ps = ctx;
	const char *s = l->s, *end = l->s + l->len;
	int col = 0;
	if (ps->rows == BZ_MAX_SIDE)
		return pt_fail(&ps->pt, l->number, "map", "more than %d rows", BZ_MAX_SIDE);
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		const char *w = s;
		while (s < end && *s != ' ' && *s != '\t')
			s++;
		if (w == s)
			break;
		if (col == BZ_MAX_SIDE)
			return pt_fail(&ps->pt, l->number, "map", "more than %d sites in a row",
				       BZ_MAX_SIDE);
		if (bz_parse_site(w, s, ps->p, ps->rows * BZ_MAX_SIDE + col) < 0)
			return pt_fail(&ps->pt, l->number, "map",
				       "site %d: '%.*s' is not production/strength or "
				       "production/strength/owner (0..255, 0..255, 1..%d)",
				       col + 1, (int)(s - w), w, BZ_MAX_PLAYERS);
		col++;
	}
	if (ps->rows == 0)
		ps->cols = col;
	if (col != ps->cols)
		return pt_fail(&ps->pt, l->number, "map", "a row of %d sites, the first had %d", col,
			       ps->cols);
	ps->rows++;
	return 0;
}

/* Sites were stored with a stride of BZ_MAX_SIDE; pack them by rows. */
static void bz_pack_map(struct bz_params *p, int rows, int cols)
{
	for (int r = 0; r < rows; r++) {
		memmove(p->production + r * cols, p->production + r * BZ_MAX_SIDE, (size_t)cols);
		memmove(p->strength + r * cols, p->strength + r * BZ_MAX_SIDE, (size_t)cols);
		memmove(p->owner + r * cols, p->owner + r * BZ_MAX_SIDE, (size_t)cols);
	}
}

static int bz_check_map(void *ctx, int line)
{
	struct bz_parse *ps = ctx;
	ps->map_line = line;
	struct bz_params *p = ps->p;
	if (ps->rows < BZ_MIN_SIDE || ps->cols < BZ_MIN_SIDE)
		return pt_fail(&ps->pt, ps->map_line, "map",
			       "%d rows of %d sites: at least %d of each", ps->rows, ps->cols,
			       BZ_MIN_SIDE);
	if (pt_line_of(&ps->pt, "width") || pt_line_of(&ps->pt, "height"))
		return pt_fail(&ps->pt, ps->map_line, "map",
			       "a fixed map sets the size: leave out width and height");
	bz_pack_map(p, ps->rows, ps->cols);
	p->fixed_map = true;
	p->map_width = p->width = ps->cols;
	p->map_height = p->height = ps->rows;
	return 0;
}

/* A range of sizes goes with neither a fixed size nor a fixed map. */
static int bz_check_sizes(void *ctx)
{
	struct bz_parse *ps = ctx;
	const struct bz_params *p = ps->p;
	int lmin = pt_line_of(&ps->pt, "size_min"), lmax = pt_line_of(&ps->pt, "size_max");
	if (!lmin && !lmax)
		return 0;
	if (!lmin || !lmax)
		return pt_fail(&ps->pt, lmin ? lmin : lmax, lmin ? "size_max" : "size_min",
			       "missing: give both size_min and size_max, or neither");
	if (p->size_min > p->size_max)
		return pt_fail(&ps->pt, lmax, "size_max", "%d, less than size_min %d",
			       p->size_max, p->size_min);
	if (pt_line_of(&ps->pt, "width") || pt_line_of(&ps->pt, "height") || p->fixed_map)
		return pt_fail(&ps->pt, lmin, "size_min",
			       "a range of sizes goes with neither width, height nor a map");
	return 0;
}

static const struct pt_section bz_map = { "map", NULL, bz_parse_map_row, NULL };

_Static_assert(sizeof bz_keys / sizeof *bz_keys <= PT_MAX_KEYS,
	       "bz_keys: more keys than struct pt_parse has room for");

static const struct pt_format bz_params_format = {
	bz_keys, (int)(sizeof bz_keys / sizeof *bz_keys), &bz_map, bz_check_map, bz_check_sizes
};

int bz_params_parse(const char *text, struct bz_params *p, err_t err)
{
	bz_params_default(p);
	struct bz_parse ps = { .p = p };
	return pt_read_params(&bz_params_format, &ps.pt, p, text, err);
}
