/* test_aic2018_world.c - AIC2018's worlds as wholes: generated maps are
 * symmetric (terrain, oaks, starting workers) within the sizes asked, the
 * same seed gives the same bytes, VP appear in mirrored pairs at about the
 * rules' rate, the parameters file refuses what it should, and long random
 * playouts keep every piece of bookkeeping (cells and units, vision
 * counts, team counts, the order) consistent. */
#include "tests/unit/aic_testlib.h"

#include <math.h>

static struct aic_world W, W2;

static struct aic_world *generated(struct aic_world *w, const char *keys, uint64_t seed)
{
	struct aic_params p;
	err_t err;
	cr_assert_eq(aic_params_parse(keys, &p, err), 0, "%s", err->msg);
	cr_assert_eq(aic_world_init(w, &p, seed), 0, "seed %llu: no map joins the starts",
		     (unsigned long long)seed);
	return w;
}

static void assert_symmetric(const struct aic_world *w, uint64_t seed)
{
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++) {
			const struct aic_cell *a = &w->cell[aic_index(AIC_L(x, y))];
			const struct aic_cell *b = &w->cell[aic_index(aic_mirror(w, AIC_L(x, y)))];
			cr_assert(a->water == b->water && a->tree == b->tree &&
					  a->tree_hp == b->tree_hp && a->vp == b->vp,
				  "seed %llu: %d,%d differs from its mirror", (unsigned long long)seed,
				  x, y);
			if (a->unit == AIC_NO_UNIT) {
				cr_assert_eq(b->unit, AIC_NO_UNIT);
				continue;
			}
			cr_assert_neq(b->unit, AIC_NO_UNIT, "seed %llu: %d,%d", (unsigned long long)seed,
				      x, y);
			cr_assert_eq(w->unit[a->unit].team, 1 - w->unit[b->unit].team);
			cr_assert_eq(w->unit[a->unit].type, w->unit[b->unit].type);
		}
}

Test(aic_map, generated_maps_are_symmetric_and_sized_as_asked, .timeout = 60)
{
	int sym[4] = { 0 }, workers[4] = { 0 };
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct aic_world *w = generated(&W, NULL, seed * 2654435761u);
		cr_assert(w->width >= 20 && w->width <= 50 && w->height >= 20 && w->height <= 50);
		assert_symmetric(w, seed);
		cr_assert_eq(w->team[0].units, w->team[1].units);
		cr_assert(w->team[0].units >= 1 && w->team[0].units <= 3);
		for (int i = 0; i < w->norder; i++) {
			const struct aic_unit *u = &w->unit[w->order[i]];
			cr_assert_eq(u->team, i >= w->norder / 2, "team A's units first");
			cr_assert_eq(u->type, AIC_WORKER);
			cr_assert_eq(u->construction, 0);
			cr_assert_eq(w->cell[aic_index(aic_unit_loc(w, w->order[i]))].tree, AIC_TREE_NONE);
		}
		sym[w->symmetry]++;
		workers[w->team[0].units]++;
	}
	for (int k = 1; k <= 3; k++) {
		cr_assert_gt(sym[k], 50, "symmetry %d: %d maps", k, sym[k]);
		cr_assert_gt(workers[k], 50, "%d workers: %d maps", k, workers[k]);
	}
}

Test(aic_map, keys_fix_the_size_symmetry_and_workers)
{
	struct aic_world *w = generated(&W, "width 33\nheight 21\nsymmetry 2\nworkers 3\n", 5);
	cr_assert_eq(w->width, 33);
	cr_assert_eq(w->height, 21);
	cr_assert_eq(w->symmetry, AIC_SYM_VERTICAL);
	cr_assert_eq(w->team[1].units, 3);
	w = generated(&W, "size_min 25\nsize_max 26\n", 9);
	cr_assert(w->width >= 25 && w->width <= 26 && w->height >= 25 && w->height <= 26);
}

Test(aic_map, the_same_seed_gives_the_same_world_bytes)
{
	for (uint64_t seed = 10; seed < 20; seed++) {
		generated(&W, NULL, seed);
		generated(&W2, NULL, seed);
		cr_assert_eq(memcmp(&W, &W2, sizeof W), 0, "seed %llu", (unsigned long long)seed);
		for (int r = 0; r < 200; r++) {
			aic_round_start(&W);
			aic_round_start(&W2);
			W.round++, W2.round++;
		}
		cr_assert_eq(memcmp(&W, &W2, sizeof W), 0);
	}
	generated(&W2, NULL, 21);
	cr_assert_neq(memcmp(&W, &W2, sizeof W), 0);
}

Test(aic_map, victory_points_appear_in_mirrored_pairs_at_the_rules_rate, .timeout = 60)
{
	struct aic_world *w = generated(&W, "width 40\nheight 40\n", 3);
	long appeared = 0;
	for (w->round = 0; w->round < 1000; w->round++) {
		aic_round_start(w);
		assert_symmetric(w, 3);
		for (int i = 0; i < AIC_MAX_CELLS; i++)
			appeared += w->cell[i].vp && w->cell[i].vp_round == w->round;
	}
	/* each free cell draws with p = 1 / (50 sqrt(T)) per round (one draw
	 * per pair, both get VP): about sqrt(T) / 50 a round while few cells
	 * are waiting out their 50 rounds. */
	double expect = 1000 * sqrt((double)w->non_water) / 50;
	cr_assert(appeared > expect * 0.6 && appeared < expect * 1.3, "%ld VP for about %.0f",
		  appeared, expect);
}

Test(aic_map, the_parameters_file_refuses_with_the_line_and_key)
{
	struct aic_params p;
	err_t err;
	cr_assert_eq(aic_params_parse("symmetry 0\n", &p, err), -1);
	cr_assert(strstr(err->msg, "fixed maps only"), "%s", err->msg);
	cr_assert_eq(aic_params_parse("map\nW.X\n..w\n", &p, err), -1);
	cr_assert(strstr(err->msg, "line 2: map: cell 3: 'X'"), "%s", err->msg);
	cr_assert_eq(aic_params_parse("map\nW..\n..w\n.\n", &p, err), -1);
	cr_assert(strstr(err->msg, "a row of 1 cells"), "%s", err->msg);
	cr_assert_eq(aic_params_parse("symmetry 3\nmap\nWw.\n.wW\n", &p, err), -1);
	cr_assert(strstr(err->msg, "mirror"), "%s", err->msg);
	cr_assert_eq(aic_params_parse("symmetry 3\nmap\nWO.\n.Ow\n", &p, err), 0, "%s", err->msg);
	cr_assert_eq(aic_params_parse("width 30\nmap\nW.\n.w\n", &p, err), -1);
	cr_assert(strstr(err->msg, "leave out width"), "%s", err->msg);
	cr_assert_eq(aic_params_parse("size_min 40\nsize_max 30\n", &p, err), -1);
	cr_assert_eq(aic_params_parse("workers 4\n", &p, err), -1);
	cr_assert_eq(aic_params_parse("map\nW..\n...\n", &p, err), -1);
	cr_assert(strstr(err->msg, "team B has no unit"), "%s", err->msg);
}

/* ---- random playouts -------------------------------------------------------- */

/* Everything the world keeps twice agrees. */
static void assert_consistent(const struct aic_world *w)
{
	static uint8_t seen[AIC_TEAMS][AIC_MAX_CELLS];
	memset(seen, 0, sizeof seen);
	int units[AIC_TEAMS] = { 0, 0 };
	for (int i = 0; i < w->norder; i++) {
		int s = w->order[i];
		const struct aic_unit *u = &w->unit[s];
		cr_assert_neq(u->id, 0);
		cr_assert_eq(w->slot_of_id[u->id], s);
		cr_assert_eq(w->cell[aic_index(aic_unit_loc(w, s))].unit, s);
		cr_assert(!aic_obstacle(w, aic_unit_loc(w, s)));
		cr_assert(u->hp > 0 && u->hp <= aic_max_hp(u));
		units[u->team]++;
		for (int y = 0; y < w->height; y++)
			for (int x = 0; x < w->width; x++)
				if (aic_dist(aic_unit_loc(w, s), AIC_L(x, y)) <= aic_vision(u))
					seen[u->team][aic_index(AIC_L(x, y))]++;
	}
	for (int t = 0; t < AIC_TEAMS; t++) {
		cr_assert_eq(units[t], w->team[t].units);
		cr_assert_eq(memcmp(seen[t], w->seen[t], sizeof seen[t]), 0, "vision counts");
	}
	int on_cells = 0;
	for (int i = 0; i < AIC_MAX_CELLS; i++)
		on_cells += w->cell[i].unit != AIC_NO_UNIT;
	cr_assert_eq(on_cells, w->norder);
}

/* One unit's random turn: a few random actions of every kind. */
static void random_turn(struct aic_world *w, int s, struct rng *r)
{
	for (int k = 0; k < 6 && aic_alive(w, s); k++) {
		struct aic_loc at = aic_unit_loc(w, s);
		struct aic_loc t = { at.x + rng_uniform(r, -6, 6), at.y + rng_uniform(r, -6, 6) };
		switch (rng_uniform(r, 0, 5)) {
		case 0:
			aic_move(w, s, rng_uniform(r, 0, AIC_DIRS));
			break;
		case 1:
			aic_attack(w, s, t);
			break;
		case 2:
			aic_use_ability(w, s, t);
			break;
		case 3:
			if (aic_can_spawn(w, s, rng_uniform(r, 0, 7), rng_uniform(r, 0, 5)) == AIC_OK ||
			    rng_uniform(r, 0, 3) == 0) {
				int id = aic_draw_id(w);
				aic_spawn(w, s, rng_uniform(r, 0, 7), rng_uniform(r, 0, 5), id);
			}
			break;
		case 4:
			aic_gather_vps(w, s, rng_uniform(r, 0, AIC_DIRS));
			break;
		default:
			aic_buy_vps(w, w->unit[s].team, rng_uniform(r, 0, 2));
		}
	}
}

static void playout(struct aic_world *w, uint64_t seed, int check_every)
{
	struct rng r = rng_seeded(seed);
	while (!aic_over(w)) {
		aic_round_start(w);
		for (int s; (s = aic_next_unit(w)) >= 0;) {
			if (aic_turn_start(w, s) == AIC_TURN_ACT)
				random_turn(w, s, &r);
			if (aic_check_win(w) >= 0)
				break;
		}
		if (check_every && w->round % check_every == 0)
			assert_consistent(w);
		aic_round_end(w);
	}
}

Test(aic_playout, random_play_keeps_the_world_consistent, .timeout = 120)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct aic_world *w = generated(&W, "start_wood 20000\nrounds 600\n", seed);
		playout(w, seed, 7);
		assert_consistent(w);
		cr_assert(aic_over(w));
		cr_assert(w->winner == 0 || w->winner == 1);
	}
}

Test(aic_playout, the_same_seeds_play_the_same_match, .timeout = 60)
{
	generated(&W, "start_wood 3000\nrounds 400\n", 77);
	generated(&W2, "start_wood 3000\nrounds 400\n", 77);
	playout(&W, 5, 0);
	playout(&W2, 5, 0);
	cr_assert_eq(memcmp(&W, &W2, sizeof W), 0);
}
