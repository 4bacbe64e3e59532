/* forecast.c - a tournament phase's matches and time, before it runs
 * (forecast.h). */
#include "judge/event/forecast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kit/rng.h"
#include "games/seed.h"

static double waves_of(int matches, int slots)
{
	return (double)((matches + slots - 1) / slots);
}

static int check_common(int slots, int trials, err_t err)
{
	if (slots < 1 || trials < 1) {
		err_set(err, "a forecast needs at least one worker slot and one "
			 "trial (%d slots, %d trials)", slots, trials);
		return -1;
	}
	return 0;
}

/* ---- elimination ----------------------------------------------------------- */

struct elim_trial {
	struct elim_result *res;
	int nres, cap;
};

static int record_random(struct elim_trial *t, const struct elim_rules *r,
			 const struct elim_match *m, struct rng *rng)
{
	if (t->nres == t->cap) {
		int cap = t->cap ? 2 * t->cap : 256;
		struct elim_result *res = realloc(t->res, (size_t)cap * sizeof *res);
		if (!res)
			return -1;
		t->res = res;
		t->cap = cap;
	}
	struct elim_result *out = &t->res[t->nres++];
	*out = (struct elim_result){ .stage = m->stage, .group = m->group };
	for (int s = 0; s < r->seats; s++)
		out->score[s] = rng_uniform(rng, 0, 999);
	return 0;
}

/* One round to its end: the student out is removed from survivors. */
static int play_round(const struct elim_rules *r, int64_t *survivors, int *n, uint64_t seed,
		      struct elim_trial *t, struct rng *rng, int slots, struct forecast *sum,
		      err_t err)
{
	t->nres = 0;
	for (;;) {
		struct elim_plan plan;
		if (elim_plan(r, survivors, *n, seed, t->res, t->nres, &plan, err) < 0)
			return -1;
		int64_t out = plan.out;
		int rc = 0;
		sum->matches += plan.ntodo;
		sum->waves += waves_of(plan.ntodo, slots);
		for (int i = 0; i < plan.ntodo && rc == 0; i++)
			rc = record_random(t, r, &plan.todo[i], rng);
		elim_plan_free(&plan);
		if (rc < 0) {
			err_set(err, "out of memory forecasting an elimination");
			return -1;
		}
		if (out > 0) {
			for (int i = 0; i < *n; i++)
				if (survivors[i] == out)
					survivors[i] = survivors[--*n];
			return 0;
		}
	}
}

int forecast_elimination(const struct elim_rules *r, int entrants, int remain, int slots,
			 int trials, uint64_t seed, struct forecast *out,
			 err_t err)
{
	*out = (struct forecast){ 0 };
	if (check_common(slots, trials, err) < 0)
		return -1;
	if (remain < 1 || remain > entrants) {
		err_set(err, "an elimination of %d students cannot stop at %d",
			 entrants, remain);
		return -1;
	}
	int64_t *survivors = malloc((size_t)entrants * sizeof *survivors);
	struct elim_trial t = { 0 };
	struct rng rng = rng_seeded(seed);
	int rc = survivors ? 0 : -1;
	for (int k = 0; k < trials && rc == 0; k++) {
		int n = entrants;
		for (int i = 0; i < n; i++)
			survivors[i] = i + 1;
		for (int round = 0; n > remain && rc == 0; round++) {
			rc = play_round(r, survivors, &n, seed_derive(seed, "forecast round",
				       (unsigned)(k * 100000 + round)), &t, &rng, slots, out, err);
			out->rounds++;
		}
	}
	if (!survivors)
		err_set(err, "out of memory forecasting an elimination");
	free(survivors);
	free(t.res);
	out->matches /= trials;
	out->waves /= trials;
	out->rounds /= trials;
	return rc;
}

/* ---- groups -------------------------------------------------------------- */

int forecast_groups(int groups, int size, int matches, int final_matches, int slots,
		    struct forecast *out, err_t err)
{
	*out = (struct forecast){ .exact = true };
	if (check_common(slots, 1, err) < 0)
		return -1;
	if (groups < 1 || size < 2 || matches < 1 || final_matches < 0) {
		err_set(err, "groups need at least one group of two players and "
			 "one match each");
		return -1;
	}
	out->matches = (double)groups * matches;
	out->waves = waves_of(groups * matches, slots);
	out->rounds = 1;
	if (final_matches > 0 && groups > 1) {
		out->matches += final_matches;
		out->waves += waves_of(final_matches, slots);
		out->rounds++;
	}
	return 0;
}

/* ---- brackets -------------------------------------------------------------- */

int forecast_bracket(const struct brk_rules *r, int entrants, int slots, int trials,
		     uint64_t seed, struct forecast *out, err_t err)
{
	*out = (struct forecast){ 0 };
	if (check_common(slots, trials, err) < 0)
		return -1;
	int64_t *ids = malloc((size_t)entrants * sizeof *ids);
	struct brk_game *games = NULL;
	int ngames = 0, cap = 0, rc = ids ? 0 : -1;
	if (!ids)
		err_set(err, "out of memory forecasting a bracket");
	struct rng rng = rng_seeded(seed);
	for (int i = 0; ids && i < entrants; i++)
		ids[i] = i + 1;
	for (int k = 0; k < trials && rc == 0; k++) {
		ngames = 0;
		for (bool done = false; !done && rc == 0;) {
			struct brk_plan plan;
			if ((rc = brk_plan(r, ids, entrants, seed + (uint64_t)k, games, ngames, &plan,
					   err)) < 0)
				break;
			done = plan.done;
			out->matches += plan.ntodo;
			out->waves += waves_of(plan.ntodo, slots);
			out->rounds += plan.ntodo > 0;
			if (ngames + plan.ntodo > cap) {
				cap = 2 * (ngames + plan.ntodo);
				struct brk_game *g = realloc(games, (size_t)cap * sizeof *g);
				if (!g) {
					err_set(err, "out of memory forecasting a bracket");
					rc = -1;
				}
				games = g ? g : games;
			}
			for (int i = 0; i < plan.ntodo && rc == 0; i++) {
				const struct brk_todo *t = &plan.todo[i];
				games[ngames++] = (struct brk_game){
					t->series, t->game, rng_uniform(&rng, 0, 1) ? t->first : t->second };
			}
			brk_plan_free(&plan);
		}
	}
	free(ids);
	free(games);
	out->matches /= trials;
	out->waves /= trials;
	out->rounds /= trials;
	return rc;
}
