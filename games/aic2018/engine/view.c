/* view.c - what a team is sent for one step of its units.
 *
 * The world it gets is aic_fog()'s (no units, small trees or VP it does
 * not know; no random state; no enemy wood), but seen from a little
 * farther than its units see: every cell within (sqrt(vision) + REACH)^2
 * of one of its units.  Within one step a unit may move one cell and Dash
 * up to sqrt(8) more, and a spawned unit sees from a cell next to its
 * spawner, so every cell any of the step's sensing or actions can reach is
 * in the copy, and the kit's copy changes exactly as the engine's does.
 * A player reading its own memory can thus learn the cells within that
 * margin, the number of enemy units (the win check needs it), the enemy's
 * VP (public in the original) and the ids the engine will give its next
 * spawns; nothing else.
 */
#include "games/aic2018/engine/engine.h"

#include <string.h>

#include "games/aic2018/rules/internal.h"

#define REACH 5 /* cells: a move (1.5) and a Dash (2.9), rounded up */

static int isqrt_up(int v)
{
	int r = 0;
	while (r * r < v)
		r++;
	return r;
}

/* The half-widths of a disc of radius k (k^2 = r), by row from its
 * centre: the rows aic_disc() gives for that radius. */
struct margin_shape {
	int k;
	int8_t half[AIC_MAX_SIDE];
};

static void shape_of(int k, struct margin_shape *sh)
{
	sh->k = k < AIC_MAX_SIDE ? k : AIC_MAX_SIDE - 1;
	for (int dy = 0, span = sh->k; dy <= sh->k; dy++) {
		while (span * span + dy * dy > k * k)
			span--;
		sh->half[dy] = (int8_t)span;
	}
}

/* A row of the map as bits, cell x the bit x. */
_Static_assert(AIC_MAX_SIDE <= 64, "a row of cells fits a 64-bit mask");
typedef uint64_t row_bits;

/* Cells x - half .. x + half of a row `width` wide. */
static row_bits span_bits(int x, int half, int width)
{
	int lo = x - half < 0 ? 0 : x - half, hi = x + half >= width ? width - 1 : x + half;
	if (lo > hi)
		return 0;
	row_bits upto_hi = hi == 63 ? ~(row_bits)0 : ((row_bits)1 << (hi + 1)) - 1;
	return upto_hi & ~(((row_bits)1 << lo) - 1);
}

/* The cells within the team's units' margins, a mask a row: a disc of
 * radius sqrt(vision) + REACH around each.  Units share a few radii, so
 * each shape is worked out once a step. */
static void mark_margins(const struct aic_world *w, int team, row_bits *rows)
{
	struct margin_shape shapes[4];
	int nshapes = 0;
	memset(rows, 0, sizeof rows[0] * (size_t)w->height);
	for (int i = 0; i < w->norder; i++) {
		const struct aic_unit *u = &w->unit[w->order[i]];
		if (u->team != team)
			continue;
		int k = isqrt_up(aic_vision(u)) + REACH, j = 0;
		while (j < nshapes && shapes[j].k != k)
			j++;
		if (j == nshapes) {
			j = nshapes < 4 ? nshapes++ : 0;
			shape_of(k, &shapes[j]);
		}
		const struct margin_shape *sh = &shapes[j];
		int y0 = u->y - sh->k < 0 ? 0 : u->y - sh->k;
		int y1 = u->y + sh->k >= w->height ? w->height - 1 : u->y + sh->k;
		for (int y = y0; y <= y1; y++)
			rows[y] |= span_bits(u->x, sh->half[y < u->y ? u->y - y : y - u->y], w->width);
	}
}

/* The team's units from the acting one to the first enemy, in order. */
static void batch(const struct aic_world *w, int team, struct aic_step *st)
{
	st->nbatch = 0;
	for (int i = w->cursor; i >= 0 && i < w->norder; i++) {
		int s = w->order[i];
		if (w->unit[s].team != team)
			break;
		st->batch[st->nbatch++] = (int16_t)s;
	}
}

/* The ids the next spawns will get (the engine draws one per spawn that
 * passed its checks): as many as the team could afford, and a couple more
 * for the wood its workers may chop meanwhile. */
static void spawn_ids(struct aic_world *copy, int team, struct aic_step *st)
{
	int afford = copy->team[team].wood / aic_types[AIC_WORKER].cost + 2;
	int n = afford < AIC_MAX_IDS ? afford : AIC_MAX_IDS;
	st->nids = 0;
	for (int i = 0; i < n; i++) {
		int id = aic_draw_id(copy);
		if (!id)
			break;
		aic_use_id(copy, id);
		st->ids[st->nids++] = (uint16_t)id;
	}
}

/* What the view sends, fogged as aic_fog() would (the rest of the 140 KB
 * world would be copied for nothing): the head, the map's rows (the cells
 * outside the margin fogged as the row is copied, while it is at hand),
 * the units in order, the ids, the team's vision. */
static void copy_for_view(struct aic_world *v, const struct aic_world *w, int team,
			  const row_bits *margin)
{
	memcpy(v, w, AIC_WORLD_HEAD);
	row_bits all = span_bits(0, AIC_MAX_SIDE, w->width);
	for (int y = 0; y < w->height; y++) {
		int row = y * AIC_STRIDE;
		memcpy(&v->cell[row], &w->cell[row], sizeof w->cell[0] * (size_t)w->width);
		memcpy(&v->seen[team][row], &w->seen[team][row], (size_t)w->width);
		for (row_bits out = all & ~margin[y]; out; out &= out - 1)
			aic_fog_cell(w, &v->cell[row + __builtin_ctzll(out)], team);
	}
	for (int i = 0; i < w->norder; i++)
		v->unit[w->order[i]] = w->unit[w->order[i]];
	memcpy(v->order, w->order, sizeof w->order[0] * (size_t)w->norder);
	memcpy(v->id_used, w->id_used, sizeof v->id_used);
	v->ids_used = w->ids_used;
	v->norder = w->norder;
	v->cursor = w->cursor;
}

/* The slots of units the fog took out of the order. */
static void hidden_slots(const struct aic_world *w, const struct aic_world *v,
			 struct aic_step *st, uint8_t *kept)
{
	for (int i = 0; i < v->norder; i++)
		kept[v->order[i]] = 1;
	st->nhidden = 0;
	for (int i = 0; i < w->norder; i++)
		if (!kept[w->order[i]])
			st->hidden[st->nhidden++] = w->order[i];
	for (int i = 0; i < v->norder; i++)
		kept[v->order[i]] = 0;
}

size_t aic_step_view(struct game_state *g, uint8_t *buf, size_t cap)
{
	const struct aic_world *w = &g->w;
	struct aic_world *v = &g->scratch;
	int team = w->unit[g->acting].team;
	row_bits margin[AIC_MAX_SIDE];
	mark_margins(w, team, margin);
	copy_for_view(v, w, team, margin);
	batch(w, team, &g->step);
	spawn_ids(v, team, &g->step);
	v->ids_used = w->ids_used;
	aic_fog_units(v, team);
	aic_fog_secrets(v, team);
	hidden_slots(w, v, &g->step, g->kept);
	return aic_view_encode(&g->step, v, team, buf, cap);
}
