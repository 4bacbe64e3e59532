/* store_copy.c - a whole store copied into an empty one (store.h): a
 * tournament moved from one box's SQLite file to PostgreSQL, or back. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"

/* Every table but meta (each store keeps its own), parents before
 * children, with its columns' kinds: i integer, d real, t text, b bytes. */
static const struct table {
	const char *name, *columns, *kinds;
	bool identity; /* an id column the backend numbers itself */
} tables[] = {
	{ "names", "game, name, author", "ttt", false },
	{ "submissions", "id, game, author, name, source, source_sha256, binary_path,"
	  " binary_sha256, state, compile_log, created_at, updated_at, qualify_note",
	  "itttbtttttiit", true },
	{ "jobs", "id, kind, payload, state, priority, attempts, not_before, lease_until, worker,"
	  " last_error, created_at, updated_at, due_at", "itttiiiittiii", true },
	{ "matches", "id, job_id, game, kind, seed, params, rated, replay, created_at, wall_ms",
	  "iittitibii", true },
	{ "match_players", "match_id, seat, submission_id, name, score, rank, frozen_round,"
	  " verdict, reason, cpu_ns, peak_memory", "iiitiiittii", false },
	{ "match_logs", "match_id, seat, log", "iib", false },
	{ "match_faults", "match_id, seat, message, turn_cpu_ns, cpu_budget_ns, input_size, input,"
	  " unit, unit_round, unit_step, unit_reason", "iiiiiibiiit", false },
	{ "ratings", "submission_id, game, mu, sigma, games, wins, updated_at", "itddiii", false },
	{ "events", "id, kind, submission_id, payload, created_at", "ititi", true },
	{ "plag_docs", "id, game, submission_id, author, name, label, k, w, hash_version,"
	  " ntokens, nfps, error, suspected, created_at, fps, source", "ititttiiiiitiibb", true },
	{ "plag_index", "key, doc_id", "ii", false },
	{ "plag_pairs", "doc_a, doc_b, game, similarity, a_in_b, b_in_a, longest, a_first_line,"
	  " a_last_line, b_first_line, b_last_line, flagged, created_at", "iitdddiiiiiii", false },
	{ "plag_flags", "id, game, doc_a, doc_b, later_doc, similarity, review, review_share,"
	  " reviewed_by, reviewed_at, note, seen_at, created_at", "itiiidtdtitii", true },
	{ "plag_reviews", "id, flag_id, action, share, decided_by, note, created_at", "iitdtti",
	  true },
	{ "plag_own", "doc_id, tokens", "ii", false },
	{ "plag_idioms", "key, docs", "ii", false },
	{ "binaries", "sha256, bytes, created_at", "tbi", false },
	{ "tokens", "id, sha256, author, organiser, created_at, revoked_at, label, grp", "ittiiitt",
	  true },
	{ "disqualifications", "id, game, name, reason, decided_by, created_at, reinstated_at,"
	  " reinstated_by", "ittttiit", true },
	{ "rating_history", "submission_id, mu, sigma, created_at", "iddi", false },
	{ "rejudges", "id, game, submission_id, decided_by, created_at", "ititi", true },
	{ "tournaments", "id, game, name, spec, phases, seed, phase, round, started_at, created_at",
	  "itttiiiiii", true },
	{ "entrants", "id, tournament_id, author, grp, pseudonym, representative, out_phase,"
	  " out_round, place", "iitttiiii", true },
	{ "tournament_matches", "tournament_id, phase, round, stage, grp, game_no, seats, seed,"
	  " job_id, match_id", "iiiiiitiii", false },
	{ "tournament_log", "id, tournament_id, what, data, created_at", "iitti", true },
	{ "challenges", "id, author, game, submission_id, seats, seed, job_id, created_at",
	  "ittitiii", true },
	{ "comparisons", "id, author, game, a, b, created_at", "ittiii", true },
	{ "comparison_matches", "comparison_id, pair, side, seat, job_id", "iiiii", false },
	{ "rating_sizes", "submission_id, game, players, games", "itii", false },
	{ "ranked_sizes", "game, players, matches", "tii", false },
	{ "reference_players", "id, game, name, source, source_sha256, binary_sha256,"
	  " object_sha256, created_at, updated_at", "ittbtttii", true },
};

/* Tables a store keeps for itself: its schema version, the scheduling
 * classes every worker publishes when it starts, and the leaderboard's
 * tree of counts, which the target's triggers build as ratings arrive. */
static const char *const not_copied[] = { "meta", "job_classes", "board_levels", "board_nodes" };

/* Column c of the source row bound as parameter c + 1 of the insert. */
static void copy_value(struct db_stmt *from, struct db_stmt *to, int c, char kind)
{
	size_t len = 0;
	const void *bytes;
	if (db_col_null(from, c)) {
		db_bind_text(to, c + 1, NULL);
	} else if (kind == 'i') {
		db_bind_int(to, c + 1, db_col_int(from, c));
	} else if (kind == 'd') {
		db_bind_double(to, c + 1, db_col_double(from, c));
	} else if (kind == 'b') {
		bytes = db_col_blob(from, c, &len); /* NULL when empty */
		db_bind_blob(to, c + 1, bytes ? bytes : "", len);
	} else {
		db_bind_text(to, c + 1, db_col_text(from, c));
	}
}

static int copy_table(struct store *from, struct store *to, const struct table *t, int64_t *rows,
		      err_t err)
{
	char select[512], insert[640], what[64];
	int n = (int)strlen(t->kinds), len;
	snprintf(what, sizeof what, "copying %s", t->name);
	snprintf(select, sizeof select, "SELECT %s FROM %s ORDER BY 1", t->columns, t->name);
	len = snprintf(insert, sizeof insert, "INSERT INTO %s (%s) VALUES (", t->name, t->columns);
	for (int c = 1; c <= n; c++)
		len += snprintf(insert + len, sizeof insert - (size_t)len, "?%d%s", c,
				c < n ? ", " : ")");
	int commas = 0;
	for (const char *p = t->columns; *p; p++)
		commas += *p == ',';
	if (commas + 1 != n) { /* the table above is wrong: a judge's bug */
		err_set(err, "%s: %d columns but %d kinds", what, commas + 1, n);
		return -1;
	}
	struct db_stmt *src = db_prepare(from, select);
	if (!src)
		return db_fail(from, what, err);
	struct db_stmt *dst = db_prepare(to, insert);
	if (!dst) {
		db_finish(src);
		return db_fail(to, what, err);
	}
	int rc, out = 0;
	while (out == 0 && (rc = db_step(src)) == 1) {
		db_reset(dst);
		for (int c = 0; c < n; c++)
			copy_value(src, dst, c, t->kinds[c]);
		out = db_step(dst) == 0 ? 0 : db_fail(to, what, err);
		*rows += out == 0;
	}
	if (out == 0 && rc < 0)
		out = db_fail(from, what, err);
	db_finish(src);
	db_finish(dst);
	if (out == 0 && t->identity && to->ops->identity_reset) {
		char sql[512];
		snprintf(sql, sizeof sql, to->ops->identity_reset, t->name, t->name);
		out = db_exec(to, sql, what, err);
	}
	return out;
}

/* 1 when the target holds a row in any table but meta, 0 none, -1. */
static int holds_data(struct store *to, err_t err)
{
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT 1 FROM %s LIMIT 1", tables[i].name);
		int64_t rc = db_query(to, "reading the target", err, sql, NULL, NULL, "");
		if (rc < 0)
			return -1;
		if (rc > 0) {
			err_set(err, "%s already holds a tournament (its table %s is "
				 "not empty): copy into a new, empty database", to->where, tables[i].name);
			return 1;
		}
	}
	return 0;
}

static bool names_column(const char *columns, const char *column)
{
	size_t n = strlen(column);
	for (const char *p = columns; (p = strstr(p, column)); p += n) {
		bool starts = p == columns || p[-1] == ' ' || p[-1] == ',';
		if (starts && (p[n] == '\0' || p[n] == ','))
			return true;
	}
	return false;
}

/* 0 when the list above copies every column of from's schema: a column
 * a later version added and the list forgot would otherwise be lost
 * without a word. */
/* The tables[] entry of a table, or NULL. */
static const struct table *table_named(const char *name)
{
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (strcmp(name, tables[i].name) == 0)
			return &tables[i];
	return NULL;
}

static bool copied_elsewise(const char *table)
{
	for (size_t i = 0; i < sizeof not_copied / sizeof *not_copied; i++)
		if (strcmp(table, not_copied[i]) == 0)
			return true;
	return false;
}

/* 0 when the list above copies every column of from's schema: a column
 * a later version added and the list forgot would otherwise be lost
 * without a word. */
static int covers_schema(struct store *from, err_t err)
{
	struct db_stmt *st = db_prepare(from, from->ops->columns_sql);
	int rc = -1, out = 0;
	while (st && out == 0 && (rc = db_step(st)) == 1) {
		const char *table = db_col_text(st, 0), *column = db_col_text(st, 1);
		const struct table *t = table_named(table);
		if (t ? names_column(t->columns, column) : copied_elsewise(table))
			continue;
		err_set(err, "this judge does not know how to copy %s %s%s%s "
			 "(a judge's bug: nothing was copied)", t ? "column" : "table",
			 t ? column : table, t ? " of table " : "", t ? table : "");
		out = -1;
	}
	if (out == 0 && rc < 0)
		out = db_fail(from, "reading the schema", err);
	db_finish(st);
	return out;
}

int store_copy(struct store *from, struct store *to, int64_t *rows, err_t err)
{
	*rows = 0;
	if (db_exec(from, from->ops->snapshot_begin, "reading the source", err) < 0)
		return -1;
	int rc = covers_schema(from, err);
	if (rc == 0 && store_begin(to, err) < 0)
		rc = -1;
	else if (rc == 0)
		rc = holds_data(to, err) == 0 ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < sizeof tables / sizeof *tables; i++)
		rc = copy_table(from, to, &tables[i], rows, err);
	if (rc == 0)
		rc = store_commit(to, err);
	else
		store_rollback(to);
	store_rollback(from); /* read only: ending it is all */
	if (rc < 0)
		*rows = 0;
	return rc;
}

int store_backup(struct store *s, const char *dest, err_t err)
{
	if (s->ops->kind != DB_SQLITE) {
		err_set(err, "the store is a PostgreSQL database: back it up with "
			 "`pg_dump --format=custom --file=judge.dump DATABASE` (restore with "
			 "pg_restore), or `judge store copy` it into a new SQLite file");
		return -1;
	}
	return db_run(s, "backing up", err, "VACUUM INTO ?1", "t", dest);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "column")),
		      json_string_value(json_object_get(*(json_t *const *)b, "column")));
}

struct json_t *store_schema_columns(struct store *s, err_t err)
{
	struct db_stmt *st = db_prepare(s, s->ops->columns_sql);
	json_t *rows[4096];
	size_t n = 0;
	int rc = st ? 0 : -1;
	while (st && n < sizeof rows / sizeof *rows && (rc = db_step(st)) == 1) {
		char name[160];
		snprintf(name, sizeof name, "%s.%s", db_col_text(st, 0), db_col_text(st, 1));
		rows[n++] = json_pack("{s:s}", "column", name);
	}
	db_finish(st);
	json_t *out = rc < 0 ? NULL : json_array();
	if (!out)
		db_fail(s, "reading the schema", err);
	qsort(rows, n, sizeof *rows, by_text);
	for (size_t i = 0; i < n; i++) {
		if (out)
			json_array_append_new(out, rows[i]);
		else
			json_decref(rows[i]);
	}
	return out;
}
