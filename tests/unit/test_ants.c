/* test_ants.c - the Ants engine (games/ants), rule by rule.
 *
 * Scenarios are set up through ants.h on the default 25 x 25 board made dry
 * and empty (ant_clear), with the ants each test needs; orders always go
 * through the real orders message bytes (proto.h).  Ants is not rotated, so
 * directions and positions are the real ones. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/ants/ants.h"
#include "games/seed.h"
#include "tests/unit/engine_testlib.h"

/* ---- fixtures -------------------------------------------------------------- */

/* The default match, its board emptied, the generator reseeded. */
ET_FIXTURE(ant, NULL, ant_clear)
ET_ADD(ant, ant_add)
ET_SEND_RAW(ant, ants_game)

static void command(struct game_state *g, int id, int kind, int dir, int type)
{
	struct ant_msg_order o = { (uint16_t)id, (uint8_t)kind, (uint8_t)dir, (uint8_t)type };
	cr_assert_eq(send_raw(g, g->ant[id].player, &o, 1), 0);
}

static void move(struct game_state *g, int id, int dir)
{
	command(g, id, ANT_MOVE, dir, 0);
}

static void expect_at(const struct game_state *g, int id, int row, int col)
{
	const struct ant *a = &g->ant[id];
	int there = g->ant_at[ant_cell(g, a->row, a->col)];
	et_expect_at(&(struct et_piece){ "ant", id, a->alive, a->row, a->col, there }, row, col);
}

static void expect_dead(const struct game_state *g, int id)
{
	cr_expect(!g->ant[id].alive, "ant %d is alive", id);
}

/* A queen out of the way, so that the colony's other ants are not crowned
 * at the end of the round. */
static int keep_queen(struct game_state *g, int player)
{
	return add(g, ANT_QUEEN, player, 24, 24 - player);
}

static void put_food(struct game_state *g, int row, int col, int bonus)
{
	g->bonus[ant_cell(g, row, col)] = (int8_t)bonus;
}

static int food_count(const struct game_state *g)
{
	int n = 0;
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		n += g->bonus[i] != ANT_NONE;
	return n;
}

/* ---- parameters ------------------------------------------------------------ */

Test(ants_params, defaults_match_the_config_file_and_the_seed)
{
	struct ant_params defaults;
	ET_CONFIG_IS_DEFAULTS(ant, "ants", &defaults);
	cr_expect_eq(defaults.rounds, 250);
	cr_expect_eq(defaults.queen_life, 300);
	cr_expect_eq(defaults.food[ANT_LEAF][ANT_PROTE], 2);
	cr_expect_eq(defaults.need[0][ANT_CARBO], 3);
}

Test(ants_params, errors_name_line_and_key)
{
	static const struct et_params_error refused[] = {
		{ "rounds 10\nfoo 3\n", "line 2: foo: unknown key" },
		{ "rows 5\n", "line 1: rows: 5 is out of range" },
		{ "rounds 1\nrounds 2\n", "given twice (first on line 1)" },
		{ "queen_period -1\n", "expected one non-negative integer" },
		{ "players 3\n", "players" },
		{ "rows 10\nbonus_rows 6\n", "line 2: bonus_rows" },
		{ "rows 10\nnum_ini_workers 40\n", "num_ini_soldiers + num_ini_workers" },
	};
	ET_EXPECT_PARAMS_ERRORS(&ants_game, refused);
	struct ant_params p;
	err_t err = {0};
	cr_expect_eq(ant_params_parse("# nothing\n\n  rounds 7  # seven\n", &p, err), 0, "%s", err);
	cr_expect_eq(p.rounds, 7);
}

/* ---- board ----------------------------------------------------------------- */

Test(ants_board, default_board_is_sound)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		err_t err = {0};
		struct game_state *g = ant_new(NULL, seed, err);
		cr_assert_not_null(g, "%s", err);
		cr_expect(ant_board_connected(g), "seed %llu: soil not connected",
			  (unsigned long long)seed);
		for (int q = 0; q < ANT_PLAYERS; q++) {
			int r, c;
			ant_corner(&g->p, q, &r, &c);
			int id = g->ant_at[ant_cell(g, r, c)];
			cr_expect(g->water[ant_cell(g, r, c)] || (id != ANT_NONE && g->ant[id].player == q),
				  "seed %llu: player %d's corner", (unsigned long long)seed, q);
			cr_expect_eq(ant_count(g, q), 15);
			for (int b = 0; b < ANT_BONUSES; b++) {
				bool top = g->rect_row[q][b] + g->p.bonus_rows <= g->p.rows / 2;
				bool left = g->rect_col[q][b] + g->p.bonus_cols <= g->p.cols / 2;
				bool bottom = g->rect_row[q][b] >= g->p.rows - g->p.rows / 2;
				bool right = g->rect_col[q][b] >= g->p.cols - g->p.cols / 2;
				cr_expect(q == 0 ? top && left
					  : q == 1 ? top && right
					  : q == 2 ? bottom && right
						   : bottom && left,
					  "rectangle of player %d outside its quadrant", q);
			}
		}
		ant_free(g);
	}
}

/* The original's walk of a corner: diagonal i + j = d from (d, 0) to
 * (0, d), turned to the player's corner. */
static void walk_cell(const struct game_state *g, int q, int k, int *row, int *col)
{
	int d = 0;
	while (k > d) {
		k -= d + 1;
		d++;
	}
	int i = d - k, j = k, rows = g->p.rows, cols = g->p.cols;
	int r[4] = { i, j, rows - 1 - i, rows - 1 - j }, c[4] = { j, cols - 1 - i, cols - 1 - j, i };
	*row = r[q];
	*col = c[q];
}

/* As the original: rivers of about 59 water cells on the default board,
 * each colony on the first 15 soil cells of its corner's walk, its types
 * in a random order (the queen leads the walk about a third of the time). */
Test(ants_board, rivers_and_colonies_as_the_original)
{
	int boards = 300, queen_first = 0, colonies = 0;
	long water = 0;
	for (uint64_t seed = 1; seed <= (uint64_t)boards; seed++) {
		err_t err = {0};
		struct game_state *g = ant_new(NULL, seed, err);
		cr_assert_not_null(g, "%s", err);
		for (int i = 0; i < 25 * 25; i++)
			water += g->water[i];
		for (int q = 0; q < ANT_PLAYERS; q++) {
			int placed = 0, first = -1, k = 0;
			for (; placed < 15; k++) {
				int row, col;
				walk_cell(g, q, k, &row, &col);
				if (g->water[ant_cell(g, row, col)])
					continue;
				int id = g->ant_at[ant_cell(g, row, col)];
				cr_assert(id != ANT_NONE && g->ant[id].player == q,
					  "seed %llu, player %d: walk cell %d (%d, %d) is not its ant",
					  (unsigned long long)seed, q, k, row, col);
				if (first < 0)
					first = id;
				placed++;
			}
			colonies++;
			queen_first += g->ant[first].type == ANT_QUEEN;
		}
		ant_free(g);
	}
	double mean = (double)water / boards;
	cr_expect(mean >= 55 && mean <= 63, "%.1f water cells a board (the original: 59)", mean);
	cr_expect(queen_first > colonies / 5 && queen_first < colonies / 2,
		  "the queen led %d of %d colonies (expected about a third)", queen_first, colonies);
}

Test(ants_board, seed_fixes_the_board)
{
	err_t err = {0};
	struct game_state *a = ant_new(NULL, 9, err), *b = ant_new(NULL, 9, err);
	cr_assert(a && b, "%s", err);
	cr_expect_eq(memcmp(a->water, b->water, sizeof a->water), 0);
	cr_expect_eq(memcmp(a->rect_row, b->rect_row, sizeof a->rect_row), 0);
	bool some_water = false;
	for (int i = 0; i < 25 * 25; i++)
		some_water |= a->water[i];
	cr_expect(some_water, "the default board has rivers");
	ant_free(a);
	ant_free(b);
}

/* ---- fights ---------------------------------------------------------------- */

/* The mover of type a attacks an occupant of type b (colonies given). */
static void fight(int a, int pa, int b, int pb, bool mover_lives, bool occupant_lives)
{
	struct game_state *g = fixture(1);
	int m = add(g, a, pa, 10, 10), o = add(g, b, pb, 10, 11);
	move(g, m, ANT_RIGHT);
	ant_advance(g); /* round 0: queens may move */
	cr_expect_eq(g->ant[m].alive, mover_lives, "types %d -> %d: mover", a, b);
	cr_expect_eq(g->ant[o].alive, occupant_lives, "types %d -> %d: occupant", a, b);
	if (mover_lives)
		expect_at(g, m, 10, 11);
	if (!mover_lives && !occupant_lives)
		cr_expect_eq(g->ant_at[ant_cell(g, 10, 11)], ANT_NONE);
	ant_free(g);
}

Test(ants_fights, stronger_mover_kills_and_enters)
{
	fight(ANT_QUEEN, 0, ANT_SOLDIER, 1, true, false);
	fight(ANT_QUEEN, 0, ANT_WORKER, 1, true, false);
	fight(ANT_SOLDIER, 0, ANT_WORKER, 1, true, false);
}

Test(ants_fights, weaker_mover_dies)
{
	fight(ANT_SOLDIER, 0, ANT_QUEEN, 1, false, true);
	fight(ANT_WORKER, 0, ANT_QUEEN, 1, false, true);
	fight(ANT_WORKER, 0, ANT_SOLDIER, 1, false, true);
}

Test(ants_fights, equal_types_both_die)
{
	fight(ANT_QUEEN, 0, ANT_QUEEN, 1, false, false);
	fight(ANT_SOLDIER, 0, ANT_SOLDIER, 1, false, false);
	fight(ANT_WORKER, 0, ANT_WORKER, 1, false, false);
}

Test(ants_fights, ants_of_one_colony_fight_too)
{
	fight(ANT_SOLDIER, 2, ANT_WORKER, 2, true, false);
	fight(ANT_WORKER, 2, ANT_SOLDIER, 2, false, true);
	fight(ANT_WORKER, 3, ANT_WORKER, 3, false, false);
}

Test(ants_fights, dead_worker_loses_its_food)
{
	struct game_state *g = fixture(1);
	int s = add(g, ANT_SOLDIER, 0, 5, 5), w = add(g, ANT_WORKER, 1, 5, 6);
	g->ant[w].carried = ANT_SEED;
	move(g, s, ANT_RIGHT);
	ant_advance(g);
	expect_dead(g, w);
	cr_expect_eq(g->ant[w].carried, ANT_NONE);
	cr_expect_eq(g->bonus[ant_cell(g, 5, 6)], ANT_NONE, "not dropped");
	ant_free(g);
}

/* ---- moves ----------------------------------------------------------------- */

Test(ants_moves, water_and_border_stop_a_move)
{
	struct game_state *g = fixture(1);
	int a = add(g, ANT_WORKER, 0, 0, 5), b = add(g, ANT_WORKER, 0, 5, 5);
	g->water[ant_cell(g, 5, 6)] = true;
	move(g, a, ANT_UP);
	move(g, b, ANT_RIGHT);
	ant_advance(g);
	expect_at(g, a, 0, 5);
	expect_at(g, b, 5, 5);
	ant_free(g);
}

Test(ants_moves, queen_moves_only_on_queen_period_rounds)
{
	struct game_state *g = fixture(1);
	int q = add(g, ANT_QUEEN, 0, 10, 10), w = add(g, ANT_WORKER, 0, 5, 5);
	int col = 10, wcol = 5;
	for (int round = 0; round < 6; round++) {
		move(g, q, ANT_RIGHT);
		move(g, w, ANT_RIGHT);
		ant_advance(g);
		col += round % g->p.queen_period == 0;
		wcol++;
		expect_at(g, q, 10, col);
		expect_at(g, w, 5, wcol);
	}
	cr_expect_eq(col, 13);
	ant_free(g);
}

Test(ants_moves, only_the_first_command_counts)
{
	struct game_state *g = fixture(1);
	int w = add(g, ANT_WORKER, 1, 5, 5), other = add(g, ANT_WORKER, 2, 8, 8);
	struct ant_msg_order o[] = {
		{ (uint16_t)other, ANT_MOVE, ANT_DOWN, 0 }, /* not its ant: ignored */
		{ (uint16_t)w, ANT_MOVE, 9, 0 },	    /* no such direction: ignored */
		{ (uint16_t)w, ANT_MOVE, ANT_DOWN, 0 },	    /* the first that counts */
		{ (uint16_t)w, ANT_MOVE, ANT_UP, 0 },
	};
	cr_assert_eq(send_raw(g, 1, o, 4), 0);
	ant_advance(g);
	expect_at(g, w, 6, 5);
	expect_at(g, other, 8, 8);
	ant_free(g);
}

/* ---- food ------------------------------------------------------------------ */

Test(ants_food, queen_eats_what_she_steps_on)
{
	struct game_state *g = fixture(1);
	int q = add(g, ANT_QUEEN, 0, 10, 10), w = add(g, ANT_WORKER, 0, 5, 5);
	put_food(g, 10, 11, ANT_BREAD);
	put_food(g, 5, 6, ANT_BREAD);
	move(g, q, ANT_RIGHT);
	move(g, w, ANT_RIGHT);
	ant_advance(g);
	cr_expect_eq(g->ant[q].reserve[ANT_CARBO], 2);
	cr_expect_eq(g->ant[q].reserve[ANT_PROTE], 0);
	cr_expect_eq(g->ant[q].reserve[ANT_LIPID], 1);
	cr_expect_eq(g->bonus[ant_cell(g, 10, 11)], ANT_NONE);
	cr_expect_eq(g->bonus[ant_cell(g, 5, 6)], ANT_BREAD, "a worker does not eat");
	cr_expect_eq(g->ant[w].carried, ANT_NONE, "nor takes without a command");
	ant_free(g);
}

Test(ants_food, worker_takes_carries_and_leaves)
{
	struct game_state *g = fixture(1);
	int w = add(g, ANT_WORKER, 0, 5, 5), s = add(g, ANT_SOLDIER, 0, 8, 8);
	keep_queen(g, 0);
	put_food(g, 5, 5, ANT_LEAF);
	put_food(g, 8, 8, ANT_SEED);
	command(g, w, ANT_TAKE, 0, 0);
	command(g, s, ANT_TAKE, 0, 0);
	ant_advance(g);
	cr_expect_eq(g->ant[w].carried, ANT_LEAF);
	cr_expect_eq(g->bonus[ant_cell(g, 5, 5)], ANT_NONE);
	cr_expect_eq(g->ant[s].carried, ANT_NONE, "soldiers cannot carry");
	cr_expect_eq(g->bonus[ant_cell(g, 8, 8)], ANT_SEED);
	put_food(g, 5, 5, ANT_BREAD);
	command(g, w, ANT_LEAVE, 0, 0); /* the cell has food: refused */
	ant_advance(g);
	cr_expect_eq(g->ant[w].carried, ANT_LEAF);
	move(g, w, ANT_DOWN);
	ant_advance(g);
	command(g, w, ANT_LEAVE, 0, 0);
	ant_advance(g);
	cr_expect_eq(g->ant[w].carried, ANT_NONE);
	cr_expect_eq(g->bonus[ant_cell(g, 6, 5)], ANT_LEAF);
	ant_free(g);
}

Test(ants_food, appears_every_bonus_period_rounds_in_each_rectangle)
{
	struct game_state *g = fixture(1);
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++) {
			g->rect_row[q][b] = 3 * b;
			g->rect_col[q][b] = 6 * q;
		}
	int blocker = add(g, ANT_WORKER, 0, 0, 0); /* never gets food under it */
	for (int round = 0; round < 2 * g->p.bonus_period + 1; round++) {
		ant_advance(g);
		int periods = round / g->p.bonus_period + 1;
		cr_expect_eq(food_count(g), 12 * periods, "after round %d", round);
	}
	cr_expect_eq(g->bonus[ant_cell(g, 0, 0)], ANT_NONE);
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++)
			for (int r = 0; r < 3; r++)
				for (int c = 0; c < 3; c++) {
					int x = g->bonus[ant_cell(g, 3 * b + r, 6 * q + c)];
					cr_expect(x == ANT_NONE || x == b);
				}
	(void)blocker;
	ant_free(g);
}

Test(ants_food, full_rectangle_gets_nothing)
{
	struct game_state *g = fixture(1);
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++)
			g->rect_row[q][b] = g->rect_col[q][b] = 0;
	ant_spawn_food(g);
	cr_expect_eq(food_count(g), 9, "twelve rectangles on the same nine cells");
	ant_free(g);
}

/* ---- eggs ------------------------------------------------------------------ */

Test(ants_eggs, laying_pays_and_hatches_at_the_end_of_the_round)
{
	struct game_state *g = fixture(1);
	int q = add(g, ANT_QUEEN, 1, 10, 10);
	g->ant[q].reserve[ANT_CARBO] = 4;
	g->ant[q].reserve[ANT_PROTE] = 3;
	g->ant[q].reserve[ANT_LIPID] = 3;
	command(g, q, ANT_LAY, ANT_UP, ANT_SOLDIER);
	ant_advance(g);
	int id = g->ant_at[ant_cell(g, 9, 10)];
	cr_assert_neq(id, ANT_NONE);
	cr_expect_eq(g->ant[id].type, ANT_SOLDIER);
	cr_expect_eq(g->ant[id].player, 1);
	cr_expect_eq(g->ant[id].life, g->p.soldier_life);
	cr_expect_eq(g->ant[q].reserve[ANT_CARBO], 1);
	cr_expect_eq(g->ant[q].reserve[ANT_PROTE], 0);
	command(g, q, ANT_LAY, ANT_DOWN, ANT_SOLDIER); /* too poor */
	ant_advance(g);
	cr_expect_eq(g->ant_at[ant_cell(g, 11, 10)], ANT_NONE);
	cr_expect_eq(ant_count(g, 1), 2);
	ant_free(g);
}

Test(ants_eggs, egg_into_an_occupied_cell_dies)
{
	struct game_state *g = fixture(1);
	int q = add(g, ANT_QUEEN, 0, 10, 10), w = add(g, ANT_WORKER, 2, 10, 11);
	g->ant[q].reserve[ANT_CARBO] = g->ant[q].reserve[ANT_PROTE] = 1;
	g->ant[q].reserve[ANT_LIPID] = 1;
	command(g, q, ANT_LAY, ANT_RIGHT, ANT_WORKER);
	ant_advance(g);
	expect_at(g, w, 10, 11);
	cr_expect_eq(ant_count(g, 0), 1, "the newborn died");
	cr_expect_eq(g->ant[q].reserve[ANT_CARBO], 0, "the egg was paid for");
	cr_expect_eq(g->nids, 2);
	ant_free(g);
}

Test(ants_eggs, egg_hatches_after_the_cell_is_left_and_after_its_queen_dies)
{
	struct game_state *g = fixture(3);
	int q = add(g, ANT_QUEEN, 0, 10, 10), w = add(g, ANT_WORKER, 0, 10, 11);
	int s = add(g, ANT_SOLDIER, 1, 9, 10);
	g->ant[q].reserve[ANT_CARBO] = g->ant[q].reserve[ANT_PROTE] = 1;
	g->ant[q].reserve[ANT_LIPID] = 1;
	g->ant[q].life = 1;
	command(g, q, ANT_LAY, ANT_RIGHT, ANT_WORKER);
	move(g, w, ANT_RIGHT);
	move(g, s, ANT_LEFT);
	ant_advance(g);
	expect_dead(g, q);
	int born = g->ant_at[ant_cell(g, 10, 11)];
	cr_assert_neq(born, ANT_NONE, "the egg hatched into the left cell");
	cr_expect_eq(g->ant[born].player, 0);
	ant_free(g);
}

/* ---- lives and succession ---------------------------------------------------- */

Test(ants_life, lives_go_down_and_exhausted_ants_die)
{
	struct game_state *g = fixture(1);
	int w = add(g, ANT_WORKER, 0, 5, 5), s = add(g, ANT_SOLDIER, 0, 7, 7);
	keep_queen(g, 0);
	g->ant[w].life = 2;
	g->ant[w].carried = ANT_BREAD;
	ant_advance(g);
	cr_expect_eq(g->ant[w].life, 1);
	cr_expect_eq(g->ant[s].life, g->p.soldier_life - 1);
	ant_advance(g);
	expect_dead(g, w);
	cr_expect_eq(g->ant_at[ant_cell(g, 5, 5)], ANT_NONE);
	cr_expect_eq(g->bonus[ant_cell(g, 5, 5)], ANT_NONE, "its food went with it");
	ant_free(g);
}

Test(ants_life, queenless_colony_crowns_one_and_it_eats_both_foods)
{
	struct game_state *g = fixture(1);
	int q = add(g, ANT_QUEEN, 3, 5, 5), w = add(g, ANT_WORKER, 3, 8, 8);
	g->ant[q].life = 1;
	g->ant[w].carried = ANT_SEED;
	put_food(g, 8, 8, ANT_LEAF);
	ant_advance(g);
	expect_dead(g, q);
	cr_expect_eq(g->ant[w].type, ANT_QUEEN);
	cr_expect_eq(g->ant[w].life, g->p.queen_life);
	cr_expect_eq(g->ant[w].carried, ANT_NONE);
	cr_expect_eq(g->bonus[ant_cell(g, 8, 8)], ANT_NONE);
	cr_expect_eq(g->ant[w].reserve[ANT_CARBO], 0 + 1);
	cr_expect_eq(g->ant[w].reserve[ANT_PROTE], 1 + 2);
	cr_expect_eq(g->ant[w].reserve[ANT_LIPID], 2 + 0);
	ant_free(g);
}

Test(ants_life, successor_is_random_among_soldiers_and_workers)
{
	int crowned[3] = { 0 };
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct game_state *g = fixture(seed);
		int q = add(g, ANT_QUEEN, 0, 5, 5);
		int ids[3] = { add(g, ANT_SOLDIER, 0, 8, 8), add(g, ANT_WORKER, 0, 9, 9),
			       add(g, ANT_WORKER, 0, 10, 10) };
		add(g, ANT_WORKER, 1, 12, 12);
		g->ant[q].life = 1;
		ant_advance(g);
		int queens = 0;
		for (int i = 0; i < 3; i++)
			if (g->ant[ids[i]].type == ANT_QUEEN) {
				crowned[i]++;
				queens++;
			}
		cr_expect_eq(queens, 1);
		cr_expect_eq(g->ant[4].type, ANT_QUEEN, "a queenless colony 1 crowns too");
		ant_free(g);
	}
	for (int i = 0; i < 3; i++)
		cr_expect(crowned[i] > 60, "ant %d crowned %d times in 300", i, crowned[i]);
}

/* ---- scoring --------------------------------------------------------------- */

Test(ants_score, each_round_adds_the_colony_size)
{
	struct game_state *g = fixture(1);
	add(g, ANT_QUEEN, 0, 5, 5);
	add(g, ANT_WORKER, 0, 6, 6);
	int w = add(g, ANT_WORKER, 2, 20, 20);
	keep_queen(g, 2);
	g->ant[w].life = 2;
	ant_advance(g);
	ant_advance(g);
	ant_advance(g);
	cr_expect_eq(g->score[0], 6);
	cr_expect_eq(g->score[1], 0);
	cr_expect_eq(g->score[2], 3 + 1, "the worker counted at the end of round 0 only");
	int64_t s[4];
	ants_game.scores(g, s);
	cr_expect_eq(s[0], 6);
	ant_free(g);
}

/* ---- orders messages --------------------------------------------------------- */

Test(ants_orders, more_than_1000_in_a_round_freezes)
{
	struct game_state *g = fixture(1);
	int w = add(g, ANT_WORKER, 0, 5, 5);
	static struct ant_msg_order o[ANT_MAX_ORDERS + 1];
	for (int i = 0; i <= ANT_MAX_ORDERS; i++)
		o[i] = (struct ant_msg_order){ (uint16_t)w, ANT_MOVE, ANT_DOWN, 0 };
	cr_expect_eq(send_raw(g, 1, o, ANT_MAX_ORDERS), 0, "exactly 1000 is fine");
	cr_expect_eq(send_raw(g, 0, o, 600), 0);
	cr_expect_eq(send_raw(g, 0, o, 401), -1, "1001 over two messages");
	cr_expect(g->frozen[0]);
	ant_advance(g);
	expect_at(g, w, 5, 5);
	cr_expect_eq(send_raw(g, 0, o, 1), 0, "a frozen player is ignored");
	ant_advance(g);
	expect_at(g, w, 5, 5);
	cr_expect_eq(send_raw(g, 2, o, ANT_MAX_ORDERS + 1), -1);
	cr_expect(g->frozen[2]);
	ant_free(g);
}

Test(ants_orders, malformed_messages_are_rejected)
{
	struct game_state *g = fixture(1);
	err_t err;
	uint8_t shortmsg[1] = { 1 };
	cr_expect_eq(ant_take_orders(g, 0, shortmsg, 1, err), -1);
	uint8_t bad_len[2 + ANT_ORDER_LEN + 1] = { 1, 0 };
	cr_expect_eq(ant_take_orders(g, 1, bad_len, sizeof bad_len, err), -1);
	cr_expect(strstr(err->msg, "length") != NULL, "%s", err->msg);
	uint8_t too_many[2] = { 0xe9, 0x03 }; /* 1001 */
	cr_expect_eq(ant_take_orders(g, 2, too_many, 2, err), -1);
	cr_expect(strstr(err->msg, "1000") != NULL, "%s", err->msg);
	uint8_t empty[2] = { 0, 0 };
	cr_expect_eq(ant_take_orders(g, 3, empty, 2, err), 0);
	cr_expect_eq(ant_take_orders(g, 4, empty, 2, err), -1, "no player 4");
	cr_expect(g->frozen[0] && g->frozen[1] && g->frozen[2] && !g->frozen[3]);
	ant_free(g);
}

/* ---- messages ---------------------------------------------------------------- */

Test(ants_messages, start_and_view_round_trip)
{
	err_t err = {0};
	struct game_state *g = ant_new(NULL, 4, err);
	cr_assert_not_null(g, "%s", err);
	uint8_t start[ANT_START_LEN];
	cr_assert_eq(ant_start(g, 2, start, sizeof start), ANT_START_LEN);
	struct ant_msg_start s;
	cr_assert(ant_start_decode(start, sizeof start, &s));
	cr_expect_eq(s.me, 2);
	cr_expect_eq(s.seed, seed_derive(4, SEED_PLAYER, 2), "not the seat's own seed");
	cr_expect_eq(s.params.v[ANT_P_ROUNDS], 250);
	cr_expect_eq(s.params.v[ANT_P_FOOD + 3 * ANT_LEAF + ANT_PROTE], 2);
	cr_expect(!ant_start_decode(start, sizeof start - 1, &s));
	start[3 + 2 * ANT_P_QUEEN_PERIOD] = 0; /* a zero period */
	cr_expect(!ant_start_decode(start, sizeof start, &s));

	put_food(g, 12, 12, ANT_SEED);
	static uint8_t buf[ANT_VIEW_MAX], again[ANT_VIEW_MAX];
	size_t len = ant_view(g, 1, buf, sizeof buf);
	cr_assert_gt(len, 0);
	static struct ant_msg_view v;
	ant_view_build(g, 1, &v);
	cr_expect_eq(ant_view_encode(&v, again, sizeof again), len);
	cr_expect_eq(memcmp(buf, again, len), 0, "streamed and built views agree");
	memset(&v, 0, sizeof v);
	cr_assert(ant_view_decode(buf, len, &v));
	cr_expect_eq(v.nants, 60);
	cr_expect_eq(ant_cell_bonus(v.cell[12 * 25 + 12]), ANT_SEED);
	int queens = 0;
	for (int i = 0; i < v.nants; i++)
		queens += v.ant[i].type == ANT_QUEEN;
	cr_expect_eq(queens, 4, "one queen a colony");
	cr_expect(!ant_view_decode(buf, len - 1, &v));
	buf[len - ANT_VIEW_ANT_LEN + 2] = ANT_TYPES; /* the last ant's type */
	cr_expect(!ant_view_decode(buf, len, &v));
	cr_expect_eq(ant_view(g, 1, buf, 100), 0, "too small a buffer");
	ant_free(g);
}

/* ---- whole matches: determinism and the replay ------------------------------- */

/* Random commands for every ant of every player, then the round. */
static int random_orders(const struct game_state *gs, int p, struct rng *r, void *orders)
{
	const struct game_state *g = gs;
	struct ant_msg_order *o = orders;
	int n = 0;
	for (int id = 0; id < g->nids && n < ANT_MAX_ORDERS; id++)
		if (g->ant[id].alive && g->ant[id].player == p)
			o[n++] = (struct ant_msg_order){ (uint16_t)id, (uint8_t)rng_uniform(r, 0, 3),
							 (uint8_t)rng_uniform(r, 0, 3),
							 (uint8_t)rng_uniform(r, 1, 2) };
	return n;
}

Test(ants_replay, same_seed_and_orders_same_match_and_bytes)
{
	struct game_state *a, *b;
	et_expect_deterministic(&ants_game, 5, 6, &ant_orders, random_orders, 400 * 1000,
				(struct game_state **)&a, (struct game_state **)&b);
	cr_expect_eq(memcmp(a->score, b->score, sizeof a->score), 0);
	cr_expect_eq(a->round, 250);
	ant_free(a);
	ant_free(b);
}

/* ---- a replay viewer, as the header of replay.c describes it ---------------- */

struct seen_ant {
	bool alive;
	int type, player, row, col, life, carried, reserve[3];
};

struct viewer {
	int life_of[ANT_TYPES];
	struct seen_ant ant[ANT_MAX_IDS];
	int food[ANT_MAX_CELLS];
	int cols;
};

static int jint(json_t *a, size_t i)
{
	return (int)json_integer_value(json_array_get(a, i));
}

static void viewer_start(struct viewer *v, json_t *header)
{
	json_t *p = json_object_get(header, "params");
	v->life_of[ANT_QUEEN] = (int)json_integer_value(json_object_get(p, "queen_life"));
	v->life_of[ANT_SOLDIER] = (int)json_integer_value(json_object_get(p, "soldier_life"));
	v->life_of[ANT_WORKER] = (int)json_integer_value(json_object_get(p, "worker_life"));
	v->cols = (int)json_integer_value(json_object_get(p, "cols"));
	for (int i = 0; i < ANT_MAX_CELLS; i++)
		v->food[i] = ANT_NONE;
	size_t i;
	json_t *a;
	json_array_foreach(json_object_get(header, "ants"), i, a) {
		v->ant[jint(a, 0)] = (struct seen_ant){ .alive = true,
							.type = jint(a, 1),
							.player = jint(a, 2),
							.row = jint(a, 3),
							.col = jint(a, 4),
							.life = jint(a, 5),
							.carried = ANT_NONE };
	}
}

static void viewer_frame(struct viewer *v, json_t *f)
{
	size_t i;
	json_t *a;
	for (int id = 0; id < ANT_MAX_IDS; id++)
		v->ant[id].life -= v->ant[id].alive;
	json_array_foreach(json_object_get(f, "dead"), i, a) {
		v->ant[json_integer_value(a)].alive = false;
	}
	json_array_foreach(json_object_get(f, "moved"), i, a) {
		v->ant[jint(a, 0)].row = jint(a, 1);
		v->ant[jint(a, 0)].col = jint(a, 2);
	}
	json_array_foreach(json_object_get(f, "crowned"), i, a) {
		struct seen_ant *s = &v->ant[json_integer_value(a)];
		s->type = ANT_QUEEN;
		s->life = v->life_of[ANT_QUEEN];
	}
	json_array_foreach(json_object_get(f, "born"), i, a) {
		int type = jint(a, 1);
		v->ant[jint(a, 0)] = (struct seen_ant){ .alive = true,
							.type = type,
							.player = jint(a, 2),
							.row = jint(a, 3),
							.col = jint(a, 4),
							.life = v->life_of[type],
							.carried = ANT_NONE };
	}
	json_array_foreach(json_object_get(f, "carry"), i, a) {
		v->ant[jint(a, 0)].carried = jint(a, 1);
	}
	json_array_foreach(json_object_get(f, "reserve"), i, a) {
		for (int k = 0; k < 3; k++)
			v->ant[jint(a, 0)].reserve[k] = jint(a, 1 + k);
	}
	json_array_foreach(json_object_get(f, "food"), i, a) {
		v->food[jint(a, 0) * v->cols + jint(a, 1)] = jint(a, 2);
	}
}

static void expect_viewer_matches(const struct viewer *v, const struct game_state *g)
{
	for (int id = 0; id < g->nids; id++) {
		const struct ant *a = &g->ant[id];
		const struct seen_ant *s = &v->ant[id];
		cr_assert_eq(s->alive, a->alive, "ant %d alive", id);
		if (!a->alive)
			continue;
		cr_assert(s->type == a->type && s->player == a->player && s->row == a->row &&
				  s->col == a->col && s->life == a->life && s->carried == a->carried &&
				  memcmp(s->reserve, a->reserve, sizeof s->reserve) == 0,
			  "ant %d differs", id);
	}
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		cr_assert_eq(v->food[i], g->bonus[i], "food of cell %d", i);
}

/* Random commands, so that food travels; queens are fed by hand (and the
 * viewer told) so that eggs are laid. */
Test(ants_replay, frames_rebuild_the_state)
{
	err_t err;
	struct game_state *g = ant_new("rounds 120\nbonus_period 3\n", 8, err);
	cr_assert_not_null(g, "%s", err);
	static struct viewer v;
	json_t *header = ant_replay_header(g);
	viewer_start(&v, header);
	json_decref(header);
	struct rng r = rng_seeded(3);
	for (int round = 0; round < g->p.rounds; round++) {
		for (int id = 0; id < g->nids; id++)
			if (g->ant[id].alive && g->ant[id].type == ANT_QUEEN) {
				g->ant[id].reserve[round % 3] += 1;
				v.ant[id].reserve[round % 3] += 1;
			}
		et_random_round(&ants_game, g, &ant_orders, random_orders, &r);
		json_t *frame = ant_replay_round(g);
		viewer_frame(&v, frame);
		json_decref(frame);
		expect_viewer_matches(&v, g);
	}
	cr_expect_gt(g->nids, 60, "eggs hatched");
	ant_free(g);
}

/* ---- more orders and eggs ------------------------------------------------------ */

Test(ants_orders, random_bytes_never_crash_and_are_judged)
{
	struct game_state *g = fixture(1);
	add(g, ANT_WORKER, 0, 5, 5);
	struct rng r = rng_seeded(77);
	static uint8_t buf[ANT_ORDERS_MAX + 16];
	static struct ant_msg_view v;
	err_t err;
	for (int i = 0; i < 2000; i++) {
		size_t len = (size_t)rng_uniform(&r, 0, (int)sizeof buf - 1);
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)rng_uniform(&r, 0, 255);
		if (i % 2 && len >= 2) { /* half of them with a plausible count */
			buf[0] = (uint8_t)((len - 2) / ANT_ORDER_LEN);
			buf[1] = 0;
		}
		g->frozen[0] = false;
		int rc = ant_take_orders(g, 0, buf, len, err);
		size_t count = len >= 2 ? (size_t)(buf[0] | buf[1] << 8) : 0;
		bool well_formed = len >= 2 && len == 2 + count * ANT_ORDER_LEN &&
				   count <= ANT_MAX_ORDERS;
		cr_assert_eq(rc == 0, well_formed, "length %zu", len);
		g->norders[0] = 0;
		ant_view_decode(buf, len, &v); /* hostile views too, for the kit */
		struct ant_msg_start s;
		ant_start_decode(buf, len, &s);
	}
	ant_advance(g);
	ant_free(g);
}

Test(ants_orders, a_frozen_player_commands_nothing)
{
	struct game_state *g = fixture(1);
	int w = add(g, ANT_WORKER, 0, 5, 5);
	keep_queen(g, 0);
	move(g, w, ANT_DOWN);
	ant_set_status(g, 0, -1); /* frozen after its orders: they are dropped */
	ant_advance(g);
	expect_at(g, w, 5, 5);
	cr_expect_eq(ant_count(g, 0), 2, "its ants live on");
	ant_free(g);
}

Test(ants_eggs, two_eggs_on_one_cell_one_hatches_at_random)
{
	int wins[2] = { 0 };
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct game_state *g = fixture(seed);
		int q0 = add(g, ANT_QUEEN, 0, 10, 9), q1 = add(g, ANT_QUEEN, 1, 10, 11);
		for (int k = 0; k < 3; k++)
			g->ant[q0].reserve[k] = g->ant[q1].reserve[k] = 1;
		command(g, q0, ANT_LAY, ANT_RIGHT, ANT_WORKER);
		command(g, q1, ANT_LAY, ANT_LEFT, ANT_WORKER);
		ant_advance(g);
		int id = g->ant_at[ant_cell(g, 10, 10)];
		cr_assert_neq(id, ANT_NONE);
		wins[g->ant[id].player]++;
		cr_expect_eq(g->nids, 3, "the other egg died");
		ant_free(g);
	}
	cr_expect(wins[0] > 60 && wins[1] > 60, "%d / %d", wins[0], wins[1]);
}
