/* elimination.c - the course's elimination round (elimination.h). */
#include "judge/event/elimination.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kit/rng.h"
#include "games/seed.h"

struct elim_rules elim_rules_course(void)
{
	return (struct elim_rules){ .seats = 4, .beats = 2, .max_stages = 10 };
}

/* The students still in play at a stage, ascending ids: the order the
 * draws start from, whatever order the caller gave. */
struct pool {
	int64_t *id;
	int n;
};

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static uint64_t stage_seed(uint64_t seed, int stage)
{
	return seed_derive(seed, "elimination stage", (unsigned)stage);
}

/* Stage `stage`'s groups: the pool shuffled, cut `seats` at a time, the
 * last group filled with Dummies.  groups holds ngroups * seats ids. */
static void make_groups(const struct elim_rules *r, const struct pool *p, uint64_t seed,
			int stage, int64_t *groups, int *ngroups)
{
	int order[p->n];
	struct rng rng = rng_seeded(seed_derive(stage_seed(seed, stage), "groups", 0));
	rng_permutation(&rng, order, p->n);
	*ngroups = (p->n + r->seats - 1) / r->seats;
	for (int i = 0; i < *ngroups * r->seats; i++)
		groups[i] = i < p->n ? p->id[order[i]] : ELIM_DUMMY;
}

static const struct elim_result *find_result(const struct elim_result *res, int nres,
					     int stage, int group)
{
	for (int i = 0; i < nres; i++)
		if (res[i].stage == stage && res[i].group == group)
			return &res[i];
	return NULL;
}

/* How many of the match's other seats seat i scored better than; with
 * students_only, Dummies are not counted. */
static int beaten(const struct elim_rules *r, const int64_t *who, const int64_t *score, int i,
		  bool students_only)
{
	int n = 0;
	for (int j = 0; j < r->seats; j++)
		if (j != i && (!students_only || who[j] != ELIM_DUMMY) && score[i] > score[j])
			n++;
	return n;
}

/* The student behind every other student of the final match, or 0. */
static int64_t final_loser(const struct elim_rules *r, const int64_t *who, const int64_t *score)
{
	int students = 0;
	for (int j = 0; j < r->seats; j++)
		students += who[j] != ELIM_DUMMY;
	for (int i = 0; i < r->seats; i++) {
		if (who[i] == ELIM_DUMMY)
			continue;
		int behind = 0;
		for (int j = 0; j < r->seats; j++)
			behind += j != i && who[j] != ELIM_DUMMY && score[i] < score[j];
		if (behind == students - 1)
			return who[i];
	}
	return 0;
}

static void mark_safe(const int64_t *survivors, int n, int64_t id, int stage, int *safe_stage)
{
	for (int i = 0; i < n; i++)
		if (survivors[i] == id)
			safe_stage[i] = stage;
}

static void drop(struct pool *p, int64_t id)
{
	for (int i = 0; i < p->n; i++)
		if (p->id[i] == id) {
			memmove(p->id + i, p->id + i + 1, (size_t)(p->n - i - 1) * sizeof *p->id);
			p->n--;
			return;
		}
}

static bool todo_add(struct elim_plan *plan, const struct elim_rules *r, int stage, int group,
		     const int64_t *who, uint64_t seed)
{
	struct elim_match *m = realloc(plan->todo, (size_t)(plan->ntodo + 1) * sizeof *m);
	if (!m)
		return false;
	plan->todo = m;
	m += plan->ntodo++;
	*m = (struct elim_match){ .stage = stage, .group = group,
				  .seed = seed_derive(stage_seed(seed, stage), "match",
						      (unsigned)group) >> 2 };
	memcpy(m->who, who, (size_t)r->seats * sizeof *who);
	return true;
}

static bool safe_seat(const struct elim_rules *r, const int64_t *who, const int64_t *score, int i)
{
	return who[i] != ELIM_DUMMY && beaten(r, who, score, i, false) >= r->beats;
}

/* One stage: its missing matches into plan->todo (then 0), or, recorded
 * whole, its outcome: the safe leave the pool, or the final's loser is
 * out.  1 when the stage is decided, 0 when it waits, -1 out of memory. */
static int play_stage(const struct elim_rules *r, const int64_t *survivors, int n, uint64_t seed,
		      const struct elim_result *res, int nres, struct pool *pool, int stage,
		      struct elim_plan *plan)
{
	int64_t groups[pool->n + r->seats];
	int ngroups;
	make_groups(r, pool, seed, stage, groups, &ngroups);
	const struct elim_result *found[ngroups];
	for (int g = 0; g < ngroups; g++) {
		found[g] = find_result(res, nres, stage, g);
		if (!found[g] && !todo_add(plan, r, stage, g, groups + g * r->seats, seed))
			return -1;
	}
	bool final = pool->n <= r->seats;
	/* safe as soon as its match is recorded: the stage's other matches
	 * cannot change that, and a watcher sees it at once */
	for (int g = 0; g < ngroups && !final; g++)
		for (int i = 0; found[g] && i < r->seats; i++) {
			const int64_t *who = groups + g * r->seats;
			if (safe_seat(r, who, found[g]->score, i))
				mark_safe(survivors, n, who[i], stage, plan->safe_stage);
		}
	if (plan->ntodo > 0)
		return 0;
	for (int g = 0; g < ngroups; g++) {
		const int64_t *who = groups + g * r->seats;
		if (final) {
			plan->out = final_loser(r, who, found[g]->score);
			continue;
		}
		for (int i = 0; i < r->seats; i++)
			if (safe_seat(r, who, found[g]->score, i))
				drop(pool, who[i]);
	}
	return 1;
}

static int check_args(const struct elim_rules *r, const int64_t *survivors, int n,
		      err_t err)
{
	if (r->seats < 2 || r->seats > ELIM_SEATS_MAX || r->beats < 1 || r->beats >= r->seats ||
	    r->max_stages < 1) {
		err_set(err, "elimination rules out of range: %d seats, safe above %d "
			 "rivals, %d stages", r->seats, r->beats, r->max_stages);
		return -1;
	}
	if (n < 1) {
		err_set(err, "an elimination round needs at least one survivor");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		bool twice = false;
		for (int j = 0; j < i; j++)
			twice |= survivors[j] == survivors[i];
		if (survivors[i] <= 0 || twice) {
			err_set(err, "survivor %lld is %s", (long long)survivors[i],
				 twice ? "listed twice" : "not a student id");
			return -1;
		}
	}
	return 0;
}

/* A result the plan never asked for means the record and the rule
 * disagree: said, never ignored. */
static int check_results(const struct elim_result *res, int nres, const struct elim_plan *plan,
			 err_t err)
{
	for (int i = 0; i < nres; i++)
		if (res[i].stage > plan->stage || res[i].stage < 0 || res[i].group < 0) {
			err_set(err, "a result for stage %d, group %d fits no planned "
				 "match (the round is at stage %d)", res[i].stage, res[i].group,
				 plan->stage);
			return -1;
		}
	return 0;
}

static void draw_out(const struct pool *pool, uint64_t seed, int stage, struct elim_plan *plan)
{
	struct rng rng = rng_seeded(seed_derive(stage_seed(seed, stage), "draw", 0));
	plan->out = pool->id[rng_uniform(&rng, 0, pool->n - 1)];
	plan->by_draw = true;
}

static int walk_stages(const struct elim_rules *r, const int64_t *survivors, int n,
		       uint64_t seed, const struct elim_result *res, int nres, struct pool *pool,
		       struct elim_plan *plan)
{
	for (int stage = 0, idle = 0;; stage++) {
		plan->stage = stage;
		if (pool->n == 1) {
			plan->out = pool->id[0];
			return 0;
		}
		if (idle >= r->max_stages) {
			draw_out(pool, seed, stage, plan);
			return 0;
		}
		int before = pool->n;
		int rc = play_stage(r, survivors, n, seed, res, nres, pool, stage, plan);
		if (rc <= 0 || plan->out > 0)
			return rc < 0 ? -1 : 0;
		idle = pool->n < before ? 0 : idle + 1;
	}
}

int elim_plan(const struct elim_rules *r, const int64_t *survivors, int n, uint64_t seed,
	      const struct elim_result *res, int nres, struct elim_plan *plan,
	      err_t err)
{
	*plan = (struct elim_plan){ 0 };
	if (check_args(r, survivors, n, err) < 0)
		return -1;
	struct pool pool = { malloc((size_t)n * sizeof *pool.id), n };
	plan->safe_stage = malloc((size_t)n * sizeof *plan->safe_stage);
	int rc = pool.id && plan->safe_stage ? 0 : -1;
	if (rc == 0) {
		memcpy(pool.id, survivors, (size_t)n * sizeof *pool.id);
		qsort(pool.id, (size_t)n, sizeof *pool.id, cmp_id);
		for (int i = 0; i < n; i++)
			plan->safe_stage[i] = -1;
		rc = walk_stages(r, survivors, n, seed, res, nres, &pool, plan);
		if (rc < 0)
			err_set(err, "out of memory planning an elimination round");
	}
	free(pool.id);
	if (rc == 0)
		rc = check_results(res, nres, plan, err);
	if (rc < 0)
		elim_plan_free(plan);
	return rc;
}

void elim_plan_free(struct elim_plan *plan)
{
	free(plan->todo);
	free(plan->safe_stage);
	*plan = (struct elim_plan){ 0 };
}
