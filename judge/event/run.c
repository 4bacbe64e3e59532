/* run.c - moves tournaments on from the store's record (run.h). */
#include "judge/event/run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/seed.h"
#include "judge/event/elimination.h"
#include "judge/event/run_int.h"

/* The tournament and its spec, read without its lock (for questions that
 * change nothing). */
static int read_tournament(struct ctx *c, int64_t tournament)
{
	err_t terr;
	int found = store_tournament_get(c->s, tournament, NULL, &c->t, c->err);
	if (found <= 0) {
		if (found == 0)
			err_set(c->err, "no such tournament");
		return -1;
	}
	c->game = game_find(c->t.game);
	if (!c->game) {
		err_set(c->err, "tournament %s: unknown game '%s'", c->t.name, c->t.game);
		return -1;
	}
	if (tour_spec_parse(c->t.spec, game_min_players(c->game), game_max_players(c->game),
			    &c->spec, terr) < 0) {
		err_set(c->err, "tournament %.40s: %.200s", c->t.name, terr->msg);
		return -1;
	}
	return 0;
}

static int load(struct ctx *c, int64_t tournament)
{
	if (store_tournament_lock(c->s, c->err) < 0)
		return -1;
	return read_tournament(c, tournament);
}

/* ---- elimination ------------------------------------------------------------- */

uint64_t run_round_seed(uint64_t seed, int phase, int round)
{
	return seed_derive(seed, "elimination round", (unsigned)(phase * 100000 + round));
}


/* Entrants with no representative when an elimination starts are out
 * before its first round (round -1), as the course rules say. */
static int drop_unpicked(struct ctx *c)
{
	json_t *rows, *e;
	size_t i;
	if (store_entrants(c->s, c->t.id, &rows, c->err) < 0)
		return -1;
	int rc = 0;
	json_array_foreach(rows, i, e) {
		if (rc < 0 || !json_is_null(json_object_get(e, "out_phase")) ||
		    json_is_integer(json_object_get(e, "representative")))
			continue;
		rc = store_entrant_out(c->s, json_integer_value(json_object_get(e, "id")), c->t.phase,
				       -1, c->err) < 0 ? -1
				     : run_log(c, "unpicked", json_pack("{s:s}", "author",
					json_string_value(json_object_get(e, "author"))));
	}
	json_decref(rows);
	return rc;
}

struct elim_result *run_elim_results(json_t *rows, int *n)
{
	struct elim_result *out = calloc(json_array_size(rows) + 1, sizeof *out);
	size_t i;
	json_t *r;
	*n = 0;
	json_array_foreach(rows, i, r) {
		json_t *scores = json_object_get(r, "scores");
		if (!out || json_is_null(json_object_get(r, "match")))
			continue;
		struct elim_result *res = &out[(*n)++];
		res->stage = (int)json_integer_value(json_object_get(r, "stage"));
		res->group = (int)json_integer_value(json_object_get(r, "group"));
		for (size_t k = 0; k < json_array_size(scores) && k < ELIM_SEATS_MAX; k++)
			res->score[k] = json_integer_value(json_array_get(scores, k));
	}
	return out;
}

static int round_results(struct ctx *c, struct elim_result **out, int *n)
{
	json_t *rows;
	if (store_tmatch_round(c->s, c->t.id, c->t.phase, c->t.round, &rows, c->err) < 0)
		return -1;
	*out = run_elim_results(rows, n);
	json_decref(rows);
	if (!*out) {
		err_set(c->err, "out of memory reading a round");
		return -1;
	}
	return 0;
}

static int plan_match(struct ctx *c, const struct field *f, const struct tour_phase *p,
		      const struct elim_match *m, int64_t not_before)
{
	struct store_tmatch at = { c->t.phase, c->t.round, m->stage, m->group, 0 };
	return run_plan_seats(c, f, &at, m->who, p->elim.seats, m->seed, not_before);
}

static int decide_round(struct ctx *c, const struct field *f, const struct elim_plan *plan)
{
	const char *who = run_author_of(f, plan->out);
	run_say(c, "%s round %d: %s is out%s", c->t.name, c->t.round + 1, who,
	    plan->by_draw ? " (by a draw: the players tied for too long)" : "");
	if (store_entrant_out(c->s, plan->out, c->t.phase, c->t.round, c->err) < 0)
		return -1;
	if (run_log(c, "out", json_pack("{s:i, s:s, s:i, s:b}", "round", c->t.round, "author",
					  who, "stages", plan->stage + 1, "by_draw",
					  plan->by_draw)) < 0)
		return -1;
	return run_move(c, c->t.phase, c->t.round + 1, c->t.started_at);
}

/* 1 moved on (a round decided, the phase over), 0 waits for results. */
static int step_elimination(struct ctx *c, const struct tour_phase *p)
{
	if (c->t.round == 0 && drop_unpicked(c) < 0)
		return -1;
	struct field f;
	struct elim_result *res = NULL;
	int nres = 0, rc = -1;
	if (run_load_field(c, &f) < 0)
		goto out;
	if (f.n <= p->remain) {
		rc = 2;
		goto out;
	}
	if (round_results(c, &res, &nres) < 0)
		goto out;
	struct elim_plan plan;
	err_t eerr;
	uint64_t seed = run_round_seed(c->t.seed, c->t.phase, c->t.round);
	if (elim_plan(&p->elim, f.ids, f.n, seed, res, nres, &plan, eerr) < 0) {
		err_set(c->err, "%s round %d: %s", c->t.name, c->t.round + 1, eerr->msg);
		goto out;
	}
	int64_t not_before = plan.stage == 0 && c->t.round > 0 && p->round_gap_ms
			     ? c->now + p->round_gap_ms : 0;
	rc = plan.out > 0 ? (decide_round(c, &f, &plan) < 0 ? -1 : 1) : 0;
	for (int i = 0; rc == 0 && i < plan.ntodo; i++)
		rc = plan_match(c, &f, p, &plan.todo[i], not_before);
	elim_plan_free(&plan);
out:
	free(res);
	run_field_free(&f);
	return rc;
}

/* ---- phases ---------------------------------------------------------------- */

/* 1 moved on, 0 waits, -1 error. */
static int step(struct ctx *c)
{
	if (c->t.phase >= c->spec.nphases)
		return 0;
	const struct tour_phase *p = &c->spec.phase[c->t.phase];
	if (!c->t.started_at) {
		if (!p->starts_at || c->now < p->starts_at)
			return 0;
		run_say(c, "%s: phase %d (%s) starts", c->t.name, c->t.phase + 1, tour_kind_name(p->kind));
		if (run_log(c, "phase_start", json_object()) < 0)
			return -1;
		return run_move(c, c->t.phase, 0, c->now) < 0 ? -1 : 1;
	}
	int rc = 0;
	switch (p->kind) {
	case TOUR_ELIMINATION:
		rc = step_elimination(c, p);
		break;
	case TOUR_QUALIFICATION:
		return p->deadline && c->now >= p->deadline ? (run_end_phase(c) < 0 ? -1 : 1) : 0;
	case TOUR_LADDER:
		return 0; /* the organiser ends it by starting the next phase */
	case TOUR_ROUND_ROBIN:
		rc = run_step_groups(c, p);
		break;
	case TOUR_BRACKET:
		rc = run_step_bracket(c, p);
		break;
	}
	return rc == 2 ? (run_end_phase(c) < 0 ? -1 : 1) : rc;
}

int event_advance(struct store *s, int64_t tournament, int64_t now, char *note, size_t cap,
		  err_t err)
{
	struct ctx c = { .s = s, .now = now, .note = note, .cap = cap, .err = err };
	if (cap)
		note[0] = '\0';
	int rc = load(&c, tournament);
	while (rc == 0 && (rc = step(&c)) == 1)
		rc = 0;
	store_tournament_clear(&c.t);
	return rc < 0 ? -1 : 0;
}

int event_match_recorded(struct store *s, int64_t job, int64_t match_id, char *note,
			 size_t cap, err_t err)
{
	int64_t tournament;
	int found = store_tmatch_of_job(s, job, &tournament, err);
	if (found <= 0 || store_tmatch_record(s, job, match_id, err) < 0) {
		if (found == 0)
			err_set(err, "the match was planned by no tournament");
		return found == 0 ? 0 : -1;
	}
	return event_advance(s, tournament, store_now_ms(), note, cap, err) < 0 ? -1 : 1;
}

int event_start(struct store *s, int64_t tournament, int64_t now, err_t err)
{
	char note[256] = "";
	struct ctx c = { .s = s, .now = now, .note = note, .cap = sizeof note, .err = err };
	int rc = load(&c, tournament);
	enum tour_kind kind = rc == 0 && c.t.phase < c.spec.nphases ? c.spec.phase[c.t.phase].kind
								   : TOUR_ELIMINATION;
	/* a ladder, or a qualification with no deadline, ends by hand: starting
	 * ends it and starts what follows */
	bool by_hand = kind == TOUR_LADDER ||
		       (kind == TOUR_QUALIFICATION && !c.spec.phase[c.t.phase].deadline);
	if (rc == 0 && c.t.started_at && by_hand)
		rc = run_end_phase(&c);
	if (rc == 0 && c.t.phase >= c.spec.nphases) {
		err_set(err, "%s is over: every phase has been played", c.t.name);
	} else if (rc == 0 && c.t.started_at) {
		err_set(err, "phase %d of %s (%s) started already", c.t.phase + 1,
			 c.t.name, tour_kind_name(c.spec.phase[c.t.phase].kind));
	} else if (rc == 0) {
		rc = run_log(&c, "phase_start", json_pack("{s:b}", "by_hand", 1));
		rc = rc ? rc : run_move(&c, c.t.phase, 0, now);
		rc = rc ? rc : 1;
	}
	store_tournament_clear(&c.t);
	if (rc == 1 && event_advance(s, tournament, now, note, sizeof note, err) < 0)
		return -1;
	return rc;
}

/* ---- the upload deadline --------------------------------------------------- */

static bool still_in(json_t *entrants, const char *author)
{
	size_t i;
	json_t *e;
	json_array_foreach(entrants, i, e)
		if (strcmp(json_string_value(json_object_get(e, "author")), author) == 0)
			return json_is_null(json_object_get(e, "out_phase")) &&
			       json_is_integer(json_object_get(e, "representative"));
	return false;
}

static void closed_since(const char *name, int64_t deadline, err_t why)
{
	char when[40];
	time_t t = (time_t)(deadline / 1000);
	struct tm tm;
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime_r(&t, &tm));
	err_set(why, "uploads closed at %s, the qualification deadline of "
		 "tournament %.64s; what was uploaded before is still judged", when, name);
}

/* 1 when tournament t closes uploads to author, 0 when not, -1 error. */
static int closes(struct store *s, const json_t *t, const char *author, int64_t now,
		  err_t why)
{
	struct ctx c = { .s = s, .err = why };
	char note[8] = "";
	c.note = note;
	c.cap = sizeof note;
	int rc = load(&c, json_integer_value(json_object_get(t, "id")));
	const struct tour_phase *q = rc == 0 && c.spec.phase[0].kind == TOUR_QUALIFICATION
				     ? &c.spec.phase[0] : NULL;
	if (rc == 0 && q && q->deadline && now >= q->deadline) {
		json_t *entrants = NULL;
		if (store_entrants(s, c.t.id, &entrants, c.err) < 0)
			rc = -1;
		else if (!q->survivors_upload || !still_in(entrants, author))
			rc = 1, closed_since(c.t.name, q->deadline, why);
		json_decref(entrants);
	}
	store_tournament_clear(&c.t);
	return rc;
}

/* Asks each tournament of game still running, in turn, until one
 * answers other than 0: that answer, or 0. */
static int ask_each(struct store *s, const char *game,
		    int (*ask)(struct store *s, const json_t *t, void *arg, err_t err),
		    void *arg, err_t err)
{
	json_t *list, *t;
	size_t i;
	if (store_tournament_list(s, &list, err) < 0)
		return -1;
	int rc = 0;
	json_array_foreach(list, i, t)
		if (rc == 0 && !json_is_true(json_object_get(t, "over")) &&
		    strcmp(json_string_value(json_object_get(t, "game")), game) == 0)
			rc = ask(s, t, arg, err);
	json_decref(list);
	return rc;
}

struct upload_ask {
	const char *author;
	int64_t now;
};

static int ask_closes(struct store *s, const json_t *t, void *arg, err_t why)
{
	const struct upload_ask *u = arg;
	return closes(s, t, u->author, u->now, why);
}

int event_uploads_closed(struct store *s, const char *game, const char *author, int64_t now,
			 err_t why)
{
	struct upload_ask u = { .author = author, .now = now };
	return ask_each(s, game, ask_closes, &u, why);
}

/* ---- the qualification's steps and the opponent ------------------------------ */

static void steps_of(const struct store_tournament *t, const struct tour_phase *p,
		     struct event_qualify *q)
{
	*q = (struct event_qualify){ .self_match = p->self_match, .matches = p->matches,
				     .wins = p->wins };
	snprintf(q->tournament, sizeof q->tournament, "%s", t->name);
	snprintf(q->opponent, sizeof q->opponent, "%s", p->opponent);
}

/* 1 with the steps of t's qualification phase, the one under way or the
 * last before it: the students still in who upload after the deadline
 * (survivors_upload) qualify their new players by the same steps. */
static int ask_steps(struct store *s, const json_t *t, void *arg, err_t err)
{
	struct ctx c = { .s = s, .err = err };
	int rc = read_tournament(&c, json_integer_value(json_object_get(t, "id")));
	for (int p = c.t.phase; rc == 0 && p >= 0 && p < c.spec.nphases; p--)
		if (c.spec.phase[p].kind == TOUR_QUALIFICATION) {
			steps_of(&c.t, &c.spec.phase[p], arg);
			rc = 1;
		}
	store_tournament_clear(&c.t);
	return rc;
}

int event_qualification(struct store *s, const char *game, struct event_qualify *q,
			err_t err)
{
	return ask_each(s, game, ask_steps, q, err);
}

static bool plays_opponent(enum tour_kind kind)
{
	return kind == TOUR_QUALIFICATION || kind == TOUR_ELIMINATION || kind == TOUR_ROUND_ROBIN;
}

/* The phase a swap is for: the one asked (not one that is over), or the
 * first from the one under way that plays an opponent; -1 with err. */
static int swap_phase(struct ctx *c, int asked)
{
	int from = asked >= 0 ? asked : c->t.phase;
	for (int p = from; p < c->spec.nphases; p++)
		if (asked < 0 ? plays_opponent(c->spec.phase[p].kind) : p == asked) {
			if (p < c->t.phase)
				break;
			if (!plays_opponent(c->spec.phase[p].kind)) {
				err_set(c->err, "phase %d of %.64s is a %s, which plays "
					 "no opponent", p + 1, c->t.name,
					 tour_kind_name(c->spec.phase[p].kind));
				return -1;
			}
			return p;
		}
	if (asked >= 0 && asked < c->t.phase)
		err_set(c->err, "phase %d of %.64s is over: its opponent can no "
			 "longer change", asked + 1, c->t.name);
	else
		err_set(c->err, "%.64s has no phase %s that plays an opponent "
			 "(qualification, elimination, round-robin)", c->t.name,
			 asked >= 0 ? "of that number" : "left");
	return -1;
}

int event_swap_opponent(struct store *s, int64_t tournament, int *phase, const char *player,
			err_t err)
{
	char note[8] = "";
	struct ctx c = { .s = s, .err = err, .note = note, .cap = sizeof note };
	int rc = load(&c, tournament);
	int p = rc == 0 ? swap_phase(&c, *phase) : -1;
	if (rc == 0 && p < 0)
		rc = 1;
	else if (rc == 0 && strcmp(c.spec.phase[p].opponent, player) == 0)
		rc = 1, err_set(err, "phase %d of %.64s plays %.64s already", p + 1,
				 c.t.name, player);
	json_t *spec = rc == 0 ? json_deep_copy(c.t.spec) : NULL;
	json_t *at = spec ? json_array_get(json_object_get(spec, "phases"), (size_t)p) : NULL;
	if (rc == 0 && (!at || json_object_set_new(at, "opponent", json_string(player)) < 0))
		rc = -1, err_set(err, "tournament %.64s: its stored spec has no "
				  "phase %d", c.t.name, p + 1);
	if (rc == 0 && store_tournament_set_spec(s, c.t.id, spec, c.err) < 0)
		rc = -1;
	if (rc == 0)
		rc = run_log(&c, "opponent", json_pack("{s:i, s:i, s:s, s:s}", "of_phase", p,
				 "round", p == c.t.phase ? c.t.round : 0, "from",
				 c.spec.phase[p].opponent, "to", player));
	json_decref(spec);
	store_tournament_clear(&c.t);
	if (rc == 0)
		*phase = p;
	return rc < 0 ? -1 : rc == 1 ? 0 : 1;
}
