/* view.c - a tournament as its watchers see it (view.h). */
#include "judge/event/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/event/run_int.h"
#include "judge/event/pseudonym.h"

struct view {
	struct store *s;
	struct store_tournament t;
	struct tour_spec spec;
	const struct game *game;
	json_t *entrants; /* the store's rows, by id */
	json_t *log;
	struct err *err;
};

static int view_failed(struct view *v, const char *why)
{
	err_set(v->err, "%s", why);
	return -1;
}

static json_int_t int_of(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* ---- entrants ------------------------------------------------------------------ */

static const char *entrant_state(json_t *e)
{
	if (!json_is_null(json_object_get(e, "out_phase")))
		return "out";
	return json_is_null(json_object_get(e, "representative")) ? "no representative" : "in";
}

static json_t *entrant_json(json_t *e, bool hide_authors)
{
	char fallback[40];
	const char *name = !hide_authors ? json_string_value(json_object_get(e, "author"))
			   : event_public_name(e, fallback);
	return json_pack("{s:I, s:s, s:O, s:O?, s:s, s:O, s:O, s:O}", "id", int_of(e, "id"),
			 "name", name, "group", json_object_get(e, "group"), "player",
			 hide_authors ? NULL : json_object_get(e, "name"), "state", entrant_state(e),
			 "out_phase", json_object_get(e, "out_phase"), "out_round",
			 json_object_get(e, "out_round"), "place", json_object_get(e, "place"));
}

/* Was the entrant in round `round` of elimination phase `phase`? */
static bool in_round(json_t *e, int phase, int round)
{
	json_t *op = json_object_get(e, "out_phase");
	if (!json_is_integer(json_object_get(e, "representative")))
		return false;
	return json_is_null(op) || json_integer_value(op) > phase ||
	       (json_integer_value(op) == phase && int_of(e, "out_round") >= round);
}

/* ---- matches --------------------------------------------------------------------- */

/* One planned match: its place, its id once played (null before), each
 * seat's entrant (0: the phase's opponent), score and rank.  safe_at,
 * when given, marks the seats safe since this match's stage. */
static json_t *match_json(json_t *row, const int64_t *ids, const int *safe_at, int n)
{
	json_t *seats = json_array(), *seat;
	size_t k;
	json_array_foreach(json_object_get(row, "seats"), k, seat) {
		bool safe = false;
		for (int i = 0; safe_at && i < n; i++)
			safe |= ids[i] == json_integer_value(seat) && safe_at[i] == int_of(row, "stage");
		json_array_append_new(seats, json_pack("{s:O, s:O?, s:O?, s:b}", "entrant", seat,
			"score", json_array_get(json_object_get(row, "scores"), k), "rank",
			json_array_get(json_object_get(row, "ranks"), k), "safe", safe));
	}
	return json_pack("{s:O, s:O, s:O, s:o}", "group", json_object_get(row, "group"), "game",
			 json_object_get(row, "game_no"), "match", json_object_get(row, "match"),
			 "seats", seats);
}

/* The rows of one round (or of one stage, with key "stage"). */
static json_t *rows_where(json_t *rows, const char *key, json_int_t value)
{
	json_t *out = json_array(), *r;
	size_t i;
	json_array_foreach(rows, i, r)
		if (int_of(r, key) == value)
			json_array_append(out, r);
	return out;
}

/* ---- elimination ---------------------------------------------------------------- */

/* Round `round`'s stages, read through the rule with the round's survivors
 * (the entrants in it, in entry order, as the run read them). */
static json_t *elim_round(struct view *v, int phase, int round, json_t *rows)
{
	size_t i, n = 0;
	json_t *e, *out = json_null();
	int64_t *ids = calloc(json_array_size(v->entrants) + 1, sizeof *ids);
	json_array_foreach(v->entrants, i, e) {
		if (ids && in_round(e, phase, round))
			ids[n++] = int_of(e, "id");
		if (int_of(e, "out_phase") == phase && int_of(e, "out_round") == round &&
		    !json_is_null(json_object_get(e, "out_round")))
			out = json_integer(int_of(e, "id"));
	}
	int nres = 0;
	struct elim_result *res = run_elim_results(rows, &nres);
	struct elim_plan plan = { 0 };
	err_t eerr;
	/* a record the rule cannot read is still shown, without safe marks */
	bool read = ids && res && n > 0 &&
		    elim_plan(&v->spec.phase[phase].elim, ids, (int)n,
			      run_round_seed(v->t.seed, phase, round), res, nres, &plan, eerr) == 0;
	json_t *stages = json_array(), *r, *cur = NULL;
	json_array_foreach(rows, i, r) {
		if (!cur || int_of(cur, "stage") != int_of(r, "stage")) {
			cur = json_pack("{s:I, s:[]}", "stage", int_of(r, "stage"), "matches");
			json_array_append_new(stages, cur);
		}
		json_array_append_new(json_object_get(cur, "matches"),
				      match_json(r, ids, read ? plan.safe_stage : NULL, (int)n));
	}
	json_t *j = json_pack("{s:i, s:o, s:b, s:o}", "round", round, "out", out, "by_draw",
			      read && plan.out > 0 && plan.by_draw, "stages", stages);
	if (read)
		elim_plan_free(&plan);
	free(res);
	free(ids);
	return j;
}

static int elimination(struct view *v, int phase, json_t *into)
{
	json_t *rows, *rounds = json_array();
	if (store_tmatch_phase(v->s, v->t.id, phase, &rows, v->err) < 0)
		return -1;
	json_int_t last = json_array_size(rows)
			  ? int_of(json_array_get(rows, json_array_size(rows) - 1), "round") : -1;
	for (int r = 0; r <= last; r++) {
		json_t *sub = rows_where(rows, "round", r);
		json_array_append_new(rounds, elim_round(v, phase, r, sub));
		json_decref(sub);
	}
	json_decref(rows);
	json_object_set_new(into, "remain", json_integer(v->spec.phase[phase].remain));
	return json_object_set_new(into, "rounds", rounds);
}

/* ---- round-robin groups ------------------------------------------------------------ */

/* A group's standings (the points rule's) and its matches; NULL with err
 * when the record does not fit the group. */
static json_t *group_json(struct view *v, json_t *rows, int grp, const int64_t *members, int n)
{
	struct pts_match played[100];
	struct pts_row st[PTS_SEATS_MAX];
	err_t perr;
	json_t *mine = rows_where(rows, "group", grp);
	int k = run_group_results(mine, grp, played, 100);
	if (pts_standings(members, n, played, k, st, perr) < 0) {
		json_decref(mine);
		err_set(v->err, "%s group %d: %s", v->t.name, grp + 1, perr->msg);
		return NULL;
	}
	json_t *standings = json_array(), *matches = json_array(), *r;
	for (int i = 0; i < n; i++)
		json_array_append_new(standings, json_pack("{s:I, s:f, s:i, s:i, s:i}", "entrant",
			(json_int_t)st[i].who, "points", st[i].points, "matches", st[i].matches,
			"firsts", st[i].firsts, "place", st[i].place));
	size_t i;
	json_array_foreach(mine, i, r)
		json_array_append_new(matches, match_json(r, NULL, NULL, 0));
	json_decref(mine);
	return json_pack("{s:i, s:o, s:o}", "group", grp, "standings", standings, "matches",
			 matches);
}

/* The groups dealt from the logged seeding; the final of their winners
 * once the groups are played (the run's order: group by group). */
static int groups_in(struct view *v, int phase, const struct run_groups *g, json_t *into)
{
	json_t *rows0 = NULL, *rows1 = NULL, *list = json_array(), *final = json_null();
	int64_t winners[PTS_SEATS_MAX];
	int nw = 0, rc = 0;
	json_object_set_new(into, "groups", list);
	if (store_tmatch_round(v->s, v->t.id, phase, 0, &rows0, v->err) < 0 ||
	    store_tmatch_round(v->s, v->t.id, phase, 1, &rows1, v->err) < 0)
		rc = -1;
	for (int grp = 0; rc == 0 && grp < g->count; grp++) {
		json_t *one = group_json(v, rows0, grp, g->member[grp], g->size[grp]);
		rc = one ? json_array_append_new(list, one) : -1;
		if (one && grp < PTS_SEATS_MAX)
			winners[nw++] = int_of(json_array_get(json_object_get(one, "standings"), 0),
					       "entrant");
	}
	if (rc == 0 && json_array_size(rows1) && nw > 1) {
		json_decref(final);
		final = group_json(v, rows1, 0, winners, nw);
		rc = final ? 0 : -1;
	}
	json_object_set_new(into, "final", final ? final : json_null());
	json_decref(rows0);
	json_decref(rows1);
	return rc;
}

/* The phase's seeding from the log: ids best first (malloc'd, *n), NULL
 * when the phase has not seeded its field yet. */
static int64_t *seeding(struct view *v, int phase, int *n)
{
	json_t *order = run_seeding_of(v->log, phase);
	*n = (int)json_array_size(order);
	int64_t *ids = order && *n ? calloc((size_t)*n, sizeof *ids) : NULL;
	for (int i = 0; ids && i < *n; i++)
		ids[i] = json_integer_value(json_array_get(order, (size_t)i));
	json_decref(order);
	return ids;
}

static int round_robin(struct view *v, int phase, json_t *into)
{
	int n;
	int64_t *ids = seeding(v, phase, &n);
	struct run_groups g = { 0 };
	int rc = ids && run_deal(ids, n, v->spec.phase[phase].size, &g) < 0
		 ? view_failed(v, "more groups than the judge deals") : 0;
	rc = rc ? rc : groups_in(v, phase, &g, into);
	free(ids);
	return rc;
}

/* ---- brackets --------------------------------------------------------------------- */

static json_t *id_or_null(int64_t id)
{
	return id == BRK_UNKNOWN ? json_null() : json_integer(id);
}

static json_t *series_json(const struct brk_series *s, int id, json_t *rows)
{
	json_t *games = json_array(), *r;
	json_t *mine = rows_where(rows, "stage", id);
	size_t i;
	json_array_foreach(mine, i, r)
		json_array_append_new(games, json_pack("{s:O, s:O, s:I}", "game",
			json_object_get(r, "game_no"), "match", json_object_get(r, "match"), "winner",
			json_is_null(json_object_get(r, "match")) ? (json_int_t)BRK_UNKNOWN
								   : (json_int_t)run_game_winner(r)));
	json_decref(mine);
	char bracket[2] = { s->bracket, 0 };
	return json_pack("{s:i, s:s, s:i, s:[o, o], s:[i, i], s:o, s:b, s:o}", "id", id,
			 "bracket", bracket, "round", s->round, "players", id_or_null(s->player[0]),
			 id_or_null(s->player[1]), "wins", s->wins[0], s->wins[1], "winner",
			 id_or_null(s->winner), "skipped", s->skipped, "games", games);
}

static int bracket(struct view *v, int phase, json_t *into)
{
		const struct brk_rules *rules = &v->spec.phase[phase].bracket;
	json_object_set_new(into, "double", json_boolean(rules->double_elim));
	json_object_set_new(into, "best_of", json_integer(rules->best_of));
	int n, ngames = 0;
	int64_t *ids = seeding(v, phase, &n);
	json_t *rows = NULL, *list = json_array();
	json_object_set_new(into, "series", list);
	if (!ids || n < 2) {
		free(ids);
		return json_object_set_new(into, "champion", json_null());
	}
	struct brk_game *games = NULL;
	struct brk_plan plan = { 0 };
	int rc = store_tmatch_round(v->s, v->t.id, phase, 0, &rows, v->err) < 0 ? -1
		 : !(games = run_bracket_games(rows, &ngames)) ? view_failed(v, "out of memory")
		 : brk_plan(rules, ids, n, run_phase_seed(v->t.seed, phase, "bracket"), games, ngames,
			    &plan, v->err) < 0 ? -1 : 0;
	for (int i = 0; rc == 0 && i < plan.nseries; i++)
		json_array_append_new(list, series_json(&plan.series[i], i, rows));
	json_object_set_new(into, "champion", plan.done ? json_integer(plan.champion) : json_null());
	brk_plan_free(&plan);
	free(games);
	free(ids);
	json_decref(rows);
	return rc;
}

/* ---- the whole ---------------------------------------------------------------------- */

static const char *phase_state(const struct store_tournament *t, int i)
{
	if (i < t->phase)
		return "over";
	return i == t->phase && t->started_at ? "under way" : "waiting";
}

static json_t *phase_json(struct view *v, int i)
{
	const struct tour_phase *p = &v->spec.phase[i];
	json_t *j = json_pack("{s:i, s:s, s:s, s:s}", "phase", i, "kind", tour_kind_name(p->kind),
			      "state", phase_state(&v->t, i), "opponent", p->opponent);
	int rc = p->kind == TOUR_ELIMINATION ? elimination(v, i, j)
		 : p->kind == TOUR_ROUND_ROBIN ? round_robin(v, i, j)
		 : p->kind == TOUR_BRACKET ? bracket(v, i, j) : 0;
	if (p->kind == TOUR_QUALIFICATION && p->deadline)
		json_object_set_new(j, "deadline", json_integer(p->deadline));
	if (p->starts_at)
		json_object_set_new(j, "starts_at", json_integer(p->starts_at));
	if (rc < 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *view_json(struct view *v, bool organiser)
{
	bool hide = v->spec.pseudonyms && !organiser;
	json_t *entrants = json_array(), *phases = json_array(), *e;
	size_t i;
	json_array_foreach(v->entrants, i, e)
		json_array_append_new(entrants, entrant_json(e, hide));
	for (int k = 0; k < v->spec.nphases; k++) {
		json_t *p = phase_json(v, k);
		if (!p) {
			json_decref(entrants);
			json_decref(phases);
			return NULL;
		}
		json_array_append_new(phases, p);
	}
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:I, s:b, s:b, s:I, s:o, s:o}", "name",
			 v->t.name, "game", v->t.game, "title", v->game->title, "phase", v->t.phase,
			 "round", v->t.round, "started_at", (json_int_t)v->t.started_at, "over",
			 v->t.phase >= v->spec.nphases, "pseudonyms", hide, "generated_at",
			 (json_int_t)store_now_ms(), "entrants", entrants, "phases", phases);
}

int event_view(struct store *s, const char *name, bool organiser, json_t **out,
	       err_t err)
{
	struct view v = { .s = s, .err = err };
	int found = store_tournament_get(s, 0, name, &v.t, err);
	if (found <= 0)
		return found < 0 ? -1 : 0;
	int rc = 1;
	v.game = game_find(v.t.game);
	if (!v.game)
		rc = view_failed(&v, "the tournament's game is unknown to this judge");
	else if (tour_spec_parse(v.t.spec, game_min_players(v.game), game_max_players(v.game),
				 &v.spec, err) < 0)
		rc = -1;
	else if (store_entrants(s, v.t.id, &v.entrants, err) < 0 ||
		 store_tournament_history(s, v.t.id, &v.log, err) < 0)
		rc = -1;
	else if (!(*out = view_json(&v, organiser)))
		rc = -1;
	json_decref(v.entrants);
	json_decref(v.log);
	store_tournament_clear(&v.t);
	return rc;
}
