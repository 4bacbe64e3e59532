/* test_bracket.c - elimination brackets (judge/event/bracket.c) and
 * groups scored by points (judge/event/points.c), played to their end on
 * fixed results and compared with standings computed by hand. */
#include <criterion/criterion.h>

#include <string.h>

#include "judge/event/bracket.h"
#include "judge/event/points.h"

#define MAXG 2048

/* Who wins a game between a and b: the smaller id, except where upset()
 * says otherwise. */
typedef int64_t (*game_rule)(int64_t first, int64_t second, int series, int game);

static int64_t favourite(int64_t a, int64_t b, int series, int game)
{
	(void)series, (void)game;
	return a < b ? a : b;
}

struct run {
	struct brk_rules rules;
	int64_t entrants[BRK_MAX];
	int n;
	struct brk_game games[MAXG];
	int ngames;
	int series_played[4 * BRK_MAX];
};

static struct brk_plan play_bracket(struct run *r, game_rule rule)
{
	err_t err;
	for (int step = 0;; step++) {
		struct brk_plan plan;
		cr_assert_eq(brk_plan(&r->rules, r->entrants, r->n, 99, r->games, r->ngames, &plan,
				      err), 0, "%s", err->msg);
		if (plan.done)
			return plan;
		cr_assert_gt(plan.ntodo, 0, "nothing to play, and the bracket is not over");
		cr_assert_lt(step, 200);
		for (int i = 0; i < plan.ntodo; i++) {
			const struct brk_todo *t = &plan.todo[i];
			cr_assert_lt(r->ngames, MAXG);
			r->series_played[t->series] = 1;
			r->games[r->ngames++] = (struct brk_game){
				t->series, t->game, rule(t->first, t->second, t->series, t->game) };
		}
		brk_plan_free(&plan);
	}
}

static void make_run(struct run *r, int n, bool dbl, int best_of, bool reset)
{
	memset(r, 0, sizeof *r);
	r->rules = (struct brk_rules){ .double_elim = dbl, .best_of = best_of, .reset = reset };
	r->n = n;
	for (int i = 0; i < n; i++)
		r->entrants[i] = i + 1; /* seed i + 1 is player i + 1 */
}

static int series_count(const struct run *r)
{
	int c = 0;
	for (int i = 0; i < 4 * BRK_MAX; i++)
		c += r->series_played[i];
	return c;
}

/* Sixteen teams, favourites always win.  By hand: the winners' bracket
 * sends 9-16 down in round 1, 5-8 in round 2, 3 and 4 in round 3, 2 in
 * the final; the losers' bracket then puts out 13-16, 9-12, 7-8, 5-6, 4
 * and 3 in turn; 1 beats 2 in the grand final, so no reset. */
Test(bracket, sixteen_team_double_elimination_by_hand)
{
	static struct run r;
	make_run(&r, 16, true, 3, true);
	struct brk_plan plan = play_bracket(&r, favourite);
	static const int want[16] = { 1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9, 13, 13, 13, 13 };
	for (int i = 0; i < 16; i++)
		cr_expect_eq(plan.place[i], want[i], "seed %d: place %d, by hand %d", i + 1,
			     plan.place[i], want[i]);
	cr_expect_eq(plan.champion, 1);
	cr_expect_eq(series_count(&r), 30, "2n - 2 series without a reset");
	cr_expect_eq(r.ngames, 60, "every series 2-0 in a best of 3");
	brk_plan_free(&plan);
}

/* 2 (the winners' bracket champion after beating 1) loses the grand final
 * to 1, who came through the losers' bracket: the reset is played. */
static int64_t two_beats_one_once(int64_t a, int64_t b, int series, int game)
{
	(void)game;
	bool pair = (a == 1 && b == 2) || (a == 2 && b == 1);
	if (pair && series == 2) /* the winners' final, series 2 of four teams */
		return 2;
	return a < b ? a : b;
}

Test(bracket, a_grand_final_reset_when_the_losers_champion_wins)
{
	static struct run r;
	make_run(&r, 4, true, 1, true);
	struct brk_plan plan = play_bracket(&r, two_beats_one_once);
	/* by hand: W1 1-4, 2-3 ; W final 2 beats 1 ; L1 3 beats 4 ; L2 1 beats 3 ;
	 * grand final 1 beats 2 ; reset 1 beats 2 */
	static const int want[4] = { 1, 2, 3, 4 };
	for (int i = 0; i < 4; i++)
		cr_expect_eq(plan.place[i], want[i], "seed %d: place %d", i + 1, plan.place[i]);
	cr_expect_eq(series_count(&r), 7, "six series and the reset");
	brk_plan_free(&plan);
}

/* Six entrants, single elimination: seeds 1 and 2 pass round 1 on byes. */
Test(bracket, single_elimination_with_byes)
{
	static struct run r;
	make_run(&r, 6, false, 1, false);
	struct brk_plan plan = play_bracket(&r, favourite);
	/* by hand: round 1 (1-bye) (4-5) (2-bye) (3-6): 5, 6 out; semis 1-4, 2-3:
	 * 3, 4 out; final 1-2 */
	static const int want[6] = { 1, 2, 3, 3, 5, 5 };
	for (int i = 0; i < 6; i++)
		cr_expect_eq(plan.place[i], want[i], "seed %d: place %d", i + 1, plan.place[i]);
	cr_expect_eq(r.ngames, 5, "byes are not played");
	brk_plan_free(&plan);
}

/* A best of 3 asks for two games, then a third only at 1-1; a drawn game
 * counts for nobody. */
Test(bracket, a_series_asks_only_for_the_games_that_can_decide_it)
{
	err_t err;
	struct brk_rules rules = { .best_of = 3 };
	int64_t two[] = { 7, 9 };
	struct brk_plan p;
	cr_assert_eq(brk_plan(&rules, two, 2, 1, NULL, 0, &p, err), 0);
	cr_expect_eq(p.ntodo, 2);
	cr_expect_eq(p.todo[0].first, 7);
	cr_expect_eq(p.todo[1].first, 9, "the seats alternate");
	brk_plan_free(&p);
	struct brk_game g[] = { { 0, 0, 7 }, { 0, 1, 9 } };
	cr_assert_eq(brk_plan(&rules, two, 2, 1, g, 2, &p, err), 0);
	cr_expect_eq(p.ntodo, 1);
	cr_expect_eq(p.todo[0].game, 2);
	brk_plan_free(&p);
	struct brk_game h[] = { { 0, 0, 7 }, { 0, 1, 9 }, { 0, 2, BRK_BYE } };
	cr_assert_eq(brk_plan(&rules, two, 2, 1, h, 3, &p, err), 0);
	cr_expect_eq(p.ntodo, 1, "a draw decides nothing");
	cr_expect_eq(p.todo[0].game, 3);
	brk_plan_free(&p);
	struct brk_game w[] = { { 0, 1, 9 }, { 0, 0, 9 } };
	cr_assert_eq(brk_plan(&rules, two, 2, 1, w, 2, &p, err), 0);
	cr_expect(p.done);
	cr_expect_eq(p.champion, 9);
	brk_plan_free(&p);
}

Test(bracket, refuses_a_game_it_did_not_plan)
{
	err_t err;
	struct brk_rules rules = { .best_of = 1 };
	int64_t four[] = { 1, 2, 3, 4 };
	struct brk_plan p;
	struct brk_game stranger[] = { { 0, 0, 3 } }; /* series 0 is 1 against 4 */
	cr_expect_eq(brk_plan(&rules, four, 4, 1, stranger, 1, &p, err), -1);
	cr_expect(strstr(err->msg, "did not play it"), "%s", err->msg);
	struct brk_game nowhere[] = { { 40, 0, 1 } };
	cr_expect_eq(brk_plan(&rules, four, 4, 1, nowhere, 1, &p, err), -1);
	cr_expect(strstr(err->msg, "does not have"), "%s", err->msg);
	rules.best_of = 2;
	cr_expect_eq(brk_plan(&rules, four, 4, 1, NULL, 0, &p, err), -1);
}

/* ---- groups scored by points ------------------------------------------- */

/* A Blitz round robin: groups of 2 to 6 players, each playing all its
 * matches together; ranks fixed by hand, points n..1 per place. */
Test(points, blitz_groups_of_two_to_six_by_hand)
{
	err_t err;
	for (int n = 2; n <= 6; n++) {
		int64_t members[6] = { 11, 12, 13, 14, 15, 16 };
		struct pts_match m[3];
		pts_schedule(members, n, 3, 5, m);
		/* each match: the player in seat s finishes s + 1th */
		for (int k = 0; k < 3; k++)
			for (int s = 0; s < n; s++)
				m[k].rank[s] = s + 1;
		struct pts_row rows[6];
		cr_assert_eq(pts_standings(members, n, m, 3, rows, err), 0, "%s", err->msg);
		/* seats rotate: member i sits in seat (i - k) mod n in match k */
		for (int i = 0; i < n; i++) {
			double want = 0;
			for (int k = 0; k < 3; k++)
				want += n - ((i - k + n) % n);
			for (int r = 0; r < n; r++)
				if (rows[r].who == members[i])
					cr_expect_eq(rows[r].points, want, "group of %d, member %d: %g "
						     "points, by hand %g", n, i, rows[r].points, want);
		}
		for (int r = 1; r < n; r++)
			cr_expect_geq(rows[r - 1].points, rows[r].points);
	}
}

/* The course's final: 4/3/2/1, four matches; ties share points. */
Test(points, a_course_final_with_ties)
{
	err_t err;
	int64_t g[4] = { 1, 2, 3, 4 };
	struct pts_match m[4];
	pts_schedule(g, 4, 4, 8, m);
	int ranks[4][4] = { { 1, 2, 3, 4 }, { 1, 1, 3, 4 }, { 2, 1, 4, 3 }, { 4, 3, 2, 1 } };
	for (int k = 0; k < 4; k++)
		memcpy(m[k].rank, ranks[k], sizeof ranks[k]);
	/* by hand, seat s of match k is member (s + k) % 4:
	 * match 0: 1:4 2:3 3:2 4:1          match 1: 2:3.5 3:3.5 4:2 1:1
	 * match 2: 3:3 4:4 1:1 2:2          match 3: 4:1 1:2 2:3 3:4
	 * totals: 1: 8, 2: 11.5, 3: 12.5, 4: 8; 1 and 4 tie on points and firsts
	 * (one each), so the group's order keeps 1 before 4 and they share 3rd */
	struct pts_row rows[4];
	cr_assert_eq(pts_standings(g, 4, m, 4, rows, err), 0, "%s", err->msg);
	int64_t want_who[4] = { 3, 2, 1, 4 };
	double want_pts[4] = { 12.5, 11.5, 8, 8 };
	int want_place[4] = { 1, 2, 3, 3 };
	for (int r = 0; r < 4; r++) {
		cr_expect_eq(rows[r].who, want_who[r], "row %d: %lld", r, (long long)rows[r].who);
		cr_expect_eq(rows[r].points, want_pts[r], "row %d: %g points", r, rows[r].points);
		cr_expect_eq(rows[r].place, want_place[r], "row %d: place %d", r, rows[r].place);
	}
	m[2].who[1] = 99;
	cr_expect_eq(pts_standings(g, 4, m, 4, rows, err), -1);
	cr_expect(strstr(err->msg, "not a member"), "%s", err->msg);
}

/* The drops of the winners' round 2 meet the losers' round 1 winners in
 * reverse order, so that two players do not meet again at once.  By hand
 * with favourites winning: losers' round 1 gives 9, 12, 10, 11; the
 * winners' round 2 drops 8, 5, 7, 6; reversed: 9-6, 12-7, 10-5, 11-8. */
Test(bracket, drops_meet_the_losers_bracket_in_reverse_order)
{
	static struct run r;
	err_t err;
	make_run(&r, 16, true, 1, true);
	int64_t want[4][2] = { { 9, 6 }, { 12, 7 }, { 10, 5 }, { 11, 8 } };
	int seen = 0;
	for (int step = 0; step < 20 && !seen; step++) {
		struct brk_plan plan;
		cr_assert_eq(brk_plan(&r.rules, r.entrants, 16, 3, r.games, r.ngames, &plan, err), 0);
		for (int i = 0; i < plan.ntodo; i++) {
			const struct brk_todo *t = &plan.todo[i];
			if (t->bracket == 'L' && t->round == 2) {
				bool found = false;
				for (int k = 0; k < 4; k++)
					found |= (t->first == want[k][0] && t->second == want[k][1]) ||
						 (t->first == want[k][1] && t->second == want[k][0]);
				cr_expect(found, "losers' round 2 pairs %lld with %lld",
					  (long long)t->first, (long long)t->second);
				seen++;
			}
			r.games[r.ngames++] = (struct brk_game){ t->series, t->game,
								 favourite(t->first, t->second, 0, 0) };
		}
		brk_plan_free(&plan);
	}
	cr_expect_eq(seen, 4);
}

/* ---- forecasts ------------------------------------------------------------ */

#include "judge/event/forecast.h"

Test(forecast, groups_are_counted_exactly)
{
	err_t err;
	struct forecast f;
	cr_assert_eq(forecast_groups(4, 4, 5, 5, 3, &f, err), 0, "%s", err->msg);
	cr_expect(f.exact);
	cr_expect_eq(f.matches, 25);
	cr_expect_eq(f.waves, 7 + 2, "20 matches on 3 slots, then 5");
}

Test(forecast, a_bracket_through_its_own_rules)
{
	err_t err;
	struct forecast f;
	struct brk_rules single = { .best_of = 1 };
	cr_assert_eq(forecast_bracket(&single, 16, 64, 10, 1, &f, err), 0, "%s", err->msg);
	cr_expect_eq(f.matches, 15);
	cr_expect_eq(f.waves, 4, "four rounds when every series can run at once");
	struct brk_rules dbl = { .double_elim = true, .best_of = 1, .reset = true };
	cr_assert_eq(forecast_bracket(&dbl, 16, 1, 40, 2, &f, err), 0, "%s", err->msg);
	cr_expect(f.matches > 30 && f.matches < 31, "%g: 30, or 31 with a reset", f.matches);
	cr_expect_eq(f.waves, f.matches, "one slot plays one match at a time");
}

/* Every round puts exactly one student out: 40 down to 11 is 29 rounds;
 * each round is at least the first stage's 10 matches (fewer as the field
 * shrinks) and one final match. */
Test(forecast, an_elimination_through_its_own_rules)
{
	err_t err;
	struct elim_rules rules = elim_rules_course();
	struct forecast a, b;
	cr_assert_eq(forecast_elimination(&rules, 40, 11, 4, 5, 7, &a, err), 0, "%s", err->msg);
	cr_expect(!a.exact);
	cr_expect_eq(a.rounds, 29);
	double least = 0;
	for (int n = 40; n > 11; n--)
		least += (n + 3) / 4 + 1;
	cr_expect_geq(a.matches, least, "%g matches, at least %g", a.matches, least);
	cr_expect_lt(a.matches, 4 * least);
	cr_expect_lt(a.waves, a.matches, "four slots play stages in parallel");
	cr_assert_eq(forecast_elimination(&rules, 40, 11, 4, 5, 7, &b, err), 0);
	cr_expect_eq(a.matches, b.matches, "the same seed, the same forecast");
	cr_expect_eq(forecast_elimination(&rules, 10, 11, 4, 5, 7, &a, err), -1);
}
