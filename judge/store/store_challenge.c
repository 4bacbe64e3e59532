/* store_challenge.c - challenges in the store (store_challenge.h). */
#include "judge/store/store_challenge.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/db_backend.h"

int store_player_now(struct store *s, const char *game, const char *name, bool qualified,
		     struct store_player_now *out, err_t err)
{
	json_t *one, *rows = db_query_json(s, "finding a player", err,
		"SELECT id, author, state FROM submissions WHERE game = ?1 AND name = ?2"
		" AND binary_path IS NOT NULL AND (state = 'qualified' OR (?3 = 0 AND state IN"
		" ('qualifying', 'not_qualified'))) ORDER BY id DESC LIMIT 1",
		"id:i author:t state:t", "tti", game, name, (int64_t)!qualified);
	int rc = db_one_json(rows, &one);
	if (rc != 1)
		return rc;
	out->submission = json_integer_value(json_object_get(one, "id"));
	snprintf(out->author, sizeof out->author, "%s",
		 json_string_value(json_object_get(one, "author")));
	snprintf(out->state, sizeof out->state, "%s",
		 json_string_value(json_object_get(one, "state")));
	json_decref(one);
	return 1;
}

int store_challenge_times(struct store *s, const char *author, int64_t since, int64_t **times,
			  size_t *n, err_t err)
{
	if (s->ops->challenge_lock &&
	    db_exec(s, s->ops->challenge_lock, "counting your challenges", err) < 0)
		return -1;
	json_t *rows = db_query_json(s, "counting your challenges", err,
		"SELECT created_at FROM challenges WHERE author = ?1 AND created_at >= ?2"
		" ORDER BY created_at", "at:i", "ti", author, since);
	if (!rows)
		return -1;
	*n = json_array_size(rows);
	*times = malloc((*n ? *n : 1) * sizeof **times);
	if (!*times) {
		json_decref(rows);
		err_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < *n; i++)
		(*times)[i] = json_integer_value(json_object_get(json_array_get(rows, i), "at"));
	json_decref(rows);
	return 0;
}

int store_add_challenge(struct store *s, const struct store_new_challenge *c, int64_t *job,
			err_t err)
{
	if (store_enqueue(s, "match", c->payload, SCHED_CHALLENGE, 0, job, err) < 0)
		return -1;
	return db_run(s, "queueing a challenge", err,
		"INSERT INTO challenges (author, game, submission_id, seats, seed, job_id, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", "ttitiii", c->author, c->game, c->submission,
		c->seats, c->seed, *job, store_now_ms());
}

int store_match_visible(struct store *s, int64_t match, const char *author,
			err_t err)
{
	json_t *one, *rows = db_query_json(s, "reading who may see a match", err,
		"SELECT CASE WHEN " STORE_MATCH_VISIBLE_SQL("2", "3") " THEN 1 ELSE 0 END"
		" FROM matches m WHERE m.id = ?1", "visible:i", "iti", match, author, (int64_t)0);
	int rc = db_one_json(rows, &one);
	if (rc != 1)
		return rc < 0 ? -1 : 1;
	rc = (int)json_integer_value(json_object_get(one, "visible"));
	json_decref(one);
	return rc;
}
