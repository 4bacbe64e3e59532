/* store_serve.c - the service's read views, as JSON (store_serve.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/store_challenge.h"
#include "judge/store/store_serve.h"

/* Sets key of obj to rows (stolen); -1 when rows is NULL. */
static int put_rows(json_t *obj, const char *key, json_t *rows)
{
	return rows && json_object_set_new(obj, key, rows) == 0 ? 0 : -1;
}

/* A view: its head row, then its lists; -1 drops the head. */
static int view_done(int rc, json_t **out)
{
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}

#define SEAT_SPEC "seat:i submission:I name:t author:t score:i rank:i verdict:T" \
		  " frozen_round:I reason:T cpu_ns:i peak_memory:i"

int store_match_view(struct store *s, int64_t id, json_t **out, err_t err)
{
	int rc = db_one_json(db_query_json(s, "reading a match", err,
		"SELECT id, game, kind, CAST(seed AS TEXT), created_at,"
		" CASE WHEN replay IS NULL OR length(replay) = 0 THEN 0 ELSE 1 END"
		" FROM matches WHERE id = ?1",
		"id:i game:t kind:t seed:t created_at:i has_replay:b", "i", id), out);
	if (rc <= 0)
		return rc;
	rc = put_rows(*out, "players", db_query_json(s, "reading a match's players", err,
		"SELECT mp.seat, mp.submission_id, mp.name, coalesce(s.author, ''), mp.score,"
		" mp.rank, mp.verdict, mp.frozen_round, mp.reason, mp.cpu_ns, mp.peak_memory"
		" FROM match_players mp LEFT JOIN submissions s ON s.id = mp.submission_id"
		" WHERE mp.match_id = ?1 ORDER BY mp.seat", SEAT_SPEC, "i", id));
	return view_done(rc < 0 ? -1 : 1, out);
}

#define MY_MATCH_SPEC "match:i kind:t seed:t created_at:i seat:i rank:i score:i verdict:T" \
		      " reason:T players:i has_log:b has_fault:b submission:i won:b"
#define MY_MATCH_SQL "SELECT m.id, m.kind, CAST(m.seed AS TEXT), m.created_at, mp.seat, mp.rank, mp.score," \
		     " mp.verdict, mp.reason," \
		     " (SELECT count(*) FROM match_players x WHERE x.match_id = m.id)," \
		     " CASE WHEN EXISTS (SELECT 1 FROM match_logs l WHERE l.match_id = m.id" \
		     " AND l.seat = mp.seat) THEN 1 ELSE 0 END," \
		     " CASE WHEN EXISTS (SELECT 1 FROM match_faults f WHERE f.match_id = m.id" \
		     " AND f.seat = mp.seat) THEN 1 ELSE 0 END, mp.submission_id," \
		     " CASE WHEN mp.rank = 1 THEN 1 ELSE 0 END" \
		     " FROM match_players mp JOIN matches m ON m.id = mp.match_id"

#define MY_MATCHES_MAX 200
#define TEXT_OF(x) #x
#define LIMIT_OF(n) " ORDER BY m.id DESC LIMIT " TEXT_OF(n)
#define LIMIT_MY_MATCHES LIMIT_OF(MY_MATCHES_MAX)

/* The other seats of each match in rows (a list of matches, one seat of
 * each, at most MY_MATCHES_MAX): [{seat, name, submission, rank, score}]
 * as its "opponents", read in one query by the matches' ids. */
static int add_opponents(struct store *s, json_t *rows, err_t err)
{
	char sql[256 + MY_MATCHES_MAX * 21] = "SELECT match_id, seat, name, submission_id, rank,"
		" score FROM match_players WHERE match_id IN (0";
	size_t i, k, n = strlen(sql);
	json_t *row, *seat;
	json_array_foreach(rows, i, row)
		n += (size_t)snprintf(sql + n, sizeof sql - n, ",%lld", (long long)
				      json_integer_value(json_object_get(row, "match")));
	snprintf(sql + n, sizeof sql - n, ") ORDER BY match_id, seat");
	json_t *seats = db_query_json(s, "reading the opponents", err, sql,
		"match:i seat:i name:t submission:I rank:i score:i", "");
	if (!seats)
		return -1;
	json_array_foreach(rows, i, row) {
		json_t *others = json_array();
		json_int_t match = json_integer_value(json_object_get(row, "match"));
		json_int_t mine = json_integer_value(json_object_get(row, "seat"));
		json_array_foreach(seats, k, seat)
			if (json_integer_value(json_object_get(seat, "match")) == match &&
			    json_integer_value(json_object_get(seat, "seat")) != mine)
				json_array_append(others, seat);
		json_object_set_new(row, "opponents", others);
	}
	json_array_foreach(seats, k, seat)
		json_object_del(seat, "match");
	json_decref(seats);
	return 0;
}

/* A list of one's matches, with their opponents: put as key of obj. */
static int put_my_matches(struct store *s, json_t *obj, json_t *rows, err_t err)
{
	if (rows && add_opponents(s, rows, err) < 0) {
		json_decref(rows);
		return -1;
	}
	return put_rows(obj, "matches", rows);
}

int store_submission_view(struct store *s, int64_t id, json_t **out, err_t err)
{
	int rc = db_one_json(db_query_json(s, "reading a submission", err,
		"SELECT id, game, author, name, state, compile_log, created_at, updated_at,"
		" qualify_note FROM submissions WHERE id = ?1",
		"id:i game:t author:t name:t state:t compile_log:T created_at:i updated_at:i"
		" qualify_note:T",
		"i", id), out);
	if (rc <= 0)
		return rc;
	rc = put_my_matches(s, *out, db_query_json(s, "reading a submission's matches", err,
		MY_MATCH_SQL " WHERE mp.submission_id = ?1" LIMIT_MY_MATCHES, MY_MATCH_SPEC, "i",
		id), err);
	if (rc == 0)
		rc = put_rows(*out, "comparisons", db_query_json(s, "reading a submission's "
			"comparisons", err, "SELECT id, a, b, created_at FROM comparisons"
			" WHERE a = ?1 OR b = ?1 ORDER BY id DESC LIMIT 50",
			"id:i a:i b:i created_at:i", "i", id));
	json_t *rating = NULL;
	if (rc == 0 && db_one_json(db_query_json(s, "reading a rating", err,
			"SELECT mu, sigma, games, wins FROM ratings WHERE submission_id = ?1",
			"mu:d sigma:d games:i wins:i", "i", id), &rating) < 0)
		rc = -1;
	if (rc == 0)
		rc = json_object_set_new(*out, "rating", rating ? rating : json_null());
	return view_done(rc < 0 ? -1 : 1, out);
}

int store_submissions_of(struct store *s, const char *author, json_t **out,
			 err_t err)
{
	*out = db_query_json(s, "reading your submissions", err,
		"SELECT s.id, s.game, s.name, s.state, s.created_at, s.updated_at,"
		" CASE WHEN EXISTS (SELECT 1 FROM disqualifications d WHERE d.game = s.game"
		" AND d.name = s.name AND d.reinstated_at IS NULL) THEN 1 ELSE 0 END"
		" FROM submissions s WHERE s.author = ?1 ORDER BY s.id DESC LIMIT 500",
		"id:i game:t name:t state:t created_at:i updated_at:i disqualified:b", "t", author);
	return *out ? 1 : -1;
}

int store_player_game(struct store *s, const char *name, char game[32], err_t err)
{
	json_t *row;
	int rc = db_one_json(db_query_json(s, "finding a player", err,
		"SELECT game FROM submissions WHERE name = ?1 ORDER BY id DESC LIMIT 1",
		"game:t", "t", name), &row);
	if (rc == 1) {
		snprintf(game, 32, "%s", json_string_value(json_object_get(row, "game")));
		json_decref(row);
	}
	return rc;
}

#define OF_PLAYER "(SELECT id FROM submissions WHERE game = ?1 AND name = ?2)"

int store_player_view(struct store *s, const char *game, const char *name, const char *viewer,
		      json_t **out, err_t err)
{
	int rc = db_one_json(db_query_json(s, "reading a player", err,
		"SELECT game, name, author FROM names WHERE game = ?1 AND name = ?2",
		"game:t name:t author:t", "tt", game, name), out);
	if (rc <= 0)
		return rc;
	rc = put_rows(*out, "submissions", db_query_json(s, "reading a player", err,
		"SELECT id, state, created_at FROM submissions WHERE game = ?1 AND name = ?2"
		" ORDER BY id DESC", "id:i state:t created_at:i", "tt", game, name));
	if (rc == 0)
		rc = put_rows(*out, "history", db_query_json(s, "reading a rating history", err,
			"SELECT submission_id, mu, sigma, created_at FROM rating_history"
			" WHERE submission_id IN " OF_PLAYER " ORDER BY created_at",
			"submission:i mu:d sigma:d at:i", "tt", game, name));
	if (rc == 0)
		rc = put_my_matches(s, *out, db_query_json(s, "reading a player's matches", err,
			MY_MATCH_SQL " WHERE mp.submission_id IN " OF_PLAYER " AND "
			STORE_MATCH_VISIBLE_SQL("3", "4") LIMIT_MY_MATCHES, MY_MATCH_SPEC, "ttti", game,
			name, viewer ? viewer : "", (int64_t)!viewer), err);
	if (rc == 0)
		rc = put_rows(*out, "disqualifications", db_query_json(s, "reading a player", err,
			"SELECT reason, decided_by, created_at, reinstated_at, reinstated_by"
			" FROM disqualifications WHERE game = ?1 AND name = ?2 ORDER BY id DESC",
			"reason:t decided_by:t created_at:i reinstated_at:I reinstated_by:T", "tt",
			game, name));
	return view_done(rc < 0 ? -1 : 1, out);
}

int store_match_sizes(struct store *s, const char *game, json_t **out, err_t err)
{
	*out = db_query_json(s, "counting the players per match", err,
		"SELECT players, matches FROM ranked_sizes WHERE game = ?1 ORDER BY players",
		"players:i matches:i", "t", game);
	return *out ? 1 : -1;
}
