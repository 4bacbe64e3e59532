/* store_tournament.c - tournaments in the store (store_tournament.h). */
#include "judge/store/store_tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/db_backend.h"

void store_tournament_clear(struct store_tournament *t)
{
	json_decref(t->spec);
	*t = (struct store_tournament){ 0 };
}

int store_tournament_create(struct store *s, const char *game, const char *name,
			    const json_t *spec, uint64_t seed, int64_t *id, err_t err)
{
	json_t *taken = db_query_json(s, "creating the tournament", err,
		"SELECT 1 FROM tournaments WHERE name = ?1", "one:i", "t", name);
	if (!taken)
		return -1;
	bool exists = json_array_size(taken) > 0;
	json_decref(taken);
	if (exists) {
		err_set(err, "a tournament named '%.64s' exists already: choose "
			 "another name", name);
		return -1;
	}
	char *text = json_dumps(spec, JSON_COMPACT | JSON_SORT_KEYS);
	json_t *row = text ? db_query_json(s, "creating the tournament", err,
		"INSERT INTO tournaments (game, name, spec, phases, seed, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", "id:i", "tttiii", game, name, text,
		(int64_t)json_array_size(json_object_get(spec, "phases")), (int64_t)(seed >> 1),
		store_now_ms()) : NULL;
	free(text);
	json_t *one;
	if (db_one_json(row, &one) != 1)
		return -1;
	*id = json_integer_value(json_object_get(one, "id"));
	json_decref(one);
	return 0;
}

#define TOURNAMENT_COLUMNS \
	"id:i game:t name:t spec:t seed:i phase:i round:i started_at:i created_at:i"

int store_tournament_get(struct store *s, int64_t id, const char *name,
			 struct store_tournament *out, err_t err)
{
	*out = (struct store_tournament){ 0 };
	json_t *one, *rows = name
		? db_query_json(s, "reading the tournament", err,
			"SELECT id, game, name, spec, seed, phase, round, started_at, created_at"
			" FROM tournaments WHERE name = ?1", TOURNAMENT_COLUMNS, "t", name)
		: db_query_json(s, "reading the tournament", err,
			"SELECT id, game, name, spec, seed, phase, round, started_at, created_at"
			" FROM tournaments WHERE id = ?1", TOURNAMENT_COLUMNS, "i", id);
	int rc = db_one_json(rows, &one);
	if (rc != 1)
		return rc;
	json_error_t jerr;
	out->id = json_integer_value(json_object_get(one, "id"));
	snprintf(out->game, sizeof out->game, "%s", json_string_value(json_object_get(one, "game")));
	snprintf(out->name, sizeof out->name, "%s", json_string_value(json_object_get(one, "name")));
	out->spec = json_loads(json_string_value(json_object_get(one, "spec")), 0, &jerr);
	out->seed = (uint64_t)json_integer_value(json_object_get(one, "seed"));
	out->phase = (int)json_integer_value(json_object_get(one, "phase"));
	out->round = (int)json_integer_value(json_object_get(one, "round"));
	out->started_at = json_integer_value(json_object_get(one, "started_at"));
	out->created_at = json_integer_value(json_object_get(one, "created_at"));
	json_decref(one);
	if (!out->spec) {
		err_set(err, "tournament '%.64s': its stored spec is not JSON (%.120s)",
			 out->name, jerr.text);
		return -1;
	}
	return 1;
}

int store_tournament_list(struct store *s, json_t **out, err_t err)
{
	*out = db_query_json(s, "listing the tournaments", err,
		"SELECT id, game, name, phase, round, started_at, created_at, phase >= phases"
		" FROM tournaments ORDER BY id",
		"id:i game:t name:t phase:i round:i started_at:I created_at:i over:b", "");
	return *out ? 0 : -1;
}

int store_tournament_move(struct store *s, int64_t id, int phase, int round, int64_t started_at,
			  err_t err)
{
	return db_run(s, "moving the tournament on", err,
		      "UPDATE tournaments SET phase = ?2, round = ?3, started_at = ?4 WHERE id = ?1",
		      "iiii", id, (int64_t)phase, (int64_t)round, started_at);
}

int store_tournament_set_spec(struct store *s, int64_t id, const json_t *spec,
			      err_t err)
{
	char *text = json_dumps(spec, JSON_COMPACT | JSON_SORT_KEYS);
	if (!text) {
		err_set(err, "changing the tournament: out of memory");
		return -1;
	}
	int rc = db_run(s, "changing the tournament", err,
			"UPDATE tournaments SET spec = ?2 WHERE id = ?1", "it", id, text);
	free(text);
	return rc;
}

/* ---- entrants ------------------------------------------------------------- */

int store_entrant_add(struct store *s, int64_t tournament, const char *author, const char *group,
		      const char *pseudonym, err_t err)
{
	json_t *had = db_query_json(s, "adding an entrant", err,
		"SELECT id FROM entrants WHERE tournament_id = ?1 AND author = ?2", "id:i", "it",
		tournament, author);
	if (!had)
		return -1;
	bool exists = json_array_size(had) > 0;
	json_decref(had);
	if (exists)
		return db_run(s, "updating an entrant", err,
			      "UPDATE entrants SET grp = ?3, pseudonym = ?4"
			      " WHERE tournament_id = ?1 AND author = ?2", "itt" "t", tournament,
			      author, group ? group : "", pseudonym) < 0 ? -1 : 0;
	return db_run(s, "adding an entrant", err,
		      "INSERT INTO entrants (tournament_id, author, grp, pseudonym)"
		      " VALUES (?1, ?2, ?3, ?4)", "ittt", tournament, author, group ? group : "",
		      pseudonym) < 0 ? -1 : 1;
}

int store_entrants(struct store *s, int64_t tournament, json_t **out, err_t err)
{
	*out = db_query_json(s, "reading the entrants", err,
		"SELECT e.id, e.author, e.grp, e.pseudonym, e.representative, sub.name, sub.state,"
		" e.out_phase, e.out_round, e.place, r.mu - 3 * r.sigma,"
		/* qualified: one of the author's players of the game passed its
		 * qualification (it was rated), whether or not it represents them */
		" CASE WHEN EXISTS (SELECT 1 FROM submissions q JOIN ratings qr"
		"  ON qr.submission_id = q.id WHERE q.author = e.author AND q.game = t.game)"
		"  THEN 1 ELSE 0 END"
		" FROM entrants e JOIN tournaments t ON t.id = e.tournament_id"
		" LEFT JOIN submissions sub ON sub.id = e.representative"
		" LEFT JOIN ratings r ON r.submission_id = e.representative"
		" WHERE e.tournament_id = ?1 ORDER BY e.id",
		"id:i author:t group:t pseudonym:T representative:I name:T state:T out_phase:I"
		" out_round:I place:I score:D qualified:b", "i", tournament);
	return *out ? 0 : -1;
}

int store_entrant_pick(struct store *s, int64_t tournament, const char *author,
		       int64_t submission, err_t err)
{
	json_t *one, *rows = db_query_json(s, "choosing a representative", err,
		"SELECT sub.author, sub.game, sub.state, t.game AS tgame,"
		" (SELECT COUNT(*) FROM entrants e WHERE e.tournament_id = t.id AND e.author = ?3)"
		" FROM tournaments t LEFT JOIN submissions sub ON sub.id = ?2 WHERE t.id = ?1",
		"author:T game:T state:T tgame:t entrant:i", "iit", tournament, submission, author);
	int rc = db_one_json(rows, &one);
	if (rc != 1)
		return rc < 0 ? -1 : (err_set(err, "no such tournament"), 0);
	const char *why = NULL, *state = json_string_value(json_object_get(one, "state"));
	if (json_integer_value(json_object_get(one, "entrant")) == 0)
		why = "is not an entrant of this tournament";
	else if (!json_string_value(json_object_get(one, "author")))
		why = "named a submission that does not exist";
	else if (strcmp(json_string_value(json_object_get(one, "author")), author) != 0)
		why = "named another author's submission";
	else if (strcmp(json_string_value(json_object_get(one, "game")),
			json_string_value(json_object_get(one, "tgame"))) != 0)
		why = "named a submission of another game";
	else if (strcmp(state, "qualified") != 0 && strcmp(state, "superseded") != 0)
		why = "named a submission that has not qualified";
	json_decref(one);
	if (why) {
		err_set(err, "%.63s %s", author, why);
		return 0;
	}
	return db_run(s, "choosing a representative", err,
		      "UPDATE entrants SET representative = ?3 WHERE tournament_id = ?1 AND author = ?2",
		      "iti", tournament, author, submission) < 0 ? -1 : 1;
}

int store_entrant_place(struct store *s, int64_t entrant, int place, err_t err)
{
	return db_run(s, "recording a place", err, "UPDATE entrants SET place = ?2 WHERE id = ?1",
		      "ii", entrant, (int64_t)place);
}

int store_entrant_out(struct store *s, int64_t entrant, int phase, int round,
		      err_t err)
{
	return db_run(s, "recording who is out", err,
		      "UPDATE entrants SET out_phase = ?2, out_round = ?3 WHERE id = ?1", "iii",
		      entrant, (int64_t)phase, (int64_t)round);
}

/* ---- planned and played matches --------------------------------------------- */

int store_tmatch_plan(struct store *s, int64_t tournament, const struct store_tmatch *at,
		      const json_t *seats, uint64_t seed, const char *payload, int64_t not_before,
		      err_t err)
{
	json_t *had = db_query_json(s, "planning a tournament match", err,
		"SELECT 1 FROM tournament_matches WHERE tournament_id = ?1 AND phase = ?2"
		" AND round = ?3 AND stage = ?4 AND grp = ?5 AND game_no = ?6", "one:i", "iiiiii",
		tournament, (int64_t)at->phase, (int64_t)at->round, (int64_t)at->stage,
		(int64_t)at->group, (int64_t)at->game_no);
	if (!had)
		return -1;
	bool planned = json_array_size(had) > 0;
	json_decref(had);
	if (planned)
		return 0;
	int64_t job;
	if (store_enqueue(s, "match", payload, SCHED_TOURNAMENT, not_before, &job, err) < 0)
		return -1;
	char *text = json_dumps(seats, JSON_COMPACT);
	int rc = text ? db_run(s, "planning a tournament match", err,
		"INSERT INTO tournament_matches (tournament_id, phase, round, stage, grp, game_no,"
		" seats, seed, job_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", "iiiiiitii",
		tournament, (int64_t)at->phase, (int64_t)at->round, (int64_t)at->stage,
		(int64_t)at->group, (int64_t)at->game_no, text, (int64_t)seed, job) : -1;
	free(text);
	return rc < 0 ? -1 : 1;
}

int store_tmatch_record(struct store *s, int64_t job, int64_t match_id, err_t err)
{
	int64_t n = db_changed(s, "linking the tournament match", err,
			       "UPDATE tournament_matches SET match_id = ?2"
			       " WHERE job_id = ?1 AND match_id IS NULL", "ii", job, match_id);
	return n < 0 ? -1 : n > 0;
}

/* Each planned match of the phase (of one round, or of all when round < 0),
 * with its seats' scores and ranks as JSON arrays once played (one row per
 * seat, folded here). */
static int tmatches(struct store *s, int64_t tournament, int phase, int round, json_t **out,
		    err_t err)
{
	json_t *rows = db_query_json(s, "reading a tournament's matches", err,
		"SELECT tm.round, tm.stage, tm.grp, tm.game_no, tm.seats, tm.seed, tm.match_id,"
		" mp.seat, mp.score, mp.rank FROM tournament_matches tm"
		" LEFT JOIN match_players mp ON mp.match_id = tm.match_id"
		" WHERE tm.tournament_id = ?1 AND tm.phase = ?2 AND (?3 < 0 OR tm.round = ?3)"
		" ORDER BY tm.round, tm.stage, tm.grp, tm.game_no, mp.seat",
		"round:i stage:i group:i game_no:i seats:t seed:i match:I seat:I score:I rank:I",
		"iii", tournament, (int64_t)phase, (int64_t)round);
	if (!rows)
		return -1;
	*out = json_array();
	json_t *cur = NULL;
	size_t i;
	json_t *r;
	json_array_foreach(rows, i, r) {
		if (!json_is_integer(json_object_get(r, "seat")) ||
		    json_integer_value(json_object_get(r, "seat")) == 0) {
			json_error_t jerr;
			cur = json_pack("{s:O, s:O, s:O, s:O, s:o, s:O, s:O, s:[], s:[]}", "round",
					json_object_get(r, "round"), "stage",
					json_object_get(r, "stage"), "group", json_object_get(r, "group"),
					"game_no", json_object_get(r, "game_no"), "seats",
					json_loads(json_string_value(json_object_get(r, "seats")), 0, &jerr),
					"seed", json_object_get(r, "seed"), "match",
					json_object_get(r, "match"), "scores", "ranks");
			json_array_append_new(*out, cur);
		}
		if (cur && json_is_integer(json_object_get(r, "seat"))) {
			json_array_append(json_object_get(cur, "scores"), json_object_get(r, "score"));
			json_array_append(json_object_get(cur, "ranks"), json_object_get(r, "rank"));
		}
	}
	json_decref(rows);
	return 0;
}

int store_tmatch_round(struct store *s, int64_t tournament, int phase, int round, json_t **out,
		       err_t err)
{
	return tmatches(s, tournament, phase, round < 0 ? 0 : round, out, err);
}

int store_tmatch_phase(struct store *s, int64_t tournament, int phase, json_t **out,
		       err_t err)
{
	return tmatches(s, tournament, phase, -1, out, err);
}

int store_tmatch_of_job(struct store *s, int64_t job, int64_t *tournament,
			err_t err)
{
	json_t *one, *rows = db_query_json(s, "finding the job's tournament", err,
		"SELECT tournament_id FROM tournament_matches WHERE job_id = ?1", "t:i", "i", job);
	int rc = db_one_json(rows, &one);
	if (rc == 1) {
		*tournament = json_integer_value(json_object_get(one, "t"));
		json_decref(one);
	}
	return rc;
}

/* ---- the log ------------------------------------------------------------------ */

int store_tournament_log(struct store *s, int64_t tournament, const char *what,
			 const json_t *data, err_t err)
{
	char *text = json_dumps(data, JSON_COMPACT | JSON_SORT_KEYS);
	int rc = text ? db_run(s, "writing the tournament's log", err,
		"INSERT INTO tournament_log (tournament_id, what, data, created_at)"
		" VALUES (?1, ?2, ?3, ?4)", "itti", tournament, what, text, store_now_ms()) : -1;
	free(text);
	return rc < 0 ? -1 : 0;
}

int store_tournament_history(struct store *s, int64_t tournament, json_t **out,
			     err_t err)
{
	*out = db_query_json(s, "reading the tournament's log", err,
		"SELECT what, data, created_at FROM tournament_log WHERE tournament_id = ?1"
		" ORDER BY id", "what:t data:t at:i", "i", tournament);
	return *out ? 0 : -1;
}

int store_tournament_lock(struct store *s, err_t err)
{
	return s->ops->results_lock ? db_exec(s, s->ops->results_lock, "locking the tournament", err)
				    : 0;
}

int store_match_time(struct store *s, const char *game, int last, double *mean_ms, int *n,
		     err_t err)
{
	json_t *one, *rows = db_query_json(s, "measuring the game's matches", err,
		"SELECT COUNT(*), COALESCE(AVG(wall_ms), 0) FROM (SELECT wall_ms FROM matches"
		" WHERE game = ?1 AND wall_ms IS NOT NULL ORDER BY id DESC LIMIT ?2) recent",
		"n:i mean:d", "ti", game, (int64_t)last);
	if (db_one_json(rows, &one) != 1)
		return -1;
	*n = (int)json_integer_value(json_object_get(one, "n"));
	*mean_ms = json_number_value(json_object_get(one, "mean"));
	json_decref(one);
	return 0;
}
