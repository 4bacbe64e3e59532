/* store_ratings.c - ratings and the ranked pool (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "judge/base/grow.h"
#include "judge/store/db.h"

/* The ranked pool of game ?1 (s a submission, r its rating): qualified
 * and not disqualified.  NOT IN reads the disqualified names once, into a
 * hashed list; NOT EXISTS had PostgreSQL scan them again for each player. */
#define RANKED_POOL_WHERE \
	" WHERE s.game = ?1 AND s.state = 'qualified' AND s.name NOT IN (SELECT name" \
	" FROM disqualifications WHERE game = ?1 AND reinstated_at IS NULL)"

int store_ranked_pool(struct store *s, const char *game, struct store_rated **out, size_t *n,
		      err_t err)
{
	*out = NULL;
	*n = 0;
	struct db_stmt *st = db_prepare(s, "SELECT s.id, r.mu, r.sigma, r.games, r.wins, s.name,"
					   " s.author FROM submissions s JOIN ratings r"
					   " ON r.submission_id = s.id" RANKED_POOL_WHERE " ORDER BY s.id");
	if (!st)
		return db_fail(s, "reading the ranked pool", err);
	db_bind_text(st, 1, game);
	int rc;
	while ((rc = db_step(st)) == 1) {
		struct store_rated *grown = realloc(*out, (*n + 1) * sizeof **out);
		if (!grown) {
			rc = -1;
			break;
		}
		*out = grown;
		(*out)[(*n)++] = (struct store_rated){
			.id = db_col_int(st, 0), .mu = db_col_double(st, 1), .sigma = db_col_double(st, 2),
			.games = (int)db_col_int(st, 3), .wins = (int)db_col_int(st, 4),
		};
		snprintf((*out)[*n - 1].name, sizeof (*out)->name, "%s", db_col_text(st, 5));
		snprintf((*out)[*n - 1].author, sizeof (*out)->author, "%s", db_col_text(st, 6));
	}
	rc = rc < 0 ? db_fail(s, "reading the ranked pool", err) : 0;
	db_finish(st);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Adds one planned match's seats to the games of the pool's players (a
 * seat of a player no longer in the pool counts for nobody). */
static void count_seats(const char *payload, struct store_rated *pool, size_t n)
{
	json_t *p = json_loads(payload, 0, NULL), *seat;
	size_t i;
	json_array_foreach(json_object_get(p, "seats"), i, seat) {
		int64_t id = json_integer_value(json_object_get(seat, "submission"));
		for (size_t k = 0; id && k < n; k++)
			if (pool[k].id == id)
				pool[k].games++;
	}
	json_decref(p);
}

struct planned {
	struct store_rated *pool;
	size_t n;
	int *queued;
};

static int planned_read(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct planned *p = ctx;
	*p->queued += strcmp(db_col_text(st, 0), "queued") == 0;
	count_seats(db_col_text(st, 1), p->pool, p->n);
	return 0;
}

int store_ranked_planned(struct store *s, const char *game, struct store_rated *pool, size_t n,
			 int *queued, err_t err)
{
	*queued = 0;
	if (s->ops->results_lock && db_exec(s, s->ops->results_lock, "planning matches", err) < 0)
		return -1;
	struct planned p = { pool, n, queued };
	int64_t planned = db_query(s, "reading the planned matches", err,
				   "SELECT state, payload FROM jobs WHERE kind = 'match'"
				   " AND state IN ('queued', 'running')"
				   " AND json_extract(payload, '$.kind') = 'ranked'"
				   " AND json_extract(payload, '$.game') = ?1 ORDER BY id",
				   planned_read, &p, "t", game);
	return planned < 0 ? -1 : (int)planned;
}

struct ids {
	int64_t **v;
	size_t *n, cap;
};

static int id_read(struct db_stmt *st, void *ctx, err_t err)
{
	struct ids *l = ctx;
	if (!grow_room(l->v, &l->cap, *l->n + 1, sizeof **l->v, 256))
		return err_fail(err, "out of memory");
	(*l->v)[(*l->n)++] = db_col_int(st, 0);
	return 0;
}

int store_rated_players(struct store *s, const char *game, int64_t **ids, size_t *n,
			err_t err)
{
	*ids = NULL;
	*n = 0;
	struct ids l = { ids, n, 0 };
	return db_query(s, "reading the rated players", err, "SELECT submission_id FROM ratings"
			" WHERE game = ?1 ORDER BY submission_id", id_read, &l, "t", game) < 0 ? -1 : 0;
}

int store_rated_results(struct store *s, const char *game,
			int (*each)(void *ctx, int64_t match, int64_t submission, int rank),
			void *ctx, err_t err)
{
	struct db_stmt *st = db_prepare(s, "SELECT m.id, mp.submission_id, mp.rank FROM matches m"
					   " JOIN match_players mp ON mp.match_id = m.id"
					   " WHERE m.game = ?1 AND m.kind = 'ranked' AND m.rated = 1"
					   /* a rejudge of the game starts its ratings over */
					   " AND m.created_at > coalesce((SELECT max(created_at)"
					   " FROM rejudges WHERE game = ?1 AND submission_id IS NULL), -1)"
					   " ORDER BY m.id, mp.seat");
	if (!st)
		return db_fail(s, "reading the rated matches", err);
	db_bind_text(st, 1, game);
	int rc;
	while ((rc = db_step(st)) == 1)
		if (each(ctx, db_col_int(st, 0), db_col_int(st, 1), (int)db_col_int(st, 2)) < 0) {
			db_finish(st);
			return -1; /* each() said why */
		}
	rc = rc < 0 ? db_fail(s, "reading the rated matches", err) : each(ctx, -1, -1, 0);
	db_finish(st);
	return rc;
}

/* A player's columns, its suspected mark (?2 = 1: asked for), then with
 * SIZES a row per size it played, by id so that a player's rows come
 * together. */
#define BOARD_ROWS_SQL(SIZES_COLUMNS, SIZES_JOIN) \
	"SELECT s.id, r.mu, r.sigma, r.games, r.wins, s.name, s.author," \
	" CASE WHEN ?2 = 1 AND s.id IN (SELECT submission_id FROM plag_docs" \
	" WHERE game = ?1 AND suspected = 1) THEN 1 ELSE 0 END" SIZES_COLUMNS \
	" FROM submissions s JOIN ratings r ON r.submission_id = s.id" SIZES_JOIN \
	RANKED_POOL_WHERE " ORDER BY s.id"

int store_board_rows(struct store *s, const char *game, bool sizes, bool marks,
		     int (*each)(void *ctx, const struct store_board_row *row), void *ctx,
		     err_t err)
{
	struct db_stmt *st = db_prepare(s, sizes ? BOARD_ROWS_SQL(", z.players, z.games",
						    " LEFT JOIN rating_sizes z ON z.submission_id = s.id")
					   : BOARD_ROWS_SQL(", 0, 0", ""));
	if (!st)
		return db_fail(s, "reading the leaderboard", err);
	db_bind_text(st, 1, game);
	db_bind_int(st, 2, marks);
	int rc;
	while ((rc = db_step(st)) == 1) {
		struct store_board_row row = {
			.id = db_col_int(st, 0), .mu = db_col_double(st, 1), .sigma = db_col_double(st, 2),
			.games = (int)db_col_int(st, 3), .wins = (int)db_col_int(st, 4),
			.name = db_col_text(st, 5), .author = db_col_text(st, 6),
			.suspected = db_col_int(st, 7) != 0, .players = (int)db_col_int(st, 8),
			.games_of_size = (int)db_col_int(st, 9),
		};
		if (each(ctx, &row) < 0) {
			db_finish(st);
			return -1; /* each() said why */
		}
	}
	rc = rc < 0 ? db_fail(s, "reading the leaderboard", err) : 0;
	db_finish(st);
	return rc;
}

/* The one rating row sql (mu, sigma, games, wins; ?1 the submission)
 * returns: 1 read into out, 0 none, -1 error. */
static int rating_row(struct store *s, const char *sql, int64_t submission,
		      struct store_rated *out, const char *what, err_t err)
{
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		return db_fail(s, what, err);
	db_bind_int(st, 1, submission);
	int rc = db_step(st);
	if (rc == 1)
		*out = (struct store_rated){ .id = submission, .mu = db_col_double(st, 0),
					     .sigma = db_col_double(st, 1), .games = (int)db_col_int(st, 2),
					     .wins = (int)db_col_int(st, 3) };
	else if (rc < 0)
		db_fail(s, what, err);
	db_finish(st);
	return rc;
}

int store_get_rating(struct store *s, int64_t submission, struct store_rated *out,
		     err_t err)
{
	return rating_row(s, "SELECT mu, sigma, games, wins FROM ratings WHERE submission_id = ?1",
			  submission, out, "reading a rating", err);
}

int store_ranked_rating(struct store *s, int64_t submission, struct store_rated *out,
			err_t err)
{
	return rating_row(s, "SELECT r.mu, r.sigma, r.games, r.wins FROM ratings r"
			     " JOIN submissions s ON s.id = r.submission_id"
			     " WHERE r.submission_id = ?1 AND s.state = 'qualified'",
			  submission, out, "reading ratings", err);
}

int store_put_rating(struct store *s, const struct store_rated *r, err_t err)
{
	return db_run(s, "writing a rating", err,
		      "UPDATE ratings SET mu = ?1, sigma = ?2, games = ?3, wins = ?4"
		      " WHERE submission_id = ?5", "ddiii", r->mu, r->sigma, (int64_t)r->games,
		      (int64_t)r->wins, r->id);
}
