/* test_elimination.c - the course's elimination round (judge/event/elimination.c),
 * played to its end with simulated scores, then re-checked from the
 * recorded matches alone by the rule written here again. */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "judge/event/elimination.h"

#define MAXN 320
#define MAXRES 4096

struct round {
	struct elim_rules rules;
	int64_t survivors[MAXN];
	int n;
	uint64_t seed;
	struct elim_result res[MAXRES];
	struct elim_match played[MAXRES]; /* the seats of res[i] */
	int nres;
};

/* A student's score in a match: its strength plus a little luck from the
 * match's seed; a Dummy plays as strength 50.  ties: every seat scores 0. */
static int64_t simulated_score(int64_t who, uint64_t match_seed, int seat, bool ties)
{
	if (ties)
		return 0;
	int64_t strength = who == ELIM_DUMMY ? 50 : (who * 37) % 100;
	return strength * 10 + (int64_t)((match_seed >> (seat * 8)) % 300);
}

static void record(struct round *r, const struct elim_match *m, bool ties)
{
	cr_assert_lt(r->nres, MAXRES, "the round never ends");
	struct elim_result *out = &r->res[r->nres];
	*out = (struct elim_result){ .stage = m->stage, .group = m->group };
	for (int i = 0; i < r->rules.seats; i++)
		out->score[i] = simulated_score(m->who[i], m->seed, i, ties);
	r->played[r->nres++] = *m;
}

/* Plays the round as a worker would, a stage at a time; returns the plan
 * that decided it. */
static struct elim_plan play_round(struct round *r, bool ties)
{
	err_t err;
	for (;;) {
		struct elim_plan plan;
		cr_assert_eq(elim_plan(&r->rules, r->survivors, r->n, r->seed, r->res, r->nres,
				       &plan, err), 0, "%s", err->msg);
		if (plan.out > 0)
			return plan;
		cr_assert_gt(plan.ntodo, 0, "no match to play and nobody out");
		for (int i = 0; i < plan.ntodo; i++)
			record(r, &plan.todo[i], ties);
		elim_plan_free(&plan);
	}
}

static void make_round(struct round *r, int n, uint64_t seed)
{
	memset(r, 0, sizeof *r);
	r->rules = elim_rules_course();
	r->n = n;
	r->seed = seed;
	for (int i = 0; i < n; i++)
		r->survivors[i] = 1000 + (i * 7919) % 5003; /* ids in no particular order */
}

static bool in_set(const int64_t *set, int n, int64_t id)
{
	for (int i = 0; i < n; i++)
		if (set[i] == id)
			return true;
	return false;
}

/* ---- the rule again, from the record ---------------------------------- */

/* Checks that the recorded matches follow the rule and that the plan's
 * outcome is the one they give: each stage seats exactly the students not
 * yet safe (Dummies only to fill the last group), a student is safe when
 * it beat two of its three rivals, and the student out finished behind
 * every other student of the last match. */
static void recheck(const struct round *r, const struct elim_plan *plan)
{
	int64_t pool[MAXN];
	int npool = r->n;
	memcpy(pool, r->survivors, sizeof pool);
	int last = -1;
	for (int stage = 0; stage <= plan->stage && npool > 1; stage++) {
		int seated = 0, dummies = 0, matches = 0;
		int64_t safe[MAXN];
		int nsafe = 0;
		for (int k = 0; k < r->nres; k++) {
			const struct elim_match *m = &r->played[k];
			if (m->stage != stage)
				continue;
			matches++;
			last = k;
			for (int i = 0; i < 4; i++) {
				if (m->who[i] == ELIM_DUMMY) {
					dummies++;
					continue;
				}
				cr_assert(in_set(pool, npool, m->who[i]),
					  "stage %d seats %lld, who is not in play", stage,
					  (long long)m->who[i]);
				seated++;
				int better = 0;
				for (int j = 0; j < 4; j++)
					better += j != i && r->res[k].score[i] > r->res[k].score[j];
				if (better >= 2 && npool > 4)
					safe[nsafe++] = m->who[i];
			}
		}
		cr_assert_eq(seated, npool, "stage %d seats %d of the %d in play", stage, seated,
			     npool);
		cr_assert_lt(dummies, 4, "stage %d has a match of Dummies only", stage);
		cr_assert_eq(matches, (npool + 3) / 4, "stage %d: %d matches for %d students", stage,
			     matches, npool);
		for (int i = 0; i < r->n; i++) {
			bool now = in_set(safe, nsafe, r->survivors[i]);
			cr_assert_eq(plan->safe_stage[i] == stage, now,
				     "student %lld: safe at stage %d says the plan, %s says the rule",
				     (long long)r->survivors[i], plan->safe_stage[i],
				     now ? "this stage" : "not this stage");
		}
		int kept = 0;
		for (int i = 0; i < npool; i++)
			if (!in_set(safe, nsafe, pool[i]))
				pool[kept++] = pool[i];
		npool = kept;
	}
	cr_assert(in_set(pool, npool, plan->out), "the student out was safe");
	if (plan->by_draw || npool == 1) /* the one left unsafe needs no match */
		return;
	cr_assert_leq(npool, 4, "%d students left at the end", npool);
	const struct elim_match *m = &r->played[last];
	int out_seat = -1;
	for (int i = 0; i < 4; i++)
		if (m->who[i] == plan->out)
			out_seat = i;
	cr_assert_geq(out_seat, 0, "the student out did not play the last match");
	for (int j = 0; j < 4; j++)
		if (j != out_seat && m->who[j] != ELIM_DUMMY)
			cr_assert_lt(r->res[last].score[out_seat], r->res[last].score[j],
				     "the student out did not finish behind seat %d", j);
}

/* ---- tests ---------------------------------------------------------------- */

Test(elimination, a_round_of_each_size_follows_the_rule)
{
	static struct round r;
	for (int n = 1; n <= 41; n++)
		for (uint64_t seed = 1; seed <= 5; seed++) {
			make_round(&r, n, seed * 1000 + (uint64_t)n);
			struct elim_plan plan = play_round(&r, false);
			cr_assert(!plan.by_draw, "%d students, seed %llu: decided by a draw", n,
				  (unsigned long long)seed);
			recheck(&r, &plan);
			elim_plan_free(&plan);
		}
}

Test(elimination, three_hundred_students)
{
	static struct round r;
	make_round(&r, 300, 77);
	struct elim_plan plan = play_round(&r, false);
	recheck(&r, &plan);
	cr_expect_gt(plan.stage, 3, "300 students decided in %d stages", plan.stage + 1);
	elim_plan_free(&plan);
}

/* A worker killed in the middle of a stage: the plan made from what was
 * recorded asks for exactly the stage's other matches, the same ones. */
Test(elimination, a_partial_record_asks_for_the_rest_of_the_stage)
{
	static struct round r;
	err_t err;
	make_round(&r, 23, 5);
	struct elim_plan first, again;
	cr_assert_eq(elim_plan(&r.rules, r.survivors, r.n, r.seed, NULL, 0, &first, err), 0);
	cr_assert_eq(first.ntodo, 6);
	record(&r, &first.todo[4], false);
	record(&r, &first.todo[1], false);
	cr_assert_eq(elim_plan(&r.rules, r.survivors, r.n, r.seed, r.res, r.nres, &again, err), 0);
	cr_assert_eq(again.ntodo, 4);
	int k = 0;
	for (int i = 0; i < first.ntodo; i++)
		if (i != 1 && i != 4)
			cr_expect_eq(memcmp(&again.todo[k++], &first.todo[i], sizeof first.todo[i]), 0,
				     "match %d of the stage changed", i);
	elim_plan_free(&first);
	elim_plan_free(&again);
}

/* The order results arrive in, and the order of the survivors, change
 * nothing. */
Test(elimination, the_same_record_in_any_order_gives_the_same_plan)
{
	static struct round r, shuffled;
	err_t err;
	make_round(&r, 37, 9);
	struct elim_plan plan = play_round(&r, false);
	shuffled = r;
	for (int i = 0; i < r.nres; i++) {
		shuffled.res[i] = r.res[r.nres - 1 - i];
		shuffled.played[i] = r.played[r.nres - 1 - i];
	}
	for (int i = 0; i < r.n; i++)
		shuffled.survivors[i] = r.survivors[r.n - 1 - i];
	struct elim_plan again;
	cr_assert_eq(elim_plan(&shuffled.rules, shuffled.survivors, shuffled.n, shuffled.seed,
			       shuffled.res, shuffled.nres, &again, err), 0, "%s", err->msg);
	cr_expect_eq(again.out, plan.out);
	cr_expect_eq(again.stage, plan.stage);
	for (int i = 0; i < r.n; i++)
		cr_expect_eq(again.safe_stage[r.n - 1 - i], plan.safe_stage[i]);
	elim_plan_free(&plan);
	elim_plan_free(&again);
}

Test(elimination, another_seed_draws_other_groups)
{
	err_t err;
	static struct round r;
	make_round(&r, 16, 1);
	struct elim_plan a, b;
	cr_assert_eq(elim_plan(&r.rules, r.survivors, r.n, 1, NULL, 0, &a, err), 0);
	cr_assert_eq(elim_plan(&r.rules, r.survivors, r.n, 2, NULL, 0, &b, err), 0);
	bool same = true;
	for (int i = 0; i < a.ntodo; i++)
		same &= memcmp(a.todo[i].who, b.todo[i].who, sizeof a.todo[i].who) == 0;
	cr_expect(!same, "two seeds, the same groups");
	cr_expect_neq(a.todo[0].seed, b.todo[0].seed);
	elim_plan_free(&a);
	elim_plan_free(&b);
}

/* Players that always tie never separate: after max_stages stages without
 * progress, a draw decides, and says so. */
Test(elimination, endless_ties_end_by_a_draw)
{
	static struct round r;
	make_round(&r, 9, 4);
	r.rules.max_stages = 5;
	struct elim_plan plan = play_round(&r, true);
	cr_expect(plan.by_draw);
	cr_expect(in_set(r.survivors, r.n, plan.out));
	cr_expect_eq(plan.stage, 5);
	elim_plan_free(&plan);
}

Test(elimination, a_single_survivor_is_out_without_a_match)
{
	err_t err;
	int64_t one = 42;
	struct elim_rules rules = elim_rules_course();
	struct elim_plan plan;
	cr_assert_eq(elim_plan(&rules, &one, 1, 3, NULL, 0, &plan, err), 0);
	cr_expect_eq(plan.out, 42);
	cr_expect_eq(plan.ntodo, 0);
	elim_plan_free(&plan);
}

Test(elimination, refuses_what_the_rule_cannot_read)
{
	err_t err;
	struct elim_rules rules = elim_rules_course();
	struct elim_plan plan;
	int64_t twice[] = { 3, 4, 3 };
	cr_expect_eq(elim_plan(&rules, twice, 3, 1, NULL, 0, &plan, err), -1);
	cr_expect(strstr(err->msg, "listed twice"), "%s", err->msg);
	int64_t ok[] = { 3, 4, 5, 6, 7 };
	struct elim_result stray = { .stage = 3, .group = 0 };
	cr_expect_eq(elim_plan(&rules, ok, 5, 1, &stray, 1, &plan, err), -1);
	cr_expect(strstr(err->msg, "fits no planned match"), "%s", err->msg);
	rules.beats = 4;
	cr_expect_eq(elim_plan(&rules, ok, 5, 1, NULL, 0, &plan, err), -1);
	cr_expect(strstr(err->msg, "out of range"), "%s", err->msg);
}
