/* tournament.c - a tournament's phases and settings, and its grades
 * (tournament.h). */
#include "judge/event/tournament.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const kind_names[] = { "qualification", "ladder", "elimination",
					  "round-robin", "bracket" };
static const char *const from_names[] = { "all", "top", "survivors" };

const char *tour_kind_name(enum tour_kind kind)
{
	return kind_names[kind];
}

static struct tour_phase phase_defaults(enum tour_kind kind)
{
	struct tour_phase p = { .kind = kind, .from = TOUR_FROM_ALL, .self_match = true,
				.survivors_upload = true,
				.matches = 4, .wins = 4, .elim = elim_rules_course(), .remain = 11,
				.size = 4, .bracket = { .best_of = 3, .double_elim = true,
							.reset = true } };
	snprintf(p.opponent, sizeof p.opponent, "Dummy");
	if (kind == TOUR_ROUND_ROBIN)
		p.matches = 5;
	return p;
}

void tour_spec_course(struct tour_spec *s)
{
	*s = (struct tour_spec){ .grades = { 0, 5, 10, 0 }, .newest_if_unpicked = false,
				 .nphases = 3 };
	s->phase[0] = phase_defaults(TOUR_QUALIFICATION);
	s->phase[1] = phase_defaults(TOUR_ELIMINATION);
	s->phase[2] = phase_defaults(TOUR_ROUND_ROBIN);
	s->phase[2].from = TOUR_FROM_SURVIVORS;
	s->phase[2].final_matches = 5;
}

/* ---- reading the organiser's JSON ------------------------------------------ */

struct reader {
	struct err *err;
	char where[48]; /* "phase 2 (elimination)", or "the tournament" */
};

static int fail(struct reader *r, const char *fmt, const char *key, const char *what)
{
	char msg[ERR_LEN - sizeof r->where - 2];
	snprintf(msg, sizeof msg, fmt, key, what);
	err_set(r->err, "%s: %s", r->where, msg);
	return -1;
}

/* Every key of obj is one of allowed (NULL-terminated). */
static int known_keys(struct reader *r, const json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		bool ok = false;
		for (const char *const *a = allowed; *a && !ok; a++)
			ok = strcmp(*a, key) == 0;
		if (!ok)
			return fail(r, "unknown setting '%.40s'%s", key,
				    " (check its spelling against docs/organisers.md)");
	}
	return 0;
}

static int get_int(struct reader *r, const json_t *obj, const char *key, long lo, long hi,
		   int *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	char range[64];
	snprintf(range, sizeof range, "a whole number from %ld to %ld", lo, hi);
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(r, "%s must be %s", key, range);
	*out = (int)json_integer_value(v);
	return 0;
}

static int get_bool(struct reader *r, const json_t *obj, const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);
	if (v && !json_is_boolean(v))
		return fail(r, "%s must be true or false%s", key, "");
	if (v)
		*out = json_is_true(v);
	return 0;
}

static int get_number(struct reader *r, const json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);
	if (v && (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1000))
		return fail(r, "%s must be a number from 0 to 1000%s", key, "");
	if (v)
		*out = json_number_value(v);
	return 0;
}

/* A time: milliseconds since the epoch, or "YYYY-MM-DDTHH:MM:SSZ" (UTC). */
static int get_time(struct reader *r, const json_t *obj, const char *key, int64_t *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = json_integer_value(v);
		return 0;
	}
	struct tm tm = { 0 };
	const char *s = json_string_value(v), *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (!end || *end)
		return fail(r, "%s must be a UTC time such as 2026-12-01T18:00:00Z%s", key, "");
	*out = (int64_t)timegm(&tm) * 1000;
	return 0;
}

static int get_name(struct reader *r, const json_t *obj, const char *key, const char *const *names,
		    int n, int *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	for (int i = 0; i < n; i++)
		if (json_is_string(v) && strcmp(json_string_value(v), names[i]) == 0) {
			*out = i;
			return 0;
		}
	char list[128] = "";
	for (int i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
			 names[i]);
	return fail(r, "%s must be one of: %s", key, list);
}

static int get_opponent(struct reader *r, const json_t *obj, char out[TOUR_NAME_MAX])
{
	json_t *v = json_object_get(obj, "opponent");
	if (!v)
		return 0;
	const char *s = json_string_value(v);
	if (!s || !*s || strlen(s) >= TOUR_NAME_MAX || strspn(s, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(s))
		return fail(r, "%s must be a player's name (letters, digits, _)%s", "opponent", "");
	snprintf(out, TOUR_NAME_MAX, "%s", s);
	return 0;
}

static const char *const phase_keys[] = {
	"kind", "from", "top", "starts_at", "opponent", "deadline", "self_match", "matches",
	"wins", "remain", "round_gap_minutes", "size", "final", "double", "best_of", "reset",
	"survivors_upload", NULL,
};

static int read_common(struct reader *r, const json_t *o, struct tour_phase *p)
{
	int from = (int)p->from;
	if (known_keys(r, o, phase_keys) < 0 || get_name(r, o, "from", from_names, 3, &from) < 0 ||
	    get_int(r, o, "top", 1, 100000, &p->top) < 0 ||
	    get_time(r, o, "starts_at", &p->starts_at) < 0 || get_opponent(r, o, p->opponent) < 0)
		return -1;
	p->from = (enum tour_from)from;
	if (p->from == TOUR_FROM_TOP && p->top < 1)
		return fail(r, "%s needs %s", "from \"top\"", "\"top\": how many");
	return 0;
}

static int read_kind(struct reader *r, const json_t *o, struct tour_phase *p, int min_seats,
		     int max_seats)
{
	int gap = 0;
	switch (p->kind) {
	case TOUR_QUALIFICATION:
		if (get_time(r, o, "deadline", &p->deadline) < 0 ||
		    get_bool(r, o, "self_match", &p->self_match) < 0 ||
		    get_bool(r, o, "survivors_upload", &p->survivors_upload) < 0 ||
		    get_int(r, o, "matches", 1, 20, &p->matches) < 0 ||
		    get_int(r, o, "wins", 0, p->matches, &p->wins) < 0)
			return -1;
		break;
	case TOUR_ELIMINATION:
		if (min_seats != max_seats || min_seats < 3)
			return fail(r, "%s needs a game of a fixed number of players, 3 or more%s",
				    "an elimination", "");
		p->elim.seats = min_seats;
		p->elim.beats = min_seats / 2;
		if (get_int(r, o, "remain", 1, 100000, &p->remain) < 0 ||
		    get_int(r, o, "round_gap_minutes", 0, 7 * 24 * 60, &gap) < 0)
			return -1;
		p->round_gap_ms = (int64_t)gap * 60000;
		break;
	case TOUR_ROUND_ROBIN:
		p->size = max_seats < 4 ? max_seats : 4 < min_seats ? min_seats : 4;
		if (get_int(r, o, "size", min_seats, max_seats, &p->size) < 0 ||
		    get_int(r, o, "matches", 1, 100, &p->matches) < 0 ||
		    get_int(r, o, "final", 0, 100, &p->final_matches) < 0)
			return -1;
		break;
	case TOUR_BRACKET:
		if (min_seats > 2)
			return fail(r, "%s needs a game two players can play%s", "a bracket", "");
		if (get_bool(r, o, "double", &p->bracket.double_elim) < 0 ||
		    get_int(r, o, "best_of", 1, 31, &p->bracket.best_of) < 0 ||
		    get_bool(r, o, "reset", &p->bracket.reset) < 0)
			return -1;
		if (p->bracket.best_of % 2 == 0)
			return fail(r, "%s must be %s", "best_of", "odd, so that a series has a winner");
		break;
	case TOUR_LADDER:
		break;
	}
	return 0;
}

static int read_phase(struct reader *r, const json_t *o, int index, int min_seats, int max_seats,
		      struct tour_phase *p)
{
	int kind = -1;
	snprintf(r->where, sizeof r->where, "phase %d", index + 1);
	if (!json_is_object(o))
		return fail(r, "%s%s", "must be an object such as {\"kind\": \"elimination\"}", "");
	if (get_name(r, o, "kind", kind_names, 5, &kind) < 0)
		return -1;
	if (kind < 0)
		return fail(r, "%s is missing (one of %s)", "kind",
			    "qualification, ladder, elimination, round-robin, bracket");
	*p = phase_defaults((enum tour_kind)kind);
	snprintf(r->where, sizeof r->where, "phase %d (%s)", index + 1, kind_names[kind]);
	if (kind == TOUR_QUALIFICATION && index > 0)
		return fail(r, "%s%s", "a qualification can only be the first phase", "");
	if (index == 0 && json_object_get(o, "from"))
		return fail(r, "%s%s", "the first phase takes every contestant: no \"from\"", "");
	return read_common(r, o, p) < 0 ? -1 : read_kind(r, o, p, min_seats, max_seats);
}

static const char *const top_keys[] = { "grades", "representative", "pseudonyms", "phases",
					NULL };
static const char *const grade_keys[] = { "not_qualified", "qualified", "max", "copy", NULL };
static const char *const rep_names[] = { "out", "newest" };

static int read_settings(struct reader *r, const json_t *json, struct tour_spec *s)
{
	const json_t *g = json_object_get(json, "grades");
	int rep = s->newest_if_unpicked;
	if (known_keys(r, json, top_keys) < 0 || get_bool(r, json, "pseudonyms", &s->pseudonyms) < 0 ||
	    get_name(r, json, "representative", rep_names, 2, &rep) < 0)
		return -1;
	s->newest_if_unpicked = rep == 1;
	if (g && (known_keys(r, g, grade_keys) < 0 ||
		  get_number(r, g, "not_qualified", &s->grades.not_qualified) < 0 ||
		  get_number(r, g, "qualified", &s->grades.qualified) < 0 ||
		  get_number(r, g, "max", &s->grades.max) < 0 ||
		  get_number(r, g, "copy", &s->grades.copy) < 0))
		return -1;
	if (s->grades.qualified > s->grades.max)
		return fail(r, "%s%s", "grades: \"qualified\" is above \"max\"", "");
	return 0;
}

int tour_spec_parse(const json_t *json, int min_seats, int max_seats, struct tour_spec *s,
		    err_t err)
{
	struct reader r = { .err = err, .where = "the tournament" };
	*s = (struct tour_spec){ .grades = { 0, 5, 10, 0 } };
	if (!json_is_object(json))
		return fail(&r, "%s%s", "must be a JSON object with \"phases\"", "");
	if (read_settings(&r, json, s) < 0)
		return -1;
	const json_t *phases = json_object_get(json, "phases");
	size_t n = json_array_size(phases);
	if (!json_is_array(phases) || n < 1 || n > TOUR_PHASES_MAX)
		return fail(&r, "\"phases\" must list 1 to %s phases%s", "8", "");
	for (size_t i = 0; i < n; i++)
		if (read_phase(&r, json_array_get(phases, i), (int)i, min_seats, max_seats,
			       &s->phase[i]) < 0)
			return -1;
	s->nphases = (int)n;
	return 0;
}

/* ---- writing it back ------------------------------------------------------ */

static void put_kind(json_t *o, const struct tour_phase *p)
{
	switch (p->kind) {
	case TOUR_QUALIFICATION:
		json_object_set_new(o, "deadline", json_integer(p->deadline));
		json_object_set_new(o, "self_match", json_boolean(p->self_match));
		json_object_set_new(o, "survivors_upload", json_boolean(p->survivors_upload));
		json_object_set_new(o, "matches", json_integer(p->matches));
		json_object_set_new(o, "wins", json_integer(p->wins));
		break;
	case TOUR_ELIMINATION:
		json_object_set_new(o, "remain", json_integer(p->remain));
		json_object_set_new(o, "round_gap_minutes", json_integer(p->round_gap_ms / 60000));
		break;
	case TOUR_ROUND_ROBIN:
		json_object_set_new(o, "size", json_integer(p->size));
		json_object_set_new(o, "matches", json_integer(p->matches));
		json_object_set_new(o, "final", json_integer(p->final_matches));
		break;
	case TOUR_BRACKET:
		json_object_set_new(o, "double", json_boolean(p->bracket.double_elim));
		json_object_set_new(o, "best_of", json_integer(p->bracket.best_of));
		json_object_set_new(o, "reset", json_boolean(p->bracket.reset));
		break;
	case TOUR_LADDER:
		break;
	}
}

json_t *tour_spec_json(const struct tour_spec *s)
{
	json_t *phases = json_array();
	for (int i = 0; i < s->nphases; i++) {
		const struct tour_phase *p = &s->phase[i];
		json_t *o = json_pack("{s:s, s:s}", "kind", kind_names[p->kind], "opponent",
				      p->opponent);
		if (i > 0)
			json_object_set_new(o, "from", json_string(from_names[p->from]));
		if (p->from == TOUR_FROM_TOP)
			json_object_set_new(o, "top", json_integer(p->top));
		if (p->starts_at)
			json_object_set_new(o, "starts_at", json_integer(p->starts_at));
		put_kind(o, p);
		json_array_append_new(phases, o);
	}
	return json_pack("{s:{s:f, s:f, s:f, s:f}, s:s, s:b, s:o}", "grades", "not_qualified",
			 s->grades.not_qualified, "qualified", s->grades.qualified, "max",
			 s->grades.max, "copy", s->grades.copy, "representative",
			 rep_names[s->newest_if_unpicked], "pseudonyms", s->pseudonyms, "phases",
			 phases);
}

/* ---- grades ------------------------------------------------------------------ */

double tour_grade(const struct tour_grades *g, bool qualified, bool copy, int out, int rounds)
{
	if (copy)
		return g->copy;
	if (!qualified)
		return g->not_qualified;
	if (out <= 0 || rounds <= 0)
		return g->max;
	int survived = out - 1 < rounds ? out - 1 : rounds;
	return g->qualified + (g->max - g->qualified) * survived / rounds;
}
