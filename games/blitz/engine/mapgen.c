/* mapgen.c - Blitz2018's maps, as Halite I makes them.
 *
 * The map is cut into one chunk per player (tiles across and down, as
 * close to square as the player count allows, the orientation drawn from
 * the seed); the chunk's size is the asked size divided by the tiles,
 * rounded down, so the map is never larger than asked.  One chunk of
 * random values is drawn by recursive splitting (each half of a region
 * multiplies its parent's factor by a random one), tiled over the map and
 * mirrored on every odd tile of an axis with an even number of tiles; the
 * whole map is then blurred (which keeps the symmetry: blurring commutes
 * with the map's mirrors and shifts) and scaled to a maximum production of
 * 6..15 and a maximum strength of 150..255.  Every player starts at its
 * chunk's centre (mirrored with the chunk), on a site of production >= 1.
 * So every player's surroundings are the same map up to a mirror.
 *
 * The constants below were tuned so that 100 maps have Halite's figures
 * (tests/unit/test_blitz_map.c pins them): mean production about 3.2,
 * 1-2 % of sites without production, mean strength 64-70.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/blitz/bz.h"

#define BZ_SPLIT_LOW 0.36 /* a child's factor is uniform in [LOW, 1] */
#define BZ_BLUR_OWN 0.5   /* a site's own weight in one blur pass */
#define BZ_BLUR_PASSES 4
#define BZ_MIN_CHUNK 3 /* sites across a player's chunk, at least */
#define BZ_PROD_MIN 6
#define BZ_PROD_MAX 15
#define BZ_STRENGTH_MIN 150
#define BZ_STRENGTH_MAX 255

void bz_tiling(int players, bool horizontal, int *across, int *down)
{
	int k = (int)sqrt((double)players);
	while (players % k)
		k--;
	*across = horizontal ? players / k : k;
	*down = horizontal ? k : players / k;
}

static double bz_unit(struct rng *r)
{
	return rng_next(r) / 2147483648.0;
}

/* Fills the chunk's region [x0, x0+w) x [y0, y0+h) (row stride cw) with
 * factor times its children's factors, halving the longer side. */
static void bz_split(struct rng *r, double *chunk, int cw, int x0, int y0, int w, int h,
		     double factor)
{
	if (w == 1 && h == 1) {
		chunk[y0 * cw + x0] = factor;
		return;
	}
	double f1 = factor * (BZ_SPLIT_LOW + (1 - BZ_SPLIT_LOW) * bz_unit(r));
	double f2 = factor * (BZ_SPLIT_LOW + (1 - BZ_SPLIT_LOW) * bz_unit(r));
	if (w >= h) {
		bz_split(r, chunk, cw, x0, y0, w / 2, h, f1);
		bz_split(r, chunk, cw, x0 + w / 2, y0, w - w / 2, h, f2);
	} else {
		bz_split(r, chunk, cw, x0, y0, w, h / 2, f1);
		bz_split(r, chunk, cw, x0, y0 + h / 2, w, h - h / 2, f2);
	}
}

/* The chunk coordinate a map coordinate shows: tiles of size c, mirrored
 * on odd tiles when the tiles are even in number. */
static int bz_chunk_coord(int v, int c, int tiles)
{
	int tile = v / c, local = v % c;
	return tiles % 2 == 0 && tile % 2 == 1 ? c - 1 - local : local;
}

struct bz_layout {
	int across, down, cw, ch;
};

/* One field over the whole map: a chunk tiled and mirrored, then
 * blurred, into b->field. */
static void bz_field(struct game_state *b, const struct bz_layout *t)
{
	double *chunk = b->chunk, *field = b->field, *tmp = b->field_tmp;
	bz_split(&b->rng, chunk, t->cw, 0, 0, t->cw, t->ch, 1.0);
	for (int y = 0; y < b->height; y++)
		for (int x = 0; x < b->width; x++)
			field[y * b->width + x] =
				chunk[bz_chunk_coord(y, t->ch, t->down) * t->cw +
				      bz_chunk_coord(x, t->cw, t->across)];
	for (int pass = 0; pass < BZ_BLUR_PASSES; pass++) {
		for (int s = 0; s < b->sites; s++) {
			double around = 0;
			for (int d = BZ_NORTH; d <= BZ_WEST; d++)
				around += field[bz_step(b->width, b->height, s, d)];
			tmp[s] = BZ_BLUR_OWN * field[s] + (1 - BZ_BLUR_OWN) * around / 4;
		}
		memcpy(field, tmp, (size_t)b->sites * sizeof *field);
	}
}

/* Scales a field to 0..top, rounding to the nearest. */
static void bz_quantise(const struct game_state *b, const double *field, int top, uint8_t *out)
{
	double max = 0;
	for (int s = 0; s < b->sites; s++)
		max = field[s] > max ? field[s] : max;
	for (int s = 0; s < b->sites; s++)
		out[s] = (uint8_t)(max > 0 ? floor(field[s] / max * top + 0.5) : 0);
}

static void bz_place_players(struct game_state *b, const struct bz_layout *t)
{
	for (int p = 0; p < b->players; p++) {
		int tx = p % t->across, ty = p / t->across;
		int lx = t->cw / 2, ly = t->ch / 2;
		if (t->across % 2 == 0 && tx % 2 == 1)
			lx = t->cw - 1 - lx;
		if (t->down % 2 == 0 && ty % 2 == 1)
			ly = t->ch - 1 - ly;
		int s = (ty * t->ch + ly) * b->width + tx * t->cw + lx;
		b->start[p] = s;
		b->owner[s] = (uint8_t)(p + 1);
		b->strength[s] = (uint8_t)b->p.start_strength;
		if (b->production[s] == 0)
			b->production[s] = 1;
	}
}

static int bz_generate(struct game_state *b, err_t err)
{
	struct bz_layout t;
	bool horizontal = rng_next(&b->rng) & 0x10000;
	bz_tiling(b->players, horizontal, &t.across, &t.down);
	t.cw = b->p.width / t.across;
	t.ch = b->p.height / t.down;
	if (t.cw < BZ_MIN_CHUNK || t.ch < BZ_MIN_CHUNK) {
		err_set(err,
			"a %d x %d map cannot hold %d players (%d x %d chunks of at least %d x %d "
			"sites); ask for a larger width and height", b->p.width, b->p.height,
			b->players, t.across, t.down, BZ_MIN_CHUNK, BZ_MIN_CHUNK);
		return -1;
	}
	b->width = t.cw * t.across;
	b->height = t.ch * t.down;
	b->sites = b->width * b->height;
	int top_production = rng_uniform(&b->rng, BZ_PROD_MIN, BZ_PROD_MAX);
	int top_strength = rng_uniform(&b->rng, BZ_STRENGTH_MIN, BZ_STRENGTH_MAX);
	bz_field(b, &t);
	bz_quantise(b, b->field, top_production, b->production);
	bz_field(b, &t);
	bz_quantise(b, b->field, top_strength, b->strength);
	memset(b->owner, 0, sizeof b->owner);
	bz_place_players(b, &t);
	return 0;
}

/* A fixed map's owners must be players of this match, each with a site. */
static int bz_copy_fixed(struct game_state *b, err_t err)
{
	const struct bz_params *p = &b->p;
	b->width = p->map_width;
	b->height = p->map_height;
	b->sites = b->width * b->height;
	memcpy(b->owner, p->owner, (size_t)b->sites);
	memcpy(b->strength, p->strength, (size_t)b->sites);
	memcpy(b->production, p->production, (size_t)b->sites);
	bool has[BZ_MAX_PLAYERS + 1] = { false };
	for (int s = 0; s < b->sites; s++) {
		if (b->owner[s] > b->players) {
			err_set(err, "map: site (%d, %d) belongs to player %d, but "
				"the match has %d players", s % b->width, s / b->width,
				b->owner[s], b->players);
			return -1;
		}
		has[b->owner[s]] = true;
	}
	for (int q = 1; q <= b->players; q++)
		if (!has[q]) {
			err_set(err, "map: player %d owns no site; give each of the "
				"%d players at least one", q, b->players);
			return -1;
		}
	for (int q = 0; q < b->players; q++)
		b->start[q] = -1;
	return 0;
}

int bz_map_setup(struct game_state *b, err_t err)
{
	return b->p.fixed_map ? bz_copy_fixed(b, err) : bz_generate(b, err);
}
