/* run_common.c - the steps every phase of a tournament takes (run_int.h):
 * say and log what changed, move the phase or round on, read the field,
 * plan a match. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/event/run_int.h"

void run_say(struct ctx *c, const char *fmt, ...)
{
	size_t at = strlen(c->note);
	if (at >= c->cap)
		return;
	if (at)
		at += (size_t)snprintf(c->note + at, c->cap - at, "; ");
	va_list ap;
	va_start(ap, fmt);
	if (at < c->cap)
		vsnprintf(c->note + at, c->cap - at, fmt, ap);
	va_end(ap);
}

/* The store's error as ours; -1. */
int run_failed(struct ctx *c, const char *message)
{
	err_set(c->err, "%s", message);
	return -1;
}

int run_log(struct ctx *c, const char *what, json_t *data)
{
	json_object_set_new(data, "phase", json_integer(c->t.phase));
	int rc = store_tournament_log(c->s, c->t.id, what, data, c->err);
	json_decref(data);
	return rc < 0 ? -1 : 0;
}

int run_move(struct ctx *c, int phase, int round, int64_t started_at)
{
	if (store_tournament_move(c->s, c->t.id, phase, round, started_at, c->err) < 0)
		return -1;
	c->t.phase = phase;
	c->t.round = round;
	c->t.started_at = started_at;
	return 0;
}

void run_field_free(struct field *f)
{
	free(f->ids);
	free(f->reps);
	free(f->authors);
	json_decref(f->rows);
	*f = (struct field){ 0 };
}

int run_load_field(struct ctx *c, struct field *f)
{
	*f = (struct field){ 0 };
	if (store_entrants(c->s, c->t.id, &f->rows, c->err) < 0)
		return -1;
	size_t n = json_array_size(f->rows);
	f->ids = malloc((n + 1) * sizeof *f->ids);
	f->reps = malloc((n + 1) * sizeof *f->reps);
	f->authors = malloc((n + 1) * sizeof *f->authors);
	if (!f->ids || !f->reps || !f->authors) {
		err_set(c->err, "out of memory reading the entrants");
		return -1;
	}
	size_t i;
	json_t *e;
	json_array_foreach(f->rows, i, e) {
		json_t *rep = json_object_get(e, "representative");
		if (!json_is_null(json_object_get(e, "out_phase")) || !json_is_integer(rep))
			continue;
		f->ids[f->n] = json_integer_value(json_object_get(e, "id"));
		f->reps[f->n] = json_integer_value(rep);
		f->authors[f->n++] = json_string_value(json_object_get(e, "author"));
	}
	return 0;
}

int64_t run_rep_of(const struct field *f, int64_t entrant)
{
	for (int i = 0; i < f->n; i++)
		if (f->ids[i] == entrant)
			return f->reps[i];
	return 0;
}

int run_plan_seats(struct ctx *c, const struct field *f, const struct store_tmatch *at,
		   const int64_t *who, int nseats, uint64_t seed, int64_t not_before)
{
	const char *opponent = c->spec.phase[c->t.phase].opponent;
	json_t *seats = json_array(), *plays = json_array();
	for (int k = 0; k < nseats; k++) {
		json_array_append_new(seats, json_integer(who[k]));
		json_array_append_new(plays, who[k] == 0
				      ? json_pack("{s:s}", "house", opponent)
				      : json_pack("{s:I}", "submission", (json_int_t)run_rep_of(f, who[k])));
	}
	json_t *payload = json_pack("{s:s, s:s, s:I, s:I, s:o}", "kind", "tournament", "game",
				    c->t.game, "seed", (json_int_t)seed, "tournament",
				    (json_int_t)c->t.id, "seats", plays);
	char *text = json_dumps(payload, JSON_COMPACT);
	int rc = text ? store_tmatch_plan(c->s, c->t.id, at, seats, seed, text, not_before, c->err)
		      : -1;
	free(text);
	json_decref(payload);
	json_decref(seats);
	if (rc < 0 && !text)
		return run_failed(c, "out of memory");
	return rc < 0 ? -1 : 0;
}

const char *run_author_of(const struct field *f, int64_t entrant)
{
	for (int i = 0; i < f->n; i++)
		if (f->ids[i] == entrant)
			return f->authors[i];
	return "?";
}

int run_end_phase(struct ctx *c)
{
	run_say(c, "%s: phase %d (%s) is over", c->t.name, c->t.phase + 1,
	    tour_kind_name(c->spec.phase[c->t.phase].kind));
	if (run_log(c, "phase_end", json_object()) < 0)
		return -1;
	return run_move(c, c->t.phase + 1, 0, 0);
}
