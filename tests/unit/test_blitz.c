/* test_blitz.c - the Blitz2018 engine (games/blitz), rule by rule.
 *
 * Each scenario is a fixed map from a parameters file (no fog unless the
 * test is about fog); orders always go through the real orders message
 * bytes (proto.h); the expected maps are worked out by hand from the rules
 * (shared/rules/blitz.md and the seed). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/game.h"
#include "tests/unit/engine_testlib.h"

/* ---- fixtures ------------------------------------------------------------ */

/* A match of n players on a fixed map given as `P/S[/O]` rows. */
static struct game_state *on_map(int players, const char *keys, const char *rows)
{
	static char text[1 << 16];
	snprintf(text, sizeof text, "fog 0\n%s\nmap\n%s", keys, rows);
	err_t err = {0};
	struct game_state *b = bz_new_players(text, 1, players, err);
	cr_assert_not_null(b, "map refused: %s\n%s", err, text);
	return b;
}

ET_SEND_RAW(bz, blitz_game)

/* Player `tag` (1-based) moves its piece at (x, y). */
static void move(struct game_state *b, int tag, int x, int y, int dir)
{
	struct bz_msg_order o = { (uint16_t)(y * b->width + x), (uint8_t)dir };
	cr_assert_eq(send_raw(b, tag - 1, &o, 1), 0);
}

static void expect_site(const struct game_state *b, int x, int y, int owner, int strength)
{
	int s = y * b->width + x;
	cr_expect(b->owner[s] == owner && b->strength[s] == strength,
		  "site (%d, %d): owner %d strength %d, expected owner %d strength %d", x, y,
		  b->owner[s], b->strength[s], owner, strength);
}

/* A 5 x 5 map of the map's 0-strength, 0-production sites but for the
 * centre row, given as 5 tokens. */
static struct game_state *row_map(int players, const char *middle)
{
	char rows[512];
	const char *empty = "0/0 0/0 0/0 0/0 0/0\n";
	snprintf(rows, sizeof rows, "%s%s%s\n%s%s", empty, empty, middle, empty, empty);
	return on_map(players, "", rows);
}

/* ---- production, moves, merging ------------------------------------------ */

Test(blitz_rules, a_piece_that_stays_gains_its_production)
{
	struct game_state *b = row_map(2, "0/0 3/10/1 0/0 4/20/2 0/0");
	move(b, 1, 1, 2, BZ_STILL); /* an explicit STILL */
	bz_advance(b);              /* player 2 gave no order: STILL too */
	expect_site(b, 1, 2, 1, 13);
	expect_site(b, 3, 2, 2, 24);
	bz_free(b);
}

Test(blitz_rules, production_is_capped_at_255)
{
	struct game_state *b = row_map(2, "0/0 9/250/1 0/0 0/0 5/7/2");
	bz_advance(b);
	expect_site(b, 1, 2, 1, 255);
	bz_free(b);
}

Test(blitz_rules, a_moving_piece_leaves_a_zero_piece_and_gains_nothing)
{
	struct game_state *b = row_map(2, "0/0 5/30/1 7/0 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	expect_site(b, 1, 2, 1, 0);  /* left behind, no production */
	expect_site(b, 2, 2, 1, 30); /* arrived, the site's production not yet */
	bz_advance(b);
	expect_site(b, 1, 2, 1, 5);
	expect_site(b, 2, 2, 1, 37);
	bz_free(b);
}

Test(blitz_rules, pieces_of_one_player_merge_capped_at_255)
{
	struct game_state *b = on_map(2, "",
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/200/1 0/0/1 0/100/1 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0/2 0/0\n");
	move(b, 1, 0, 2, BZ_EAST);
	move(b, 1, 2, 2, BZ_WEST);
	bz_advance(b);
	expect_site(b, 1, 2, 1, 255);
	expect_site(b, 0, 2, 1, 0);
	expect_site(b, 2, 2, 1, 0);
	bz_free(b);
}

Test(blitz_rules, a_staying_piece_merges_with_one_arriving)
{
	struct game_state *b = row_map(2, "0/0 0/40/1 2/10/1 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 52); /* 10 + 2 production + 40 */
	bz_free(b);
}

Test(blitz_rules, the_map_wraps_at_every_edge)
{
	struct game_state *b = on_map(2, "",
				    "0/50/1 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/9/2 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n");
	move(b, 1, 0, 0, BZ_NORTH);
	bz_advance(b);
	expect_site(b, 0, 4, 1, 50);
	expect_site(b, 0, 0, 1, 0);
	move(b, 1, 0, 4, BZ_WEST);
	bz_advance(b);
	expect_site(b, 4, 4, 1, 50);
	bz_free(b);
}

Test(blitz_rules, an_order_for_a_site_not_owned_or_a_bad_direction_is_ignored)
{
	struct game_state *b = row_map(2, "0/0 0/30/1 0/0 0/0 0/40/2");
	move(b, 1, 4, 2, BZ_WEST); /* player 2's piece */
	move(b, 1, 0, 2, BZ_EAST); /* nobody's site */
	struct bz_msg_order bad = { (uint16_t)(2 * 5 + 1), 7 };
	cr_assert_eq(send_raw(b, 0, &bad, 1), 0);
	bz_advance(b);
	expect_site(b, 4, 2, 2, 40);
	expect_site(b, 1, 2, 1, 30);
	bz_free(b);
}

Test(blitz_rules, the_first_order_for_a_site_counts)
{
	struct game_state *b = row_map(2, "0/0 0/30/1 0/0 0/0 0/40/2");
	struct bz_msg_order o[2] = { { 11, BZ_EAST }, { 11, BZ_WEST } };
	cr_assert_eq(send_raw(b, 0, o, 2), 0);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 30);
	bz_free(b);
}

/* ---- combat -------------------------------------------------------------- */

Test(blitz_rules, pieces_on_one_site_fight_the_stronger_keeps_the_difference)
{
	struct game_state *b = row_map(2, "0/0 0/60/1 0/0 0/45/2 0/0");
	move(b, 1, 1, 2, BZ_EAST);
	move(b, 2, 3, 2, BZ_WEST);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 15);
	/* The 0-strength pieces left behind were next to the fight: damaged. */
	expect_site(b, 1, 2, 0, 0);
	expect_site(b, 3, 2, 0, 0);
	bz_free(b);
}

Test(blitz_rules, adjacent_enemy_pieces_hurt_each_other)
{
	struct game_state *b = row_map(2, "0/0 0/50/1 0/30/2 0/0 0/0");
	bz_advance(b);
	expect_site(b, 1, 2, 1, 20);
	expect_site(b, 2, 2, 0, 0);
	bz_free(b);
}

Test(blitz_rules, overkill_a_piece_hurts_every_enemy_around_it)
{
	/* Player 1's 100 sits between three enemies of 40: it hurts each by
	 * 100 (300 in all) and takes 120. */
	struct game_state *b = on_map(2, "",
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/40/2 0/0 0/0\n"
				    "0/0 0/40/2 0/100/1 0/40/2 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n");
	bz_advance(b);
	expect_site(b, 2, 2, 0, 0);
	expect_site(b, 1, 2, 0, 0);
	expect_site(b, 3, 2, 0, 0);
	expect_site(b, 2, 1, 0, 0);
	bz_free(b);
}

Test(blitz_rules, three_players_on_one_site_each_hurts_the_others)
{
	struct game_state *b = on_map(3, "",
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/30/3 0/0 0/0\n"
				    "0/0 0/100/1 0/0 0/50/2 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n");
	move(b, 1, 1, 2, BZ_EAST);
	move(b, 2, 3, 2, BZ_WEST);
	move(b, 3, 2, 1, BZ_SOUTH);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 20); /* 100 - 50 - 30 */
	bz_free(b);
}

/* A turn walks only the sites that hold pieces, so it must leave its
 * scratch as it found it: a stale sum or piece would hurt the next turn's
 * pieces out of nowhere, and a copy of the state's bytes would not be the
 * match. */
Test(blitz_rules, a_turn_leaves_its_scratch_clean_for_the_next)
{
	struct game_state *b = row_map(3, "0/0 0/100/1 0/9 0/50/2 0/30/3");
	move(b, 1, 1, 2, BZ_EAST);
	move(b, 2, 3, 2, BZ_WEST);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 41); /* 100 - 50 - 9: 2 is out */
	expect_site(b, 4, 2, 3, 30); /* hurt by 2's 0 left behind */
	expect_site(b, 1, 2, 0, 0);
	expect_site(b, 3, 2, 0, 0);
	for (int p = 0; p < BZ_MAX_PLAYERS; p++)
		for (int x = 0; x < BZ_MAX_SITES; x++)
			cr_assert_eq(b->piece[p][x], -1, "player %d's piece at %d left over", p, x);
	for (int x = 0; x < BZ_MAX_SITES; x++)
		cr_assert(b->sum[x] == 0 && b->count[x] == 0 && b->neutral_hurt[x] == 0,
			  "site %d: sum %d count %d neutral_hurt %d left over", x, b->sum[x],
			  b->count[x], b->neutral_hurt[x]);
	/* The next turn, on a copy, stays quiet: 1 and 3 are not neighbours. */
	struct game_state *copy = malloc(sizeof *copy);
	cr_assert_not_null(copy);
	memcpy(copy, b, sizeof *copy);
	bz_advance(copy);
	expect_site(copy, 2, 2, 1, 41);
	expect_site(copy, 4, 2, 3, 30);
	cr_expect_eq(copy->land[0], 1);
	cr_expect_eq(copy->land[1], 0);
	cr_expect_eq(copy->land[2], 1);
	free(copy);
	bz_free(b);
}

Test(blitz_rules, pieces_swapping_places_pass_and_fight_as_neighbours)
{
	struct game_state *b = row_map(2, "0/0 0/0 0/70/1 0/50/2 0/0");
	move(b, 1, 2, 2, BZ_EAST);
	move(b, 2, 3, 2, BZ_WEST);
	bz_advance(b);
	/* They cross: 1's 70 lands on (3,2), 2's 50 on (2,2), each next to
	 * the other and to the other's 0 left behind (on its own site). */
	expect_site(b, 3, 2, 1, 20);
	expect_site(b, 2, 2, 0, 0);
	bz_free(b);
}

/* ---- the map's sites ----------------------------------------------------- */

Test(blitz_rules, a_map_site_fights_only_a_piece_on_it)
{
	/* Player 1 stands next to a map site of 200: no fight. */
	struct game_state *b = row_map(2, "0/0 0/50/1 0/200 0/0 0/5/2");
	bz_advance(b);
	expect_site(b, 1, 2, 1, 50);
	expect_site(b, 2, 2, 0, 200);
	bz_free(b);
}

Test(blitz_rules, taking_a_map_site_costs_its_strength)
{
	struct game_state *b = row_map(2, "0/0 0/50/1 0/20 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	expect_site(b, 2, 2, 1, 30);
	expect_site(b, 1, 2, 1, 0);
	bz_free(b);
}

Test(blitz_rules, a_piece_weaker_than_a_map_site_dies_and_weakens_it)
{
	struct game_state *b = row_map(2, "0/0 0/50/1 0/80 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	expect_site(b, 2, 2, 0, 30);
	bz_free(b);
}

Test(blitz_rules, an_equal_map_site_and_piece_both_go)
{
	struct game_state *b = row_map(2, "0/0 0/50/1 0/50 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	expect_site(b, 2, 2, 0, 0);
	bz_free(b);
}

Test(blitz_rules, two_players_taking_one_map_site_each_pay_its_strength)
{
	struct game_state *b = row_map(2, "0/0 0/90/1 0/30 0/50/2 0/0");
	move(b, 1, 1, 2, BZ_EAST);
	move(b, 2, 3, 2, BZ_WEST);
	bz_advance(b);
	/* 90 takes 30 (site) + 50 (enemy): 10 left; 50 takes 30 + 90: dead. */
	expect_site(b, 2, 2, 1, 10);
	bz_free(b);
}

/* ---- 0-strength pieces ----------------------------------------------------- */

Test(blitz_rules, a_zero_piece_lives_until_it_fights)
{
	struct game_state *b = row_map(2, "0/0/1 0/0 0/0/2 0/0 0/0");
	bz_advance(b);
	expect_site(b, 0, 2, 1, 0);
	expect_site(b, 2, 2, 2, 0);
	bz_free(b);
}

Test(blitz_rules, zero_pieces_next_to_each_other_both_die)
{
	/* They fought (each is next to an enemy), though the damage was 0. */
	struct game_state *b = on_map(2, "",
				    "0/0 0/0 0/0\n"
				    "0/0/1 0/0/2 0/9/1\n"
				    "0/0 0/0 0/0\n");
	bz_advance(b);
	expect_site(b, 0, 1, 0, 0);
	expect_site(b, 1, 1, 0, 0);
	expect_site(b, 2, 1, 1, 9);
	bz_free(b);
}

/* ---- the end, ranks, ejection ------------------------------------------- */

Test(blitz_end, the_turn_limit_is_10_sqrt_of_the_area)
{
	err_t err;
	struct game_state *b = bz_new_players(NULL, 1, 2, err);
	cr_assert_not_null(b, "%s", err);
	cr_expect_eq(b->p.rounds, (int)floor(10 * sqrt((double)b->width * b->height)));
	cr_expect_eq(b->p.rounds, 300, "30 x 30: 300 turns");
	bz_free(b);
	b = bz_new_players("width 40\nheight 20\n", 1, 2, err);
	cr_assert_not_null(b, "%s", err);
	cr_expect_eq(b->p.rounds, (int)floor(10 * sqrt(800.0)));
	bz_free(b);
}

Test(blitz_end, the_match_ends_when_one_player_is_left)
{
	struct game_state *b = row_map(3, "0/0 0/90/1 0/30/2 0/0 0/200/3");
	const struct game *g = game_find("blitz");
	cr_assert_not(bz_over(b));
	bz_advance(b); /* 2 dies next to 1 */
	cr_expect_eq(b->out_turn[1], 1);
	cr_assert_not(bz_over(b), "players 1 and 3 are still there");
	bz_eject(b, 2);
	cr_expect(bz_over(b));
	cr_expect(game_over(g, b));
	int rank[3];
	bz_ranks(b, rank);
	cr_expect_eq(rank[0], 1);
	cr_expect_eq(rank[2], 2, "ejected on turn 2, after player 2's turn 1");
	cr_expect_eq(rank[1], 3);
	int before = b->round;
	bz_advance(b);
	cr_expect_eq(b->round, before, "nothing happens after the end");
	bz_free(b);
}

Test(blitz_end, survivors_rank_by_territory_then_by_the_integral)
{
	struct game_state *b = on_map(3, "rounds 1",
				    "0/0/1 0/0/1 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n"
				    "0/0/2 0/0 0/0 0/0 0/0\n"
				    "0/0 0/0 0/0 0/0/3 0/0\n"
				    "0/0 0/0 0/0 0/0 0/0\n");
	b->integral[1] = 100;      /* as if 2 had more land earlier */
	bz_advance(b);
	cr_assert(bz_over(b));
	int rank[3];
	bz_ranks(b, rank);
	cr_expect_eq(rank[0], 1, "2 sites");
	cr_expect_eq(rank[1], 2, "1 site, a larger integral");
	cr_expect_eq(rank[2], 3);
	bz_free(b);
}

Test(blitz_end, equal_players_share_a_rank)
{
	struct game_state *b = row_map(4, "0/50/1 0/0/2 0/0 0/0/3 0/0/4");
	bz_advance(b); /* 1's 50 kills 2's and 4's 0 pieces; 3 and 4 fight */
	int rank[4];
	bz_ranks(b, rank);
	cr_expect_eq(rank[0], 1);
	cr_expect(rank[1] == 2 && rank[2] == 2 && rank[3] == 2,
		  "out the same turn with the same land and integral: %d %d %d", rank[1], rank[2],
		  rank[3]);
	bz_free(b);
}

Test(blitz_end, same_turn_eliminations_order_by_the_integral)
{
	struct game_state *b = row_map(3, "0/250/1 0/0/2 0/0 0/0 0/0/3");
	b->integral[2] = 50; /* 3 held more land before */
	bz_advance(b);       /* 1's 250 kills both its neighbours */
	cr_assert(b->out_turn[1] == 1 && b->out_turn[2] == 1);
	int rank[3];
	bz_ranks(b, rank);
	cr_expect_eq(rank[0], 1);
	cr_expect_eq(rank[2], 2);
	cr_expect_eq(rank[1], 3);
	bz_free(b);
}

Test(blitz_eject, a_frozen_player_leaves_its_pieces_to_the_map)
{
	struct game_state *b = row_map(3, "0/70/1 0/0 0/33/2 0/12/2 0/9/3");
	bz_set_status(b, 1, -1);
	expect_site(b, 2, 2, 0, 33);
	expect_site(b, 3, 2, 0, 12);
	cr_expect(b->ejected[1]);
	cr_expect_eq(b->out_turn[1], 1);
	cr_expect_eq(b->land[1], 0);
	/* Its orders are ignored from now on, without an error. */
	struct bz_msg_order o = { 12, BZ_EAST };
	cr_expect_eq(send_raw(b, 1, &o, 1), 0);
	bz_advance(b);
	expect_site(b, 2, 2, 0, 33);
	bz_set_status(b, 1, 0.5); /* no coming back */
	cr_expect(b->ejected[1]);
	bz_free(b);
}

Test(blitz_eject, more_orders_than_sites_eject_the_player)
{
	struct game_state *b = row_map(2, "0/70/1 0/0 0/9/2 0/0 0/0");
	static struct bz_msg_order o[26];
	for (int i = 0; i < 26; i++)
		o[i] = (struct bz_msg_order){ 10, BZ_STILL };
	cr_expect_eq(send_raw(b, 0, o, 25), 0, "25 orders on 25 sites are allowed");
	bz_advance(b);
	cr_expect_eq(send_raw(b, 0, o, 20), 0);
	cr_expect_eq(send_raw(b, 0, o, 6), -1, "26 in one round are not");
	cr_expect(b->ejected[0]);
	expect_site(b, 0, 2, 0, 70);
	bz_free(b);
}

Test(blitz_eject, a_malformed_message_ejects_the_player)
{
	struct game_state *b = row_map(2, "0/70/1 0/0 0/0 0/0 0/9/2");
	uint8_t bytes[4] = { 1, 0, 10, 0 }; /* one order announced, 2 bytes of 3 */
	err_t err = {0};
	cr_expect_eq(bz_take_orders(b, 0, bytes, sizeof bytes, err), -1);
	cr_expect(strstr(err->msg, "malformed"), "%s", err->msg);
	cr_expect(b->ejected[0]);
	bz_free(b);
}

Test(blitz_orders, random_bytes_never_break_the_engine)
{
	struct game_state *b = row_map(2, "0/70/1 0/0 0/0 0/0 0/9/2");
	struct rng r = rng_seeded(5);
	static uint8_t buf[4096];
	err_t err;
	for (int i = 0; i < 20000; i++) {
		size_t len = (size_t)rng_uniform(&r, 0, 64);
		if (i % 3 == 0) /* a plausible count, random orders */
			len = 2 + 3 * (size_t)rng_uniform(&r, 0, 20);
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)rng_next(&r);
		if (i % 3 == 0)
			buf[0] = (uint8_t)((len - 2) / 3), buf[1] = 0;
		int rc = bz_take_orders(b, i % 2, buf, len, err);
		cr_assert(rc == 0 || rc == -1);
		if (i % 7 == 0)
			bz_advance(b);
		if (bz_over(b)) {
			bz_free(b);
			b = row_map(2, "0/70/1 0/0 0/0 0/0 0/9/2");
		}
	}
	bz_free(b);
}

/* ---- parameters ---------------------------------------------------------- */

static void expect_refused(int players, const char *text, const char *words)
{
	err_t err = {0};
	struct game_state *b = bz_new_players(text, 1, players, err);
	cr_expect_null(b, "accepted:\n%s", text);
	cr_expect(strstr(err->msg, words), "error '%s' does not say '%s'", err, words);
	bz_free(b);
}

Test(blitz_params, bad_parameters_are_refused_with_a_reason)
{
	expect_refused(2, "width 2\n", "line 1: width: 2 is out of range");
	expect_refused(2, "colour 3\n", "unknown key");
	expect_refused(2, "map\n1/1/1 1/1 1/1\n1/1 1/1 1/1\n1/1 1/1 1/1\n", "player 2 owns no site");
	expect_refused(2, "map\n1/1/1 1/1/3 1/1/2\n1/1 1/1 1/1\n1/1 1/1 1/1\n",
		       "belongs to player 3");
	expect_refused(2, "map\n1/1/1 1/1 1/1/2\n1/1 1/x 1/1\n1/1 1/1 1/1\n", "line 3: map: site 2");
	expect_refused(2, "map\n1/1/1 1/1 1/1/2\n1/1 1/1\n1/1 1/1 1/1\n", "a row of 2 sites");
	expect_refused(2, "map\n1/1/1 1/300 1/1/2\n1/1 1/1 1/1\n1/1 1/1 1/1\n", "site 2");
	expect_refused(2, "width 20\nmap\n1/1/1 1/1 1/1/2\n1/1 1/1 1/1\n1/1 1/1 1/1\n",
		       "leave out width and height");
	expect_refused(7, NULL, "2 to 6 players, not 7");
	expect_refused(6, "width 4\nheight 4\n", "cannot hold 6 players");
}

/* ---- replay -------------------------------------------------------------- */

Test(blitz_replay, the_header_is_the_first_map_and_rounds_give_the_moves)
{
	struct game_state *b = row_map(2, "0/0 5/30/1 7/9 0/0 0/5/2");
	move(b, 1, 1, 2, BZ_EAST);
	bz_advance(b);
	json_t *h = bz_replay_header(b);
	const char *owner = json_string_value(json_object_get(h, "owner"));
	const char *strength = json_string_value(json_object_get(h, "strength"));
	cr_assert(owner && strength);
	cr_expect(strncmp(owner + 10, "01002", 5) == 0, "row 2 of the first map: %.5s", owner + 10);
	cr_expect(strncmp(strength + 20, "001e0900", 8) == 0, "strengths: %.8s", strength + 20);
	json_decref(h);
	json_t *r = bz_replay_round(b);
	cr_expect_str_eq(json_string_value(json_object_get(r, "moves")), "11e");
	cr_expect_eq(json_integer_value(json_array_get(json_object_get(r, "land"), 0)), 2);
	json_decref(r);
	bz_free(b);
}
