/* world_replay.c - AIC2018's replay (the format is in games/aic2018/
 * replay.h): the header, then each round as the difference between the
 * world and the copy kept from the last call. */
#include <string.h>

#include "games/aic2018/replay.h"

json_t *aic_json_int(struct aic_replay *r, int v)
{
	if (v < 0 || v >= AIC_REPLAY_INTS)
		return json_integer(v);
	if (!r->ints[v])
		r->ints[v] = json_integer(v);
	return json_incref(r->ints[v]);
}

json_t *aic_json_ints(struct aic_replay *r, const int *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, aic_json_int(r, v[i]));
	return a;
}

void aic_replay_free(struct aic_replay *r)
{
	for (int v = 0; v < AIC_REPLAY_INTS; v++) {
		json_decref(r->ints[v]);
		r->ints[v] = NULL;
	}
}

static int unit_flags(const struct aic_unit *u)
{
	return (u->poison ? 1 : 0) | (u->countered ? 2 : 0) | (u->rooted ? 4 : 0);
}

static json_t *unit_row(struct aic_replay *r, const struct aic_unit *u, bool is_new)
{
	int v[] = { u->id, u->x, u->y, u->hp, u->level, u->construction, unit_flags(u), u->team,
		    u->type };
	return aic_json_ints(r, v, is_new ? 9 : 7);
}

static bool unit_changed(const struct aic_unit *a, const struct aic_unit *b)
{
	return a->x != b->x || a->y != b->y || a->hp != b->hp || a->level != b->level ||
	       a->construction != b->construction || unit_flags(a) != unit_flags(b);
}

/* Units new or changed since prev (prev NULL: every unit is new), in
 * execution order; the ids gone. */
static void diff_units(struct aic_replay *r, const struct aic_world *prev,
		       const struct aic_world *w, json_t *out)
{
	json_t *changed = json_array(), *gone = json_array();
	for (int i = 0; i < w->norder; i++) {
		const struct aic_unit *u = &w->unit[w->order[i]];
		int was = prev ? aic_slot_of(prev, u->id) : AIC_NO_UNIT;
		if (was == AIC_NO_UNIT || unit_changed(&prev->unit[was], u))
			json_array_append_new(changed, unit_row(r, u, was == AIC_NO_UNIT));
	}
	for (int i = 0; prev && i < prev->norder; i++) {
		int id = prev->unit[prev->order[i]].id;
		if (aic_slot_of(w, id) == AIC_NO_UNIT)
			json_array_append_new(gone, aic_json_int(r, id));
	}
	json_object_set_new(out, "u", changed);
	json_object_set_new(out, "d", gone);
}

/* Trees and VP that differ from prev's (prev NULL: all there are). */
static void diff_cells(struct aic_replay *r, const struct aic_world *prev,
		       const struct aic_world *w, json_t *out)
{
	json_t *trees = json_array(), *vps = json_array();
	size_t row = sizeof w->cell[0] * (size_t)w->width;
	for (int y = 0; y < w->height; y++) {
		/* most rows did not change at all (a unit's move changes its row) */
		if (prev && memcmp(&prev->cell[y * AIC_STRIDE], &w->cell[y * AIC_STRIDE], row) == 0)
			continue;
		for (int x = 0; x < w->width; x++) {
			int i = y * AIC_STRIDE + x;
			const struct aic_cell *c = &w->cell[i];
			const struct aic_cell *p = prev ? &prev->cell[i] : NULL;
			if (p ? p->tree != c->tree || p->tree_hp != c->tree_hp : c->tree != AIC_TREE_NONE)
				json_array_append_new(trees, aic_json_ints(r, (int[]){ x, y, c->tree,
										   c->tree_hp }, 4));
			if (p ? p->vp != c->vp : c->vp != 0)
				json_array_append_new(vps, aic_json_ints(r, (int[]){ x, y, c->vp }, 3));
		}
	}
	json_object_set_new(out, "t", trees);
	json_object_set_new(out, "v", vps);
}

static void drop_empty(json_t *o, const char *const *keys)
{
	for (int i = 0; keys[i]; i++)
		if (json_array_size(json_object_get(o, keys[i])) == 0)
			json_object_del(o, keys[i]);
}

static json_t *changes(struct aic_replay *r, const struct aic_world *prev,
		       const struct aic_world *w)
{
	static const char *const lists[] = { "u", "d", "t", "v", NULL };
	json_t *o = json_object();
	diff_units(r, prev, w, o);
	diff_cells(r, prev, w, o);
	drop_empty(o, lists);
	json_object_set_new(o, "w", aic_json_ints(r, (int[]){ w->team[0].wood, w->team[1].wood }, 2));
	json_object_set_new(o, "p", aic_json_ints(r, (int[]){ w->team[0].vp, w->team[1].vp }, 2));
	if (w->winner >= 0)
		json_object_set_new(o, "end", aic_json_ints(r, (int[]){ w->winner, w->win_reason }, 2));
	return o;
}

json_t *aic_replay_header(struct aic_replay *r, const struct aic_world *w)
{
	char terrain[AIC_MAX_CELLS + 1];
	int n = 0;
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++)
			terrain[n++] = w->cell[y * AIC_STRIDE + x].water ? '~' : '.';
	terrain[n] = '\0';
	json_t *h = changes(r, NULL, w);
	json_object_set_new(h, "width", json_integer(w->width));
	json_object_set_new(h, "height", json_integer(w->height));
	json_object_set_new(h, "symmetry", json_integer(w->symmetry));
	json_object_set_new(h, "rounds", json_integer(w->p.rounds));
	json_object_set_new(h, "terrain", json_string(terrain));
	memcpy(&r->prev, w, sizeof *w);
	return h;
}

/* Keeps in prev what changes() reads of the world (the map's cells, the
 * units in order and their ids' slots), not the whole 140 KB: the units
 * prev held leave it first.  Every unit alive is in the order, and only
 * those have a slot by id, in the world as in prev. */
static void keep(struct aic_world *prev, const struct aic_world *w)
{
	for (int i = 0; i < prev->norder; i++) {
		int id = prev->unit[prev->order[i]].id;
		if (id >= 1 && id <= AIC_MAX_ID)
			prev->slot_of_id[id] = AIC_NO_UNIT;
	}
	for (int y = 0; y < w->height; y++)
		memcpy(&prev->cell[y * AIC_STRIDE], &w->cell[y * AIC_STRIDE],
		       sizeof w->cell[0] * (size_t)w->width);
	for (int i = 0; i < w->norder; i++) {
		int s = w->order[i], id = w->unit[s].id;
		prev->unit[s] = w->unit[s];
		if (id >= 1 && id <= AIC_MAX_ID)
			prev->slot_of_id[id] = (int16_t)s;
	}
	memcpy(prev->order, w->order, sizeof w->order[0] * (size_t)w->norder);
	prev->norder = w->norder;
}

json_t *aic_replay_round(struct aic_replay *r, const struct aic_world *w)
{
	json_t *o = changes(r, &r->prev, w);
	keep(&r->prev, w);
	return o;
}
