/* store_matches.c - what the read side asks of a stored match (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

/* Column col's bytes (malloc'd, at least 1 byte) into *bytes: 0, or -1
 * with err saying what ran out of memory. */
static int copy_blob(struct db_stmt *st, int col, uint8_t **bytes, size_t *len, const char *what,
		     char err[STORE_ERRLEN])
{
	size_t n;
	const void *b = db_col_blob(st, col, &n);
	if (!(*bytes = malloc(n ? n : 1))) {
		snprintf(err, STORE_ERRLEN, "%s: out of memory", what);
		return -1;
	}
	if (n)
		memcpy(*bytes, b, n);
	*len = n;
	return 0;
}

int store_match_replay(struct store *s, int64_t id, uint8_t **bytes, size_t *len, bool *exists,
		       char err[STORE_ERRLEN])
{
	*bytes = NULL;
	*len = 0;
	*exists = false;
	struct db_stmt *st = db_prepare(s, "SELECT replay FROM matches WHERE id = ?1");
	if (!st)
		return db_fail(s, "reading a replay", err);
	db_bind_int(st, 1, id);
	int rc = db_step(st);
	if (rc == 1) {
		*exists = true;
		if (db_col_null(st, 0))
			rc = 0;
		else if (copy_blob(st, 0, bytes, len, "reading a replay", err) < 0)
			rc = -1;
	} else if (rc < 0) {
		db_fail(s, "reading a replay", err);
	}
	db_finish(st);
	return rc;
}

int store_match_log(struct store *s, int64_t match, int seat, struct store_seat_log *out,
		    char err[STORE_ERRLEN])
{
	*out = (struct store_seat_log){ 0 };
	struct db_stmt *st = db_prepare(s,
		"SELECT coalesce(s.author, ''), l.log FROM match_players mp"
		" LEFT JOIN submissions s ON s.id = mp.submission_id"
		" LEFT JOIN match_logs l ON l.match_id = mp.match_id AND l.seat = mp.seat"
		" WHERE mp.match_id = ?1 AND mp.seat = ?2");
	if (!st)
		return db_fail(s, "reading a player's log", err);
	db_bind_int(st, 1, match);
	db_bind_int(st, 2, seat);
	int rc = db_step(st);
	if (rc == 1) {
		snprintf(out->author, sizeof out->author, "%s", db_col_text(st, 0));
		if (!db_col_null(st, 1) &&
		    copy_blob(st, 1, &out->bytes, &out->len, "reading a player's log", err) < 0)
			rc = -1;
	} else if (rc < 0) {
		db_fail(s, "reading a player's log", err);
	}
	db_finish(st);
	return rc;
}

int store_recent_matches(struct store *s, int64_t submission, int max, int64_t *ids, int *n,
			 char err[STORE_ERRLEN])
{
	*n = 0;
	struct db_stmt *st = db_prepare(s, "SELECT m.id FROM match_players p JOIN matches m"
					   " ON m.id = p.match_id WHERE p.submission_id = ?1"
					   " AND m.replay IS NOT NULL ORDER BY m.id DESC LIMIT ?2");
	if (!st)
		return db_fail(s, "reading a player's matches", err);
	db_bind_int(st, 1, submission);
	db_bind_int(st, 2, max);
	int rc = 0;
	while (*n < max && (rc = db_step(st)) == 1)
		ids[(*n)++] = db_col_int(st, 0);
	rc = *n < max && rc < 0 ? db_fail(s, "reading a player's matches", err) : 0;
	db_finish(st);
	return rc;
}

int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT seat, reason FROM match_players"
					   " WHERE match_id = ?1 AND reason IS NOT NULL");
	if (!st)
		return db_fail(s, "reading a match's players", err);
	db_bind_int(st, 1, match);
	int rc;
	while ((rc = db_step(st)) == 1)
		each(ctx, (int)db_col_int(st, 0), db_col_text(st, 1));
	rc = rc < 0 ? db_fail(s, "reading a match's players", err) : 0;
	db_finish(st);
	return rc;
}

/* ---- recording a match ------------------------------------------------------- */

int store_add_match(struct store *s, const struct store_new_match *m, int64_t *id,
		    char err[STORE_ERRLEN])
{
	if (s->ops->results_lock && db_exec(s, s->ops->results_lock, "recording the match", err) < 0)
		return -1;
	struct db_stmt *st = db_prepare(s, "INSERT INTO matches (job_id, game, kind, seed, replay,"
					   " created_at, wall_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
					   " NULLIF(?7, 0)) RETURNING id");
	if (!st)
		return db_fail(s, "recording the match", err);
	db_bind_int(st, 1, m->job);
	db_bind_text(st, 2, m->game);
	db_bind_text(st, 3, m->kind);
	db_bind_int(st, 4, m->seed);
	db_bind_blob(st, 5, m->replay, m->replay_len);
	db_bind_int(st, 6, store_now_ms());
	db_bind_int(st, 7, m->wall_ms);
	int rc = db_step(st);
	if (rc == 1)
		*id = db_col_int(st, 0);
	rc = rc == 1 ? 0 : db_fail(s, "recording the match", err);
	db_finish(st);
	return rc;
}

int store_add_match_player(struct store *s, int64_t match, const struct store_match_player *p,
			   char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s,
		"INSERT INTO match_players (match_id, seat, submission_id, name, score, rank,"
		" frozen_round, verdict, reason, cpu_ns, peak_memory)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
	if (!st)
		return db_fail(s, "recording a player", err);
	db_bind_int(st, 1, match);
	db_bind_int(st, 2, p->seat);
	if (p->submission)
		db_bind_int(st, 3, p->submission);
	else
		db_bind_text(st, 3, NULL);
	db_bind_text(st, 4, p->name);
	db_bind_int(st, 5, p->score);
	db_bind_int(st, 6, p->rank);
	if (p->verdict) {
		db_bind_int(st, 7, p->frozen_round);
		db_bind_text(st, 8, p->verdict);
		db_bind_text(st, 9, p->reason);
	} else {
		db_bind_text(st, 7, NULL);
		db_bind_text(st, 8, NULL);
		db_bind_text(st, 9, NULL);
	}
	db_bind_int(st, 10, p->cpu_ns);
	db_bind_int(st, 11, p->peak_memory);
	int rc = db_step(st) == 0 ? 0 : db_fail(s, "recording a player", err);
	db_finish(st);
	return rc;
}

int store_add_match_log(struct store *s, int64_t match, int seat, const void *log, size_t len,
			char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s, "INSERT INTO match_logs (match_id, seat, log)"
					   " VALUES (?1, ?2, ?3)");
	if (!st)
		return db_fail(s, "recording a player's log", err);
	db_bind_int(st, 1, match);
	db_bind_int(st, 2, seat);
	db_bind_blob(st, 3, log, len);
	int rc = db_step(st) == 0 ? 0 : db_fail(s, "recording a player's log", err);
	db_finish(st);
	return rc;
}

int store_board_place(struct store *s, const char *game, double score, char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT count(*) FROM ratings r JOIN submissions s"
					   " ON s.id = r.submission_id WHERE s.game = ?1"
					   " AND s.state = 'qualified' AND r.mu - 3 * r.sigma > ?2");
	if (!st)
		return db_fail(s, "reading the leaderboard", err);
	db_bind_text(st, 1, game);
	db_bind_double(st, 2, score);
	int n = db_step(st) == 1 ? (int)db_col_int(st, 0) + 1
				 : db_fail(s, "reading the leaderboard", err);
	db_finish(st);
	return n;
}

int store_rate(struct store *s, int64_t submission, double mu, double sigma, bool won,
	       char err[STORE_ERRLEN])
{
	int64_t now = store_now_ms();
	if (db_run(s, "updating ratings", err,
		   "UPDATE ratings SET mu = ?1, sigma = ?2, games = games + 1, wins = wins + ?3,"
		   " updated_at = ?4 WHERE submission_id = ?5", "ddiii", mu, sigma, (int64_t)won, now,
		   submission) < 0)
		return -1;
	/* The history a player's page plots. */
	return db_run(s, "updating ratings", err,
		      "INSERT INTO rating_history (submission_id, mu, sigma, created_at)"
		      " VALUES (?1, ?2, ?3, ?4)", "iddi", submission, mu, sigma, now);
}

int store_mark_rated(struct store *s, int64_t match, char err[STORE_ERRLEN])
{
	return db_run(s, "recording the match", err, "UPDATE matches SET rated = 1 WHERE id = ?1",
		      "i", match);
}

int store_qualifying_record(struct store *s, int64_t submission, int *played, int *wins,
			    char err[STORE_ERRLEN])
{
	struct db_stmt *st = db_prepare(s, "SELECT count(*), coalesce(sum(CASE WHEN mp.rank = 1"
					   " THEN 1 ELSE 0 END), 0) FROM match_players mp"
					   " JOIN matches m ON m.id = mp.match_id"
					   " WHERE m.kind = 'qualifying' AND mp.submission_id = ?1"
					   " AND (SELECT count(*) FROM match_players c WHERE"
					   " c.match_id = m.id AND c.submission_id = ?1) = 1"
					   /* a rejudge starts the qualification over */
					   " AND m.created_at > coalesce((SELECT max(r.created_at)"
					   " FROM rejudges r WHERE r.submission_id = ?1"
					   " OR (r.submission_id IS NULL AND r.game = m.game)), -1)");
	if (!st)
		return db_fail(s, "qualification", err);
	db_bind_int(st, 1, submission);
	int rc = db_step(st);
	*played = rc == 1 ? (int)db_col_int(st, 0) : 0;
	*wins = rc == 1 ? (int)db_col_int(st, 1) : 0;
	rc = rc == 1 ? 0 : db_fail(s, "qualification", err);
	db_finish(st);
	return rc;
}
