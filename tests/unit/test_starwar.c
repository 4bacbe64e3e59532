/* test_starwar.c - the Star War engine (games/starwar), rule by rule.
 *
 * Scenarios run on the default 15 x 60 universe with a 31-column window,
 * emptied (no asteroids, bonuses or ships) and filled with what each test
 * needs through sw.h; orders always go through the real orders message
 * bytes (proto.h).  Ships 0,1 are player 0's, 2,3 player 1's, and so on. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/starwar/sw.h"
#include "games/seed.h"
#include "tests/unit/engine_testlib.h"

/* ---- fixtures -------------------------------------------------------------- */

/* The default universe emptied, the generator reseeded. */
ET_FIXTURE(sw, NULL, sw_clear)
ET_SEND_RAW(sw, starwar_game)

static void ship_at(struct game_state *d, int id, int row, int col)
{
	cr_assert_eq(sw_put_ship(d, id, row, col), 0, "cannot put ship %d at (%d, %d)", id, row,
		     col);
}

static void order(struct game_state *d, int id, int action)
{
	struct sw_msg_order o = { (uint16_t)id, (uint8_t)action };
	cr_assert_eq(send_raw(d, d->ship[id].owner, &o, 1), 0);
}

static void move(struct game_state *d, int id, int dr, int dc)
{
	order(d, id, sw_move_action(dr, dc));
}

static void expect_at(const struct game_state *d, int id, int row, int col)
{
	const struct sw_ship *s = &d->ship[id];
	int cell = sw_cell(d, s->row, s->col);
	et_expect_at(&(struct et_piece){ "ship", id, s->alive, s->row, s->col, d->ref[cell] }, row,
		     col);
	cr_expect_eq(d->kind[cell], SW_SHIP);
}

static int kind_at(const struct game_state *d, int row, int col)
{
	return d->kind[sw_cell(d, row, col)];
}

static int count_kind(const struct game_state *d, int kind)
{
	int n = 0;
	for (int i = 0; i < d->p.rows * d->p.cols; i++)
		n += d->kind[i] == kind;
	return n;
}

/* ---- parameters ------------------------------------------------------------ */

Test(starwar_params, config_file_is_the_defaults)
{
	struct sw_params def;
	ET_CONFIG_IS_DEFAULTS(sw, "starwar", &def);
	cr_expect(def.has_map);
	cr_expect_eq(def.nstarts, 8);
}

/* The original's default game file: rows {0,10}, {2,8}, {4,14}, {6,12}
 * for players 0..3, columns by ship. */
static const int original_start[8][2] = {
	{ 0, 0 }, { 10, 2 }, { 2, 1 }, { 8, 3 }, { 4, 2 }, { 14, 0 }, { 6, 3 }, { 12, 1 },
};

/* Whatever the seed, the default match starts on the original's universe:
 * 125 asteroids, 10 bonuses of each kind, every ship on its cell. */
Test(starwar_default, the_originals_map_and_start_cells_for_every_seed)
{
	for (uint64_t seed = 1; seed <= 100; seed++) {
		err_t err = {0};
		struct game_state *d = sw_new(NULL, seed, err);
		cr_assert_not_null(d, "%s", err);
		cr_expect_eq(count_kind(d, SW_ASTEROID), 125, "seed %lu", (unsigned long)seed);
		cr_expect_eq(count_kind(d, SW_POINT_BONUS), 10);
		cr_expect_eq(count_kind(d, SW_MISSILE_BONUS), 10);
		cr_expect_eq(kind_at(d, 7, 29), SW_ASTEROID);
		cr_expect_eq(kind_at(d, 2, 19), SW_POINT_BONUS);
		cr_expect_eq(kind_at(d, 2, 27), SW_MISSILE_BONUS);
		cr_assert_eq(d->nships, 8);
		for (int id = 0; id < 8; id++) {
			expect_at(d, id, original_start[id][0], original_start[id][1]);
			cr_expect_eq(d->ship[id].owner, id / 2);
			cr_expect_eq(d->ship[id].missiles, 5);
		}
		sw_free(d);
	}
}

Test(starwar_params, the_default_map_goes_with_its_size_and_bonuses)
{
	struct sw_params p;
	err_t err = {0};
	cr_assert_eq(sw_params_parse("rounds 50\nkill_points 7\n", &p, err), 0, "%s", err);
	cr_expect(p.has_map && p.nstarts == 8, "other keys keep the map and the starts");
	cr_assert_eq(sw_params_parse("ships 3\n", &p, err), 0, "%s", err);
	cr_expect(p.has_map && p.nstarts == 0, "three ships: the map, but spread starts");
	cr_assert_eq(sw_params_parse("rows 20\n", &p, err), 0, "%s", err);
	cr_expect(!p.has_map && p.nstarts == 0, "another size: no map");
	cr_assert_eq(sw_params_parse("point_bonuses 4\n", &p, err), 0, "%s", err);
	cr_expect(!p.has_map, "other bonus counts: no map");
	cr_assert_eq(sw_params_parse("window 5\nmap\n.....\n.....\n.....\n.....\n.....\n", &p,
				     err),
		     0, "%s", err);
	cr_expect(p.has_map && p.nstarts == 0, "a map of its own: spread starts");
}

Test(starwar_params, start_lines_place_every_ship)
{
	err_t err = {0};
	const char *text = "ships 1\nwindow 6\nstart 0 4 5\nstart 1 0 0\nstart 2 2 3\n"
			   "start 3 3 1\nmap\n.......X\n........\n........\n........\n"
			   "........\n";
	struct game_state *d = sw_new(text, 3, err);
	cr_assert_not_null(d, "%s", err);
	expect_at(d, 0, 4, 5);
	expect_at(d, 1, 0, 0);
	expect_at(d, 2, 2, 3);
	expect_at(d, 3, 3, 1);
	sw_free(d);
}

Test(starwar_params, errors_name_line_and_key)
{
	static const struct et_params_error refused[] = {
		{ "rounds 10\nbogus 3\n", "line 2: bogus: unknown key" },
		{ "rows 4\n", "line 1: rows: 4 is out of range" },
		{ "rounds 5\nrounds 6\n", "line 2: rounds: given twice (first on line 1)" },
		{ "# c\nwindow 70\n", "line 2: window: 70 is wider than the universe" },
		{ "ships x\n", "line 1: ships: expected one non-negative integer" },
		{ "rows 5\nships 6\n", "line 2: ships: 6 per player do not fit" },
		{ "map\n.....\n....\n", "line 3: map: a row of 4 cells" },
		{ "map\n.....\n..Q..\n", "line 3: map: column 2: 'Q'" },
		{ "map\n", "line 1: map: no rows follow" },
		{ "rows 6\nwindow 5\nmap\n.....\n.....\n.....\n.....\n.....\n",
		  "line 1: rows: 6, but the map has 5" },
		{ "point_bonuses 3\nwindow 5\nmap\n....P\n.....\n.....\n.....\n.....\n",
		  "line 1: point_bonuses: 3, but the map has 1" },
		{ "start 0 1\n", "line 1: start: expected three non-negative integers" },
		{ "start 0 1 2 3\n", "line 1: start: expected three" },
		{ "start 0 1 2 x\n", "line 1: start: expected three" },
		{ "start 1 1 1\nstart 1 2 2\n", "line 2: start: ship 1 given twice" },
		{ "ships 1\nstart 0 0 0\nstart 1 1 0\nstart 2 2 0\n",
		  "line 2: start: ship 3 has no start line" },
		{ "ships 1\nstart 0 0 0\nstart 1 1 0\nstart 2 2 0\nstart 3 3 31\n",
		  "line 5: start: ship 3 at (3, 31) is outside the first window" },
		{ "ships 1\nstart 0 0 0\nstart 1 1 0\nstart 2 1 0\nstart 3 3 3\n",
		  "line 4: start: ships 1 and 2 both at (1, 0)" },
		{ "ships 1\nstart 0 0 0\nstart 1 1 0\nstart 2 2 0\nstart 3 3 0\nstart 4 4 0\n",
		  "line 6: start: there is no ship 4" },
		{ "ships 1\nwindow 5\nstart 0 0 0\nstart 1 1 0\nstart 2 2 0\nstart 3 3 0\n"
		  "map\nX....\n.....\n.....\n.....\n.....\n",
		  "line 3: start: ship 0 at (0, 0): the map is not empty there" },
	};
	ET_EXPECT_PARAMS_ERRORS(&starwar_game, refused);
}

Test(starwar_params, map_sets_the_universe)
{
	err_t err = {0};
	const char *text = "window 6\nships 1\nmap\n.....XP.\n......M.\n........\n"
			   "........\n........\n";
	struct game_state *d = sw_new(text, 3, err);
	cr_assert_not_null(d, "%s", err);
	cr_expect_eq(d->p.rows, 5);
	cr_expect_eq(d->p.cols, 8);
	cr_expect_eq(d->p.point_bonuses, 1);
	cr_expect_eq(d->p.missile_bonuses, 1);
	cr_expect_eq(kind_at(d, 0, 5), SW_ASTEROID);
	cr_expect_eq(kind_at(d, 0, 6), SW_POINT_BONUS);
	cr_expect_eq(kind_at(d, 1, 6), SW_MISSILE_BONUS);
	sw_free(d);
}

/* ---- moves ----------------------------------------------------------------- */

static void expect_passed(int dr, int dc, int n, const int want[][2])
{
	int rows[SW_MAX_PASSED], cols[SW_MAX_PASSED];
	cr_assert_eq(sw_passed(7, 20, dr, dc, rows, cols), n, "move (%d, %d)", dr, dc);
	for (int i = 0; i < n; i++)
		cr_expect(rows[i] == 7 + want[i][0] && cols[i] == 20 + want[i][1],
			  "move (%d, %d), cell %d: (%d, %d)", dr, dc, i, rows[i] - 7, cols[i] - 20);
}

Test(starwar_moves, cells_passed_as_the_rules_page_lists)
{
	for (int s = -1; s <= 1; s += 2) {
		const int one_one[][2] = { { 0, 1 }, { s, 0 }, { s, 1 } };
		const int one_two[][2] = { { 0, 1 }, { s, 0 }, { s, 1 }, { 0, 2 }, { s, 2 } };
		const int stay[][2] = { { s, 0 } };
		expect_passed(s, 1, 3, one_one);
		expect_passed(s, 2, 5, one_two);
		expect_passed(s, 0, 1, stay);
	}
	const int zero_two[][2] = { { 0, 1 }, { 0, 2 } };
	const int zero_one[][2] = { { 0, 1 } };
	const int zero_zero[][2] = { { 0, 0 } };
	expect_passed(0, 2, 2, zero_two);
	expect_passed(0, 1, 1, zero_one);
	expect_passed(0, 0, 1, zero_zero);
}

Test(starwar_moves, every_move_reaches_its_destination)
{
	for (int dr = -1; dr <= 1; dr++)
		for (int dc = 0; dc <= 2; dc++) {
			struct game_state *d = fixture(1);
			ship_at(d, 0, 7, 10);
			move(d, 0, dr, dc);
			sw_advance(d);
			expect_at(d, 0, 7 + dr, 10 + dc);
			cr_expect_eq(count_kind(d, SW_SHIP), 1);
			sw_free(d);
		}
}

/* An asteroid on any passed cell destroys the ship; one off the list is
 * left alone. */
Test(starwar_moves, intermediate_cells_collide)
{
	const int passed[][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };
	for (int i = 0; i < 5; i++) {
		struct game_state *d = fixture(2);
		ship_at(d, 0, 7, 10);
		sw_put(d, 7 + passed[i][0], 10 + passed[i][1], SW_ASTEROID, SW_NONE);
		move(d, 0, 1, 2);
		sw_advance(d);
		cr_expect(!d->ship[0].alive, "asteroid at +(%d, %d)", passed[i][0], passed[i][1]);
		cr_expect_eq(count_kind(d, SW_ASTEROID), 0);
		sw_free(d);
	}
	struct game_state *d = fixture(2);
	ship_at(d, 0, 7, 10);
	sw_put(d, 7, 11, SW_ASTEROID, SW_NONE); /* (0, +1): not passed by (-1, 0) */
	move(d, 0, -1, 0);
	sw_advance(d);
	expect_at(d, 0, 6, 10);
	cr_expect_eq(count_kind(d, SW_ASTEROID), 1);
	sw_free(d);
	d = fixture(2);
	ship_at(d, 0, 7, 10);
	sw_put(d, 8, 12, SW_ASTEROID, SW_NONE); /* the (+1, +2) side: not passed */
	move(d, 0, -1, 2);
	sw_advance(d);
	expect_at(d, 0, 6, 12);
	sw_free(d);
}

/* The destination must lie in the next round's window; otherwise the ship
 * moves by default. */
Test(starwar_moves, window_validity)
{
	struct game_state *d = fixture(3);
	d->round = 5; /* window 5..35, next 6..36 */
	ship_at(d, 0, 7, 5);
	ship_at(d, 1, 3, 35);
	ship_at(d, 2, 0, 20);
	ship_at(d, 3, 14, 20);
	ship_at(d, 4, 10, 34);
	move(d, 0, 1, 0);  /* stays in column 5: out of the next window */
	move(d, 1, 0, 2);  /* column 37: out */
	move(d, 2, -1, 1); /* row -1 */
	move(d, 3, 1, 1);  /* row 15 */
	move(d, 4, 1, 2);  /* column 36: the next window's last */
	cr_expect(!sw_valid(d, 0, sw_move_action(1, 0)));
	cr_expect(sw_valid(d, 0, sw_move_action(1, 1)));
	cr_expect(sw_valid(d, 1, SW_DEFAULT_MOVE));
	sw_advance(d);
	expect_at(d, 0, 7, 6);
	expect_at(d, 1, 3, 36);
	expect_at(d, 2, 0, 21);
	expect_at(d, 3, 14, 21);
	expect_at(d, 4, 11, 36);
	sw_free(d);
}

Test(starwar_moves, universe_wraps_around)
{
	struct game_state *d = fixture(4);
	d->round = 40; /* window 40..59 and 0..10 */
	ship_at(d, 0, 7, 59);
	ship_at(d, 1, 3, 58);
	sw_put(d, 9, 59, SW_MISSILE, 2);
	move(d, 1, 0, 2);
	cr_expect(sw_valid(d, 0, sw_move_action(0, 2)));
	sw_advance(d);
	expect_at(d, 0, 7, 0);
	expect_at(d, 1, 3, 0);
	cr_expect_eq(kind_at(d, 9, 1), SW_MISSILE);
	/* A ship in column 10 (the last of the window 40..10) stays valid. */
	cr_expect(sw_in_window(d, 41, 11));
	cr_expect(!sw_in_window(d, 41, 12));
	cr_expect(!sw_in_window(d, 41, 40));
	sw_free(d);
}

/* ---- shooting -------------------------------------------------------------- */

Test(starwar_shooting, missile_two_ahead_ship_one_ahead)
{
	struct game_state *d = fixture(5);
	ship_at(d, 0, 7, 10);
	order(d, 0, SW_SHOOT);
	sw_advance(d);
	expect_at(d, 0, 7, 11);
	cr_expect_eq(d->ship[0].missiles, 4);
	cr_expect_eq(kind_at(d, 7, 12), SW_MISSILE);
	cr_expect_eq(d->ref[sw_cell(d, 7, 12)], 0);
	sw_advance(d); /* missiles two a round, ships one by default */
	expect_at(d, 0, 7, 12);
	cr_expect_eq(kind_at(d, 7, 14), SW_MISSILE);
	cr_expect_eq(count_kind(d, SW_MISSILE), 1);
	sw_free(d);
}

Test(starwar_shooting, no_missiles_left_is_a_default_move)
{
	struct game_state *d = fixture(5);
	ship_at(d, 0, 7, 10);
	d->ship[0].missiles = 0;
	order(d, 0, SW_SHOOT);
	move(d, 0, 1, 1); /* ignored: only the first order counts */
	sw_advance(d);
	expect_at(d, 0, 7, 11);
	cr_expect_eq(count_kind(d, SW_MISSILE), 0);
	sw_free(d);
}

/* The new missile passes the cell in front at once: a ship there dies. */
Test(starwar_shooting, point_blank_kill_scores)
{
	struct game_state *d = fixture(6);
	ship_at(d, 0, 7, 10);
	ship_at(d, 2, 7, 11);
	order(d, 0, SW_SHOOT);
	order(d, 2, SW_SHOOT); /* may run first: then ship 0 dies instead */
	sw_advance(d);
	int alive = d->ship[0].alive + d->ship[2].alive;
	cr_expect_eq(alive, 1);
	cr_expect_eq(d->score[0] + d->score[1], 30);
	sw_free(d);
}

/* ---- collisions ------------------------------------------------------------ */

Test(starwar_collisions, ship_takes_bonuses)
{
	struct game_state *d = fixture(8);
	ship_at(d, 0, 7, 10);
	ship_at(d, 2, 3, 10);
	sw_put(d, 7, 11, SW_POINT_BONUS, SW_NONE);
	sw_put(d, 3, 11, SW_MISSILE_BONUS, SW_NONE);
	sw_put(d, 3, 12, SW_POINT_BONUS, SW_NONE);
	move(d, 2, 0, 2); /* passes the missile bonus, then takes the point bonus */
	sw_advance(d);
	expect_at(d, 0, 7, 11);
	expect_at(d, 2, 3, 12);
	cr_expect_eq(d->score[0], 10);
	cr_expect_eq(d->score[1], 10);
	cr_expect_eq(d->ship[0].missiles, 5);
	cr_expect_eq(d->ship[2].missiles, 10);
	sw_free(d);
}

Test(starwar_collisions, ship_and_asteroid_both_destroyed)
{
	struct game_state *d = fixture(9);
	ship_at(d, 0, 7, 10);
	sw_put(d, 7, 11, SW_ASTEROID, SW_NONE);
	sw_advance(d);
	cr_expect(!d->ship[0].alive);
	cr_expect_eq(count_kind(d, SW_ASTEROID), 0);
	cr_expect_eq(count_kind(d, SW_SHIP), 0);
	cr_expect_eq(d->score[0], 0);
	sw_free(d);
}

/* Default moves run in increasing id: ship 0 runs into ship 1 (both die,
 * nobody scores); in the other order both move on. */
Test(starwar_collisions, ship_and_ship_both_destroyed_default_moves_by_id)
{
	struct game_state *d = fixture(10);
	ship_at(d, 0, 7, 10);
	ship_at(d, 1, 7, 11);
	ship_at(d, 3, 3, 10);
	ship_at(d, 2, 3, 11);
	sw_advance(d);
	cr_expect(!d->ship[0].alive && !d->ship[1].alive);
	expect_at(d, 2, 3, 12);
	expect_at(d, 3, 3, 11);
	for (int q = 0; q < SW_PLAYERS; q++)
		cr_expect_eq(d->score[q], 0);
	sw_free(d);
}

Test(starwar_collisions, missile_kills_ship_and_shooter_scores)
{
	struct game_state *d = fixture(11);
	ship_at(d, 2, 7, 13); /* player 1 */
	ship_at(d, 1, 3, 13); /* player 0 */
	sw_put(d, 7, 11, SW_MISSILE, 0); /* player 0's missiles */
	sw_put(d, 3, 11, SW_MISSILE, 0);
	sw_advance(d);
	cr_expect(!d->ship[2].alive);
	cr_expect(!d->ship[1].alive);
	cr_expect_eq(d->score[0], 30, "an enemy kill scores, one's own does not");
	cr_expect_eq(d->score[1], 0);
	cr_expect_eq(count_kind(d, SW_MISSILE), 0);
	sw_free(d);
}

/* Ships move after missiles; a ship flying into a missile dies, and the
 * missile's owner scores. */
Test(starwar_collisions, ship_into_missile_missiles_move_first)
{
	struct game_state *d = fixture(12);
	ship_at(d, 0, 7, 12);
	sw_put(d, 7, 10, SW_MISSILE, 4);
	move(d, 0, 1, 2); /* too late: the missile reaches column 12 first */
	ship_at(d, 2, 3, 10);
	sw_put(d, 3, 8, SW_MISSILE, 6); /* passes 9, then 10: ship 2 */
	sw_advance(d);
	cr_expect(!d->ship[0].alive);
	cr_expect(!d->ship[2].alive);
	cr_expect_eq(d->score[2], 30);
	cr_expect_eq(d->score[3], 30);
	sw_free(d);
}

Test(starwar_collisions, ship_flies_into_a_missile)
{
	struct game_state *d = fixture(13);
	ship_at(d, 0, 5, 10);
	sw_put(d, 4, 9, SW_MISSILE, 4); /* moves first, to (4, 11) */
	move(d, 0, -1, 2);		/* passes (5, 11), (4, 10), (4, 11): dies there */
	sw_advance(d);
	cr_expect(!d->ship[0].alive);
	cr_expect_eq(d->score[2], 30);
	cr_expect_eq(count_kind(d, SW_MISSILE), 0);
	cr_expect_eq(count_kind(d, SW_SHIP), 0);
	sw_free(d);
}

Test(starwar_collisions, missile_destroys_bonus_and_asteroid)
{
	struct game_state *d = fixture(14);
	sw_put(d, 2, 11, SW_POINT_BONUS, SW_NONE);
	sw_put(d, 4, 12, SW_ASTEROID, SW_NONE);
	sw_put(d, 6, 12, SW_MISSILE_BONUS, SW_NONE);
	sw_put(d, 2, 10, SW_MISSILE, 0);
	sw_put(d, 4, 10, SW_MISSILE, 0);
	sw_put(d, 6, 10, SW_MISSILE, 0);
	sw_move_missiles(d);
	cr_expect_eq(count_kind(d, SW_MISSILE), 0);
	cr_expect_eq(count_kind(d, SW_ASTEROID), 0);
	cr_expect_eq(count_kind(d, SW_POINT_BONUS), 0);
	cr_expect_eq(d->pending[SW_POINT_BONUS], 1, "a destroyed bonus comes back");
	cr_expect_eq(d->pending[SW_MISSILE_BONUS], 1);
	for (int q = 0; q < SW_PLAYERS; q++)
		cr_expect_eq(d->score[q], 0);
	sw_free(d);
}

/* Missiles lifted together never meet: two in a row both move on. */
Test(starwar_collisions, missiles_do_not_hit_each_other_while_moving)
{
	struct game_state *d = fixture(15);
	sw_put(d, 2, 10, SW_MISSILE, 0);
	sw_put(d, 2, 11, SW_MISSILE, 2);
	sw_put(d, 2, 13, SW_POINT_BONUS, SW_NONE);
	sw_move_missiles(d);
	/* The one ahead reaches the bonus first; the other lands in 12. */
	cr_expect_eq(kind_at(d, 2, 12), SW_MISSILE);
	cr_expect_eq(d->ref[sw_cell(d, 2, 12)], 0);
	cr_expect_eq(count_kind(d, SW_MISSILE), 1);
	sw_free(d);
}

/* ---- order of execution ---------------------------------------------------- */

/* Two players race for one bonus: whoever runs first takes it and then the
 * other runs into it.  Over seeds both orders happen. */
Test(starwar_order, players_run_in_a_random_order)
{
	int first[2] = { 0, 0 };
	for (uint64_t seed = 1; seed <= 64; seed++) {
		struct game_state *d = fixture(seed);
		ship_at(d, 0, 6, 10);
		ship_at(d, 2, 8, 10);
		sw_put(d, 7, 11, SW_POINT_BONUS, SW_NONE);
		move(d, 0, 1, 1);
		move(d, 2, -1, 1);
		sw_advance(d);
		cr_expect(!d->ship[0].alive && !d->ship[2].alive);
		cr_expect_eq(d->score[0] + d->score[1], 10);
		first[d->score[1] > 0]++;
		sw_free(d);
	}
	cr_expect(first[0] > 10 && first[1] > 10, "%d / %d", first[0], first[1]);
}

/* A player's instructions run in the order given: ship 1 leaves the cell
 * ship 0 then enters. */
Test(starwar_order, instructions_in_the_order_given)
{
	struct game_state *d = fixture(16);
	ship_at(d, 0, 7, 10);
	ship_at(d, 1, 7, 11);
	move(d, 1, 1, 1);
	move(d, 0, 0, 1);
	sw_advance(d);
	expect_at(d, 0, 7, 11);
	expect_at(d, 1, 8, 12);
	sw_free(d);
	d = fixture(16);
	ship_at(d, 0, 7, 10);
	ship_at(d, 1, 7, 11);
	move(d, 0, 0, 1);
	move(d, 1, 1, 1);
	sw_advance(d);
	cr_expect(!d->ship[0].alive && !d->ship[1].alive);
	sw_free(d);
}

/* ---- regeneration and bonuses ---------------------------------------------- */

Test(starwar_regen, after_the_delay_in_the_window_with_free_square)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct game_state *d = fixture(seed);
		ship_at(d, 0, 7, 10);
		d->ship[0].missiles = 3;
		sw_put(d, 7, 11, SW_ASTEROID, SW_NONE);
		for (int r = 0; r < 15; r += 3) /* things to keep clear of */
			sw_put(d, r, 20 + r, SW_ASTEROID, SW_NONE);
		sw_advance(d); /* dies in round 0 */
		for (int k = 0; k < 10; k++) {
			cr_expect(!d->ship[0].alive, "back after %d rounds", k);
			sw_advance(d);
		}
		const struct sw_ship *s = &d->ship[0];
		cr_assert(s->alive, "back after 10 rounds of waiting");
		cr_expect_eq(s->missiles, 3);
		cr_expect(sw_in_window(d, d->round, s->col));
		for (int r = s->row - 2; r <= s->row + 2; r++)
			for (int c = s->col - 2; c <= s->col + 2; c++)
				if (r >= 0 && r < 15 && (r != s->row || c != s->col))
					cr_expect_eq(kind_at(d, r, c), SW_EMPTY);
		sw_free(d);
	}
}

Test(starwar_regen, waits_while_no_cell_fits)
{
	struct game_state *d = fixture(17);
	d->p.regen_rounds = 0;
	ship_at(d, 0, 7, 10);
	sw_put(d, 7, 11, SW_ASTEROID, SW_NONE);
	/* Asteroids every third column: no 5 x 5 square is free. */
	for (int r = 0; r < 15; r++)
		for (int c = 0; c < 60; c += 3)
			if (kind_at(d, r, c) == SW_EMPTY && !(r == 7 && c == 10))
				sw_put(d, r, c, SW_ASTEROID, SW_NONE);
	sw_advance(d);
	cr_expect(!d->ship[0].alive);
	sw_advance(d);
	cr_expect(!d->ship[0].alive);
	sw_free(d);
}

/* A regeneration or a bonus tries 20 random cells, as the original does,
 * and waits for the next round when none fits: with one fitting cell among
 * the window's 465, a ship comes back at once about 4% of the time (1000
 * draws would bring it back almost always). */
Test(starwar_regen, twenty_draws_then_wait)
{
	int back = 0, seeds = 300;
	for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
		struct game_state *d = fixture(seed);
		d->p.regen_rounds = 0;
		for (int r = 0; r < 15; r++)
			for (int c = 0; c < 60; c++)
				if (r < 5 || r > 9 || c < 14 || c > 18) /* one free square */
					sw_put(d, r, c, SW_ASTEROID, SW_NONE);
		d->ship[0].wait = 0;
		sw_regenerate(d);
		back += d->ship[0].alive;
		sw_free(d);
	}
	cr_expect(back >= 3 && back <= 30, "back at once on %d of %d seeds (expected about 13)",
		  back, seeds);
}

Test(starwar_bonus, refill_just_outside_the_window)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct game_state *d = fixture(seed);
		ship_at(d, 0, 7, 10);
		sw_put(d, 7, 11, SW_POINT_BONUS, SW_NONE);
		sw_put(d, 5, 40, SW_MISSILE, 0); /* moves to 42: keep 5 x 5 clear */
		sw_advance(d);
		cr_expect_eq(d->score[0], 10);
		cr_expect_eq(d->pending[SW_POINT_BONUS], 0);
		cr_assert_eq(count_kind(d, SW_POINT_BONUS), 1);
		for (int i = 0; i < 15 * 60; i++) {
			if (d->kind[i] != SW_POINT_BONUS)
				continue;
			int r = i / 60, c = i % 60;
			cr_expect(!sw_in_window(d, d->round, c), "column %d", c);
			cr_expect(!(r >= 3 && r <= 7 && c >= 40 && c <= 44), "(%d, %d)", r, c);
		}
		sw_free(d);
	}
}

Test(starwar_bonus, no_room_outside_the_window_keeps_it_pending)
{
	err_t err = {0};
	struct game_state *d = sw_new("window 60\npoint_bonuses 0\nmissile_bonuses 0\n", 1, err);
	cr_assert_not_null(d, "%s", err);
	sw_clear(d);
	ship_at(d, 0, 7, 10);
	sw_put(d, 7, 11, SW_MISSILE_BONUS, SW_NONE);
	sw_advance(d);
	cr_expect_eq(d->ship[0].missiles, 10);
	cr_expect_eq(d->pending[SW_MISSILE_BONUS], 1);
	cr_expect_eq(count_kind(d, SW_MISSILE_BONUS), 0);
	sw_free(d);
}

/* ---- orders ---------------------------------------------------------------- */

Test(starwar_orders, more_than_1000_orders_is_an_error)
{
	struct game_state *d = fixture(18);
	ship_at(d, 0, 7, 10);
	static struct sw_msg_order o[SW_MAX_ORDERS + 5];
	for (int i = 0; i < SW_MAX_ORDERS + 5; i++)
		o[i] = (struct sw_msg_order){ 0, sw_move_action(1, 1) };
	static uint8_t buf[SW_ORDERS_MAX];
	size_t len = orders_encode(&sw_orders, o, SW_MAX_ORDERS + 5, buf, sizeof buf);
	cr_expect_eq(len, SW_ORDERS_MAX, "the encoder keeps 1001 orders");
	err_t err = {0};
	cr_expect_eq(starwar_game.orders(d, 0, buf, len, err), -1);
	cr_expect_str_eq(err->msg, "more than 1000 orders in one round");
	cr_expect(d->frozen[0]);
	sw_advance(d);
	expect_at(d, 0, 7, 11); /* frozen: default moves only */
	sw_free(d);

	d = fixture(18);
	ship_at(d, 0, 7, 10);
	cr_expect_eq(send_raw(d, 0, o, SW_MAX_ORDERS), 0);
	sw_advance(d);
	expect_at(d, 0, 8, 11);
	cr_expect_eq(send_raw(d, 0, o, 600), 0);
	cr_expect_eq(send_raw(d, 0, o, 401), -1);
	sw_free(d);
}

Test(starwar_orders, malformed_messages_are_errors)
{
	struct game_state *d = fixture(19);
	err_t err;
	et_expect_malformed_refused(&starwar_game, d, SW_ORDER_LEN);
	sw_free(d);
	d = fixture(19);
	const uint8_t empty[2] = { 0, 0 };
	cr_expect_eq(sw_take_orders(d, 0, empty, 2, err), 0);
	sw_free(d);
}

Test(starwar_orders, foreign_or_impossible_orders_are_ignored)
{
	struct game_state *d = fixture(20);
	ship_at(d, 0, 7, 10);
	ship_at(d, 2, 3, 10);
	const struct sw_msg_order o[] = { { 2, sw_move_action(1, 1) }, { 0, 10 }, { 99, 0 },
					  { 0, sw_move_action(-1, 2) } };
	cr_expect_eq(send_raw(d, 0, o, 4), 0);
	sw_advance(d);
	expect_at(d, 0, 6, 12);
	expect_at(d, 2, 3, 11);
	sw_free(d);
}

Test(starwar_orders, random_bytes_never_crash)
{
	struct game_state *d = sw_new(NULL, 3, (err_t){ 0 });
	cr_assert_not_null(d);
	struct rng r = rng_seeded(77);
	static uint8_t buf[SW_ORDERS_MAX];
	for (int t = 0; t < 3000; t++) {
		size_t len = (size_t)rng_uniform(&r, 0, 64);
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rng_uniform(&r, 0, 255);
		if (len >= 2 && t % 2) { /* a count that matches */
			size_t n = (len - 2) / 3;
			buf[0] = (uint8_t)n;
			buf[1] = 0;
			len = 2 + 3 * n;
		}
		err_t err;
		sw_take_orders(d, t % 4, buf, len, err);
		if (t % 50 == 0)
			sw_advance(d);
	}
	sw_free(d);
}

/* ---- messages -------------------------------------------------------------- */

Test(starwar_view, start_and_view_round_trip)
{
	struct game_state *d = sw_new(et_config_text("starwar"), 9, (err_t){ 0 });
	cr_assert_not_null(d);
	uint8_t sbuf[SW_START_LEN];
	cr_assert_eq(starwar_game.start(d, 2, sbuf, sizeof sbuf), SW_START_LEN);
	struct sw_msg_start s;
	cr_assert(sw_start_decode(sbuf, SW_START_LEN, &s));
	cr_expect_eq(s.params.cols, 60);
	cr_expect_eq(s.params.window, 31);
	cr_expect_eq(s.params.kill_points, 30);
	cr_expect_eq(s.seed, seed_derive(9, SEED_PLAYER, 2), "not the seat's own seed");
	cr_expect_eq(s.player, 2);
	cr_expect(!sw_start_decode(sbuf, SW_START_LEN - 1, &s));
	static uint8_t vbuf[SW_VIEW_MAX];
	size_t len = starwar_game.view(d, 1, vbuf, sizeof vbuf);
	cr_assert_gt(len, 0);
	static struct sw_msg_view v;
	cr_assert(sw_view_decode(vbuf, len, &v));
	cr_expect_eq(v.nships, 8);
	cr_expect_eq(memcmp(v.cell, d->kind, 15 * 60), 0, "the whole universe");
	for (int id = 0; id < 8; id++)
		cr_expect(v.ship[id].row == d->ship[id].row && v.ship[id].col == d->ship[id].col);
	cr_expect(!sw_view_decode(vbuf, len - 1, &v));
	vbuf[8 + 4 * 12] = SW_KINDS; /* first cell: no such kind */
	cr_expect(!sw_view_decode(vbuf, len, &v));
	sw_free(d);
}

/* ---- whole matches --------------------------------------------------------- */

/* Random orders from a generator of its own; the replay as one string. */
static char *play(uint64_t seed, int64_t score[SW_PLAYERS])
{
	err_t err = {0};
	struct game_state *d = sw_new(et_config_text("starwar"), seed, err);
	cr_assert_not_null(d, "%s", err);
	const struct game *g = &starwar_game;
	struct game_state *gs = d;
	json_t *header = g->replay_header(gs), *rounds = json_array();
	struct rng r = rng_seeded(seed * 7 + 1);
	while (g->round(gs) < g->rounds(gs)) {
		for (int q = 0; q < SW_PLAYERS; q++) {
			struct sw_msg_order o[2];
			for (int k = 0; k < 2; k++)
				o[k] = (struct sw_msg_order){ (uint16_t)(2 * q + k),
							      (uint8_t)rng_uniform(&r, 0, 9) };
			cr_assert_eq(send_raw(d, q, o, 2), 0);
		}
		g->advance(gs);
		json_array_append_new(rounds, g->replay_round(gs));
		cr_assert_eq(count_kind(d, SW_SHIP), (int)(d->ship[0].alive + d->ship[1].alive +
			d->ship[2].alive + d->ship[3].alive + d->ship[4].alive + d->ship[5].alive +
			d->ship[6].alive + d->ship[7].alive));
	}
	json_t *all = json_pack("{s:o, s:o}", "header", header, "rounds", rounds);
	char *text = json_dumps(all, JSON_COMPACT);
	json_decref(all);
	g->scores(gs, score);
	g->destroy(gs);
	return text;
}

Test(starwar_replay, same_seed_and_orders_same_bytes)
{
	int64_t a[SW_PLAYERS], b[SW_PLAYERS], c[SW_PLAYERS];
	char *x = play(42, a), *y = play(42, b), *z = play(43, c);
	cr_expect_str_eq(x, y);
	cr_expect_str_neq(x, z);
	cr_expect_eq(memcmp(a, b, sizeof a), 0);
	int64_t total = 0;
	for (int q = 0; q < SW_PLAYERS; q++)
		total += a[q];
	cr_expect_gt(total, 0, "somebody scored in 300 random rounds");
	free(x);
	free(y);
	free(z);
}

Test(starwar_view, every_player_sees_the_same_universe)
{
	struct game_state *d = sw_new(et_config_text("starwar"), 4, (err_t){ 0 });
	cr_assert_not_null(d);
	static uint8_t a[SW_VIEW_MAX], b[SW_VIEW_MAX];
	size_t la = sw_view(d, 0, a, sizeof a);
	for (int q = 1; q < SW_PLAYERS; q++) {
		size_t lb = sw_view(d, q, b, sizeof b);
		cr_expect(la == lb && memcmp(a, b, la) == 0, "player %d", q);
	}
	cr_expect_eq(sw_view(d, 4, b, sizeof b), 0);
	cr_expect_eq(sw_view(d, 0, b, 100), 0, "too small a buffer");
	sw_free(d);
}

Test(starwar_view, decoders_survive_random_bytes)
{
	struct game_state *d = sw_new(NULL, 8, (err_t){ 0 });
	cr_assert_not_null(d);
	static uint8_t good[SW_VIEW_MAX], buf[SW_VIEW_MAX];
	size_t len = sw_view(d, 0, good, sizeof good);
	cr_assert_gt(len, 0);
	static struct sw_msg_view v;
	struct sw_msg_start s;
	struct rng r = rng_seeded(5);
	for (int t = 0; t < 2000; t++) {
		size_t n = (size_t)rng_uniform(&r, 0, (int)len);
		memcpy(buf, good, n);
		for (int k = 0; k < 4 && n > 0; k++)
			buf[rng_uniform(&r, 0, (int)n - 1)] = (uint8_t)rng_uniform(&r, 0, 255);
		sw_view_decode(buf, n, &v);
		sw_start_decode(buf, n < SW_START_LEN + 4 ? n : SW_START_LEN + 4, &s);
	}
	sw_free(d);
}

Test(starwar_orders, frozen_player_orders_are_not_executed)
{
	struct game_state *d = fixture(21);
	ship_at(d, 0, 7, 10);
	ship_at(d, 2, 3, 10);
	move(d, 0, 1, 2);
	move(d, 2, 1, 2);
	starwar_game.status(d, 0, -1);
	starwar_game.status(d, 1, 0.25);
	sw_advance(d);
	expect_at(d, 0, 7, 11);
	expect_at(d, 2, 4, 12);
	cr_expect(d->frozen[0] && !d->frozen[1]);
	const struct sw_msg_order o = { 0, sw_move_action(1, 2) };
	cr_expect_eq(send_raw(d, 0, &o, 1), 0, "accepted and dropped");
	sw_advance(d);
	expect_at(d, 0, 7, 12);
	static uint8_t vbuf[SW_VIEW_MAX];
	static struct sw_msg_view v;
	cr_assert(sw_view_decode(vbuf, sw_view(d, 1, vbuf, sizeof vbuf), &v));
	cr_expect_eq(v.player[0].cpu, -1);
	cr_expect_eq(v.player[1].cpu, 250000);
	sw_free(d);
}

/* A viewer's work: the header's map and ships, then each frame's cells and
 * ships (unlisted live ships move one column on), give the final state. */
Test(starwar_replay, frames_rebuild_the_final_state)
{
	err_t err = {0};
	struct game_state *d = sw_new(et_config_text("starwar"), 31, err);
	cr_assert_not_null(d, "%s", err);
	static const char kinds[] = ".XPMS*";
	static uint8_t map[SW_MAX_CELLS];
	int ship[8][4]; /* alive, row, col, missiles */
	json_t *h = sw_replay_header(d);
	for (int r = 0; r < 15; r++)
		for (int c = 0; c < 60; c++)
			map[r * 60 + c] = (uint8_t)(strchr(kinds, json_string_value(
						 json_array_get(json_object_get(h, "map"), (size_t)r))[c]) - kinds);
	for (int id = 0; id < 8; id++) {
		json_t *s = json_array_get(json_object_get(h, "ships"), (size_t)id);
		ship[id][0] = 1;
		for (int k = 1; k < 4; k++)
			ship[id][k] = (int)json_integer_value(json_array_get(s, (size_t)k + 1));
	}
	json_decref(h);
	struct rng r = rng_seeded(99);
	for (int round = 0; round < 300; round++) {
		for (int q = 0; q < SW_PLAYERS; q++) {
			struct sw_msg_order o[2] = { { (uint16_t)(2 * q), (uint8_t)rng_uniform(&r, 0, 9) },
						     { (uint16_t)(2 * q + 1), (uint8_t)rng_uniform(&r, 0, 9) } };
			send_raw(d, q, o, 2);
		}
		sw_advance(d);
		json_t *f = sw_replay_round(d), *cells = json_object_get(f, "cells"),
		       *ships = json_object_get(f, "ships");
		for (size_t i = 0; i + 2 < json_array_size(cells); i += 3)
			map[json_integer_value(json_array_get(cells, i)) * 60 +
			    json_integer_value(json_array_get(cells, i + 1))] =
				(uint8_t)json_integer_value(json_array_get(cells, i + 2));
		bool listed[8] = { false };
		for (size_t i = 0; i + 4 < json_array_size(ships); i += 5) {
			int id = (int)json_integer_value(json_array_get(ships, i));
			listed[id] = true;
			for (int k = 0; k < 4; k++)
				ship[id][k] = (int)json_integer_value(json_array_get(ships, i + 1 + (size_t)k));
		}
		for (int id = 0; id < 8; id++)
			if (!listed[id] && ship[id][0])
				ship[id][2] = (ship[id][2] + 1) % 60;
		json_decref(f);
	}
	cr_expect_eq(memcmp(map, d->kind, 15 * 60), 0);
	for (int id = 0; id < 8; id++) {
		const struct sw_ship *s = &d->ship[id];
		cr_expect_eq(ship[id][0], s->alive, "ship %d", id);
		if (s->alive)
			cr_expect(ship[id][1] == s->row && ship[id][2] == s->col &&
				  ship[id][3] == s->missiles, "ship %d", id);
	}
	sw_free(d);
}
