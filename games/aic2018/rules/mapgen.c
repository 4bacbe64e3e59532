/* mapgen.c - AIC2018's world at the start of a match: a generated map or
 * the parameters file's, the starting workers, the teams' wood.
 *
 * A generated map draws, from the seed alone: its size (size_min..size_max
 * on each side unless width and height are given), its symmetry, lakes of
 * water, groves of oaks (HP AIC_OAK_HP_MIN..MAX) and 1 to 3 workers per
 * team near a start cell far from its mirror; every feature is written on
 * a cell and its mirror at once, so the map is symmetric by construction.
 * A map whose two starts are not joined by land (oaks count as land: they
 * can be chopped) is drawn again.
 */
#include <math.h>
#include <string.h>

#include "games/aic2018/rules/internal.h"

#define LAKE_CELLS 150     /* one lake per this many cells, at most */
#define GROVE_CELLS_MIN 90 /* groves: between cells/90 and cells/40 */
#define GROVE_CELLS_MAX 40
#define GROVE_DENSITY 60   /* percent of a grove's disc that gets an oak */
#define START_CLEAR 8      /* no water nor oak this close to a start */
#define START_SPREAD 8     /* a team's workers this close to its start */

static void set_both(struct aic_world *w, struct aic_loc l, int water, int oak_hp)
{
	struct aic_loc m = aic_mirror(w, l);
	for (int i = 0; i < 2; i++) {
		struct aic_cell *c = aic_cell_at(w, i ? m : l);
		c->water = (uint8_t)water;
		c->tree = oak_hp ? AIC_TREE_OAK : AIC_TREE_NONE;
		c->tree_hp = (int16_t)oak_hp;
	}
}

static struct aic_loc random_loc(struct aic_world *w)
{
	return (struct aic_loc){ rng_uniform(&w->rng, 0, w->width - 1),
				 rng_uniform(&w->rng, 0, w->height - 1) };
}

/* Features on a disc around a random centre: water, or oaks on some cells. */
static void scatter(struct aic_world *w, int count, bool water)
{
	for (int i = 0; i < count; i++) {
		struct aic_loc c = random_loc(w);
		int r = rng_uniform(&w->rng, 1, water ? 8 : 5);
		for (int y = c.y - 3; y <= c.y + 3; y++)
			for (int x = c.x - 3; x <= c.x + 3; x++) {
				struct aic_loc l = { x, y };
				if (!aic_in_map(w, l) || aic_dist(c, l) > r)
					continue;
				if (water)
					set_both(w, l, 1, 0);
				else if (rng_uniform(&w->rng, 1, 100) <= GROVE_DENSITY)
					set_both(w, l, 0,
						 rng_uniform(&w->rng, AIC_OAK_HP_MIN, AIC_OAK_HP_MAX));
			}
	}
}

/* A start cell far enough from its mirror: a quarter of the smaller side
 * or more (squared), the best of many draws. */
static struct aic_loc start_cell(struct aic_world *w)
{
	int side = w->width < w->height ? w->width : w->height;
	struct aic_loc best = { 0, 0 };
	int best_d = -1;
	for (int i = 0; i < 1000 && best_d < side * side / 4; i++) {
		struct aic_loc l = random_loc(w);
		int d = aic_dist(l, aic_mirror(w, l));
		if (d > best_d)
			best = l, best_d = d;
	}
	return best;
}

/* Land (not water) joins a and b: oaks can be chopped, units move. */
static bool joined(const struct aic_world *w, struct aic_loc a, struct aic_loc b)
{
	static _Thread_local int16_t queue[AIC_MAX_CELLS];
	static _Thread_local uint8_t seen[AIC_MAX_CELLS];
	memset(seen, 0, sizeof seen);
	int head = 0, tail = 0;
	queue[tail++] = (int16_t)aic_index(a);
	seen[aic_index(a)] = 1;
	while (head < tail) {
		int cell = queue[head++];
		if (cell == aic_index(b))
			return true;
		struct aic_loc l = { cell % AIC_STRIDE, cell / AIC_STRIDE };
		for (int d = 0; d < AIC_ZERO; d++) {
			struct aic_loc n = aic_add(l, d);
			if (aic_in_map(w, n) && !seen[aic_index(n)] && !w->cell[aic_index(n)].water) {
				seen[aic_index(n)] = 1;
				queue[tail++] = (int16_t)aic_index(n);
			}
		}
	}
	return false;
}

static void clear_cells(struct aic_world *w)
{
	for (int i = 0; i < AIC_MAX_CELLS; i++)
		w->cell[i] = (struct aic_cell){ .unit = AIC_NO_UNIT, .vp_round = AIC_NEVER };
}

/* The workers' cells: the start and workers-1 free cells near it. */
static int worker_cells(struct aic_world *w, struct aic_loc start, int workers,
			struct aic_loc *at)
{
	int n = 0;
	at[n++] = start;
	for (int tries = 0; n < workers && tries < 1000; tries++) {
		struct aic_loc l = { start.x + rng_uniform(&w->rng, -2, 2),
				     start.y + rng_uniform(&w->rng, -2, 2) };
		bool taken = aic_dist(l, start) > START_SPREAD || !aic_in_map(w, l) ||
			     aic_obstacle(w, l) || aic_dist(l, aic_mirror(w, l)) == 0;
		for (int i = 0; i < n && !taken; i++)
			taken = (at[i].x == l.x && at[i].y == l.y) ||
				aic_index(aic_mirror(w, at[i])) == aic_index(l);
		if (!taken)
			at[n++] = l;
	}
	return n;
}

static void place_teams(struct aic_world *w, const struct aic_loc *at, int n)
{
	for (int team = 0; team < AIC_TEAMS; team++)
		for (int i = 0; i < n; i++)
			aic_place_unit(w, team, AIC_WORKER, team ? aic_mirror(w, at[i]) : at[i],
				       aic_draw_id(w), w->norder, 0);
}

static int generate(struct aic_world *w)
{
	const struct aic_params *p = &w->p;
	w->width = p->width ? p->width : rng_uniform(&w->rng, p->size_min, p->size_max);
	w->height = p->height ? p->height : rng_uniform(&w->rng, p->size_min, p->size_max);
	w->symmetry = p->symmetry > 0 ? p->symmetry : rng_uniform(&w->rng, 1, 3);
	int cells = w->width * w->height, workers = p->workers ? p->workers : rng_uniform(&w->rng, 1, 3);
	for (int t = 0; t < AIC_MAP_TRIES; t++) {
		clear_cells(w);
		scatter(w, rng_uniform(&w->rng, 0, cells / LAKE_CELLS), true);
		scatter(w, rng_uniform(&w->rng, cells / GROVE_CELLS_MIN, cells / GROVE_CELLS_MAX), false);
		struct aic_loc start = start_cell(w), at[3];
		for (int y = start.y - 3; y <= start.y + 3; y++)
			for (int x = start.x - 3; x <= start.x + 3; x++) {
				struct aic_loc l = { x, y };
				if (aic_in_map(w, l) && aic_dist(l, start) <= START_CLEAR)
					set_both(w, l, 0, 0);
			}
		if (!joined(w, start, aic_mirror(w, start)) ||
		    worker_cells(w, start, workers, at) < workers)
			continue;
		place_teams(w, at, workers);
		return 0;
	}
	return -1;
}

static const char unit_letters[] = "WBSAKL";

/* The parameters file's map: terrain, then team A's units, then B's. */
static void load_map(struct aic_world *w)
{
	const struct aic_params *p = &w->p;
	w->width = p->map_width;
	w->height = p->map_height;
	w->symmetry = p->symmetry;
	clear_cells(w);
	for (int team = 0; team < AIC_TEAMS; team++)
		for (int y = 0; y < w->height; y++)
			for (int x = 0; x < w->width; x++) {
				char ch = p->map[y * AIC_STRIDE + x];
				struct aic_cell *c = &w->cell[y * AIC_STRIDE + x];
				const char *u = strchr(unit_letters, team ? ch - 'a' + 'A' : ch);
				if (u && *u && (team ? ch >= 'a' : ch < 'a'))
					aic_place_unit(w, team, (int)(u - unit_letters),
						       (struct aic_loc){ x, y }, aic_draw_id(w),
						       w->norder, 0);
				if (team)
					continue;
				c->water = ch == '~';
				if (ch == 'O')
					*c = (struct aic_cell){ .tree = AIC_TREE_OAK, .tree_hp = (int16_t)p->oak_hp,
								.unit = AIC_NO_UNIT, .vp_round = AIC_NEVER };
				if (ch == 't')
					c->tree = AIC_TREE_SMALL, c->tree_hp = AIC_SMALL_TREE_HP;
				if (ch == '$')
					c->vp = AIC_VP_AMOUNT, c->vp_round = 0;
			}
}

/* The initial units' cells, each team's in the order they play. */
static void note_starts(struct aic_world *w)
{
	for (int i = 0; i < w->norder; i++) {
		const struct aic_unit *u = &w->unit[w->order[i]];
		if (w->nstarts[u->team] < AIC_MAX_STARTS)
			w->start[u->team][w->nstarts[u->team]++] = (struct aic_loc){ u->x, u->y };
	}
}

int aic_world_init(struct aic_world *w, const struct aic_params *p, uint64_t seed)
{
	memset(w, 0, sizeof *w);
	w->p = *p;
	w->rng = rng_seeded(seed);
	w->winner = -1;
	w->cursor = -1;
	for (int i = 0; i <= AIC_MAX_ID; i++)
		w->slot_of_id[i] = AIC_NO_UNIT;
	if (p->fixed_map)
		load_map(w);
	else if (generate(w) < 0)
		return -1;
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++)
			w->non_water += !w->cell[y * AIC_STRIDE + x].water;
	aic_vp_chance(w, w->non_water ? 1.0 / (50.0 * sqrt((double)w->non_water)) : 0.0);
	for (int t = 0; t < AIC_TEAMS; t++)
		w->team[t].wood = p->start_wood;
	note_starts(w);
	return 0;
}
