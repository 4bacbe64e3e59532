/* Comparison through the index: every distinct fingerprint of the new file
 * is looked up once (reading at most the idiom cap of rows), the documents
 * found are counted in a hash table, and only those sharing enough
 * fingerprints to possibly reach the floor are read and compared in full. */
#include "judge/plag/plag_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/plag/plag_doc.h"
#include "judge/store/store.h"

/* Files sharing fewer fingerprints are never read: two or three k-grams
 * in common is what any two players of a game have, and reading each such
 * file's row would make a comparison cost one look-up per earlier file. */
#define PLAG_MIN_SHARED 3

#define PLAG_QUOTE(x) #x
#define PLAG_STR(x) PLAG_QUOTE(x)

void plag_matches_free(struct plag_matches *m)
{
	free(m->v);
	*m = (struct plag_matches){ 0 };
}

/* FNV-1a of the game's name, avalanched: XOR with it is a bijection on
 * hashes, so within one game the key loses nothing. */
int64_t plag_index_key(const char *game, uint64_t hash)
{
	uint64_t s = 0xcbf29ce484222325ULL;
	for (const unsigned char *p = (const unsigned char *)game; *p; p++)
		s = (s ^ *p) * 0x100000001b3ULL;
	s ^= s >> 29;
	s *= 0xbf58476d1ce4e5b9ULL;
	s ^= s >> 32;
	return (int64_t)(hash ^ s);
}

static int sql_fail(sqlite3 *db, const char *what, char err[PLAG_ERRLEN])
{
	snprintf(err, PLAG_ERRLEN, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}

/* ---- candidate counts: document id -> shared fingerprints */

struct cand {
	int64_t doc; /* 0: free slot */
	uint32_t shared;
};

struct cand_table {
	struct cand *slot;
	size_t cap, n; /* cap: a power of two */
};

static size_t cand_home(int64_t doc, size_t cap)
{
	return (size_t)(((uint64_t)doc * 0x9e3779b97f4a7c15ULL) >> 17) & (cap - 1);
}

static int cand_grow(struct cand_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	struct cand *slot = calloc(cap, sizeof *slot);
	if (!slot)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i].doc)
			continue;
		size_t j = cand_home(t->slot[i].doc, cap);
		while (slot[j].doc)
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

static int cand_bump(struct cand_table *t, int64_t doc)
{
	if ((t->n + 1) * 2 > t->cap && cand_grow(t) < 0)
		return -1;
	size_t j = cand_home(doc, t->cap);
	while (t->slot[j].doc && t->slot[j].doc != doc)
		j = (j + 1) & (t->cap - 1);
	if (!t->slot[j].doc) {
		t->slot[j].doc = doc;
		t->n++;
	}
	t->slot[j].shared++;
	return 0;
}

/* ---- looking up the new file's fingerprints */

struct lookup {
	sqlite3 *db;
	const struct cfg_plag *cfg;
	const char *game, *author;
	int64_t self;
	const struct plag_fps *fps;
	struct plag_hashset idioms;
	struct cand_table cands;
	size_t nhashes;      /* distinct hashes of the new file */
	int64_t *rows;       /* one look-up's documents */
	size_t cap;          /* rows past this make a fingerprint an idiom */
	size_t rows_read;
};

static int count_docs(struct lookup *l, int64_t *n, char err[PLAG_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(l->db, "SELECT count(*) FROM plag_docs WHERE game = ?"
				      " AND error IS NULL", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(l->db, "counting fingerprinted files", err);
	sqlite3_bind_text(st, 1, l->game, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sql_fail(l->db, "counting fingerprinted files", err);
}

/* One fingerprint: its documents, or an idiom when there are too many.
 * The document being compared does not count for itself. */
static int look_up(struct lookup *l, sqlite3_stmt *st, uint64_t hash, char err[PLAG_ERRLEN])
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, plag_index_key(l->game, hash));
	sqlite3_bind_int64(st, 2, (sqlite3_int64)l->cap + 2);
	size_t n = 0, others = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		l->rows[n] = sqlite3_column_int64(st, 0);
		others += l->rows[n++] != l->self;
	}
	if (rc != SQLITE_DONE)
		return sql_fail(l->db, "reading the fingerprint index", err);
	l->rows_read += n;
	if (others > l->cap)
		return plag_hashset_add(&l->idioms, &hash, 1, err) ? -1 : 0;
	for (size_t i = 0; i < n; i++)
		if (l->rows[i] != l->self && cand_bump(&l->cands, l->rows[i]) < 0) {
			snprintf(err, PLAG_ERRLEN, "out of memory");
			return -1;
		}
	return 0;
}

static int look_up_all(struct lookup *l, struct plag_matches *out, char err[PLAG_ERRLEN])
{
	int64_t ndocs;
	if (count_docs(l, &ndocs, err) < 0)
		return -1;
	ndocs -= l->self != 0 && ndocs > 0; /* as when it was new */
	size_t share = (size_t)(ndocs * (int64_t)l->cfg->common_pct / 100);
	l->cap = share > l->cfg->common_min_docs ? share : l->cfg->common_min_docs;
	struct plag_hashset h = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = plag_hashset_add_fps(&h, l->fps, err) ? -1 : 0;
	l->nhashes = h.n;
	l->rows = malloc((l->cap + 2) * sizeof *l->rows);
	if (rc == 0 && !l->rows)
		rc = (snprintf(err, PLAG_ERRLEN, "out of memory"), -1);
	else if (rc == 0 && sqlite3_prepare_v2(l->db, "SELECT doc_id FROM plag_index WHERE key = ?"
					       " LIMIT ?", -1, &st, NULL) != SQLITE_OK)
		rc = sql_fail(l->db, "reading the fingerprint index", err);
	for (size_t i = 0; rc == 0 && i < h.n; i++)
		rc = look_up(l, st, h.v[i], err);
	sqlite3_finalize(st);
	plag_hashset_free(&h);
	out->looked_up = l->nhashes;
	out->idioms = l->idioms.n;
	out->candidates = l->cands.n;
	out->rows_read = l->rows_read;
	return rc;
}

/* ---- comparing the candidates that may reach the floor */

static void copy_text(char *dst, size_t size, const unsigned char *src)
{
	snprintf(dst, size, "%s", src ? (const char *)src : "");
}

static int push_match(struct plag_matches *out, const struct plag_match *m)
{
	struct plag_match *v = realloc(out->v, (out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	out->v = v;
	out->v[out->n++] = *m;
	return 0;
}

/* A candidate sharing `shared` distinct fingerprints: a file's containment
 * follows the share of its fingerprints matched (winnowing samples evenly),
 * so one below half the floor on both sides cannot be a pair worth
 * storing, unless it shares half the fingerprints a long fragment has
 * (winnowing keeps about 2 of every w + 1 k-grams). */
static bool may_reach_floor(const struct lookup *l, uint32_t shared, int64_t their_fps)
{
	double mine = l->nhashes > l->idioms.n ? (double)(l->nhashes - l->idioms.n) : 1;
	double theirs = their_fps > 0 ? (double)their_fps : 1;
	double best = shared / (mine < theirs ? mine : theirs);
	double kgrams = (double)l->cfg->fragment_tokens - l->cfg->k + 1;
	double fragment_fps = kgrams > 0 ? kgrams / (l->cfg->w + 1) : 1;
	return best * 200 >= l->cfg->floor_pct || shared >= fragment_fps;
}

/* The candidate's row without its fingerprints: 1 when it is of the game,
 * by another author, with the same settings, and may reach the floor. */
static int worth_comparing(struct lookup *l, sqlite3_stmt *st, const struct cand *c,
			   char err[PLAG_ERRLEN])
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, c->doc);
	sqlite3_bind_text(st, 2, l->game, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, l->author, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, (int)l->cfg->k);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return 0; /* another game, the same author or other settings */
	if (rc != SQLITE_ROW)
		return sql_fail(l->db, "reading a fingerprinted file", err);
	return may_reach_floor(l, c->shared, sqlite3_column_int64(st, 0));
}

/* The pair of the new document and stored document doc: its shares, its
 * longest fragment, whether it is flagged and who the other side is. */
static int measure(struct lookup *l, sqlite3_stmt *st, int64_t doc, struct plag_match *m,
		   char err[PLAG_ERRLEN])
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, doc);
	if (sqlite3_step(st) != SQLITE_ROW)
		return sql_fail(l->db, "reading a fingerprinted file", err);
	struct plag_fps theirs;
	if (plag_fps_decode(sqlite3_column_blob(st, 4), (size_t)sqlite3_column_bytes(st, 4),
			    l->cfg->k, (unsigned)sqlite3_column_int(st, 5),
			    (uint32_t)sqlite3_column_int64(st, 6), &theirs, err))
		return -1;
	*m = (struct plag_match){ .doc = doc, .submission = sqlite3_column_int64(st, 0) };
	enum plag_err e = plag_compare(l->fps, &theirs, &l->idioms, l->cfg->min_run, &m->pair, err);
	plag_fps_free(&theirs);
	if (e)
		return -1;
	m->similarity = m->pair.a_in_b > m->pair.b_in_a ? m->pair.a_in_b : m->pair.b_in_a;
	m->fragment = plag_longest_tokens(&m->pair) >= l->cfg->fragment_tokens;
	m->flagged = m->similarity * 100 >= l->cfg->flag_pct || m->fragment;
	copy_text(m->author, sizeof m->author, sqlite3_column_text(st, 1));
	copy_text(m->name, sizeof m->name, sqlite3_column_text(st, 2));
	copy_text(m->label, sizeof m->label, sqlite3_column_text(st, 3));
	return 0;
}

static sqlite3_stmt *prepare_load(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	sqlite3_prepare_v2(db, "SELECT submission_id, author, name, label, fps, w, ntokens"
			       " FROM plag_docs WHERE id = ?", -1, &st, NULL);
	return st;
}

/* Pairs over the floor are kept, and so are those with a long fragment. */
static int compare_one(struct lookup *l, sqlite3_stmt *st, const struct cand *c,
		       struct plag_matches *out, char err[PLAG_ERRLEN])
{
	struct plag_match m;
	if (measure(l, st, c->doc, &m, err) < 0)
		return -1;
	out->compared++;
	if (m.similarity * 100 < l->cfg->floor_pct && !m.fragment)
		return 0;
	if (push_match(out, &m) < 0) {
		snprintf(err, PLAG_ERRLEN, "out of memory");
		return -1;
	}
	return 0;
}

static int compare_candidates(struct lookup *l, struct plag_matches *out, char err[PLAG_ERRLEN])
{
	sqlite3_stmt *check = NULL, *load = NULL;
	if (sqlite3_prepare_v2(l->db,
			       "SELECT nfps FROM plag_docs WHERE id = ? AND game = ? AND author != ?"
			       " AND k = ? AND hash_version = " PLAG_STR(PLAG_HASH_VERSION)
			       " AND error IS NULL", -1, &check, NULL) != SQLITE_OK ||
	    !(load = prepare_load(l->db))) {
		sqlite3_finalize(check);
		return sql_fail(l->db, "reading a fingerprinted file", err);
	}
	int rc = 0;
	for (size_t i = 0; rc >= 0 && i < l->cands.cap; i++) {
		if (l->cands.slot[i].shared < PLAG_MIN_SHARED)
			continue; /* also the free slots */
		rc = worth_comparing(l, check, &l->cands.slot[i], err);
		if (rc > 0)
			rc = compare_one(l, load, &l->cands.slot[i], out, err);
	}
	sqlite3_finalize(check);
	sqlite3_finalize(load);
	return rc < 0 ? -1 : 0;
}

static int by_similarity(const void *a, const void *b)
{
	const struct plag_match *x = a, *y = b;
	if (x->similarity != y->similarity)
		return x->similarity < y->similarity ? 1 : -1;
	return (x->doc > y->doc) - (x->doc < y->doc);
}

int plag_store_compare(sqlite3 *db, const struct cfg_plag *cfg, const char *game,
		       const char *author, int64_t self, const struct plag_fps *fps,
		       struct plag_matches *out, char err[PLAG_ERRLEN])
{
	*out = (struct plag_matches){ 0 };
	if (fps->k != cfg->k) {
		snprintf(err, PLAG_ERRLEN, "fingerprints of %u-grams compared with k = %u",
			 fps->k, cfg->k);
		return -1;
	}
	struct lookup l = { .db = db, .cfg = cfg, .game = game, .author = author,
			    .self = self, .fps = fps };
	int rc = look_up_all(&l, out, err);
	if (rc == 0)
		rc = compare_candidates(&l, out, err);
	if (rc < 0)
		plag_matches_free(out);
	else if (out->n > 1) /* out->v is NULL when there is none */
		qsort(out->v, out->n, sizeof *out->v, by_similarity);
	free(l.rows);
	free(l.cands.slot);
	plag_hashset_free(&l.idioms);
	return rc;
}

/* ---- storing */

static int insert_doc(sqlite3 *db, const struct plag_doc *doc, const struct plag_fps *fps,
		      const char *fp_error, int64_t *id, char err[PLAG_ERRLEN])
{
	static const struct plag_fps none = { 0 };
	const struct plag_fps *f = fps ? fps : &none;
	size_t len;
	uint8_t *blob = plag_fps_encode(f, &len);
	sqlite3_stmt *st;
	if (!blob || sqlite3_prepare_v2(db,
			"INSERT INTO plag_docs (game, submission_id, author, name, label, source,"
			" k, w, hash_version, ntokens, nfps, fps, error, created_at)"
			" VALUES (?, ?, ?, ?, ?, ?, ?, ?, " PLAG_STR(PLAG_HASH_VERSION)
			", ?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK) {
		free(blob);
		return blob ? sql_fail(db, "storing fingerprints", err)
			    : (snprintf(err, PLAG_ERRLEN, "out of memory"), -1);
	}
	sqlite3_bind_text(st, 1, doc->game, -1, SQLITE_STATIC);
	if (doc->submission)
		sqlite3_bind_int64(st, 2, doc->submission);
	sqlite3_bind_text(st, 3, doc->author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, doc->name, -1, SQLITE_STATIC);
	if (doc->label)
		sqlite3_bind_text(st, 5, doc->label, -1, SQLITE_STATIC);
	if (doc->label && doc->source)
		sqlite3_bind_blob64(st, 6, doc->source, doc->source_len, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, (int)f->k);
	sqlite3_bind_int(st, 8, (int)f->w);
	sqlite3_bind_int64(st, 9, f->ntokens);
	sqlite3_bind_int64(st, 10, (sqlite3_int64)f->n);
	sqlite3_bind_blob64(st, 11, blob, len, SQLITE_STATIC);
	if (!fps)
		sqlite3_bind_text(st, 12, fp_error ? fp_error : "no fingerprints", -1,
				  SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, store_now_ms());
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(blob);
	if ((rc & 0xff) == SQLITE_CONSTRAINT && doc->label) {
		snprintf(err, PLAG_ERRLEN, "%.60s by %.60s is already in archive %.40s of %.30s "
			 "(an archive is imported once)", doc->name, doc->author, doc->label, doc->game);
		return -1;
	}
	if (rc != SQLITE_DONE)
		return sql_fail(db, "storing fingerprints", err);
	*id = sqlite3_last_insert_rowid(db);
	return 0;
}

/* One index row: (key, document). */
struct index_row {
	int64_t key, doc;
};

static int row_cmp(const void *a, const void *b)
{
	const struct index_row *x = a, *y = b;
	return x->key != y->key ? (x->key > y->key) - (x->key < y->key)
				: (x->doc > y->doc) - (x->doc < y->doc);
}

/* Appends the rows of one document: its distinct hashes. */
static int collect_rows(const char *game, int64_t id, const struct plag_fps *fps,
			struct index_row **rows, size_t *n, size_t *cap)
{
	struct plag_hashset h = { 0 };
	if (plag_hashset_add_fps(&h, fps, NULL))
		return -1;
	if (*n + h.n > *cap) {
		size_t want = (*n + h.n) * 2;
		struct index_row *grown = realloc(*rows, want * sizeof *grown);
		if (!grown) {
			plag_hashset_free(&h);
			return -1;
		}
		*rows = grown;
		*cap = want;
	}
	for (size_t i = 0; i < h.n; i++)
		(*rows)[(*n)++] = (struct index_row){ plag_index_key(game, h.v[i]), id };
	plag_hashset_free(&h);
	return 0;
}

/* Rows go in key order: a batch then touches each page of the index once,
 * where documents one by one would land all over it. */
static int write_rows(sqlite3 *db, struct index_row *rows, size_t n, char err[PLAG_ERRLEN])
{
	if (n > 1) /* rows is NULL when there is none */
		qsort(rows, n, sizeof *rows, row_cmp);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "INSERT INTO plag_index (key, doc_id) VALUES (?, ?)", -1, &st,
			       NULL) != SQLITE_OK)
		return sql_fail(db, "indexing fingerprints", err);
	int rc = SQLITE_DONE;
	for (size_t i = 0; rc == SQLITE_DONE && i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, rows[i].key);
		sqlite3_bind_int64(st, 2, rows[i].doc);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, "indexing fingerprints", err);
}

int plag_store_insert_batch(sqlite3 *db, const struct plag_doc *docs,
			    const struct plag_fps *const *fps, size_t n, int64_t *ids,
			    char err[PLAG_ERRLEN])
{
	struct index_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = insert_doc(db, &docs[i], fps[i], NULL, &ids[i], err);
		if (rc == 0 && fps[i] && collect_rows(docs[i].game, ids[i], fps[i], &rows, &nrows,
						      &cap) < 0) {
			snprintf(err, PLAG_ERRLEN, "out of memory");
			rc = -1;
		}
	}
	if (rc == 0)
		rc = write_rows(db, rows, nrows, err);
	free(rows);
	return rc;
}

int plag_store_insert(sqlite3 *db, const struct plag_doc *doc, const struct plag_fps *fps,
		      const char *fp_error, int64_t *id, char err[PLAG_ERRLEN])
{
	if (!fps)
		return insert_doc(db, doc, NULL, fp_error, id, err);
	return plag_store_insert_batch(db, doc, &fps, 1, id, err);
}

static int record_pair(sqlite3 *db, sqlite3_stmt *st, const char *game, int64_t id,
		       const struct plag_match *m, char err[PLAG_ERRLEN])
{
	const struct plag_pair *p = &m->pair;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, m->doc);
	sqlite3_bind_text(st, 3, game, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, m->similarity);
	sqlite3_bind_double(st, 5, p->a_in_b);
	sqlite3_bind_double(st, 6, p->b_in_a);
	sqlite3_bind_int64(st, 7, plag_longest_tokens(p));
	sqlite3_bind_int64(st, 8, p->longest_a.first_line);
	sqlite3_bind_int64(st, 9, p->longest_a.last_line);
	sqlite3_bind_int64(st, 10, p->longest_b.first_line);
	sqlite3_bind_int64(st, 11, p->longest_b.last_line);
	sqlite3_bind_int(st, 12, m->flagged);
	sqlite3_bind_int64(st, 13, store_now_ms());
	if (sqlite3_step(st) != SQLITE_DONE)
		return sql_fail(db, "recording a similar pair", err);
	if (!m->flagged)
		return 0;
	char sql[128];
	snprintf(sql, sizeof sql, "UPDATE plag_docs SET suspected = 1 WHERE id IN (%lld, %lld)",
		 (long long)id, (long long)m->doc);
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK
	       ? 0 : sql_fail(db, "marking a suspected file", err);
}

static int record_pairs(sqlite3 *db, const char *game, int64_t id,
			const struct plag_matches *m, char err[PLAG_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			"INSERT OR REPLACE INTO plag_pairs (doc_a, doc_b, game, similarity, a_in_b,"
			" b_in_a, longest, a_first_line, a_last_line, b_first_line, b_last_line,"
			" flagged, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			-1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, "recording a similar pair", err);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->n; i++)
		rc = record_pair(db, st, game, id, &m->v[i], err);
	sqlite3_finalize(st);
	return rc;
}

int plag_store_add(sqlite3 *db, const struct cfg_plag *cfg, const struct plag_doc *doc,
		   const struct plag_fps *fps, const char *fp_error, int64_t *id,
		   struct plag_matches *out, char err[PLAG_ERRLEN])
{
	struct plag_matches none = { 0 }, *m = out ? out : &none;
	*m = (struct plag_matches){ 0 };
	int rc = fps ? plag_store_compare(db, cfg, doc->game, doc->author, 0, fps, m, err) : 0;
	if (rc == 0)
		rc = plag_store_insert(db, doc, fps, fp_error, id, err);
	if (rc == 0)
		rc = record_pairs(db, doc->game, *id, m, err);
	if (rc < 0 || !out)
		plag_matches_free(m);
	return rc;
}

/* ---- one stored pair, measured again */

/* A stored document's fingerprints, game and author. */
struct stored {
	char game[64], author[64];
	struct plag_fps fps;
};

static int load_stored(sqlite3 *db, const struct cfg_plag *cfg, int64_t id, struct stored *out,
		       char err[PLAG_ERRLEN])
{
	sqlite3_stmt *st;
	*out = (struct stored){ 0 };
	if (sqlite3_prepare_v2(db, "SELECT game, author, fps, k, w, ntokens, hash_version, error"
				   " FROM plag_docs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, "reading a fingerprinted file", err);
	sqlite3_bind_int64(st, 1, id);
	int rc = -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		snprintf(err, PLAG_ERRLEN, "no fingerprinted file doc:%lld", (long long)id);
	else if (sqlite3_column_type(st, 7) != SQLITE_NULL)
		snprintf(err, PLAG_ERRLEN, "doc:%lld has no fingerprints: %.150s", (long long)id,
			 sqlite3_column_text(st, 7));
	else if (sqlite3_column_int(st, 3) != (int)cfg->k ||
		 sqlite3_column_int(st, 6) != PLAG_HASH_VERSION)
		snprintf(err, PLAG_ERRLEN, "doc:%lld was fingerprinted with other settings (k %d, "
			 "version %d); the worker fingerprints it again with the next submission",
			 (long long)id, sqlite3_column_int(st, 3), sqlite3_column_int(st, 6));
	else if (!plag_fps_decode(sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2),
				  cfg->k, (unsigned)sqlite3_column_int(st, 4),
				  (uint32_t)sqlite3_column_int64(st, 5), &out->fps, err)) {
		copy_text(out->game, sizeof out->game, sqlite3_column_text(st, 0));
		copy_text(out->author, sizeof out->author, sqlite3_column_text(st, 1));
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int plag_store_pair(sqlite3 *db, const struct cfg_plag *cfg, int64_t a, int64_t b,
		    struct plag_match *out, struct plag_hashset *idioms, char err[PLAG_ERRLEN])
{
	bool swap = a < b;
	int64_t later = swap ? b : a, earlier = swap ? a : b;
	struct stored s;
	if (load_stored(db, cfg, later, &s, err) < 0)
		return -1;
	struct stored other;
	if (load_stored(db, cfg, earlier, &other, err) < 0) {
		plag_fps_free(&s.fps);
		return -1;
	}
	plag_fps_free(&other.fps);
	struct lookup l = { .db = db, .cfg = cfg, .game = s.game, .author = s.author,
			    .self = later, .fps = &s.fps };
	struct plag_matches counts = { 0 };
	sqlite3_stmt *load = NULL;
	int rc = look_up_all(&l, &counts, err);
	if (rc == 0 && !(load = prepare_load(db)))
		rc = sql_fail(db, "reading a fingerprinted file", err);
	if (rc == 0)
		rc = measure(&l, load, earlier, out, err);
	if (rc == 0 && swap) {
		plag_pair_swap(&out->pair);
		out->doc = later;
	}
	sqlite3_finalize(load);
	free(l.rows);
	free(l.cands.slot);
	if (idioms && rc == 0)
		*idioms = l.idioms;
	else
		plag_hashset_free(&l.idioms);
	plag_fps_free(&s.fps);
	return rc;
}

/* ---- documents fingerprinted by an older version */

static int unindex(sqlite3 *db, const char *game, int64_t id, const void *blob, size_t len,
		   unsigned k, char err[PLAG_ERRLEN])
{
	struct plag_fps old;
	if (len % PLAG_FP_BYTES || k < 1 || k > PLAG_K_MAX)
		return 0; /* nothing readable was indexed under it */
	if (plag_fps_decode(blob, len, k, 1, UINT32_MAX, &old, err))
		return 0;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "DELETE FROM plag_index WHERE key = ? AND doc_id = ?", -1,
				    &st, NULL) == SQLITE_OK ? SQLITE_DONE : SQLITE_ERROR;
	for (size_t i = 0; rc == SQLITE_DONE && i < old.n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, plag_index_key(game, old.v[i].hash));
		sqlite3_bind_int64(st, 2, id);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	plag_fps_free(&old);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, "dropping old fingerprints", err);
}

static int rewrite_doc(sqlite3 *db, int64_t id, const struct plag_fps *fps, const char *fp_error,
		       char err[PLAG_ERRLEN])
{
	size_t len;
	uint8_t *blob = plag_fps_encode(fps, &len);
	sqlite3_stmt *st;
	if (!blob || sqlite3_prepare_v2(db, "UPDATE plag_docs SET k = ?, w = ?, hash_version = "
					PLAG_STR(PLAG_HASH_VERSION) ", ntokens = ?, nfps = ?,"
					" fps = ?, error = ? WHERE id = ?", -1, &st, NULL)
		     != SQLITE_OK) {
		free(blob);
		return blob ? sql_fail(db, "storing fingerprints", err)
			    : (snprintf(err, PLAG_ERRLEN, "out of memory"), -1);
	}
	sqlite3_bind_int(st, 1, (int)fps->k);
	sqlite3_bind_int(st, 2, (int)fps->w);
	sqlite3_bind_int64(st, 3, fps->ntokens);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)fps->n);
	sqlite3_bind_blob64(st, 5, blob, len, SQLITE_STATIC);
	if (fp_error)
		sqlite3_bind_text(st, 6, fp_error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(blob);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, "storing fingerprints", err);
}

/* One stale document: fingerprinted again from its source, indexed again. */
static int refresh_one(sqlite3 *db, const struct cfg_plag *cfg, const struct plag_hashset *base,
		       sqlite3_stmt *st, char err[PLAG_ERRLEN])
{
	int64_t id = sqlite3_column_int64(st, 0);
	const char *game = (const char *)sqlite3_column_text(st, 1);
	char fp_error[PLAG_ERRLEN] = "";
	struct plag_fps fps = { .k = cfg->k, .w = cfg->w };
	if (plag_fingerprint(cfg, base, sqlite3_column_blob(st, 4),
			     (size_t)sqlite3_column_bytes(st, 4), &fps, fp_error))
		fps = (struct plag_fps){ .k = cfg->k, .w = cfg->w };
	struct index_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	int rc = unindex(db, game, id, sqlite3_column_blob(st, 2),
			 (size_t)sqlite3_column_bytes(st, 2), (unsigned)sqlite3_column_int(st, 3), err);
	if (rc == 0)
		rc = rewrite_doc(db, id, &fps, fp_error[0] ? fp_error : NULL, err);
	if (rc == 0 && !fp_error[0] && collect_rows(game, id, &fps, &rows, &nrows, &cap) < 0)
		rc = (snprintf(err, PLAG_ERRLEN, "out of memory"), -1);
	if (rc == 0)
		rc = write_rows(db, rows, nrows, err);
	free(rows);
	plag_fps_free(&fps);
	return rc;
}

int plag_store_stale(sqlite3 *db, const char *game, int64_t *n, char err[PLAG_ERRLEN])
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM plag_docs WHERE (game = ?1 OR ?1 IS NULL)"
				   " AND hash_version != " PLAG_STR(PLAG_HASH_VERSION), -1, &st, NULL)
	    != SQLITE_OK)
		return sql_fail(db, "counting files fingerprinted by an older version", err);
	if (game)
		sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sql_fail(db, "counting files fingerprinted by an older "
					       "version", err);
}

int plag_store_refresh(sqlite3 *db, const struct cfg_plag *cfg, const char *data_dir,
		       const char *game, size_t *refreshed, char err[PLAG_ERRLEN])
{
	sqlite3_stmt *st;
	*refreshed = 0;
	if (sqlite3_prepare_v2(db, "SELECT d.id, d.game, d.fps, d.k,"
				   " coalesce(d.source, s.source) FROM plag_docs d"
				   " LEFT JOIN submissions s ON s.id = d.submission_id"
				   " WHERE (d.game = ?1 OR ?1 IS NULL) AND d.hash_version != "
				   PLAG_STR(PLAG_HASH_VERSION) " ORDER BY d.game, d.id", -1, &st, NULL)
	    != SQLITE_OK)
		return sql_fail(db, "finding files fingerprinted by an older version", err);
	if (game)
		sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	struct plag_hashset base = { 0 };
	char base_game[64] = "";
	int rc = 0, step;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *g = (const char *)sqlite3_column_text(st, 1);
		if (strcmp(g, base_game) != 0) { /* the base code is the game's */
			plag_hashset_free(&base);
			snprintf(base_game, sizeof base_game, "%s", g);
			rc = plag_base_load(data_dir, g, cfg->k, &base, err) ? -1 : 0;
		}
		if (rc == 0)
			rc = refresh_one(db, cfg, &base, st, err);
		*refreshed += rc == 0;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = sql_fail(db, "finding files fingerprinted by an older version", err);
	sqlite3_finalize(st);
	plag_hashset_free(&base);
	return rc;
}
