#include "tests/unit/engine_testlib.h"

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int et_send(const struct game *gm, void *g, const struct orders_layout *l, int player,
	    const void *orders, size_t n)
{
	static uint8_t buf[1 << 16];
	err_t err = {0};
	size_t len = orders_encode(l, orders, n, buf, sizeof buf);
	cr_assert_gt(len, 0);
	return gm->orders(g, player, buf, len, err);
}

void et_random_round(const struct game *gm, struct game_state *g, const struct orders_layout *l,
		     et_orders_fn make, struct rng *r)
{
	static uint8_t orders[1 << 16], buf[1 << 16];
	cr_assert_leq((size_t)l->max * l->size, sizeof orders);
	for (int p = 0; p < gm->players; p++) {
		int n = make(g, p, r, orders);
		err_t err;
		size_t len = orders_encode(l, orders, (size_t)n, buf, sizeof buf);
		gm->status(g, p, 0.01);
		cr_assert_eq(gm->orders(g, p, buf, len, err), 0, "%s", err);
	}
	gm->advance(g);
}

char *et_play_match(const struct game *gm, uint64_t seed, uint64_t order_seed,
		    const struct orders_layout *l, et_orders_fn make, struct game_state **out)
{
	err_t err;
	struct game_state *g = gm->create(NULL, seed, err);
	cr_assert_not_null(g, "%s", err);
	json_t *rounds = json_array();
	json_t *header = gm->replay_header(g);
	struct rng r = rng_seeded(order_seed);
	for (int i = 0; i < gm->rounds(g); i++) {
		et_random_round(gm, g, l, make, &r);
		json_array_append_new(rounds, gm->replay_round(g));
	}
	json_t *replay = json_pack("{s:o, s:o}", "start", header, "rounds", rounds);
	char *text = json_dumps(replay, JSON_COMPACT);
	json_decref(replay);
	*out = g;
	return text;
}

void et_expect_deterministic(const struct game *gm, uint64_t seed, uint64_t order_seed,
			     const struct orders_layout *l, et_orders_fn make, size_t max_bytes,
			     struct game_state **a, struct game_state **b)
{
	struct game_state *c;
	char *ja = et_play_match(gm, seed, order_seed, l, make, a);
	char *jb = et_play_match(gm, seed, order_seed, l, make, b);
	char *jc = et_play_match(gm, seed, order_seed + 1, l, make, &c);
	cr_expect_str_eq(ja, jb, "one seed and one set of orders, two replays");
	cr_expect_str_neq(ja, jc, "other orders, the same replay");
	cr_expect_lt(strlen(ja), max_bytes, "replay of %zu bytes", strlen(ja));
	int rounds = gm->rounds(*a);
	cr_expect_eq(gm->round(*a), rounds);
	gm->advance(*a); /* past the end: nothing happens */
	cr_expect_eq(gm->round(*a), rounds);
	free(ja);
	free(jb);
	free(jc);
	gm->destroy(c);
}

void et_expect_malformed_refused(const struct game *gm, struct game_state *g, size_t order_len)
{
	err_t err;
	const uint8_t short_count[1] = { 1 };
	uint8_t missing[2 + 16] = { 2, 0 }, extra[2 + 16 + 1] = { 1, 0 };
	cr_assert_leq(order_len, 16);
	cr_expect_eq(gm->orders(g, 1, NULL, 0, err), -1);
	cr_expect_eq(gm->orders(g, 2, short_count, 1, err), -1);
	cr_expect_eq(gm->orders(g, 3, missing, 2 + order_len, err), -1);
	cr_expect(strstr(err->msg, "malformed") != NULL, "%s", err->msg);
	cr_expect_eq(gm->orders(g, 0, extra, 2 + order_len + 1, err), -1);
	cr_expect_eq(gm->orders(g, 4, extra, 2 + order_len + 1, err), -1);
	cr_expect_eq(gm->orders(g, -1, extra, 2 + order_len + 1, err), -1);
}

const char *et_config_text(const char *game)
{
	static char text[1 << 16];
	char path[256];
	snprintf(path, sizeof path, "config/games/%s.cnf", game);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s: run from the repository root", path);
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	return text;
}

void et_expect_params_error(const struct game *gm, const char *text, const char *want)
{
	err_t err = {0};
	struct game_state *g = gm->create(text, 1, err);
	if (g)
		gm->destroy(g);
	cr_expect_null(g, "accepted: %s", text);
	cr_expect(strstr(err->msg, want) != NULL, "error \"%s\" lacks \"%s\"", err->msg, want);
}

void et_expect_at(const struct et_piece *p, int row, int col)
{
	cr_expect(p->alive, "%s %d is dead", p->what, p->id);
	cr_expect(p->row == row && p->col == col, "%s %d at (%d, %d), expected (%d, %d)", p->what,
		  p->id, p->row, p->col, row, col);
	cr_expect_eq(p->id_there, p->id, "the board has %d where %s %d stands", p->id_there,
		     p->what, p->id);
}
