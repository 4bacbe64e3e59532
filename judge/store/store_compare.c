/* store_compare.c - version comparisons in the store (store_compare.h). */
#include "judge/store/store_compare.h"

#include "judge/store/db.h"

int store_compare_create(struct store *s, const char *author, const char *game, int64_t a,
			 int64_t b, int64_t *id, err_t err)
{
	json_t *one, *rows = db_query_json(s, "recording the comparison", err,
		"INSERT INTO comparisons (author, game, a, b, created_at) VALUES (?1, ?2, ?3, ?4, ?5)"
		" RETURNING id", "id:i", "ttiii", author, game, a, b, store_now_ms());
	if (db_one_json(rows, &one) != 1)
		return -1;
	*id = json_integer_value(json_object_get(one, "id"));
	json_decref(one);
	return 0;
}

int store_compare_add(struct store *s, int64_t id, int pair, int side, int seat,
		      const char *payload, err_t err)
{
	int64_t job;
	if (store_enqueue(s, "match", payload, SCHED_COMPARISON, 0, &job, err) < 0)
		return -1;
	return db_run(s, "queueing a comparison's match", err,
		"INSERT INTO comparison_matches (comparison_id, pair, side, seat, job_id)"
		" VALUES (?1, ?2, ?3, ?4, ?5)", "iiiii", id, (int64_t)pair, (int64_t)side,
		(int64_t)seat, job);
}

int store_previous_version(struct store *s, const struct store_submission *sub, int64_t *id,
			   err_t err)
{
	json_t *one;
	int rc = db_one_json(db_query_json(s, "finding the previous version", err,
		"SELECT id FROM submissions WHERE game = ?1 AND name = ?2 AND author = ?3"
		" AND id < ?4 AND state = 'superseded' ORDER BY id DESC LIMIT 1", "id:i", "ttti",
		sub->game, sub->name, sub->author, sub->id), &one);
	if (rc == 1) {
		*id = json_integer_value(json_object_get(one, "id"));
		json_decref(one);
	}
	return rc;
}

int store_compare_get(struct store *s, int64_t id, json_t **out, err_t err)
{
	return db_one_json(db_query_json(s, "reading the comparison", err,
		"SELECT c.id, c.author, c.game, c.a, c.b, c.created_at,"
		" (SELECT count(*) FROM comparison_matches cm WHERE cm.comparison_id = c.id)"
		" FROM comparisons c WHERE c.id = ?1",
		"id:i author:t game:t a:i b:i created_at:i matches:i", "i", id), out);
}

json_t *store_compare_results(struct store *s, int64_t id, err_t err)
{
	return db_query_json(s, "reading the comparison's results", err,
		"SELECT cm.pair, cm.side, mp.rank,"
		" (SELECT count(*) FROM match_players x WHERE x.match_id = m.id)"
		" FROM comparison_matches cm JOIN matches m ON m.job_id = cm.job_id"
		" JOIN match_players mp ON mp.match_id = m.id AND mp.seat = cm.seat"
		" WHERE cm.comparison_id = ?1 ORDER BY cm.pair, cm.side",
		"pair:i side:i rank:i players:i", "i", id);
}
