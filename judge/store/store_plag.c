/* store_plag.c - plagiarism documents, their index and pairs (store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/store/db.h"
#include "judge/store/store_plag_review.h"

/* Every column a document is read with, in struct store_plag_doc's order
 * (its own code last, -1 when it was fingerprinted before that was kept);
 * SOURCE_COL is the source (an archived file's, else its submission's). */
#define DOC_COLS "d.id, d.submission_id, d.game, d.author, d.name, d.label, d.k, d.w," \
		 " d.hash_version, d.ntokens, d.nfps, d.error, d.fps," \
		 " coalesce((SELECT o.tokens FROM plag_own o WHERE o.doc_id = d.id), -1)"
#define SOURCE_COL 14

void store_plag_doc_clear(struct store_plag_doc *d)
{
	free(d->fps);
	free(d->source);
	memset(d, 0, sizeof *d);
}

static void copy_col(char *dst, size_t size, struct db_stmt *st, int col)
{
	snprintf(dst, size, "%s", db_col_text(st, col));
}

/* Copies len bytes into a new NUL-ended buffer (NULL when out of memory). */
static void *dup_bytes(const void *v, size_t len)
{
	char *out = malloc(len + 1);
	if (out) {
		if (len)
			memcpy(out, v, len);
		out[len] = '\0';
	}
	return out;
}

/* The row's document (DOC_COLS from column 0), with the source when the
 * row has SOURCE_COL.  -1 only when out of memory. */
static int read_doc(struct db_stmt *st, bool with_source, struct store_plag_doc *d,
		    err_t err)
{
	*d = (struct store_plag_doc){ .id = db_col_int(st, 0), .submission = db_col_int(st, 1),
				      .k = (int)db_col_int(st, 6), .w = (int)db_col_int(st, 7),
				      .hash_version = (int)db_col_int(st, 8),
				      .ntokens = db_col_int(st, 9), .nfps = db_col_int(st, 10),
				      .has_error = !db_col_null(st, 11),
				      .own_tokens = db_col_int(st, 13) };
	copy_col(d->game, sizeof d->game, st, 2);
	copy_col(d->author, sizeof d->author, st, 3);
	copy_col(d->name, sizeof d->name, st, 4);
	copy_col(d->label, sizeof d->label, st, 5);
	copy_col(d->error->msg, sizeof d->error->msg, st, 11);
	const void *fps = db_col_blob(st, 12, &d->fps_len);
	d->fps = dup_bytes(fps, d->fps_len);
	if (d->fps && with_source) {
		const void *src = db_col_blob(st, SOURCE_COL, &d->source_len);
		d->source = dup_bytes(src, d->source_len);
	}
	if (!d->fps || (with_source && !d->source)) {
		store_plag_doc_clear(d);
		err_set(err, "reading a fingerprinted file: out of memory");
		return -1;
	}
	return 0;
}

/* ---- reading, for a comparison ----------------------------------------------- */

struct store_plag_reader {
	struct store *s;
	struct db_stmt *count, *lookup, *candidate, *load;
};

struct store_plag_reader *store_plag_reader(struct store *s, err_t err)
{
	struct store_plag_reader *r = calloc(1, sizeof *r);
	if (!r) {
		err_set(err, "reading fingerprints: out of memory");
		return NULL;
	}
	r->s = s;
	r->count = db_prepare(s, "SELECT docs FROM plag_idioms WHERE key = ?1");
	r->lookup = r->count ? db_prepare(s, "SELECT doc_id FROM plag_index WHERE key = ?1"
					     " LIMIT ?2")
			     : NULL;
	r->candidate = r->lookup ? db_prepare(s, "SELECT nfps FROM plag_docs WHERE id = ?1"
						 " AND game = ?2 AND author <> ?3 AND k = ?4"
						 " AND hash_version = ?5 AND error IS NULL")
				 : NULL;
	r->load = r->candidate ? db_prepare(s, "SELECT " DOC_COLS " FROM plag_docs d"
						  " WHERE d.id = ?1")
			       : NULL;
	if (!r->load) {
		db_fail(s, "reading fingerprints", err);
		store_plag_reader_end(r);
		return NULL;
	}
	return r;
}

void store_plag_reader_end(struct store_plag_reader *r)
{
	if (!r)
		return;
	db_finish(r->count);
	db_finish(r->lookup);
	db_finish(r->candidate);
	db_finish(r->load);
	free(r);
}

int store_plag_lookup(struct store_plag_reader *r, int64_t key, size_t max, int64_t *docs,
		      size_t *n, err_t err)
{
	struct db_stmt *st = r->lookup;
	db_reset(st);
	db_bind_int(st, 1, key);
	db_bind_int(st, 2, (int64_t)max);
	int rc;
	for (*n = 0; *n < max && (rc = db_step(st)) == 1;)
		docs[(*n)++] = db_col_int(st, 0);
	return *n < max && rc < 0 ? db_fail(r->s, "reading the fingerprint index", err) : 0;
}

int store_plag_idiom_count(struct store_plag_reader *r, int64_t key, int64_t *docs,
			   err_t err)
{
	struct db_stmt *st = r->count;
	db_reset(st);
	db_bind_int(st, 1, key);
	int rc = db_step(st);
	*docs = rc == 1 ? db_col_int(st, 0) : 0;
	return rc < 0 ? db_fail(r->s, "reading the idioms of the field", err) : 0;
}

int store_plag_candidate(struct store_plag_reader *r, int64_t doc, const char *game,
			 const char *author, int k, int hash_version, int64_t *nfps,
			 err_t err)
{
	struct db_stmt *st = r->candidate;
	db_reset(st);
	db_bind_int(st, 1, doc);
	db_bind_text(st, 2, game);
	db_bind_text(st, 3, author);
	db_bind_int(st, 4, k);
	db_bind_int(st, 5, hash_version);
	int rc = db_step(st);
	if (rc == 1)
		*nfps = db_col_int(st, 0);
	return rc < 0 ? db_fail(r->s, "reading a fingerprinted file", err) : rc;
}

int store_plag_load(struct store_plag_reader *r, int64_t doc, struct store_plag_doc *out,
		    err_t err)
{
	struct db_stmt *st = r->load;
	db_reset(st);
	db_bind_int(st, 1, doc);
	int rc = db_step(st);
	if (rc < 0)
		return db_fail(r->s, "reading a fingerprinted file", err);
	return rc == 1 ? (read_doc(st, false, out, err) < 0 ? -1 : 1) : 0;
}

/* ---- reading one document, or counting ------------------------------------------ */

int store_plag_get(struct store *s, int64_t doc, int64_t submission, struct store_plag_doc *out,
		   err_t err)
{
	struct db_stmt *st = db_prepare(s, doc ? "SELECT " DOC_COLS ", coalesce(d.source, s.source)"
						 " FROM plag_docs d LEFT JOIN submissions s"
						 " ON s.id = d.submission_id WHERE d.id = ?1"
					       : "SELECT " DOC_COLS ", s.source FROM plag_docs d"
						 " JOIN submissions s ON s.id = d.submission_id"
						 " WHERE d.submission_id = ?1");
	if (!st)
		return db_fail(s, "reading a fingerprinted file", err);
	db_bind_int(st, 1, doc ? doc : submission);
	int rc = db_step(st);
	if (rc < 0)
		db_fail(s, "reading a fingerprinted file", err);
	else if (rc == 1 && read_doc(st, true, out, err) < 0)
		rc = -1;
	db_finish(st);
	return rc;
}

/* One count from sql, its first parameter text (NULL binds NULL), its
 * second (if it has one) an integer. */
static int count(struct store *s, const char *sql, const char *text, int64_t num, int64_t *n,
		 const char *what, err_t err)
{
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		return db_fail(s, what, err);
	db_bind_text(st, 1, text);
	db_bind_int(st, 2, num);
	int rc = db_step(st);
	if (rc == 1)
		*n = db_col_int(st, 0);
	rc = rc == 1 ? 0 : db_fail(s, what, err);
	db_finish(st);
	return rc;
}

int store_plag_count(struct store *s, const char *game, int64_t *n, err_t err)
{
	return count(s, "SELECT count(*) FROM plag_docs WHERE game = ?1 AND error IS NULL", game,
		     0, n, "counting fingerprinted files", err);
}

int store_plag_stale(struct store *s, const char *game, int hash_version, int64_t *n,
		     err_t err)
{
	return count(s, "SELECT count(*) FROM plag_docs WHERE (game = ?1 OR ?1 IS NULL)"
		     " AND hash_version <> ?2", game, hash_version, n,
		     "counting files fingerprinted by an older version", err);
}

int store_plag_fingerprinted(struct store *s, int64_t submission, bool *suspected,
			     err_t err)
{
	int64_t v = 0;
	int64_t rc = db_query(s, "reading a submission's plagiarism check", err,
			      "SELECT suspected FROM plag_docs WHERE submission_id = ?1",
			      db_row_int, &v, "i", submission);
	if (rc == 1)
		*suspected = v != 0;
	return (int)rc;
}

/* ---- writing -------------------------------------------------------------------- */

/* Binds the fingerprint columns (k, w, hash_version, ntokens, nfps, fps,
 * error) to the seven parameters from first on: a fresh document and a
 * rewritten one store them alike. */
static void bind_fingerprints(struct db_stmt *st, int first, const struct store_plag_doc *d)
{
	db_bind_int(st, first, d->k);
	db_bind_int(st, first + 1, d->w);
	db_bind_int(st, first + 2, d->hash_version);
	db_bind_int(st, first + 3, d->ntokens);
	db_bind_int(st, first + 4, d->nfps);
	db_bind_blob(st, first + 5, d->fps, d->fps_len);
	db_bind_text(st, first + 6, d->has_error ? d->error->msg : NULL);
}

/* A document's own code; nothing when it is not known (< 0). */
static int put_own(struct store *s, int64_t doc, int64_t tokens, err_t err)
{
	if (tokens < 0)
		return 0;
	return db_run(s, "storing a file's own code", err,
		      "INSERT INTO plag_own (doc_id, tokens) VALUES (?1, ?2)"
		      " ON CONFLICT (doc_id) DO UPDATE SET tokens = excluded.tokens", "ii", doc,
		      tokens);
}

int store_plag_insert(struct store *s, const struct store_plag_doc *d, int64_t *id,
		      err_t err)
{
	struct db_stmt *st = db_prepare(s,
		"INSERT INTO plag_docs (game, submission_id, author, name, label, source, k, w,"
		" hash_version, ntokens, nfps, fps, error, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
		" ON CONFLICT DO NOTHING RETURNING id");
	if (!st)
		return db_fail(s, "storing fingerprints", err);
	bool archived = d->label[0] != '\0';
	db_bind_text(st, 1, d->game);
	if (d->submission)
		db_bind_int(st, 2, d->submission);
	else
		db_bind_text(st, 2, NULL);
	db_bind_text(st, 3, d->author);
	db_bind_text(st, 4, d->name);
	db_bind_text(st, 5, archived ? d->label : NULL);
	if (archived && d->source)
		db_bind_blob(st, 6, d->source, d->source_len);
	else
		db_bind_text(st, 6, NULL);
	bind_fingerprints(st, 7, d);
	db_bind_int(st, 14, store_now_ms());
	int rc = db_step(st);
	if (rc == 1)
		*id = db_col_int(st, 0);
	else if (rc < 0)
		db_fail(s, "storing fingerprints", err);
	db_finish(st);
	if (rc == 1 && put_own(s, *id, d->own_tokens, err) < 0)
		return -1;
	return rc;
}

int store_plag_rewrite(struct store *s, const struct store_plag_doc *d, err_t err)
{
	struct db_stmt *st = db_prepare(s, "UPDATE plag_docs SET k = ?1, w = ?2, hash_version = ?3,"
					   " ntokens = ?4, nfps = ?5, fps = ?6, error = ?7"
					   " WHERE id = ?8");
	if (!st)
		return db_fail(s, "storing fingerprints", err);
	bind_fingerprints(st, 1, d);
	db_bind_int(st, 8, d->id);
	int rc = db_step(st) == 0 ? 0 : db_fail(s, "storing fingerprints", err);
	db_finish(st);
	return rc < 0 ? -1 : put_own(s, d->id, d->own_tokens, err);
}

/* Runs sql once per row, binding (a[i], b[i]), or (b, a[i]) when b is one
 * value (bs NULL). */
static int each_row(struct store *s, const char *sql, const int64_t *as, const int64_t *bs,
		    int64_t b, size_t n, const char *what, err_t err)
{
	if (n == 0)
		return 0;
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		return db_fail(s, what, err);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		db_reset(st);
		db_bind_int(st, 1, as[i]);
		db_bind_int(st, 2, bs ? bs[i] : b);
		rc = db_step(st) == 0 ? 0 : db_fail(s, what, err);
	}
	db_finish(st);
	return rc;
}

/* The stop-list's count of each listed key among keys moved by step. */
static int move_idioms(struct store *s, const int64_t *keys, size_t n, int step,
		       err_t err)
{
	return each_row(s, "UPDATE plag_idioms SET docs = docs + ?2 WHERE key = ?1", keys, NULL,
			step, n, "counting the idioms of the field", err);
}

/* Index rows go in groups of this many per statement: a row then costs its
 * insert, not a statement's run (nor, on PostgreSQL, a round trip). */
#define INDEX_GROUP 64

/* "INSERT ... VALUES (?1, ?2), (?3, ?4), ..." for rows rows; NULL when out
 * of memory.  The casts are for PostgreSQL, which takes untyped parameters
 * of a VALUES list for text. */
static struct db_stmt *prepare_index_rows(struct store *s, size_t rows)
{
	static const char head[] = "INSERT INTO plag_index (key, doc_id) VALUES ";
	char *sql = malloc(sizeof head + rows * 64), *at = sql;
	if (!sql)
		return NULL;
	at += sprintf(at, "%s", head);
	for (size_t i = 0; i < rows; i++)
		at += sprintf(at, "%s(CAST(?%zu AS BIGINT), CAST(?%zu AS BIGINT))", i ? ", " : "",
			      2 * i + 1, 2 * i + 2);
	struct db_stmt *st = db_prepare(s, sql);
	free(sql);
	return st;
}

/* Rows [from, from + rows) bound to st, and run. */
static int insert_index_rows(struct db_stmt *st, const int64_t *keys, const int64_t *docs,
			     size_t from, size_t rows)
{
	db_reset(st);
	for (size_t i = 0; i < rows; i++) {
		db_bind_int(st, (int)(2 * i + 1), keys[from + i]);
		db_bind_int(st, (int)(2 * i + 2), docs[from + i]);
	}
	return db_step(st) == 0 ? 0 : -1;
}

int store_plag_index(struct store *s, const int64_t *keys, const int64_t *docs, size_t n,
		     err_t err)
{
	size_t groups = n / INDEX_GROUP, rest = n % INDEX_GROUP;
	struct db_stmt *group = groups ? prepare_index_rows(s, INDEX_GROUP) : NULL;
	struct db_stmt *last = rest ? prepare_index_rows(s, rest) : NULL;
	int rc = (groups && !group) || (rest && !last) ? -1 : 0;
	for (size_t g = 0; rc == 0 && g < groups; g++)
		rc = insert_index_rows(group, keys, docs, g * INDEX_GROUP, INDEX_GROUP);
	if (rc == 0 && rest)
		rc = insert_index_rows(last, keys, docs, groups * INDEX_GROUP, rest);
	if (rc < 0)
		db_fail(s, "indexing fingerprints", err);
	db_finish(group);
	db_finish(last);
	return rc;
}

int store_plag_unindex(struct store *s, int64_t doc, const int64_t *keys, size_t n,
		       err_t err)
{
	if (each_row(s, "DELETE FROM plag_index WHERE key = ?1 AND doc_id = ?2", keys, NULL,
		     doc, n, "dropping old fingerprints", err) < 0)
		return -1;
	return move_idioms(s, keys, n, -1, err);
}

int store_plag_idioms_bump(struct store *s, const int64_t *keys, size_t n, err_t err)
{
	return move_idioms(s, keys, n, 1, err);
}

int store_plag_idioms_list(struct store *s, const int64_t *keys, size_t n, err_t err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = db_run(s, "listing an idiom of the field", err,
			    "INSERT INTO plag_idioms (key, docs) SELECT key, count(*) FROM plag_index"
			    " WHERE key = ?1 GROUP BY key"
			    " ON CONFLICT (key) DO UPDATE SET docs = excluded.docs", "i", keys[i]);
	return rc;
}

int store_plag_put_pair(struct store *s, const struct store_plag_pair *p, err_t err)
{
	int rc = db_run(s, "recording a similar pair", err,
		"INSERT INTO plag_pairs (doc_a, doc_b, game, similarity, a_in_b, b_in_a, longest,"
		" a_first_line, a_last_line, b_first_line, b_last_line, flagged, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
		" ON CONFLICT (doc_a, doc_b) DO UPDATE SET game = excluded.game,"
		" similarity = excluded.similarity, a_in_b = excluded.a_in_b,"
		" b_in_a = excluded.b_in_a, longest = excluded.longest,"
		" a_first_line = excluded.a_first_line, a_last_line = excluded.a_last_line,"
		" b_first_line = excluded.b_first_line, b_last_line = excluded.b_last_line,"
		" flagged = excluded.flagged, created_at = excluded.created_at",
		"iitdddiiiiiii", p->doc_a, p->doc_b, p->game, p->similarity, p->a_in_b, p->b_in_a,
		p->longest, p->a_first_line, p->a_last_line, p->b_first_line, p->b_last_line,
		(int64_t)p->flagged, store_now_ms());
	if (rc < 0 || !p->flagged)
		return rc;
	return store_plag_flag(s, p, err);
}

/* ---- walking documents and pairs --------------------------------------------------- */

/* One side of a pair, from column col: id, submission, author, name, label. */
static void read_side(struct db_stmt *st, int col, struct store_plag_doc *d)
{
	*d = (struct store_plag_doc){ .id = db_col_int(st, col),
				      .submission = db_col_int(st, col + 1) };
	copy_col(d->author, sizeof d->author, st, col + 2);
	copy_col(d->name, sizeof d->name, st, col + 3);
	copy_col(d->label, sizeof d->label, st, col + 4);
}

int store_plag_pairs(struct store *s, const char *game,
		     int (*each)(void *ctx, const struct store_plag_doc *a,
				 const struct store_plag_doc *b),
		     void *ctx, err_t err)
{
	struct db_stmt *st = db_prepare(s,
		"SELECT a.id, a.submission_id, a.author, a.name, a.label,"
		" b.id, b.submission_id, b.author, b.name, b.label"
		" FROM plag_pairs p JOIN plag_docs a ON a.id = p.doc_a"
		" JOIN plag_docs b ON b.id = p.doc_b WHERE p.game = ?1 ORDER BY p.doc_a, p.doc_b");
	if (!st)
		return db_fail(s, "reading the pairs", err);
	db_bind_text(st, 1, game);
	int rc;
	while ((rc = db_step(st)) == 1) {
		struct store_plag_doc a, b;
		read_side(st, 0, &a);
		read_side(st, 5, &b);
		if (each(ctx, &a, &b) < 0)
			break;
	}
	if (rc < 0)
		db_fail(s, "reading the pairs", err);
	db_finish(st);
	return rc == 0 ? 0 : -1;
}

int store_plag_each_stale(struct store *s, const char *game, int hash_version,
			  int (*each)(void *ctx, const struct store_plag_doc *d), void *ctx,
			  err_t err)
{
	struct db_stmt *st = db_prepare(s,
		"SELECT " DOC_COLS ", coalesce(d.source, s.source) FROM plag_docs d"
		" LEFT JOIN submissions s ON s.id = d.submission_id"
		" WHERE (d.game = ?1 OR ?1 IS NULL) AND d.hash_version <> ?2 ORDER BY d.game, d.id");
	if (!st)
		return db_fail(s, "finding files fingerprinted by an older version", err);
	db_bind_text(st, 1, game);
	db_bind_int(st, 2, hash_version);
	int rc, out = 0;
	while (out == 0 && (rc = db_step(st)) == 1) {
		struct store_plag_doc d;
		out = read_doc(st, true, &d, err);
		if (out == 0)
			out = each(ctx, &d);
		store_plag_doc_clear(&d);
	}
	if (out == 0 && rc < 0)
		out = db_fail(s, "finding files fingerprinted by an older version", err);
	db_finish(st);
	return out;
}
