/* test_blitz_map.c - Blitz2018's generated maps and the fog of war.
 *
 * Maps: every player's surroundings are player 1's up to a mirror, for
 * every player count and several sizes, square or not; never larger than
 * asked; start sites produce; over 100 seeds the statistics of Halite I's
 * generator (issue 14) hold within 10 %.  Fog: a view holds exactly the
 * sites within the radius of the player's own (checked by brute force with
 * the wrapped distance), on square and non-square maps. */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/blitz/bz.h"

static struct game_state *generated(int width, int height, int players, uint64_t seed)
{
	char text[128];
	err_t err = {0};
	snprintf(text, sizeof text, "width %d\nheight %d\n", width, height);
	struct game_state *b = bz_new_players(text, seed, players, err);
	cr_assert_not_null(b, "%d x %d, %d players: %s", width, height, players, err);
	return b;
}

static int wrap(int v, int n)
{
	return ((v % n) + n) % n;
}

/* The site dx, dy away from s, mirrored by (mx, my) = +-1. */
static int offset(const struct game_state *b, int s, int dx, int dy, int mx, int my)
{
	return wrap(s / b->width + my * dy, b->height) * b->width +
	       wrap(s % b->width + mx * dx, b->width);
}

/* Player p's map seen from its start is player 0's under one mirror. */
static bool alike(const struct game_state *b, int p)
{
	for (int m = 0; m < 4; m++) {
		int mx = m & 1 ? -1 : 1, my = m & 2 ? -1 : 1;
		bool same = true;
		for (int dy = 0; same && dy < b->height; dy++)
			for (int dx = 0; same && dx < b->width; dx++) {
				int a = offset(b, b->start[0], dx, dy, 1, 1);
				int c = offset(b, b->start[p], dx, dy, mx, my);
				same = b->production[a] == b->production[c] &&
				       b->strength[a] == b->strength[c] &&
				       (b->owner[a] == 0) == (b->owner[c] == 0);
			}
		if (same)
			return true;
	}
	return false;
}

Test(blitz_map, every_player_has_the_same_surroundings_up_to_a_mirror)
{
	static const int sizes[][2] = { { 30, 30 }, { 40, 40 }, { 50, 50 }, { 31, 23 }, { 20, 45 } };
	for (int players = 2; players <= 6; players++)
		for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
			for (uint64_t seed = 1; seed <= 6; seed++) {
				struct game_state *b = generated(sizes[z][0], sizes[z][1], players, seed);
				cr_expect(b->width <= sizes[z][0] && b->height <= sizes[z][1],
					  "%d x %d asked, %d x %d made", sizes[z][0], sizes[z][1],
					  b->width, b->height);
				for (int p = 0; p < players; p++) {
					cr_expect_eq(b->owner[b->start[p]], p + 1);
					cr_expect_geq(b->production[b->start[p]], 1);
					cr_expect(alike(b, p), "%d x %d, %d players, seed %llu: player "
						  "%d's surroundings differ from player 1's",
						  b->width, b->height, players,
						  (unsigned long long)seed, p + 1);
				}
				bz_free(b);
			}
}

Test(blitz_map, the_same_seed_gives_the_same_map)
{
	struct game_state *a = generated(30, 30, 4, 9), *b = generated(30, 30, 4, 9);
	struct game_state *c = generated(30, 30, 4, 10);
	cr_expect(memcmp(a->production, b->production, sizeof a->production) == 0 &&
		  memcmp(a->strength, b->strength, sizeof a->strength) == 0);
	cr_expect(memcmp(a->production, c->production, sizeof a->production) != 0);
	bz_free(a);
	bz_free(b);
	bz_free(c);
}

Test(blitz_map, a_range_of_sizes_draws_each_matchs_from_its_seed)
{
	const char *range = "size_min 20\nsize_max 50\n";
	err_t err = {0};
	bool seen[BZ_MAX_SIDE + 1] = { false };
	int kinds = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct game_state *b = bz_new_players(range, seed, 2, err);
		cr_assert_not_null(b, "%s", err);
		struct game_state *again = bz_new_players(range, seed, 2, err);
		cr_assert_not_null(again, "%s", err);
		/* never larger than drawn, a little smaller where the tiling needs */
		cr_expect(b->width >= 18 && b->width <= 50 && b->height >= 18 && b->height <= 50,
			  "seed %llu: %d x %d", (unsigned long long)seed, b->width, b->height);
		cr_expect_eq(again->width, b->width, "the seed fixes the size");
		kinds += !seen[b->width];
		seen[b->width] = true;
		bz_free(b);
		bz_free(again);
	}
	cr_expect_geq(kinds, 10, "40 matches drew only %d sizes", kinds);
	const char *bad[][2] = {
		{ "size_min 20\n", "line 1: size_max: missing" },
		{ "size_min 30\nsize_max 20\n", "line 2: size_max: 20, less than size_min 30" },
		{ "width 30\nsize_min 20\nsize_max 50\n", "line 2: size_min: a range of sizes" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_null(bz_new_players(bad[i][0], 1, 2, err), "%s", bad[i][0]);
		cr_expect_eq(strncmp(err->msg, bad[i][1], strlen(bad[i][1])), 0, "%s", err->msg);
	}
}

Test(blitz_map, two_players_get_the_size_asked)
{
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct game_state *b = generated(30, 30, 2, seed);
		cr_expect(b->width == 30 && b->height == 30, "%d x %d", b->width, b->height);
		bz_free(b);
	}
}

struct stats {
	double production, strength, zero;
	int min_max, max_max;
};

static struct stats statistics(int side, int players)
{
	struct stats st = { 0, 0, 0, 255, 0 };
	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct game_state *b = generated(side, side, players, seed);
		double prod = 0, str = 0, zero = 0;
		int max = 0;
		for (int s = 0; s < b->sites; s++) {
			prod += b->production[s];
			str += b->strength[s];
			zero += b->production[s] == 0;
			max = b->production[s] > max ? b->production[s] : max;
		}
		st.production += prod / b->sites / 100;
		st.strength += str / b->sites / 100;
		st.zero += zero / b->sites / 100;
		st.min_max = max < st.min_max ? max : st.min_max;
		st.max_max = max > st.max_max ? max : st.max_max;
		bz_free(b);
	}
	return st;
}

static void expect_near(double got, double want, const char *what)
{
	cr_expect(got >= want * 0.9 && got <= want * 1.1, "%s: %.3f, Halite's %.3f (10 %%)", what,
		  got, want);
}

Test(blitz_map, statistics_over_100_seeds_are_halites, .timeout = 60)
{
	struct stats a = statistics(30, 2), b = statistics(40, 4);
	expect_near(a.production, 3.2, "mean production, 30 x 30, 2 players");
	expect_near(b.production, 3.4, "mean production, 40 x 40, 4 players");
	for (int i = 0; i < 2; i++) {
		const struct stats *st = i ? &b : &a;
		cr_expect(st->min_max >= 6 && st->max_max <= 15, "maximum production %d..%d",
			  st->min_max, st->max_max);
		cr_expect(st->zero >= 0.009 && st->zero <= 0.022,
			  "%.2f %% of sites produce nothing (1-2 %%)", 100 * st->zero);
		cr_expect(st->strength >= 64 * 0.9 && st->strength <= 70 * 1.1,
			  "mean strength %.1f (64-70)", st->strength);
	}
}

/* ---- fog ----------------------------------------------------------------- */

/* Moves every piece of every player a pseudo-random way, t turns. */
static void play_randomly(struct game_state *b, int turns, struct rng *r)
{
	for (int t = 0; t < turns && !bz_over(b); t++) {
		for (int s = 0; s < b->sites; s++)
			if (b->owner[s] && b->strength[s] > 20)
				b->order[s] = (uint8_t)rng_uniform(r, 0, 4);
		bz_advance(b);
	}
}

/* The view holds the truth within the radius of an own site, 0 beyond. */
static void expect_fogged_view(const struct game_state *b, int player)
{
	static struct bz_msg_view v;
	bz_view_build(b, player, &v);
	int r = b->p.fog;
	for (int s = 0; s < b->sites; s++) {
		bool near = false;
		for (int t = 0; !near && t < b->sites; t++)
			near = b->owner[t] == player + 1 && bz_dist2(b->width, b->height, s, t) <= r * r;
		const struct bz_site *got = &v.site[s];
		if (near)
			cr_assert(got->owner == b->owner[s] && got->strength == b->strength[s] &&
					  got->production == b->production[s],
				  "player %d: site (%d, %d) is in sight but not sent as it is",
				  player + 1, s % b->width, s / b->width);
		else
			cr_assert(got->owner == 0 && got->strength == 0 && got->production == 0,
				  "player %d: site (%d, %d) is beyond radius %d but sent (%d %d %d)",
				  player + 1, s % b->width, s / b->width, r, got->owner, got->strength,
				  got->production);
	}
}

Test(blitz_fog, a_view_holds_exactly_the_sites_within_the_radius, .timeout = 60)
{
	static const int shapes[][3] = { { 30, 30, 2 }, { 40, 20, 3 }, { 21, 36, 4 }, { 48, 30, 6 } };
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		char text[128];
		err_t err = {0};
		int radius = 2 + (int)i;
		snprintf(text, sizeof text, "width %d\nheight %d\nfog %d\n", shapes[i][0],
			 shapes[i][1], radius);
		struct game_state *b = bz_new_players(text, 3 + i, shapes[i][2], err);
		cr_assert_not_null(b, "%s", err);
		struct rng r = rng_seeded(i + 1);
		for (int round = 0; round < 4; round++) {
			for (int p = 0; p < b->players; p++)
				expect_fogged_view(b, p);
			play_randomly(b, 15, &r);
		}
		bz_free(b);
	}
}

Test(blitz_fog, radius_2_is_the_13_site_diamond)
{
	err_t err = {0};
	struct game_state *b = bz_new_players("width 20\nheight 20\nfog 2\n", 4, 2, err);
	cr_assert_not_null(b, "%s", err);
	bool seen[BZ_MAX_SITES];
	bz_visible(b, 0, seen);
	int n = 0;
	for (int s = 0; s < b->sites; s++)
		n += seen[s];
	cr_expect_eq(n, 13, "one piece sees %d sites", n);
	bz_free(b);
}

Test(blitz_fog, radius_0_or_beyond_the_map_is_no_fog)
{
	const char *texts[] = { "width 24\nheight 18\nfog 0\n", "width 24\nheight 18\nfog 16\n" };
	for (int i = 0; i < 2; i++) {
		err_t err = {0};
		struct game_state *b = bz_new_players(texts[i], 4, 3, err);
		cr_assert_not_null(b, "%s", err);
		bool seen[BZ_MAX_SITES];
		bz_visible(b, 1, seen);
		for (int s = 0; s < b->sites; s++)
			cr_assert(seen[s], "%s: site %d fogged", texts[i], s);
		bz_free(b);
	}
}

Test(blitz_fog, a_site_seen_before_goes_back_into_fog)
{
	/* Player 1's 0-strength piece at (1, 1) sees (2, 1), then dies next to
	 * player 2's; its 60 at (5, 2) is too far to see (2, 1). */
	err_t err = {0};
	struct game_state *b = bz_new_players("fog 1\nmap\n"
					    "0/0 0/0 0/0 0/0 0/0 0/0\n"
					    "0/0 0/0/1 3/7 0/0 0/0 0/0\n"
					    "0/0 0/20/2 0/0 0/0 0/0 0/60/1\n",
					    1, 2, err);
	cr_assert_not_null(b, "%s", err);
	static struct bz_msg_view v;
	bz_view_build(b, 0, &v);
	cr_expect(v.site[8].production == 3 && v.site[8].strength == 7, "(2, 1) is in sight");
	bz_advance(b);
	cr_assert_eq(b->owner[7], 0, "the 0-strength piece died");
	bz_view_build(b, 0, &v);
	cr_expect(v.site[8].production == 0 && v.site[8].strength == 0, "(2, 1) fogged again");
	bz_free(b);
}
