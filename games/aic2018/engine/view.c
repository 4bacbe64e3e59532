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

static void mark_disc(const struct aic_world *w, struct aic_loc c, int r, uint8_t *seen)
{
	struct aic_disc d;
	aic_disc(w, c, r, &d);
	for (int i = 0; i < d.rows; i++)
		memset(&seen[d.row[i].y * AIC_STRIDE + d.row[i].x0], 1,
		       (size_t)(d.row[i].x1 - d.row[i].x0 + 1));
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

/* What aic_fog reads and the view sends (the rest of the 140 KB world
 * would be copied for nothing): the head, the map's rows, the units in
 * order, the ids. */
static void copy_for_view(struct aic_world *v, const struct aic_world *w)
{
	memcpy(v, w, AIC_WORLD_HEAD);
	for (int y = 0; y < w->height; y++)
		memcpy(&v->cell[y * AIC_STRIDE], &w->cell[y * AIC_STRIDE],
		       sizeof w->cell[0] * (size_t)w->width);
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
	copy_for_view(v, w);
	batch(w, team, &g->step);
	spawn_ids(v, team, &g->step);
	v->ids_used = w->ids_used;
	/* aic_fog keeps what seen[team] marks: mark the margin instead */
	memset(v->seen[team], 0, sizeof v->seen[team]);
	for (int i = 0; i < w->norder; i++) {
		int s = w->order[i];
		if (w->unit[s].team != team)
			continue;
		int k = isqrt_up(aic_vision(&w->unit[s])) + REACH;
		mark_disc(v, aic_unit_loc(w, s), k * k, v->seen[team]);
	}
	aic_fog(v, team, v);
	hidden_slots(w, v, &g->step, g->kept);
	memcpy(v->seen[team], w->seen[team], sizeof v->seen[team]);
	return aic_view_encode(&g->step, v, team, buf, cap);
}
