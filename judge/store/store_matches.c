/* store_matches.c - what the read side asks of a stored match (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

struct replay_read {
	uint8_t **bytes;
	size_t *len;
	bool *exists;
};

static int read_replay(struct db_stmt *st, void *ctx, err_t err)
{
	struct replay_read *r = ctx;
	*r->exists = true;
	return db_col_null(st, 0) ? 1 : db_col_dup(st, 0, r->bytes, r->len, err) < 0 ? -1 : 1;
}

int store_match_replay(struct store *s, int64_t id, uint8_t **bytes, size_t *len, bool *exists,
		       err_t err)
{
	*bytes = NULL;
	*len = 0;
	*exists = false;
	struct replay_read r = { bytes, len, exists };
	int64_t rc = db_query(s, "reading a replay", err, "SELECT replay FROM matches WHERE id = ?1",
			      read_replay, &r, "i", id);
	return rc < 0 ? -1 : *bytes != NULL;
}

/* One seat of a match and its player's submission, for seat_row. */
#define SEAT_FROM " FROM match_players mp LEFT JOIN submissions s ON s.id = mp.submission_id"
#define SEAT_WHERE " WHERE mp.match_id = ?1 AND mp.seat = ?2"

/* The row of the query sql (SEAT_FROM ... SEAT_WHERE) for the seat of the
 * match: 1 read, 0 no such seat, -1. */
static int seat_row(struct store *s, int64_t match, int seat, const char *what,
		    const char *sql, db_row_fn *read, void *out, err_t err)
{
	return (int)db_query(s, what, err, sql, read, out, "ii", match, (int64_t)seat);
}

static int read_seat_log(struct db_stmt *st, void *ctx, err_t err)
{
	struct store_seat_log *out = ctx;
	db_col_copy(st, 0, out->author, sizeof out->author);
	if (!db_col_null(st, 1) && db_col_dup(st, 1, &out->bytes, &out->len, err) < 0)
		return -1;
	return 1;
}

int store_match_log(struct store *s, int64_t match, int seat, struct store_seat_log *out,
		    err_t err)
{
	*out = (struct store_seat_log){ 0 };
	return seat_row(s, match, seat, "reading a player's log",
			"SELECT coalesce(s.author, ''), l.log" SEAT_FROM
			" LEFT JOIN match_logs l ON l.match_id = mp.match_id AND l.seat = mp.seat"
			SEAT_WHERE, read_seat_log, out, err);
}

static int read_fault(struct db_stmt *st, void *ctx, err_t err)
{
	struct store_fault *out = ctx;
	db_col_copy(st, 0, out->author, sizeof out->author);
	db_col_copy(st, 1, out->name, sizeof out->name);
	db_col_copy(st, 2, out->verdict, sizeof out->verdict);
	db_col_copy(st, 3, out->reason, sizeof out->reason);
	out->frozen_round = (int)db_col_int(st, 4);
	out->cpu_ns = db_col_int(st, 5);
	out->peak_memory = db_col_int(st, 6);
	if (db_col_null(st, 11))
		return 1;
	out->message = (int)db_col_int(st, 7);
	out->turn_cpu_ns = db_col_int(st, 8);
	out->cpu_budget_ns = db_col_int(st, 9);
	out->input_size = db_col_int(st, 10);
	out->unit = (int)db_col_int(st, 12);
	out->unit_round = (int)db_col_int(st, 13);
	out->unit_step = (int)db_col_int(st, 14);
	db_col_copy(st, 15, out->unit_reason, sizeof out->unit_reason);
	return db_col_dup(st, 11, &out->input, &out->input_len, err) < 0 ? -1 : 1;
}

int store_match_fault(struct store *s, int64_t match, int seat, struct store_fault *out,
		      err_t err)
{
	*out = (struct store_fault){ .message = -1 };
	return seat_row(s, match, seat, "reading a seat's fault",
			"SELECT coalesce(s.author, ''), mp.name, coalesce(mp.verdict, ''),"
			" coalesce(mp.reason, ''), coalesce(mp.frozen_round, -1), mp.cpu_ns,"
			" mp.peak_memory, f.message, f.turn_cpu_ns, f.cpu_budget_ns, f.input_size,"
			" f.input, coalesce(f.unit, 0), coalesce(f.unit_round, -1),"
			" coalesce(f.unit_step, 0), coalesce(f.unit_reason, '')" SEAT_FROM
			" LEFT JOIN match_faults f ON f.match_id = mp.match_id AND f.seat = mp.seat"
			SEAT_WHERE, read_fault, out, err);
}

struct id_list {
	int64_t *ids;
	int *n;
	int max;
};

static int read_match_id(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct id_list *list = ctx;
	list->ids[(*list->n)++] = db_col_int(st, 0);
	return *list->n < list->max ? 0 : 1;
}

int store_recent_matches(struct store *s, int64_t submission, int max, int64_t *ids, int *n,
			 err_t err)
{
	*n = 0;
	if (max <= 0)
		return 0;
	struct id_list list = { ids, n, max };
	return db_query(s, "reading a player's matches", err,
			"SELECT m.id FROM match_players p JOIN matches m"
			" ON m.id = p.match_id WHERE p.submission_id = ?1"
			" AND m.replay IS NOT NULL ORDER BY m.id DESC LIMIT ?2", read_match_id, &list,
			"ii", submission, (int64_t)max) < 0 ? -1 : 0;
}

struct reason_each {
	void (*each)(void *ctx, int seat, const char *reason);
	void *ctx;
};

static int read_reason(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct reason_each *r = ctx;
	r->each(r->ctx, (int)db_col_int(st, 0), db_col_text(st, 1));
	return 0;
}

int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			err_t err)
{
	struct reason_each r = { each, ctx };
	return db_query(s, "reading a match's players", err,
			"SELECT seat, reason FROM match_players"
			" WHERE match_id = ?1 AND reason IS NOT NULL", read_reason, &r, "i",
			match) < 0 ? -1 : 0;
}

/* ---- recording a match ------------------------------------------------------- */

int store_add_match(struct store *s, const struct store_new_match *m, int64_t *id,
		    err_t err)
{
	if (s->ops->results_lock && db_exec(s, s->ops->results_lock, "recording the match", err) < 0)
		return -1;
	if (db_query(s, "recording the match", err,
		     "INSERT INTO matches (job_id, game, kind, seed, replay, created_at, wall_ms)"
		     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULLIF(?7, 0)) RETURNING id", db_row_int, id,
		     "ittibii", m->job, m->game, m->kind, m->seed, (const void *)m->replay,
		     m->replay_len, store_now_ms(), m->wall_ms) < 0)
		return -1;
	if (strcmp(m->kind, "ranked") != 0 || m->players <= 0)
		return 0;
	/* What the leaderboard shows of a game with a range of players. */
	return db_run(s, "recording the match", err,
		      "INSERT INTO ranked_sizes (game, players, matches) VALUES (?1, ?2, 1)"
		      " ON CONFLICT (game, players) DO UPDATE"
		      " SET matches = ranked_sizes.matches + 1", "ti", m->game, (int64_t)m->players);
}

int store_add_match_player(struct store *s, int64_t match, const struct store_match_player *p,
			   err_t err)
{
	/* A shipped player has no submission, one that played to the end no
	 * frozen round, verdict or reason: NULL. */
	return db_run(s, "recording a player", err,
		"INSERT INTO match_players (match_id, seat, submission_id, name, score, rank,"
		" frozen_round, verdict, reason, cpu_ns, peak_memory)"
		" VALUES (?1, ?2, NULLIF(CAST(?3 AS BIGINT), 0), ?4, ?5, ?6,"
		" CASE WHEN CAST(?8 AS TEXT) IS NULL THEN NULL ELSE CAST(?7 AS BIGINT) END,"
		" ?8, ?9, ?10, ?11)", "iiitiiittii", match, (int64_t)p->seat, p->submission,
		p->name, p->score, (int64_t)p->rank, (int64_t)p->frozen_round, p->verdict,
		p->verdict ? p->reason : NULL, p->cpu_ns, p->peak_memory);
}

int store_add_match_log(struct store *s, int64_t match, int seat, const void *log, size_t len,
			err_t err)
{
	return db_run(s, "recording a player's log", err,
		      "INSERT INTO match_logs (match_id, seat, log) VALUES (?1, ?2, ?3)", "iib",
		      match, (int64_t)seat, log, len);
}

int store_add_match_fault(struct store *s, int64_t match, int seat, const struct store_fault *f,
			  err_t err)
{
	return db_run(s, "recording a seat's fault", err,
		"INSERT INTO match_faults (match_id, seat, message, turn_cpu_ns, cpu_budget_ns,"
		" input_size, input, unit, unit_round, unit_step, unit_reason)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULLIF(?8, 0), ?9, ?10, ?11)", "iiiiiibiiit",
		match, (int64_t)seat, (int64_t)f->message, f->turn_cpu_ns, f->cpu_budget_ns,
		f->input_size, (const void *)f->input, f->input_len, (int64_t)f->unit,
		(int64_t)f->unit_round, (int64_t)f->unit_step, f->unit_reason);
}

/* The tree of db/migrations/012: 2^20 slots of 1/1024 of a point, and a
 * node per prefix of a slot's number at each of 20 levels. */
#define BOARD_LEVELS 20
#define BOARD_SLOTS (1 << BOARD_LEVELS)
/* SQLite's statement; PostgreSQL's is the same in a function. */
#define BOARD_PLACE_SQL \
	"SELECT (SELECT coalesce(sum(players), 0) FROM board_nodes WHERE game = ?1" \
	" AND node IN (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16," \
	" ?17, ?18, ?19, ?20, ?21)) + (SELECT count(*) FROM ratings r" \
	" JOIN submissions s ON s.id = r.submission_id WHERE r.game = ?1" \
	" AND r.board_key BETWEEN ?22 AND ?23 AND r.score > ?24 AND s.state = 'qualified')"

/* The slot of a score, as the schema's board_key computes it. */
static int64_t board_slot(double score)
{
	double x = (score + 512) * 1024;
	return x < 0 ? 0 : x >= BOARD_SLOTS - 1 ? BOARD_SLOTS - 1 : (int64_t)x;
}

/* The nodes of the tree that count the slots above top: at each level
 * where top's prefix ends in 0, the prefix ending in 1 instead (-1: none). */
static void board_nodes_above(int64_t top, int64_t node[BOARD_LEVELS])
{
	for (int level = 0; level < BOARD_LEVELS; level++) {
		int64_t prefix = top >> level;
		node[level] = prefix & 1 ? -1 : (int64_t)level * BOARD_SLOTS + (prefix | 1);
	}
}

/* PostgreSQL's statement, board_above() of db/migrations/012,
 * takes the nodes as one array. */
static void bind_postgres_place(struct db_stmt *st, const int64_t node[BOARD_LEVELS])
{
	char array[BOARD_LEVELS * 12 + 3];
	size_t len = 0;
	for (int level = 0; level < BOARD_LEVELS; level++)
		len += (size_t)snprintf(array + len, sizeof array - len, "%c%lld",
					level ? ',' : '{', (long long)node[level]);
	snprintf(array + len, sizeof array - len, "}");
	db_bind_text(st, 2, array);
}

int store_board_place(struct store *s, const char *game, double score, err_t err)
{
	bool postgres = s->ops->kind == DB_POSTGRES;
	struct db_stmt *st = db_prepare(s, postgres ? "SELECT board_above(?1, ?2, ?3, ?4, ?5)"
						   : BOARD_PLACE_SQL);
	if (!st)
		return db_fail(s, "reading the leaderboard", err);
	/* The slots next to the score's are counted by score, so a slot
	 * computed here one off the database's changes nothing; the tree
	 * counts the slots above them. */
	int64_t slot = board_slot(score), top = slot + 1 < BOARD_SLOTS ? slot + 1 : slot;
	int64_t node[BOARD_LEVELS];
	board_nodes_above(top, node);
	int next = postgres ? 3 : 2 + BOARD_LEVELS;
	db_bind_text(st, 1, game);
	if (postgres)
		bind_postgres_place(st, node);
	for (int level = 0; !postgres && level < BOARD_LEVELS; level++)
		db_bind_int(st, 2 + level, node[level]);
	db_bind_int(st, next, slot - 1);
	db_bind_int(st, next + 1, top);
	db_bind_double(st, next + 2, score);
	int n = db_step(st) == 1 ? (int)db_col_int(st, 0) + 1
				 : db_fail(s, "reading the leaderboard", err);
	db_finish(st);
	return n;
}

int store_rate(struct store *s, int64_t submission, double mu, double sigma, bool won,
	       int players, err_t err)
{
	int64_t now = store_now_ms();
	if (db_run(s, "updating ratings", err,
		   "UPDATE ratings SET mu = ?1, sigma = ?2, games = games + 1, wins = wins + ?3,"
		   " updated_at = ?4 WHERE submission_id = ?5", "ddiii", mu, sigma, (int64_t)won, now,
		   submission) < 0)
		return -1;
	if (db_run(s, "updating ratings", err,
		   "INSERT INTO rating_sizes (submission_id, game, players, games)"
		   " SELECT submission_id, game, ?2, 1 FROM ratings WHERE submission_id = ?1"
		   " ON CONFLICT (submission_id, players) DO UPDATE"
		   " SET games = rating_sizes.games + 1", "ii", submission, (int64_t)players) < 0)
		return -1;
	/* The history a player's page plots. */
	return db_run(s, "updating ratings", err,
		      "INSERT INTO rating_history (submission_id, mu, sigma, created_at)"
		      " VALUES (?1, ?2, ?3, ?4)", "iddi", submission, mu, sigma, now);
}

int store_mark_rated(struct store *s, int64_t match, err_t err)
{
	return db_run(s, "recording the match", err, "UPDATE matches SET rated = 1 WHERE id = ?1",
		      "i", match);
}

struct record_read {
	int *played, *wins;
};

static int read_record(struct db_stmt *st, void *ctx, err_t err)
{
	(void)err;
	struct record_read *r = ctx;
	*r->played = (int)db_col_int(st, 0);
	*r->wins = (int)db_col_int(st, 1);
	return 1;
}

int store_qualifying_record(struct store *s, int64_t submission, int *played, int *wins,
			    err_t err)
{
	*played = *wins = 0;
	struct record_read r = { played, wins };
	return db_query(s, "qualification", err,
			"SELECT count(*), coalesce(sum(CASE WHEN mp.rank = 1"
			" THEN 1 ELSE 0 END), 0) FROM match_players mp"
			" JOIN matches m ON m.id = mp.match_id"
			" WHERE m.kind = 'qualifying' AND mp.submission_id = ?1"
			" AND (SELECT count(*) FROM match_players c WHERE"
			" c.match_id = m.id AND c.submission_id = ?1) = 1"
			/* a rejudge starts the qualification over */
			" AND m.created_at > coalesce((SELECT max(r.created_at)"
			" FROM rejudges r WHERE r.submission_id = ?1"
			" OR (r.submission_id IS NULL AND r.game = m.game)), -1)",
			read_record, &r, "i", submission) < 0 ? -1 : 0;
}
