/* test_aic2018_replay.c - AIC2018's replay: a reader that applies the
 * header and each round's changes, as the viewer does, rebuilds every
 * round's units, trees, VP, wood and VP totals of a random playout; a
 * quiet round is a few bytes. */
#include "tests/unit/aic_testlib.h"

#include "games/aic2018/replay.h"

static struct aic_world W;
static struct aic_replay R;

/* The viewer's picture of a world. */
struct seen_world {
	int x[AIC_MAX_ID + 1], y[AIC_MAX_ID + 1], hp[AIC_MAX_ID + 1], team[AIC_MAX_ID + 1];
	bool alive[AIC_MAX_ID + 1];
	int tree[AIC_MAX_CELLS], tree_hp[AIC_MAX_CELLS], vp[AIC_MAX_CELLS];
	int wood[2], points[2];
};

static struct seen_world V;

static void apply(struct seen_world *v, const json_t *f)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(f, "u"), i, e) {
		int id = (int)json_integer_value(json_array_get(e, 0));
		cr_assert(id >= 1 && id <= AIC_MAX_ID);
		v->alive[id] = true;
		v->x[id] = (int)json_integer_value(json_array_get(e, 1));
		v->y[id] = (int)json_integer_value(json_array_get(e, 2));
		v->hp[id] = (int)json_integer_value(json_array_get(e, 3));
		if (json_array_size(e) == 9)
			v->team[id] = (int)json_integer_value(json_array_get(e, 7));
	}
	json_array_foreach(json_object_get(f, "d"), i, e)
		v->alive[json_integer_value(e)] = false;
	json_array_foreach(json_object_get(f, "t"), i, e) {
		int c = (int)(json_integer_value(json_array_get(e, 1)) * AIC_STRIDE +
			      json_integer_value(json_array_get(e, 0)));
		v->tree[c] = (int)json_integer_value(json_array_get(e, 2));
		v->tree_hp[c] = (int)json_integer_value(json_array_get(e, 3));
	}
	json_array_foreach(json_object_get(f, "v"), i, e) {
		int c = (int)(json_integer_value(json_array_get(e, 1)) * AIC_STRIDE +
			      json_integer_value(json_array_get(e, 0)));
		v->vp[c] = (int)json_integer_value(json_array_get(e, 2));
	}
	for (int t = 0; t < 2; t++) {
		v->wood[t] = (int)json_integer_value(json_array_get(json_object_get(f, "w"), (size_t)t));
		v->points[t] = (int)json_integer_value(json_array_get(json_object_get(f, "p"), (size_t)t));
	}
}

static void assert_same(const struct seen_world *v, const struct aic_world *w)
{
	int alive = 0;
	for (int id = 1; id <= AIC_MAX_ID; id++) {
		int s = aic_slot_of(w, id);
		cr_assert_eq(v->alive[id], s != AIC_NO_UNIT, "round %d: unit %d", w->round, id);
		if (s == AIC_NO_UNIT)
			continue;
		alive++;
		cr_assert(v->x[id] == w->unit[s].x && v->y[id] == w->unit[s].y &&
				  v->hp[id] == w->unit[s].hp && v->team[id] == w->unit[s].team,
			  "round %d: unit %d", w->round, id);
	}
	cr_assert_eq(alive, w->norder);
	for (int c = 0; c < AIC_MAX_CELLS; c++)
		cr_assert(v->tree[c] == w->cell[c].tree && v->tree_hp[c] == w->cell[c].tree_hp &&
				  v->vp[c] == w->cell[c].vp,
			  "round %d: cell %d", w->round, c);
	for (int t = 0; t < 2; t++)
		cr_assert(v->wood[t] == w->team[t].wood && v->points[t] == w->team[t].vp);
}

Test(aic_replay, the_rounds_rebuild_every_world_of_a_match, .timeout = 60)
{
	struct aic_params p;
	err_t err;
	cr_assert_eq(aic_params_parse("start_wood 20000\nrounds 300\n", &p, err), 0);
	cr_assert_eq(aic_world_init(&W, &p, 99), 0);
	json_t *h = aic_replay_header(&R, &W);
	cr_assert_eq(strlen(json_string_value(json_object_get(h, "terrain"))),
		     (size_t)(W.width * W.height));
	apply(&V, h);
	assert_same(&V, &W);
	json_decref(h);
	struct rng r = rng_seeded(3);
	size_t bytes = 0;
	while (!aic_over(&W)) {
		aic_round_start(&W);
		for (int s; (s = aic_next_unit(&W)) >= 0;) {
			if (aic_turn_start(&W, s) == AIC_TURN_ACT) {
				struct aic_loc at = aic_unit_loc(&W, s);
				aic_move(&W, s, rng_uniform(&r, 0, 7));
				aic_attack(&W, s, AIC_L(at.x + rng_uniform(&r, -4, 4), at.y + rng_uniform(&r, -4, 4)));
				if (rng_uniform(&r, 0, 9) == 0)
					aic_spawn(&W, s, rng_uniform(&r, 0, 7), rng_uniform(&r, 0, 5),
						  aic_draw_id(&W));
			}
			if (aic_check_win(&W) >= 0)
				break;
		}
		aic_round_end(&W);
		json_t *f = aic_replay_round(&R, &W);
		char *text = json_dumps(f, JSON_COMPACT);
		bytes += strlen(text);
		free(text);
		apply(&V, f);
		assert_same(&V, &W);
		if (aic_over(&W))
			cr_assert_not_null(json_object_get(f, "end"));
		json_decref(f);
	}
	cr_assert_lt(bytes, 400000u, "%zu bytes", bytes);
	aic_replay_free(&R);
}

Test(aic_replay, a_quiet_round_is_wood_and_vp_alone)
{
	const char *const rows[] = { "W.....", "......", "......", "......", ".....w", NULL };
	struct aic_world *w = aic_test_world(&W, "", rows);
	json_decref(aic_replay_header(&R, w));
	aic_round_start(w);
	json_t *f = aic_replay_round(&R, w);
	char *text = json_dumps(f, JSON_COMPACT | JSON_SORT_KEYS);
	cr_assert_str_eq(text, "{\"p\":[0,0],\"w\":[10010,10010]}");
	free(text);
	json_decref(f);
	aic_replay_free(&R);
}
