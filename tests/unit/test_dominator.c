/* test_dominator.c - the Dominator engine (games/dominator), rule by rule.
 *
 * Scenarios are set up through dom.h on a fixed 21 x 21 board (walls around,
 * nothing inside), with the units each test needs; orders always go through
 * the real orders message bytes (proto.h), turned the way each player sees
 * its board.  Distributions are checked over many seeds. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/original_dominator.h"
#include "games/dominator/dom.h"
#include "games/seed.h"
#include "tests/unit/engine_testlib.h"

#define N 21 /* the fixture board; boxes: rows/cols 1..8 and 12..19 */

/* ---- fixtures -------------------------------------------------------------- */

static const char *empty_board_params(void)
{
	static char text[64 + N * (N + 1)];
	int len = snprintf(text, sizeof text, "farmers 1\nknights 1\nwitches 1\nboard\n");
	for (int r = 0; r < N; r++) {
		for (int c = 0; c < N; c++)
			text[len++] = (r == 0 || c == 0 || r == N - 1 || c == N - 1) ? 'X' : '.';
		text[len++] = '\n';
	}
	text[len] = '\0';
	return text;
}

/* The empty board, no units, the generator reseeded. */
ET_FIXTURE(dom, empty_board_params(), dom_clear_units)
ET_ADD(dom, dom_add_unit)
ET_SEND_RAW(dom, dominator_game)

/* The direction player p must send for a real direction. */
static int view_dir(int player, int real)
{
	return real == DOM_NONE ? DOM_NONE : (real - 2 * player + 8) % 8;
}

/* One order, given as the owner sees it, for a real direction. */
static void order(struct game_state *d, int id, int real_dir)
{
	int player = d->unit[id].owner;
	struct dom_msg_order o = { (uint16_t)id, (uint8_t)view_dir(player, real_dir) };
	cr_assert_eq(send_raw(d, player, &o, 1), 0);
}

static void expect_at(const struct game_state *d, int id, int row, int col)
{
	const struct dom_unit *u = &d->unit[id];
	int there = d->unit_at[dom_cell(d, u->row, u->col)];
	/* units never die: a captured one changes side */
	et_expect_at(&(struct et_piece){ "unit", id, true, u->row, u->col, there }, row, col);
}

static bool in_box(const struct game_state *d, int player, int row, int col)
{
	int r0, r1, c0, c1;
	dom_box(d->n, player, &r0, &r1, &c0, &c1);
	return row >= r0 && row <= r1 && col >= c0 && col <= c1;
}

static bool is_hole(int r, int c, const int (*hole)[2], int nholes)
{
	for (int i = 0; i < nholes; i++)
		if (hole[i][0] == r && hole[i][1] == c)
			return true;
	return false;
}

/* Farmers of team on every free cell of a box but the holes. */
static void fill_box(struct game_state *d, int box, int team, const int (*hole)[2], int nholes)
{
	int r0, r1, c0, c1;
	dom_box(d->n, box, &r0, &r1, &c0, &c1);
	for (int r = r0; r <= r1; r++)
		for (int c = c0; c <= c1; c++)
			if (d->unit_at[dom_cell(d, r, c)] == DOM_NO_UNIT && !is_hole(r, c, hole, nholes))
				add(d, DOM_FARMER, team, r, c);
}

/* ---- parameters -------------------------------------------------------------- */

Test(dominator_params, defaults_match_the_config_file)
{
	struct dom_params defaults;
	ET_CONFIG_IS_DEFAULTS(dom, "dominator", &defaults);
	cr_expect_eq(defaults.rounds, 200);
	cr_expect_eq(defaults.rows, 37);
	cr_expect_eq(defaults.farmers + defaults.knights + defaults.witches, 32);
}

static void expect_param_error(const char *text, const char *want)
{
	struct dom_params p;
	err_t err = {0};
	cr_expect_eq(dom_params_parse(text, &p, err), -1, "accepted: %s", text);
	cr_expect(strstr(err->msg, want) != NULL, "error \"%s\" lacks \"%s\"", err->msg, want);
}

Test(dominator_params, errors_name_line_and_key)
{
	expect_param_error("rows 23\n\nrows 25\n", "line 3: rows: given twice (first on line 1)");
	expect_param_error("# c\nrows 22\ncols 22\n", "line 2: rows: 22 is even");
	expect_param_error("rows 19\n", "line 1: rows: 19 is out of range (21..99)");
	expect_param_error("rows 101\n", "line 1: rows");
	expect_param_error("rows 37\ncols 35\n", "line 2: cols: 35 differs from rows 37");
	expect_param_error("frogs 3\n", "line 1: frogs: unknown key");
	expect_param_error("rounds ten\n", "line 1: rounds: expected one non-negative integer");
	expect_param_error("rounds 10 20\n", "line 1: rounds");
	expect_param_error("rounds -5\n", "line 1: rounds");
	expect_param_error("rounds 99999999999999\n", "line 1: rounds");
	expect_param_error("rounds 0\n", "line 1: rounds: 0 is out of range");
	expect_param_error("players 3\n", "line 1: players");
	expect_param_error("damage_min 80\ndamage_max 70\n", "line 2: damage_max: 70 is below");
	expect_param_error("rows 21\nfarmers 30\nknights 10\n", "line 3: farmers + knights + witches");
	expect_param_error("witches 21\n", "line 1: witches");
	expect_param_error("farmers 0\nknights 0\nwitches 0\n", "farmers + knights + witches");
}

static char *board_text(int n, char border, char inside, const char *prefix)
{
	static char text[16384];
	int len = snprintf(text, sizeof text, "%sboard\n", prefix);
	for (int r = 0; r < n; r++) {
		for (int c = 0; c < n; c++)
			text[len++] = (r == 0 || c == 0 || r == n - 1 || c == n - 1) ? border : inside;
		text[len++] = '\n';
	}
	text[len] = '\0';
	return text;
}

Test(dominator_params, board_errors)
{
	expect_param_error(board_text(21, '.', '.', ""), "board: its border must be walls");
	expect_param_error(board_text(21, 'X', 'q', ""), "board: column 1: 'q'");
	expect_param_error(board_text(22, 'X', '.', ""), "board: 22 rows");
	expect_param_error(board_text(19, 'X', '.', ""), "board: 19 rows");
	expect_param_error(board_text(21, 'X', '.', "rows 23\n"), "line 1: rows: 23, but the board");
	expect_param_error("board\nXXX\nXX\n", "line 3: board: a row of 2 cells");
	expect_param_error("board\n", "line 1: board: no rows follow");
	char *t = board_text(21, 'X', '.', "");
	t[strlen(t) - 3] = '\0'; /* the last row short */
	expect_param_error(t, "line 22: board");
}

Test(dominator_params, fixed_board_with_painted_cells)
{
	char *t = board_text(21, 'X', '.', "# a fixed board\nfarmers 3\n");
	char *row5 = t + strlen("# a fixed board\nfarmers 3\nboard\n") + 5 * 22;
	row5[3] = '2';
	row5[4] = '2';
	row5[9] = '0';
	row5[10] = 'X';
	err_t err = {0};
	struct game_state *d = dom_new(t, 7, err);
	cr_assert_not_null(d, "%s", err);
	cr_expect_eq(d->n, 21);
	cr_expect_eq(d->land[2], 2);
	cr_expect_eq(d->land[0], 1);
	cr_expect_eq(d->owner[dom_cell(d, 5, 3)], 2);
	cr_expect(d->wall[dom_cell(d, 5, 10)]);
	cr_expect_eq(d->nunits, 4 * (3 + 10 + 2));
	dom_free(d);
}

/* ---- generated boards ------------------------------------------------------ */

Test(dominator_board, default_board_is_sound)
{
	for (uint64_t seed = 1; seed <= 12; seed++) {
		err_t err = {0};
		struct game_state *d = dom_new(NULL, seed * 7919, err);
		cr_assert_not_null(d, "%s", err);
		int n = d->n, count[DOM_PLAYERS][DOM_TYPES] = { { 0 } };
		cr_expect_eq(n, 37);
		for (int i = 0; i < n; i++)
			cr_expect(d->wall[i] && d->wall[(n - 1) * n + i] && d->wall[i * n] &&
				  d->wall[i * n + n - 1]);
		cr_expect(dom_board_connected(d), "seed %lu: not connected", (unsigned long)seed);
		for (int id = 0; id < d->nunits; id++) {
			const struct dom_unit *u = &d->unit[id];
			count[u->owner][u->type]++;
			cr_expect(in_box(d, u->owner, u->row, u->col));
			cr_expect(!d->wall[dom_cell(d, u->row, u->col)]);
			cr_expect_eq(d->unit_at[dom_cell(d, u->row, u->col)], id);
			cr_expect_eq(u->health, dom_full_health(d, u->type));
			if (u->type != DOM_WITCH)
				cr_expect(!dom_haunted(d, u->row, u->col));
			for (int w = 0; u->type != DOM_WITCH && w < d->nwitches; w++) {
				const struct dom_unit *x = &d->unit[d->witch[w]];
				cr_expect_geq(dom_manhattan(u->row, u->col, x->row, x->col), 4,
					      "unit %d starts %d from witch %d", id,
					      dom_manhattan(u->row, u->col, x->row, x->col), x->id);
			}
		}
		for (int p = 0; p < DOM_PLAYERS; p++) {
			cr_expect_eq(count[p][DOM_FARMER], 20);
			cr_expect_eq(count[p][DOM_KNIGHT], 10);
			cr_expect_eq(count[p][DOM_WITCH], 2);
		}
		cr_expect_eq(d->nwitches, 8);
		for (int i = 0; i < d->nwitches; i++)
			for (int j = i + 1; j < d->nwitches; j++) {
				const struct dom_unit *a = &d->unit[d->witch[i]], *b = &d->unit[d->witch[j]];
				cr_expect_geq(dom_manhattan(a->row, a->col, b->row, b->col), 4);
			}
		for (int i = 0; i < d->nwitches; i++)
			cr_expect(d->unit[d->witch[i]].active);
		dom_free(d);
	}
}

/* The original's generator: snakes until no 9 x 9 square is free of walls;
 * on 37 x 37 boards it makes 108.5 inner walls on average (105..112 over
 * 400 seeds). */
Test(dominator_board, inner_walls_as_the_original_makes_them)
{
	int boards = 200;
	long inner = 0;
	for (uint64_t seed = 1; seed <= (uint64_t)boards; seed++) {
		err_t err = {0};
		struct game_state *d = dom_new(NULL, seed, err);
		cr_assert_not_null(d, "%s", err);
		int n = d->n;
		for (int r = 1; r + 1 < n; r++)
			for (int c = 1; c + 1 < n; c++)
				inner += d->wall[dom_cell(d, r, c)];
		for (int r = 4; r < n - 4; r++)
			for (int c = 4; c < n - 4; c++) {
				bool wall = false;
				for (int y = r - 4; y <= r + 4; y++)
					for (int x = c - 4; x <= c + 4; x++)
						wall |= d->wall[dom_cell(d, y, x)];
				cr_expect(wall, "seed %lu: a 9 x 9 square around (%d, %d) has no wall",
					  (unsigned long)seed, r, c);
			}
		dom_free(d);
	}
	double mean = (double)inner / boards;
	cr_expect(mean >= 104 && mean <= 113, "%.1f inner walls a board (the original: 108.5)",
		  mean);
}

Test(dominator_board, no_diagonal_pinches_and_seed_fixes_board)
{
	err_t err;
	struct game_state *a = dom_new(NULL, 42, err), *b = dom_new(NULL, 42, err),
			 *c = dom_new(NULL, 43, err);
	cr_assert(a && b && c);
	int n = a->n, walls = 0;
	for (int r = 0; r + 1 < n; r++)
		for (int col = 0; col + 1 < n; col++) {
			bool *w = a->wall;
			int i = r * n + col;
			cr_expect(!(w[i] && w[i + n + 1] && !w[i + 1] && !w[i + n]));
			cr_expect(!(w[i + 1] && w[i + n] && !w[i] && !w[i + n + 1]));
		}
	for (int i = 0; i < n * n; i++)
		walls += a->wall[i];
	cr_expect_gt(walls, 4 * (n - 1), "no wall inside the border");
	cr_expect_eq(memcmp(a->wall, b->wall, sizeof a->wall), 0);
	cr_expect_neq(memcmp(a->wall, c->wall, sizeof a->wall), 0);
	dom_free(a);
	dom_free(b);
	dom_free(c);
}

/* ---- moves, painting, invalid orders -------------------------------------- */

Test(dominator_rules, farmer_paints_the_cell_it_enters)
{
	struct game_state *d = fixture(1);
	int f = add(d, DOM_FARMER, 0, 5, 5);
	order(d, f, DOM_RIGHT);
	dom_advance(d);
	expect_at(d, f, 5, 6);
	cr_expect_eq(d->owner[dom_cell(d, 5, 6)], 0);
	cr_expect_eq(d->owner[dom_cell(d, 5, 5)], DOM_NOBODY, "the cell it left is not painted");
	cr_expect_eq(d->land[0], 1);
	/* Over an enemy colour: the cell changes hands. */
	dom_paint(d, 6, 6, 3);
	cr_expect_eq(d->land[3], 1);
	order(d, f, DOM_BOTTOM);
	dom_advance(d);
	expect_at(d, f, 6, 6);
	cr_expect_eq(d->owner[dom_cell(d, 6, 6)], 0);
	cr_expect_eq(d->land[0], 2);
	cr_expect_eq(d->land[3], 0);
	/* Knights and witches do not paint. */
	int k = add(d, DOM_KNIGHT, 1, 10, 10), w = add(d, DOM_WITCH, 1, 15, 15);
	order(d, k, DOM_BR);
	order(d, w, DOM_TOP);
	dom_advance(d);
	expect_at(d, k, 11, 11);
	expect_at(d, w, 14, 15);
	cr_expect_eq(d->land[1], 0);
	dom_free(d);
}

/* A unit given an invalid order stays where it is and does not heal. */
static void expect_invalid(struct game_state *d, int id, int dir)
{
	struct dom_unit before = d->unit[id];
	if (before.type != DOM_WITCH)
		d->unit[id].health = before.health = dom_full_health(d, before.type) / 2;
	order(d, id, dir);
	dom_advance(d);
	expect_at(d, id, before.row, before.col);
	cr_expect_eq(d->unit[id].health, before.health, "unit %d healed after an invalid order",
		     id);
	cr_expect_eq(d->unit[id].owner, before.owner);
}

Test(dominator_rules, invalid_moves_do_not_move_or_heal)
{
	struct game_state *d = fixture(2);
	int f = add(d, DOM_FARMER, 0, 1, 1);
	int own = add(d, DOM_FARMER, 0, 2, 1);
	int k = add(d, DOM_KNIGHT, 0, 1, 2);
	int w = add(d, DOM_WITCH, 0, 10, 10);
	int enemy = add(d, DOM_FARMER, 1, 1, 3);
	expect_invalid(d, f, DOM_TOP);    /* the border wall */
	expect_invalid(d, f, DOM_LEFT);   /* the border wall */
	expect_invalid(d, f, DOM_BOTTOM); /* its own farmer */
	expect_invalid(d, f, DOM_RIGHT);  /* its own knight */
	expect_invalid(d, own, DOM_BR);   /* a diagonal, though the cell is free */
	expect_invalid(d, k, DOM_TL);     /* a wall, diagonally */
	expect_invalid(d, k, DOM_LEFT);   /* its own farmer */
	expect_invalid(d, k, DOM_LB);     /* its own farmer, diagonally */
	expect_invalid(d, w, DOM_RT);     /* witches do not go diagonally */
	expect_invalid(d, enemy, DOM_LEFT); /* a farmer cannot enter an enemy's cell */
	/* A wall inside the board, for a witch. */
	d->wall[dom_cell(d, 11, 10)] = true;
	expect_invalid(d, w, DOM_BOTTOM);
	dom_free(d);
}

Test(dominator_rules, knight_moves_in_eight_directions)
{
	for (int dir = 0; dir < 8; dir++) {
		struct game_state *d = fixture(3);
		int k = add(d, DOM_KNIGHT, 2, 10, 10);
		order(d, k, dir);
		dom_advance(d);
		int dr, dc;
		dom_dir_delta(dir, &dr, &dc);
		expect_at(d, k, 10 + dr, 10 + dc);
		dom_free(d);
	}
}

/* ---- knights ----------------------------------------------------------------- */

Test(dominator_rules, knight_attack_damage_in_range)
{
	int seen_min = 1000, seen_max = 0;
	for (uint64_t seed = 0; seed < 600; seed++) {
		struct game_state *d = fixture(seed);
		int k = add(d, DOM_KNIGHT, 0, 5, 5);
		int target = add(d, seed % 2 ? DOM_KNIGHT : DOM_FARMER, 1, 6, 6);
		int health = d->unit[target].health;
		order(d, k, DOM_BR);
		dom_advance(d);
		expect_at(d, k, 5, 5);
		expect_at(d, target, 6, 6);
		int damage = health - d->unit[target].health;
		damage += 30; /* it had no order: it healed after the blow */
		cr_assert(damage >= 60 && damage <= 90, "damage %d", damage);
		seen_min = damage < seen_min ? damage : seen_min;
		seen_max = damage > seen_max ? damage : seen_max;
		cr_expect_eq(d->unit[target].owner, 1);
		dom_free(d);
	}
	cr_expect_eq(seen_min, 60);
	cr_expect_eq(seen_max, 90);
}

Test(dominator_rules, knight_captures_at_zero_and_unit_is_reborn_full)
{
	struct game_state *d = fixture(4);
	int k = add(d, DOM_KNIGHT, 2, 10, 9);
	int f = add(d, DOM_FARMER, 1, 10, 10);
	int v = add(d, DOM_KNIGHT, 3, 9, 9);
	d->unit[f].health = 60; /* any blow takes it to 0 or below */
	d->unit[v].health = 60;
	int k2 = add(d, DOM_KNIGHT, 0, 8, 9);
	order(d, k, DOM_RIGHT);
	order(d, k2, DOM_BOTTOM);
	dom_advance(d);
	expect_at(d, k, 10, 9);
	cr_expect_eq(d->unit[f].owner, 2);
	cr_expect(in_box(d, 2, d->unit[f].row, d->unit[f].col));
	cr_expect_eq(d->unit[f].health, 100);
	cr_expect(!d->unit[f].captured);
	cr_expect_eq(d->unit[v].owner, 0);
	cr_expect(in_box(d, 0, d->unit[v].row, d->unit[v].col));
	cr_expect_eq(d->unit[v].health, 200);
	cr_expect_eq(d->unit_at[dom_cell(d, 10, 10)], DOM_NO_UNIT, "the knight stays put");
	dom_free(d);

	/* The edge: exactly 0 is a capture, 1 is not. */
	for (int health = 60; health <= 61; health++) {
		d = fixture(4);
		d->p.damage_min = d->p.damage_max = 60;
		k = add(d, DOM_KNIGHT, 2, 10, 9);
		f = add(d, DOM_FARMER, 1, 10, 10);
		d->unit[f].health = health;
		order(d, k, DOM_RIGHT);
		order(d, f, DOM_LEFT); /* an invalid order: no healing */
		dom_advance(d);
		cr_expect_eq(d->unit[f].owner, health == 60 ? 2 : 1);
		cr_expect_eq(d->unit[f].health, health == 60 ? 100 : 1);
		dom_free(d);
	}
}

Test(dominator_rules, knight_cannot_attack_witches)
{
	struct game_state *d = fixture(5);
	int k = add(d, DOM_KNIGHT, 0, 10, 10);
	int w = add(d, DOM_WITCH, 1, 13, 10);
	d->unit[k].health = 100;
	/* (11, 10) is haunted: step there and die; attack the witch: invalid. */
	cr_expect(dom_haunted(d, 11, 10));
	order(d, k, DOM_BOTTOM);
	dom_advance(d);
	cr_expect_eq(d->unit[k].owner, 1, "a knight entering a haunted cell dies");
	dom_free(d);

	d = fixture(5);
	k = add(d, DOM_KNIGHT, 0, 10, 10);
	int w2 = add(d, DOM_WITCH, 1, 11, 11);
	w = add(d, DOM_WITCH, 1, 12, 12); /* they quiet each other: nothing haunted */
	cr_expect(!d->unit[w].active && !d->unit[w2].active);
	expect_invalid(d, k, DOM_BR);
	expect_at(d, w2, 11, 11);
	dom_free(d);
}

/* ---- witches ------------------------------------------------------------------ */

Test(dominator_rules, witch_activation_by_any_witch_within_two)
{
	struct game_state *d = fixture(6);
	int a = add(d, DOM_WITCH, 0, 5, 5);
	cr_expect(d->unit[a].active);
	cr_expect(dom_haunted(d, 5, 7) && dom_haunted(d, 6, 6) && dom_haunted(d, 3, 5));
	cr_expect(!dom_haunted(d, 5, 8) && !dom_haunted(d, 7, 6));
	int b = add(d, DOM_WITCH, 0, 5, 8); /* distance 3: both active */
	cr_expect(d->unit[a].active && d->unit[b].active);
	order(d, b, DOM_LEFT); /* distance 2, same team: both quiet */
	dom_advance(d);
	expect_at(d, b, 5, 7);
	cr_expect(!d->unit[a].active && !d->unit[b].active);
	cr_expect(!dom_haunted(d, 5, 3) && !dom_haunted(d, 5, 9));
	order(d, b, DOM_RIGHT); /* apart again */
	dom_advance(d);
	cr_expect(d->unit[a].active && d->unit[b].active);
	/* A witch of another team quiets just the same, diagonally too. */
	int c = add(d, DOM_WITCH, 3, 12, 12);
	int e = add(d, DOM_WITCH, 1, 13, 13);
	cr_expect(!d->unit[c].active && !d->unit[e].active);
	dom_free(d);
}

Test(dominator_rules, stepping_into_a_haunted_cell_kills)
{
	struct game_state *d = fixture(7);
	add(d, DOM_WITCH, 1, 5, 5);
	int f = add(d, DOM_FARMER, 0, 7, 7);
	int k = add(d, DOM_KNIGHT, 2, 5, 8);
	int safe = add(d, DOM_FARMER, 3, 8, 5);
	order(d, f, DOM_TOP);  /* (6, 7): distance 3, safe */
	order(d, k, DOM_LEFT); /* (5, 7): distance 2 */
	order(d, safe, DOM_RIGHT);
	dom_advance(d);
	expect_at(d, f, 6, 7);
	cr_expect_eq(d->unit[f].owner, 0);
	cr_expect_eq(d->owner[dom_cell(d, 6, 7)], 0);
	cr_expect_eq(d->unit[k].owner, 1, "killed by a team 1 witch: now team 1");
	cr_expect(in_box(d, 1, d->unit[k].row, d->unit[k].col));
	cr_expect_eq(d->unit[k].health, 200);
	order(d, f, DOM_LEFT); /* (6, 6): diagonally next to the witch */
	dom_advance(d);
	cr_expect_eq(d->unit[f].owner, 1);
	cr_expect_eq(d->owner[dom_cell(d, 6, 6)], DOM_NOBODY, "a dying farmer paints nothing");
	dom_free(d);
}

Test(dominator_rules, moving_witch_zone_kills_through_walls)
{
	struct game_state *d = fixture(8);
	int w = add(d, DOM_WITCH, 2, 10, 5);
	int f = add(d, DOM_FARMER, 0, 10, 8);
	d->wall[dom_cell(d, 10, 7)] = true; /* walls do not stop a spell */
	int far = add(d, DOM_FARMER, 1, 10, 9);
	order(d, w, DOM_RIGHT);
	dom_advance(d);
	expect_at(d, w, 10, 6);
	cr_expect_eq(d->unit[f].owner, 2);
	cr_expect(in_box(d, 2, d->unit[f].row, d->unit[f].col));
	cr_expect_eq(d->unit[far].owner, 1);
	expect_at(d, far, 10, 9);
	dom_free(d);
}

Test(dominator_rules, witch_woken_by_another_leaving_kills)
{
	struct game_state *d = fixture(9);
	int a = add(d, DOM_WITCH, 3, 10, 10);
	int b = add(d, DOM_WITCH, 3, 10, 12);
	int f = add(d, DOM_FARMER, 0, 10, 8); /* distance 2 from a, quiet a */
	cr_expect(!d->unit[a].active);
	order(d, b, DOM_RIGHT); /* b at distance 3: a wakes up */
	dom_advance(d);
	cr_expect(d->unit[a].active && d->unit[b].active);
	cr_expect_eq(d->unit[f].owner, 3);
	dom_free(d);
}

/* The first round as the original engine plays it, modelled from its source
 * (bench/original_dominator.h): its placement, one player at a time, and
 * its haunted cells, recomputed only when a witch moves.  Every unit takes a
 * random step of its kind on both sides; over 400 default matches the
 * captures must agree (about 2 a match each, so 0.4 is four standard
 * errors of the difference).  Units starting 3 from a witch, as this
 * engine once placed them, made 6.5. */
Test(dominator_rules, first_round_captures_as_the_original)
{
	static struct odom model;
	const int matches = 400;
	struct rng steps = rng_seeded(99);
	long ours = 0, original = 0;
	for (uint64_t seed = 1; seed <= (uint64_t)matches; seed++) {
		err_t err = {0};
		struct game_state *d = dom_new(NULL, seed, err);
		cr_assert_not_null(d, "%s", err);
		int captures = odom_first_round_captures(&model, d, seed, ODOM_RANDOM_STEPS);
		cr_assert_geq(captures, 0, "seed %lu: the original's placement failed",
			      (unsigned long)seed);
		original += captures;
		for (int id = 0; id < d->nunits; id++)
			order(d, id, d->unit[id].type == DOM_KNIGHT ? rng_uniform(&steps, 0, 7)
								   : 2 * rng_uniform(&steps, 0, 3));
		dom_advance(d);
		ours += d->nreborn;
		dom_free(d);
	}
	double here = (double)ours / matches, there = (double)original / matches;
	cr_expect(here > there - 0.4 && here < there + 0.4,
		  "round 1: %.2f captures a match here, %.2f in the original's first round", here,
		  there);
}

/* The team a unit of `victim` goes to when these witches kill it.  They
 * stand 2 from its cell and 4 from each other; the last one steps into
 * place, so its zone (and the others') reaches the unit. */
static int witch_kill_team(uint64_t seed, int victim, const int *teams, int nteams)
{
	static const int spot[4][2] = { { -2, 0 }, { 0, -2 }, { 2, 0 }, { 0, 2 } };
	static const int inward[4] = { DOM_BOTTOM, DOM_RIGHT, DOM_TOP, DOM_LEFT };
	struct game_state *d = fixture(seed);
	int f = add(d, DOM_FARMER, victim, 10, 10);
	int w = -1;
	for (int i = 0; i < nteams; i++) {
		int out = i == nteams - 1; /* a step farther out */
		w = add(d, DOM_WITCH, teams[i], 10 + spot[i][0] + (out ? spot[i][0] / 2 : 0),
			10 + spot[i][1] + (out ? spot[i][1] / 2 : 0));
	}
	order(d, w, inward[nteams - 1]);
	dom_advance(d);
	expect_at(d, w, 10 + spot[nteams - 1][0], 10 + spot[nteams - 1][1]);
	int team = d->unit[f].owner;
	cr_assert(in_box(d, team, d->unit[f].row, d->unit[f].col));
	dom_free(d);
	return team;
}

Test(dominator_rules, capture_team_proportional_to_enemy_witches)
{
	/* The seed's example: a unit of team 2, one witch of team 0, two of
	 * team 1, one of team 2: team 0 with 1/3, team 1 with 2/3. */
	const int teams[4] = { 0, 1, 2, 1 };
	int count[DOM_PLAYERS] = { 0 }, trials = 3000;
	for (int s = 0; s < trials; s++)
		count[witch_kill_team((uint64_t)s, 2, teams, 4)]++;
	cr_expect_eq(count[2] + count[3], 0);
	cr_expect(count[0] > trials / 3 - 150 && count[0] < trials / 3 + 150, "team 0: %d",
		  count[0]);
	cr_expect(count[1] > 2 * trials / 3 - 150 && count[1] < 2 * trials / 3 + 150,
		  "team 1: %d", count[1]);
}

Test(dominator_rules, capture_by_own_witches_goes_to_another_team_uniformly)
{
	const int own[2] = { 1, 1 };
	int count[DOM_PLAYERS] = { 0 }, trials = 3000;
	for (int s = 0; s < trials; s++)
		count[witch_kill_team((uint64_t)s, 1, own, 2)]++;
	cr_expect_eq(count[1], 0);
	for (int q = 0; q < DOM_PLAYERS; q++)
		if (q != 1)
			cr_expect(count[q] > trials / 3 - 150 && count[q] < trials / 3 + 150,
				  "team %d: %d", q, count[q]);
	/* Own witches do not vote when an enemy's is there too. */
	const int mixed[3] = { 1, 3, 1 };
	for (int s = 0; s < 200; s++)
		cr_expect_eq(witch_kill_team((uint64_t)s, 1, mixed, 3), 3);
}

/* ---- rebirth ------------------------------------------------------------------ */

/* Team 0's knight captures team 1's weak unit of `type` in the middle of
 * the board; it is reborn in box 0, prepared by the caller. */
static void capture_into_box0(struct game_state *d, int type, int *victim)
{
	int k = add(d, DOM_KNIGHT, 0, 10, 9);
	*victim = add(d, type, 1, 10, 10);
	d->unit[*victim].health = 1;
	order(d, k, DOM_RIGHT);
	dom_advance(d);
	cr_assert_eq(d->unit[*victim].owner, 0);
}

/* Box 0 full of team 0 farmers but for a few cells; two quiet witches
 * (distance 2 from each other) haunt nothing. */
static struct game_state *crowded_box0(uint64_t seed, const int (*hole)[2], int nholes)
{
	struct game_state *d = fixture(seed);
	add(d, DOM_WITCH, 3, 2, 2);
	add(d, DOM_WITCH, 3, 2, 4);
	add(d, DOM_KNIGHT, 1, 7, 6); /* a rival knight, next to (7, 7) */
	add(d, DOM_FARMER, 1, 4, 7); /* a rival farmer, next to (4, 8) */
	fill_box(d, 0, 0, hole, nholes);
	return d;
}

Test(dominator_rules, rebirth_prefers_distance_from_witches_and_rivals)
{
	/* (5, 2): 3 from a witch, the seed's minimum.  (4, 2): 2 from a quiet
	 * witch, not haunted.  (7, 7): next to a rival knight. */
	const int holes[3][2] = { { 5, 2 }, { 4, 2 }, { 7, 7 } };
	for (uint64_t s = 0; s < 40; s++) {
		struct game_state *d = crowded_box0(s, holes, 3);
		cr_assert(!dom_haunted(d, 4, 2));
		int v;
		capture_into_box0(d, DOM_FARMER, &v);
		expect_at(d, v, 5, 2);
		dom_free(d);
	}
	/* Without (5, 2), the two others are fair game: any free box cell. */
	int seen[2] = { 0, 0 };
	for (uint64_t s = 0; s < 60; s++) {
		struct game_state *d = crowded_box0(s, holes + 1, 2);
		int v;
		capture_into_box0(d, DOM_FARMER, &v);
		const struct dom_unit *u = &d->unit[v];
		cr_expect((u->row == 4 && u->col == 2) || (u->row == 7 && u->col == 7));
		seen[u->row == 7]++;
		dom_free(d);
	}
	cr_expect(seen[0] > 0 && seen[1] > 0);
}

Test(dominator_rules, rebirth_rival_neighbours_by_unit_type)
{
	/* (4, 8) is next to a rival farmer and (6, 7) diagonal to a rival
	 * knight: fine for a farmer, not for a knight.  (1, 8) is clean. */
	const int holes[3][2] = { { 4, 8 }, { 6, 7 }, { 1, 8 } };
	int farmer_seen[3] = { 0 };
	for (uint64_t s = 0; s < 90; s++) {
		struct game_state *d = crowded_box0(s, holes, 3);
		int v;
		capture_into_box0(d, DOM_KNIGHT, &v);
		expect_at(d, v, 1, 8);
		dom_free(d);

		d = crowded_box0(s, holes, 3);
		capture_into_box0(d, DOM_FARMER, &v);
		const struct dom_unit *u = &d->unit[v];
		for (int h = 0; h < 3; h++)
			farmer_seen[h] += u->row == holes[h][0] && u->col == holes[h][1];
		dom_free(d);
	}
	cr_expect(farmer_seen[0] > 0, "a farmer may be reborn next to a rival farmer");
	cr_expect(farmer_seen[1] > 0, "a farmer may be reborn diagonal to a rival knight");
	cr_expect(farmer_seen[2] > 0);
	cr_expect_eq(farmer_seen[0] + farmer_seen[1] + farmer_seen[2], 90);
}

Test(dominator_rules, rebirth_outside_a_full_box)
{
	struct game_state *d = crowded_box0(11, NULL, 0);
	cr_assert_eq(d->nunits, 64); /* the whole box */
	int v;
	capture_into_box0(d, DOM_FARMER, &v);
	const struct dom_unit *u = &d->unit[v];
	cr_expect(!in_box(d, 0, u->row, u->col));
	cr_expect(!d->wall[dom_cell(d, u->row, u->col)]);
	cr_expect(!dom_haunted(d, u->row, u->col));
	cr_expect_eq(d->unit_at[dom_cell(d, u->row, u->col)], v);
	dom_free(d);
}

/* ---- healing ------------------------------------------------------------------ */

Test(dominator_rules, healing_only_when_standing_by_choice)
{
	struct game_state *d = fixture(12);
	int idle = add(d, DOM_FARMER, 0, 3, 3);
	int none = add(d, DOM_FARMER, 0, 5, 5);
	int near_full = add(d, DOM_KNIGHT, 0, 7, 7);
	int invalid = add(d, DOM_FARMER, 0, 1, 1);
	int mover = add(d, DOM_KNIGHT, 1, 14, 14);
	d->unit[idle].health = 50;
	d->unit[none].health = 50;
	d->unit[near_full].health = 190;
	d->unit[invalid].health = 50;
	d->unit[mover].health = 50;
	order(d, none, DOM_NONE);
	order(d, invalid, DOM_TOP);
	order(d, mover, DOM_TOP);
	dom_advance(d);
	cr_expect_eq(d->unit[idle].health, 80);
	cr_expect_eq(d->unit[none].health, 80);
	cr_expect_eq(d->unit[near_full].health, 200);
	cr_expect_eq(d->unit[invalid].health, 50);
	cr_expect_eq(d->unit[mover].health, 50);
	expect_at(d, mover, 13, 14);
	dom_advance(d);
	cr_expect_eq(d->unit[idle].health, 100);
	cr_expect_eq(d->unit[mover].health, 80);
	dom_free(d);
}

/* ---- scores ------------------------------------------------------------------- */

Test(dominator_rules, score_adds_land_every_round)
{
	struct game_state *d = fixture(13);
	dom_paint(d, 3, 3, 1);
	dom_paint(d, 3, 4, 1);
	dom_paint(d, 9, 9, 2);
	int f = add(d, DOM_FARMER, 2, 10, 10);
	dom_advance(d);
	cr_expect_eq(d->score[1], 2);
	cr_expect_eq(d->score[2], 1);
	order(d, f, DOM_LEFT);
	dom_advance(d);
	cr_expect_eq(d->score[1], 4);
	cr_expect_eq(d->score[2], 3);
	dom_advance(d);
	cr_expect_eq(d->score[0], 0);
	cr_expect_eq(d->score[2], 5);
	cr_expect_eq(d->round, 3);
	int64_t score[DOM_PLAYERS];
	dominator_game.scores(d, score);
	cr_expect_eq(score[2], 5);
	dom_free(d);
}

/* ---- execution order ------------------------------------------------------- */

Test(dominator_rules, random_execution_order_one_farmer_wins_the_cell)
{
	int wins[2] = { 0, 0 };
	for (uint64_t s = 0; s < 200; s++) {
		struct game_state *d = fixture(s);
		int a = add(d, DOM_FARMER, 0, 10, 9);
		int b = add(d, DOM_FARMER, 1, 10, 11);
		order(d, a, DOM_RIGHT);
		order(d, b, DOM_LEFT);
		dom_advance(d);
		bool a_moved = d->unit[a].col == 10, b_moved = d->unit[b].col == 10;
		cr_assert(a_moved != b_moved, "exactly one moves");
		cr_expect_eq(d->owner[dom_cell(d, 10, 10)], a_moved ? 0 : 1);
		wins[b_moved]++;
		dom_free(d);
	}
	cr_expect(wins[0] > 50 && wins[1] > 50, "%d / %d", wins[0], wins[1]);
}

Test(dominator_rules, farmer_then_knight_to_one_cell)
{
	/* If the farmer goes first, the knight attacks it; if the knight goes
	 * first, the farmer's move is invalid. */
	int attacked = 0, blocked = 0;
	for (uint64_t s = 0; s < 200; s++) {
		struct game_state *d = fixture(s);
		int f = add(d, DOM_FARMER, 0, 10, 9);
		int k = add(d, DOM_KNIGHT, 1, 10, 11);
		order(d, f, DOM_RIGHT);
		order(d, k, DOM_LEFT);
		dom_advance(d);
		if (d->unit[k].col == 10) {
			expect_at(d, f, 10, 9);
			cr_expect_eq(d->unit[f].health, 100);
			blocked++;
		} else {
			expect_at(d, f, 10, 10);
			cr_expect_lt(d->unit[f].health, 100);
			attacked++;
		}
		dom_free(d);
	}
	cr_expect(attacked > 0 && blocked > 0);
}

/* ---- orders: limits, hostile bytes ---------------------------------------- */

Test(dominator_orders, more_than_1000_orders_is_an_error)
{
	struct game_state *d = fixture(14);
	int f = add(d, DOM_FARMER, 0, 5, 5);
	static struct dom_msg_order o[DOM_MAX_ORDERS + 5];
	for (int i = 0; i < DOM_MAX_ORDERS + 5; i++)
		o[i] = (struct dom_msg_order){ (uint16_t)f, DOM_RIGHT };
	static uint8_t buf[DOM_ORDERS_MAX];
	size_t len = orders_encode(&dom_orders, o, DOM_MAX_ORDERS + 5, buf, sizeof buf);
	cr_expect_eq(len, DOM_ORDERS_MAX, "the encoder keeps 1001 orders");
	err_t err = {0};
	cr_expect_eq(dominator_game.orders(d, 0, buf, len, err), -1);
	cr_expect_str_eq(err->msg, "more than 1000 orders in one round");
	dom_advance(d);
	expect_at(d, f, 5, 5);
	cr_expect(d->frozen[0]);
	dom_free(d);

	/* 1000 in one round is fine; 600 + 401 in two messages is not. */
	d = fixture(14);
	f = add(d, DOM_FARMER, 0, 5, 5);
	cr_expect_eq(send_raw(d, 0, o, DOM_MAX_ORDERS), 0);
	dom_advance(d);
	expect_at(d, f, 5, 6);
	cr_expect_eq(send_raw(d, 0, o, 600), 0);
	cr_expect_eq(send_raw(d, 0, o, 401), -1);
	dom_advance(d);
	expect_at(d, f, 5, 6);
	dom_free(d);
}

Test(dominator_orders, malformed_messages_are_errors)
{
	struct game_state *d = fixture(15);
	err_t err;
	et_expect_malformed_refused(&dominator_game, d, DOM_ORDER_LEN);
	const uint8_t empty[2] = { 0, 0 };
	struct game_state *e = fixture(15);
	cr_expect_eq(dom_take_orders(e, 0, empty, 2, err), 0);
	dom_free(d);
	dom_free(e);
}

Test(dominator_orders, foreign_or_impossible_orders_are_ignored_first_counts)
{
	struct game_state *d = fixture(16);
	int mine = add(d, DOM_FARMER, 0, 5, 5);
	int theirs = add(d, DOM_FARMER, 1, 15, 5);
	struct dom_msg_order o[] = {
		{ (uint16_t)theirs, DOM_TOP },	/* not mine: ignored */
		{ 999, DOM_TOP },		/* no such unit */
		{ 65535, DOM_TOP },
		{ (uint16_t)mine, 9 },		/* no such direction: ignored */
		{ (uint16_t)mine, 200 },
		{ (uint16_t)mine, DOM_BOTTOM }, /* the first that counts */
		{ (uint16_t)mine, DOM_RIGHT },	/* too late */
	};
	cr_expect_eq(send_raw(d, 0, o, sizeof o / sizeof o[0]), 0);
	dom_advance(d);
	expect_at(d, mine, 6, 5);
	expect_at(d, theirs, 15, 5);
	cr_expect_eq(d->unit[theirs].health, 100);
	dom_free(d);
}

Test(dominator_orders, random_bytes_never_crash)
{
	struct rng r = rng_seeded(99);
	static uint8_t buf[DOM_ORDERS_MAX + 16];
	err_t err;
	struct game_state *d = NULL;
	for (int trial = 0; trial < 3000; trial++) {
		if (trial % 300 == 0) { /* a fresh match now and then: nobody frozen */
			dom_free(d);
			d = dom_new(NULL, (uint64_t)trial, err);
			cr_assert_not_null(d);
		}
		size_t len = (size_t)rng_uniform(&r, 0, (int)sizeof buf - 1);
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rng_uniform(&r, 0, 255);
		bool well_formed = trial % 2;
		if (well_formed) { /* a true count, random pairs */
			int n = rng_uniform(&r, 0, DOM_MAX_ORDERS);
			buf[0] = (uint8_t)n;
			buf[1] = (uint8_t)(n >> 8);
			len = 2 + (size_t)n * DOM_ORDER_LEN;
		}
		int player = trial % DOM_PLAYERS;
		bool was_frozen = d->frozen[player];
		int rc = dom_take_orders(d, player, buf, len, err);
		if (well_formed || was_frozen)
			cr_assert_eq(rc, 0);
		dom_advance(d);
		cr_assert_leq(d->round, d->p.rounds);
	}
	dom_free(d);
}

Test(dominator_orders, frozen_player_orders_are_not_executed)
{
	struct game_state *d = fixture(17);
	int f = add(d, DOM_FARMER, 2, 15, 15);
	d->unit[f].health = 40;
	order(d, f, DOM_TOP);
	dominator_game.status(d, 2, 0.5);
	cr_expect(!d->frozen[2]);
	dominator_game.status(d, 2, -1);
	cr_expect(d->frozen[2]);
	dom_advance(d);
	expect_at(d, f, 15, 15);
	cr_expect_eq(d->unit[f].health, 70, "standing units of a frozen player heal");
	struct dom_msg_order o = { (uint16_t)f, (uint8_t)view_dir(2, DOM_TOP) };
	cr_expect_eq(send_raw(d, 2, &o, 1), 0);
	dom_advance(d);
	expect_at(d, f, 15, 15);
	dominator_game.status(d, 2, 0.1); /* frozen for good */
	cr_expect(d->frozen[2]);
	struct dom_msg_view v;
	dom_view_build(d, 0, &v);
	cr_expect_eq(v.player[2].cpu, -1);
	dom_free(d);
}

/* ---- views and rotation ------------------------------------------------------ */

static void view_of(const struct game_state *d, int player, struct dom_msg_view *v)
{
	static uint8_t buf[DOM_VIEW_MAX];
	size_t len = dominator_game.view(d, player, buf, sizeof buf);
	cr_assert_gt(len, 0);
	cr_assert(dom_view_decode(buf, len, v), "the view does not decode");
}

static const struct dom_msg_unit *view_unit(const struct dom_msg_view *v, int id)
{
	for (int i = 0; i < v->nunits; i++)
		if (v->unit[i].id == id)
			return &v->unit[i];
	cr_assert_fail("unit %d not in the view", id);
	return NULL;
}

Test(dominator_view, each_player_sees_itself_top_left_as_player_0)
{
	struct game_state *d = fixture(18);
	/* One farmer per team in the board corner of its box, its box painted
	 * there, and a wall near player 0's corner. */
	const int corner[4][2] = { { 1, 1 }, { N - 2, 1 }, { N - 2, N - 2 }, { 1, N - 2 } };
	int id[4];
	for (int q = 0; q < 4; q++) {
		id[q] = add(d, DOM_FARMER, q, corner[q][0], corner[q][1]);
		dom_paint(d, corner[q][0], corner[q][1], q);
		d->score[q] = 1000 * (q + 1);
	}
	d->wall[dom_cell(d, 2, 3)] = true;
	dominator_game.status(d, 3, 0.25);
	for (int p = 0; p < 4; p++) {
		struct dom_msg_view v;
		view_of(d, p, &v);
		cr_expect_eq(v.rows, N);
		for (int q = 0; q < 4; q++) {
			int rel = (q - p + 4) % 4;
			const struct dom_msg_unit *u = view_unit(&v, id[q]);
			cr_expect_eq(u->owner, rel);
			cr_expect(u->row == corner[rel][0] && u->col == corner[rel][1],
				  "player %d sees team %d at (%d, %d)", p, q, u->row, u->col);
			cr_expect_eq(dom_cell_owner(v.cell[corner[rel][0] * N + corner[rel][1]]),
				     rel);
			cr_expect_eq(v.player[rel].score, 1000 * (q + 1));
			cr_expect_eq(v.player[rel].land, 1);
		}
		cr_expect_eq(v.player[(3 - p + 4) % 4].cpu, 250000);
		int vr, vc;
		dom_real_to_view(N, p, 2, 3, &vr, &vc);
		cr_expect(dom_cell_wall(v.cell[vr * N + vc]));
		int r, c;
		dom_view_to_real(N, p, vr, vc, &r, &c);
		cr_expect(r == 2 && c == 3);
	}
	/* Player 1's view turns real (r, c) into (c, n-1-r). */
	struct dom_msg_view v;
	view_of(d, 1, &v);
	cr_expect(dom_cell_wall(v.cell[3 * N + (N - 1 - 2)]));
	dom_free(d);
}

Test(dominator_view, haunted_cells_are_marked)
{
	struct game_state *d = fixture(19);
	add(d, DOM_WITCH, 1, 15, 5);
	for (int p = 0; p < 4; p++) {
		struct dom_msg_view v;
		view_of(d, p, &v);
		int haunted = 0;
		for (int i = 0; i < N * N; i++)
			haunted += dom_cell_haunted(v.cell[i]);
		cr_expect_eq(haunted, 13);
		int vr, vc;
		dom_real_to_view(N, p, 15, 7, &vr, &vc);
		cr_expect(dom_cell_haunted(v.cell[vr * N + vc]));
		dom_real_to_view(N, p, 15, 8, &vr, &vc);
		cr_expect(!dom_cell_haunted(v.cell[vr * N + vc]));
	}
	dom_free(d);
}

Test(dominator_view, orders_turn_with_the_view)
{
	/* The seed: player 1's Right is a real Top. */
	const int real_of_right[4] = { DOM_RIGHT, DOM_TOP, DOM_LEFT, DOM_BOTTOM };
	for (int p = 0; p < 4; p++) {
		cr_expect_eq(dom_turn_dir(p, DOM_RIGHT), real_of_right[p]);
		cr_expect_eq(dom_turn_dir(p, DOM_NONE), DOM_NONE);
	}
	for (int p = 0; p < 4; p++)
		for (int dir = 0; dir < 8; dir++) {
			struct game_state *d = fixture(20);
			int r0, r1, c0, c1;
			dom_box(N, p, &r0, &r1, &c0, &c1);
			int k = add(d, DOM_KNIGHT, p, (r0 + r1) / 2, (c0 + c1) / 2);
			struct dom_msg_view before, after;
			view_of(d, p, &before);
			struct dom_msg_order o = { (uint16_t)k, (uint8_t)dir };
			cr_assert_eq(send_raw(d, p, &o, 1), 0);
			dom_advance(d);
			view_of(d, p, &after);
			int dr, dc;
			dom_dir_delta(dir, &dr, &dc);
			const struct dom_msg_unit *a = view_unit(&before, k), *b = view_unit(&after, k);
			cr_expect(b->row == a->row + dr && b->col == a->col + dc,
				  "player %d, direction %d: (%d, %d) -> (%d, %d)", p, dir, a->row,
				  a->col, b->row, b->col);
			cr_expect_eq(after.round, 1);
			dom_free(d);
		}
}

Test(dominator_view, start_message)
{
	err_t err;
	struct game_state *d = dom_new(NULL, 1234, err);
	cr_assert_not_null(d);
	for (int p = 0; p < 4; p++) {
		uint8_t buf[DOM_START_LEN];
		size_t len = dominator_game.start(d, p, buf, sizeof buf);
		cr_assert_eq(len, DOM_START_LEN);
		struct dom_msg_start s;
		cr_assert(dom_start_decode(buf, len, &s));
		cr_expect_eq(s.seed, seed_derive(1234, SEED_PLAYER, p), "not seat %d's own seed", p);
		cr_expect_eq(s.params.rounds, 200);
		cr_expect_eq(s.params.rows, 37);
		cr_expect_eq(s.params.farmers, 20);
		cr_expect_eq(s.params.knight_health, 200);
		cr_expect_eq(s.params.damage_max, 90);
		cr_expect(!dom_start_decode(buf, len - 1, &s));
		cr_expect_eq(dominator_game.start(d, p, buf, 10), 0);
	}
	uint8_t big[DOM_VIEW_MAX];
	size_t len = dominator_game.view(d, 0, big, sizeof big);
	cr_expect_eq(len, 6 + 4 * 16 + 37 * 37 + 2 + 128 * 8);
	struct dom_msg_view v;
	cr_expect(dom_view_decode(big, len, &v));
	cr_expect(!dom_view_decode(big, len - 1, &v));
	cr_expect(!dom_view_decode(big, len - 8, &v));
	big[len - 4] = 37; /* the last unit's row, off the board */
	cr_expect(!dom_view_decode(big, len, &v));
	big[len - 4] = 36;
	big[len - 5] = 4; /* its owner: no such player */
	cr_expect(!dom_view_decode(big, len, &v));
	dom_free(d);
}

/* ---- whole matches: determinism and the replay ------------------------------- */

/* Random orders for every unit of every live player, then the round. */
static int random_orders(const struct game_state *g, int p, struct rng *r, void *orders)
{
	const struct game_state *d = g;
	struct dom_msg_order *o = orders;
	int n = 0;
	for (int id = 0; id < d->nunits; id++)
		if (d->unit[id].owner == p)
			o[n++] = (struct dom_msg_order){ (uint16_t)id, (uint8_t)rng_uniform(r, 0, 8) };
	return n;
}

static char *play_match(uint64_t seed, uint64_t order_seed, struct game_state **out)
{
	return et_play_match(&dominator_game, seed, order_seed, &dom_orders, random_orders,
			     (struct game_state **)out);
}

static void expect_same_state(const struct game_state *a, const struct game_state *b)
{
	cr_expect_eq(a->round, b->round);
	cr_expect_eq(memcmp(a->owner, b->owner, sizeof a->owner), 0);
	cr_expect_eq(memcmp(a->unit_at, b->unit_at, sizeof a->unit_at), 0);
	cr_expect_eq(memcmp(a->score, b->score, sizeof a->score), 0);
	cr_expect_eq(memcmp(a->land, b->land, sizeof a->land), 0);
	for (int id = 0; id < a->nunits; id++) {
		const struct dom_unit *u = &a->unit[id], *v = &b->unit[id];
		cr_expect(u->owner == v->owner && u->row == v->row && u->col == v->col &&
			  u->health == v->health && u->active == v->active);
	}
}

Test(dominator_replay, same_seed_and_orders_same_match_and_bytes)
{
	struct game_state *a, *b;
	et_expect_deterministic(&dominator_game, 5, 6, &dom_orders, random_orders, 75 * 1000,
				(struct game_state **)&a, (struct game_state **)&b);
	expect_same_state(a, b);
	cr_expect_eq(a->round, 200);
	dom_free(a);
	dom_free(b);
}

/* What every round must leave true: the board and the units agree, the
 * land counts match the colours, no farmer or knight rests on a haunted
 * cell, healths stay in range, every unit is on the board. */
static void expect_invariants(const struct game_state *d)
{
	int land[DOM_PLAYERS] = { 0 }, on_board = 0;
	for (int i = 0; i < d->n * d->n; i++) {
		if (d->owner[i] != DOM_NOBODY)
			land[d->owner[i]]++;
		if (d->unit_at[i] != DOM_NO_UNIT) {
			on_board++;
			const struct dom_unit *u = &d->unit[d->unit_at[i]];
			cr_assert_eq(dom_cell(d, u->row, u->col), i);
			cr_assert(!d->wall[i]);
		}
	}
	cr_assert_eq(on_board, d->nunits);
	cr_assert_eq(memcmp(land, d->land, sizeof land), 0);
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id];
		cr_assert(!u->captured);
		if (u->type == DOM_WITCH)
			continue;
		cr_assert(u->health > 0 && u->health <= dom_full_health(d, u->type));
		cr_assert(!dom_haunted(d, u->row, u->col), "unit %d rests on a haunted cell", id);
	}
}

Test(dominator_rules, invariants_hold_in_random_matches)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		err_t err;
		struct game_state *g = dominator_game.create(NULL, seed, err);
		cr_assert_not_null(g, "%s", err);
		struct rng r = rng_seeded(seed + 100);
		const struct game_state *d = g;
		expect_invariants(d);
		int64_t last[DOM_PLAYERS] = { 0 };
		for (int round = 0; round < 200; round++) {
			et_random_round(&dominator_game, g, &dom_orders, random_orders, &r);
			expect_invariants(d);
			for (int q = 0; q < DOM_PLAYERS; q++) {
				cr_assert_eq(d->score[q] - last[q], d->land[q]);
				last[q] = d->score[q];
			}
		}
		dominator_game.destroy(g);
	}
}

/* ---- a replay viewer, as the header of replay.c describes it ---------------- */

struct seen {
	int n, nunits;
	int owner[DOM_MAX_CELLS];
	int unit[DOM_MAX_UNITS][4]; /* row, col, health, owner */
};

static int jint(json_t *array, size_t i)
{
	return (int)json_integer_value(json_array_get(array, i));
}

static void seen_start(struct seen *b, json_t *start)
{
	b->n = (int)json_integer_value(json_object_get(json_object_get(start, "params"), "rows"));
	json_t *rows = json_object_get(start, "board");
	for (int r = 0; r < b->n; r++) {
		const char *s = json_string_value(json_array_get(rows, (size_t)r));
		for (int c = 0; c < b->n; c++)
			b->owner[r * b->n + c] = s[c] >= '0' && s[c] <= '3' ? s[c] - '0' : -1;
	}
	json_t *units = json_object_get(start, "units");
	b->nunits = (int)json_array_size(units);
	for (int i = 0; i < b->nunits; i++) {
		json_t *u = json_array_get(units, (size_t)i);
		cr_assert_eq(jint(u, 0), i);
		int at[4] = { jint(u, 3), jint(u, 4), jint(u, 5), jint(u, 2) };
		memcpy(b->unit[i], at, sizeof at);
	}
}

static void seen_moves(struct seen *b, const char *m)
{
	for (int id = 0; *m;) {
		if (*m >= '0' && *m <= '9') {
			id += (int)strtol(m, (char **)&m, 10);
			continue;
		}
		bool paint = *m >= 'A' && *m <= 'H';
		int dr, dc;
		dom_dir_delta(paint ? *m - 'A' : *m - 'a', &dr, &dc);
		b->unit[id][0] += dr;
		b->unit[id][1] += dc;
		if (paint)
			b->owner[b->unit[id][0] * b->n + b->unit[id][1]] = b->unit[id][3];
		id++, m++;
	}
}

static void seen_frame(struct seen *b, json_t *frame)
{
	seen_moves(b, json_string_value(json_object_get(frame, "moves")));
	json_t *cells = json_object_get(frame, "cells");
	for (size_t i = 0; i < json_array_size(cells); i++) {
		json_t *c = json_array_get(cells, i);
		b->owner[jint(c, 0) * b->n + jint(c, 1)] = jint(c, 2);
	}
	json_t *h = json_object_get(frame, "health");
	for (size_t i = 0; i + 1 < json_array_size(h); i += 2)
		b->unit[jint(h, i)][2] = jint(h, i + 1);
	json_t *us = json_object_get(frame, "units");
	for (size_t i = 0; i < json_array_size(us); i++) {
		json_t *u = json_array_get(us, i);
		for (size_t k = 0; k < 4; k++)
			b->unit[jint(u, 0)][k] = jint(u, k + 1);
	}
}

static void seen_matches(const struct seen *b, const struct game_state *d)
{
	cr_assert_eq(b->nunits, d->nunits);
	for (int i = 0; i < d->n * d->n; i++)
		cr_assert_eq(b->owner[i], d->owner[i], "cell (%d, %d)", i / d->n, i % d->n);
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id];
		const int *v = b->unit[id];
		cr_assert(v[0] == u->row && v[1] == u->col && v[2] == u->health && v[3] == u->owner,
			  "unit %d", id);
	}
}

Test(dominator_replay, frames_rebuild_the_final_state)
{
	struct game_state *d;
	char *text = play_match(77, 78, &d);
	json_error_t jerr;
	json_t *replay = json_loads(text, 0, &jerr);
	cr_assert_not_null(replay);
	static struct seen b;
	seen_start(&b, json_object_get(replay, "start"));
	json_t *frames = json_object_get(replay, "rounds");
	cr_assert_eq(json_array_size(frames), 200);
	for (size_t f = 0; f < json_array_size(frames); f++)
		seen_frame(&b, json_array_get(frames, f));
	seen_matches(&b, d);
	json_t *score = json_object_get(json_array_get(frames, 199), "score");
	for (int q = 0; q < 4; q++)
		cr_expect_eq(json_integer_value(json_array_get(score, (size_t)q)), d->score[q]);
	json_decref(replay);
	free(text);
	dom_free(d);
}

/* Farmer A paints a cell, a knight captures A, farmer B paints it back:
 * B has the smaller id, so the letters alone would leave A's colour. */
Test(dominator_replay, a_cell_painted_twice_in_a_round)
{
	int hit = 0;
	for (uint64_t s = 0; s < 300; s++) {
		struct game_state *d = fixture(s);
		int b_id = add(d, DOM_FARMER, 1, 10, 11);
		int a_id = add(d, DOM_FARMER, 0, 10, 9);
		int k = add(d, DOM_KNIGHT, 1, 9, 10);
		dom_paint(d, 10, 10, 1);
		d->unit[a_id].health = 1;
		static struct seen b;
		json_t *start = dom_replay_header(d);
		seen_start(&b, start);
		json_decref(start);
		order(d, a_id, DOM_RIGHT);
		order(d, k, DOM_BOTTOM);
		order(d, b_id, DOM_LEFT);
		dom_advance(d);
		json_t *frame = dom_replay_round(d);
		seen_frame(&b, frame);
		seen_matches(&b, d);
		if (d->unit[a_id].owner == 1 && d->unit_at[dom_cell(d, 10, 10)] == b_id) {
			hit++;
			cr_expect_not_null(json_object_get(frame, "cells"));
		}
		json_decref(frame);
		dom_free(d);
	}
	cr_expect_gt(hit, 0);
}
