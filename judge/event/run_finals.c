/* run_finals.c - the phases that rank a field rather than thin it:
 * round-robin groups scored by points per place (points.h), with a final
 * group of the group winners, and brackets (bracket.h).  Both seed the
 * field once, when the phase first plans, and keep that seeding in the
 * tournament's log, so a rating that moves later changes no group and no
 * series. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/seed.h"
#include "judge/event/bracket.h"
#include "judge/event/points.h"
#include "judge/event/run_int.h"

/* ---- the seeding ------------------------------------------------------------ */

struct seeded {
	int64_t *id; /* best first */
	double *score;
	int n;
};

static double score_of(const struct field *f, int64_t entrant)
{
	size_t i;
	json_t *e;
	json_array_foreach(f->rows, i, e)
		if (json_integer_value(json_object_get(e, "id")) == entrant) {
			json_t *s = json_object_get(e, "score");
			return json_is_number(s) ? json_number_value(s) : -1e300;
		}
	return -1e300;
}

/* The phase's seeding as the log kept it: 1 found, 0 none yet, -1. */
static int seeding_logged(struct ctx *c, struct seeded *sd)
{
	json_t *log;
	if (store_tournament_history(c->s, c->t.id, &log, c->err) < 0)
		return -1;
	json_t *found = run_seeding_of(log, c->t.phase);
	json_decref(log);
	if (!found)
		return 0;
	sd->n = (int)json_array_size(found);
	sd->id = calloc((size_t)sd->n + 1, sizeof *sd->id);
	for (int k = 0; sd->id && k < sd->n; k++)
		sd->id[k] = json_integer_value(json_array_get(found, (size_t)k));
	json_decref(found);
	return sd->id ? 1 : run_failed(c, "out of memory reading the seeding");
}

json_t *run_seeding_of(json_t *log, int phase)
{
	json_t *e, *found = NULL;
	size_t i;
	json_array_foreach(log, i, e) {
		json_t *d = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
		if (d && strcmp(json_string_value(json_object_get(e, "what")), "seeding") == 0 &&
		    json_integer_value(json_object_get(d, "phase")) == phase) {
			json_decref(found);
			found = json_incref(json_object_get(d, "order"));
		}
		json_decref(d);
	}
	return found;
}

/* Best first: the representative's leaderboard score, then entry order. */
static void sort_field(struct seeded *sd)
{
	for (int i = 1; i < sd->n; i++) {
		int64_t id = sd->id[i];
		double sc = sd->score[i];
		int j = i;
		for (; j > 0 && (sd->score[j - 1] < sc || (sd->score[j - 1] == sc && sd->id[j - 1] > id)); j--) {
			sd->id[j] = sd->id[j - 1];
			sd->score[j] = sd->score[j - 1];
		}
		sd->id[j] = id;
		sd->score[j] = sc;
	}
}

/* Seeds the field now: sorted, cut to `top` (the rest are out before the
 * phase's first match), logged. */
static int seed_now(struct ctx *c, const struct tour_phase *p, const struct field *f,
		    struct seeded *sd)
{
	sd->n = f->n;
	sd->id = calloc((size_t)f->n + 1, sizeof *sd->id);
	sd->score = calloc((size_t)f->n + 1, sizeof *sd->score);
	if (!sd->id || !sd->score)
		return run_failed(c, "out of memory seeding the phase");
	for (int i = 0; i < f->n; i++) {
		sd->id[i] = f->ids[i];
		sd->score[i] = score_of(f, f->ids[i]);
	}
	sort_field(sd);
	int keep = p->from == TOUR_FROM_TOP && p->top < sd->n ? p->top : sd->n;
	for (int i = keep; i < sd->n; i++)
		if (store_entrant_out(c->s, sd->id[i], c->t.phase, -1, c->err) < 0)
			return -1;
	sd->n = keep;
	json_t *order = json_array();
	for (int i = 0; i < sd->n; i++)
		json_array_append_new(order, json_integer(sd->id[i]));
	return run_log(c, "seeding", json_pack("{s:o}", "order", order));
}

static int seeding(struct ctx *c, const struct tour_phase *p, const struct field *f,
		   struct seeded *sd)
{
	*sd = (struct seeded){ 0 };
	int rc = seeding_logged(c, sd);
	return rc != 0 ? (rc < 0 ? -1 : 0) : seed_now(c, p, f, sd);
}

static void seeded_free(struct seeded *sd)
{
	free(sd->id);
	free(sd->score);
	*sd = (struct seeded){ 0 };
}

uint64_t run_phase_seed(uint64_t seed, int phase, const char *what)
{
	return seed_derive(seed, what, (unsigned)phase);
}

static uint64_t phase_seed(const struct ctx *c, const char *what)
{
	return run_phase_seed(c->t.seed, c->t.phase, what);
}

/* ---- round-robin groups -------------------------------------------------------- */

int run_deal(const int64_t *seeded, int n, int size, struct run_groups *g)
{
	*g = (struct run_groups){ .count = (n + size - 1) / size };
	if (g->count > RUN_GROUPS_MAX)
		return -1;
	for (int i = 0; i < n; i++) {
		int row = i / g->count, col = i % g->count;
		int k = row % 2 ? g->count - 1 - col : col;
		g->member[k][g->size[k]++] = seeded[i];
	}
	return 0;
}

int run_group_results(json_t *rows, int grp, struct pts_match *m, int cap)
{
	size_t i;
	json_t *r;
	int n = 0;
	json_array_foreach(rows, i, r) {
		if (json_integer_value(json_object_get(r, "group")) != grp ||
		    json_is_null(json_object_get(r, "match")) || n == cap)
			continue;
		json_t *seats = json_object_get(r, "seats"), *ranks = json_object_get(r, "ranks");
		m[n] = (struct pts_match){ .nseats = (int)json_array_size(seats) };
		for (int k = 0; k < m[n].nseats && k < PTS_SEATS_MAX; k++) {
			m[n].who[k] = json_integer_value(json_array_get(seats, (size_t)k));
			m[n].rank[k] = (int)json_integer_value(json_array_get(ranks, (size_t)k));
		}
		n++;
	}
	return n;
}

/* Plans what is missing of one group's series: 1 all played, 0 waiting. */
static int play_group(struct ctx *c, const struct field *f, int round, int grp,
		      const int64_t *members, int n, int matches, uint64_t seed, json_t *rows,
		      int *err)
{
	struct pts_match planned[100];
	int seats = n < game_min_players(c->game) ? game_min_players(c->game) : n;
	int64_t padded[PTS_SEATS_MAX] = { 0 };
	memcpy(padded, members, (size_t)n * sizeof *members);
	pts_schedule(padded, seats, matches, seed, planned);
	struct pts_match played[100];
	int done = run_group_results(rows, grp, played, 100);
	for (int j = 0; j < matches && !*err; j++) {
		struct store_tmatch at = { c->t.phase, round, 0, grp, j };
		*err = run_plan_seats(c, f, &at, planned[j].who, seats, planned[j].seed, 0) < 0;
	}
	return done >= matches;
}

static int group_standings(struct ctx *c, json_t *rows, int grp, const int64_t *members, int n,
			   struct pts_row *out)
{
	struct pts_match played[100];
	err_t perr;
	int k = run_group_results(rows, grp, played, 100);
	if (pts_standings(members, n, played, k, out, perr) < 0) {
		err_set(c->err, "%s group %d: %s", c->t.name, grp + 1, perr->msg);
		return -1;
	}
	return 0;
}

struct ranked {
	int64_t who;
	int final_place, group_place; /* final_place 0: not a finalist */
	double points;
	int seed;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int fx = x->final_place ? x->final_place : 1 << 20, fy = y->final_place ? y->final_place : 1 << 20;
	if (fx != fy)
		return fx - fy;
	if (x->group_place != y->group_place)
		return x->group_place - y->group_place;
	if (x->points != y->points)
		return x->points > y->points ? -1 : 1;
	return x->seed - y->seed;
}

static int record_places(struct ctx *c, struct ranked *r, int n)
{
	qsort(r, (size_t)n, sizeof *r, cmp_ranked);
	json_t *order = json_array();
	int rc = 0;
	for (int i = 0, place = 1; i < n && rc == 0; i++) {
		/* equal but for the seeding: one place (the bracket's 5th-6th) */
		if (i > 0 && (r[i].final_place != r[i - 1].final_place ||
			      r[i].group_place != r[i - 1].group_place ||
			      r[i].points != r[i - 1].points))
			place = i + 1;
		rc = store_entrant_place(c->s, r[i].who, place, c->err) < 0 ? -1 : 0;
		json_array_append_new(order, json_integer(r[i].who));
	}
	if (rc == 0)
		rc = run_log(c, "places", json_pack("{s:o}", "order", order));
	else
		json_decref(order);
	return rc;
}

static int seed_index(const struct seeded *sd, int64_t who)
{
	for (int i = 0; i < sd->n; i++)
		if (sd->id[i] == who)
			return i;
	return sd->n;
}

/* Every member's group standing, and the finalists' places once the final
 * is played (final, NULL before). */
static int groups_over(struct ctx *c, const struct seeded *sd, const struct run_groups *g,
		       json_t *rows0, const struct pts_row *final, int nfinal)
{
	struct ranked r[64 * PTS_SEATS_MAX];
	int n = 0;
	for (int grp = 0; grp < g->count; grp++) {
		struct pts_row st[PTS_SEATS_MAX];
		if (group_standings(c, rows0, grp, g->member[grp], g->size[grp], st) < 0)
			return -1;
		for (int k = 0; k < g->size[grp]; k++)
			r[n++] = (struct ranked){ .who = st[k].who, .group_place = st[k].place,
						  .points = st[k].points,
						  .seed = seed_index(sd, st[k].who) };
	}
	for (int k = 0; final && k < nfinal; k++)
		for (int i = 0; i < n; i++)
			if (r[i].who == final[k].who)
				r[i].final_place = k + 1;
	run_say(c, "%s: the groups are over", c->t.name);
	return record_places(c, r, n);
}

static int step_groups_in(struct ctx *c, const struct tour_phase *p, const struct field *f,
			  const struct seeded *sd)
{
	struct run_groups g;
	json_t *rows0 = NULL, *rows1 = NULL;
	if (run_deal(sd->id, sd->n, p->size, &g) < 0) {
		err_set(c->err, "%s: more than 64 groups", c->t.name);
		return -1;
	}
	if (store_tmatch_round(c->s, c->t.id, c->t.phase, 0, &rows0, c->err) < 0)
		return -1;
	int err = 0, all = 1, rc = 0;
	for (int grp = 0; grp < g.count; grp++)
		all &= play_group(c, f, 0, grp, g.member[grp], g.size[grp], p->matches,
				  seed_derive(phase_seed(c, "groups"), "group", (unsigned)grp), rows0, &err);
	bool final = p->final_matches > 0 && g.count > 1;
	if (err || !all)
		rc = err ? -1 : 0;
	else if (!final)
		rc = groups_over(c, sd, &g, rows0, NULL, 0) < 0 ? -1 : 2;
	else if (c->t.round == 0)
		rc = run_move(c, c->t.phase, 1, c->t.started_at) < 0 ? -1 : 1;
	else {
		int64_t winners[PTS_SEATS_MAX];
		struct pts_row st[PTS_SEATS_MAX], fin[PTS_SEATS_MAX];
		int nw = g.count < PTS_SEATS_MAX ? g.count : PTS_SEATS_MAX;
		for (int grp = 0; grp < nw && rc == 0; grp++) {
			rc = group_standings(c, rows0, grp, g.member[grp], g.size[grp], st);
			winners[grp] = st[0].who;
		}
		if (rc == 0 && store_tmatch_round(c->s, c->t.id, c->t.phase, 1, &rows1, c->err) < 0)
			rc = -1;
		if (rc == 0 && nw > game_max_players(c->game)) {
			err_set(c->err, "%s: a final of the %d group winners, but %s is "
				 "played by %d at most: use larger groups", c->t.name, nw,
				 c->game->title, game_max_players(c->game));
			rc = -1;
		}
		if (rc == 0 && play_group(c, f, 1, 0, winners, nw, p->final_matches,
					  phase_seed(c, "final"), rows1, &err) && !err)
			rc = group_standings(c, rows1, 0, winners, nw, fin) < 0 ? -1
			     : groups_over(c, sd, &g, rows0, fin, nw) < 0 ? -1 : 2;
		else if (err)
			rc = -1;
	}
	json_decref(rows0);
	json_decref(rows1);
	return rc;
}

/* A phase over the seeded field: loads and seeds it, then step. */
static int seeded_phase(struct ctx *c, const struct tour_phase *p,
			int (*step)(struct ctx *, const struct tour_phase *, const struct field *,
				    const struct seeded *))
{
	struct field f;
	struct seeded sd;
	if (run_load_field(c, &f) < 0)
		return -1;
	int rc = seeding(c, p, &f, &sd);
	if (rc == 0)
		rc = sd.n < 2 ? 2 : step(c, p, &f, &sd);
	seeded_free(&sd);
	run_field_free(&f);
	return rc;
}

int run_step_groups(struct ctx *c, const struct tour_phase *p)
{
	return seeded_phase(c, p, step_groups_in);
}

/* ---- brackets ------------------------------------------------------------------ */

/* A recorded game's winner: the seat ranked first alone; a tie is a draw. */
int64_t run_game_winner(json_t *row)
{
	json_t *seats = json_object_get(row, "seats"), *ranks = json_object_get(row, "ranks");
	json_int_t a = json_integer_value(json_array_get(ranks, 0));
	json_int_t b = json_integer_value(json_array_get(ranks, 1));
	return a == b ? BRK_BYE : json_integer_value(json_array_get(seats, a < b ? 0 : 1));
}

struct brk_game *run_bracket_games(json_t *rows, int *n)
{
	struct brk_game *out = calloc(json_array_size(rows) + 1, sizeof *out);
	size_t i;
	json_t *r;
	*n = 0;
	json_array_foreach(rows, i, r)
		if (out && !json_is_null(json_object_get(r, "match")))
			out[(*n)++] = (struct brk_game){
				(int)json_integer_value(json_object_get(r, "stage")),
				(int)json_integer_value(json_object_get(r, "game_no")), run_game_winner(r) };
	return out;
}

static int bracket_games(struct ctx *c, struct brk_game **out, int *n)
{
	json_t *rows;
	if (store_tmatch_round(c->s, c->t.id, c->t.phase, 0, &rows, c->err) < 0)
		return -1;
	*out = run_bracket_games(rows, n);
	json_decref(rows);
	return *out ? 0 : run_failed(c, "out of memory reading the bracket");
}

static int bracket_places(struct ctx *c, const struct seeded *sd, const struct brk_plan *plan)
{
	struct ranked r[BRK_MAX];
	for (int i = 0; i < sd->n; i++)
		r[i] = (struct ranked){ .who = sd->id[i], .final_place = plan->place[i], .seed = i };
	run_say(c, "%s: the bracket is over", c->t.name);
	return record_places(c, r, sd->n);
}

static int step_bracket_in(struct ctx *c, const struct tour_phase *p, const struct field *f,
			   const struct seeded *sd)
{
	struct brk_game *games = NULL;
	struct brk_plan plan;
	err_t berr;
	int ngames = 0, rc = bracket_games(c, &games, &ngames);
	if (rc == 0 && brk_plan(&p->bracket, sd->id, sd->n, phase_seed(c, "bracket"), games, ngames,
				&plan, berr) < 0) {
		err_set(c->err, "%s: %s", c->t.name, berr->msg);
		rc = -1;
	}
	free(games);
	if (rc < 0)
		return -1;
	for (int i = 0; i < plan.ntodo && rc == 0; i++) {
		const struct brk_todo *t = &plan.todo[i];
		struct store_tmatch at = { c->t.phase, 0, t->series, 0, t->game };
		int64_t who[2] = { t->first, t->second };
		rc = run_plan_seats(c, f, &at, who, 2, t->seed, 0);
	}
	if (rc == 0 && plan.done)
		rc = bracket_places(c, sd, &plan) < 0 ? -1 : 2;
	brk_plan_free(&plan);
	return rc;
}

int run_step_bracket(struct ctx *c, const struct tour_phase *p)
{
	return seeded_phase(c, p, step_bracket_in);
}
