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
#include "judge/store/store_plag_review.h"

/* Files sharing fewer fingerprints are never read: two or three k-grams
 * in common is what any two players of a game have, and reading each such
 * file's row would make a comparison cost one look-up per earlier file. */
#define PLAG_MIN_SHARED 3

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

static int out_of_memory(err_t err)
{
	err_set(err, "out of memory");
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

/* ---- keys to note in the stop-list of idioms */

struct keys {
	int64_t *v;
	size_t n, cap;
};

static int keys_push(struct keys *k, int64_t key)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		int64_t *v = realloc(k->v, cap * sizeof *v);
		if (!v)
			return -1;
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = key;
	return 0;
}

/* What a comparison before an insert learnt of the idioms: keys listed
 * that the new file holds too (their counts grow by one), and keys its
 * look-ups found over the cap by reading their rows (listed, counted). */
struct idiom_news {
	struct keys held, found;
};

static void idiom_news_free(struct idiom_news *news)
{
	free(news->held.v);
	free(news->found.v);
}

/* ---- looking up the new file's fingerprints */

struct lookup {
	struct store *s;
	struct store_plag_reader *r;
	const struct cfg_plag *cfg;
	const char *game, *author;
	int64_t self;
	const struct plag_fps *fps;
	struct plag_hashset idioms;
	struct cand_table cands;
	size_t nhashes;      /* distinct hashes of the new file */
	int64_t *rows;       /* one look-up's documents */
	size_t cap;          /* rows past this make a fingerprint an idiom */
	size_t rows_read, counts_read;
	struct idiom_news *news; /* NULL: read-only */
};

static int add_idiom(struct lookup *l, uint64_t hash, struct keys *news, int64_t key,
		     err_t err)
{
	if (plag_hashset_add(&l->idioms, &hash, 1, err))
		return -1;
	return news && keys_push(news, key) < 0 ? out_of_memory(err) : 0;
}

/* One fingerprint: its documents, or an idiom when there are too many.
 * The document being compared does not count for itself.  The stop-list
 * comes first: a key listed with more documents than the cap besides the
 * document (which holds each of its own) is an idiom without a row of the
 * index read.  Its count never exceeds the truth, so a key it does not
 * settle is decided by its rows, as when it was never listed. */
static int look_up(struct lookup *l, uint64_t hash, err_t err)
{
	size_t n, others = 0;
	int64_t key = plag_index_key(l->game, hash), listed;
	if (store_plag_idiom_count(l->r, key, &listed, err) < 0)
		return -1;
	l->counts_read++;
	struct keys *held = l->news ? &l->news->held : NULL;
	if (listed - (l->self != 0) > (int64_t)l->cap)
		return add_idiom(l, hash, held, key, err);
	if (store_plag_lookup(l->r, key, l->cap + 2, l->rows, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		others += l->rows[i] != l->self;
	l->rows_read += n;
	if (others > l->cap)
		return add_idiom(l, hash, l->news ? &l->news->found : NULL, key, err);
	if (listed > 0 && held && keys_push(held, key) < 0)
		return out_of_memory(err);
	for (size_t i = 0; i < n; i++)
		if (l->rows[i] != l->self && cand_bump(&l->cands, l->rows[i]) < 0)
			return out_of_memory(err);
	return 0;
}

static int look_up_all(struct lookup *l, struct plag_matches *out, err_t err)
{
	int64_t ndocs;
	if (store_plag_count(l->s, l->game, &ndocs, err) < 0)
		return -1;
	ndocs -= l->self != 0 && ndocs > 0; /* as when it was new */
	size_t share = (size_t)(ndocs * (int64_t)l->cfg->common_pct / 100);
	l->cap = share > l->cfg->common_min_docs ? share : l->cfg->common_min_docs;
	struct plag_hashset h = { 0 };
	int rc = plag_hashset_add_fps(&h, l->fps, err) ? -1 : 0;
	l->nhashes = h.n;
	l->rows = malloc((l->cap + 2) * sizeof *l->rows);
	if (rc == 0 && !l->rows)
		rc = out_of_memory(err);
	for (size_t i = 0; rc == 0 && i < h.n; i++)
		rc = look_up(l, h.v[i], err);
	plag_hashset_free(&h);
	out->looked_up = l->nhashes;
	out->idioms = l->idioms.n;
	out->candidates = l->cands.n;
	out->rows_read = l->rows_read;
	out->counts_read = l->counts_read;
	return rc;
}

/* ---- comparing the candidates that may reach the floor */

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
static int worth_comparing(struct lookup *l, const struct cand *c, err_t err)
{
	int64_t nfps;
	int rc = store_plag_candidate(l->r, c->doc, l->game, l->author, (int)l->cfg->k,
				      PLAG_HASH_VERSION, &nfps, err);
	if (rc <= 0)
		return rc; /* 0: another game, the same author or other settings */
	return may_reach_floor(l, c->shared, nfps);
}

/* A file's share of another counts toward a flag only when the file has
 * enough code of its own: one that is mostly the shipped Demo and a few
 * lines in common is, once the base code is taken out, mostly those lines. */
static bool own_enough(const struct plag_fps *f, const struct cfg_plag *cfg)
{
	return f->own == PLAG_OWN_UNKNOWN || f->own >= cfg->own_min_tokens;
}

/* The pair of the new document and stored document doc: its shares, its
 * longest fragment, whether it is flagged and who the other side is. */
static int measure(struct lookup *l, int64_t doc, struct plag_match *m, err_t err)
{
	struct store_plag_doc d;
	int found = store_plag_load(l->r, doc, &d, err);
	if (found <= 0) {
		if (found == 0)
			err_set(err, "no fingerprinted file doc:%lld", (long long)doc);
		return -1;
	}
	struct plag_fps theirs;
	enum plag_err e = plag_fps_decode(d.fps, d.fps_len, l->cfg->k, (unsigned)d.w,
					  (uint32_t)d.ntokens, &theirs, err);
	theirs.own = d.own_tokens >= 0 ? (uint32_t)d.own_tokens : PLAG_OWN_UNKNOWN;
	*m = (struct plag_match){ .doc = doc, .submission = d.submission };
	snprintf(m->author, sizeof m->author, "%s", d.author);
	snprintf(m->name, sizeof m->name, "%s", d.name);
	snprintf(m->label, sizeof m->label, "%s", d.label);
	store_plag_doc_clear(&d);
	if (e)
		return -1;
	e = plag_compare(l->fps, &theirs, &l->idioms, l->cfg->min_run, &m->pair, err);
	bool mine_counts = own_enough(l->fps, l->cfg), theirs_count = own_enough(&theirs, l->cfg);
	plag_fps_free(&theirs);
	if (e)
		return -1;
	m->similarity = m->pair.a_in_b > m->pair.b_in_a ? m->pair.a_in_b : m->pair.b_in_a;
	m->fragment = plag_longest_tokens(&m->pair) >= l->cfg->fragment_tokens;
	double a = mine_counts ? m->pair.a_in_b : 0, b = theirs_count ? m->pair.b_in_a : 0;
	m->flagged = (a > b ? a : b) * 100 >= l->cfg->flag_pct || m->fragment;
	return 0;
}

/* Pairs over the floor are kept, and so are those with a long fragment. */
static int compare_one(struct lookup *l, const struct cand *c, struct plag_matches *out,
		       err_t err)
{
	struct plag_match m;
	if (measure(l, c->doc, &m, err) < 0)
		return -1;
	out->compared++;
	if (m.similarity * 100 < l->cfg->floor_pct && !m.fragment)
		return 0;
	return push_match(out, &m) < 0 ? out_of_memory(err) : 0;
}

static int compare_candidates(struct lookup *l, struct plag_matches *out, err_t err)
{
	int rc = 0;
	for (size_t i = 0; rc >= 0 && i < l->cands.cap; i++) {
		if (l->cands.slot[i].shared < PLAG_MIN_SHARED)
			continue; /* also the free slots */
		rc = worth_comparing(l, &l->cands.slot[i], err);
		if (rc > 0)
			rc = compare_one(l, &l->cands.slot[i], out, err);
	}
	return rc < 0 ? -1 : 0;
}

static int by_similarity(const void *a, const void *b)
{
	const struct plag_match *x = a, *y = b;
	if (x->similarity != y->similarity)
		return x->similarity < y->similarity ? 1 : -1;
	return (x->doc > y->doc) - (x->doc < y->doc);
}

/* The lookup's reader, and what it gathered, let go. */
static void lookup_end(struct lookup *l)
{
	store_plag_reader_end(l->r);
	free(l->rows);
	free(l->cands.slot);
}

/* plag_store_compare(), and what it learnt of the idioms into news (NULL:
 * nothing learnt). */
static int compare(struct store *s, const struct cfg_plag *cfg, const char *game,
		   const char *author, int64_t self, const struct plag_fps *fps,
		   struct idiom_news *news, struct plag_matches *out, err_t err)
{
	*out = (struct plag_matches){ 0 };
	if (fps->k != cfg->k) {
		err_set(err, "fingerprints of %u-grams compared with k = %u",
			 fps->k, cfg->k);
		return -1;
	}
	struct lookup l = { .s = s, .r = store_plag_reader(s, err), .cfg = cfg, .game = game,
			    .author = author, .self = self, .fps = fps, .news = news };
	int rc = l.r ? look_up_all(&l, out, err) : -1;
	if (rc == 0)
		rc = compare_candidates(&l, out, err);
	if (rc < 0)
		plag_matches_free(out);
	else if (out->n > 1) /* out->v is NULL when there is none */
		qsort(out->v, out->n, sizeof *out->v, by_similarity);
	lookup_end(&l);
	plag_hashset_free(&l.idioms);
	return rc;
}

int plag_store_compare(struct store *s, const struct cfg_plag *cfg, const char *game,
		       const char *author, int64_t self, const struct plag_fps *fps,
		       struct plag_matches *out, err_t err)
{
	return compare(s, cfg, game, author, self, fps, NULL, out, err);
}

/* ---- storing */

/* The own code as the store keeps it: -1 when it is not known. */
static int64_t own_row(const struct plag_fps *f)
{
	return f->own == PLAG_OWN_UNKNOWN ? -1 : (int64_t)f->own;
}

/* The store's row of a document and its fingerprints (encoded: the
 * caller frees d->fps). */
static int doc_row(const struct plag_doc *doc, const struct plag_fps *fps, const char *fp_error,
		   struct store_plag_doc *d, err_t err)
{
	static const struct plag_fps none = { 0 };
	const struct plag_fps *f = fps ? fps : &none;
	*d = (struct store_plag_doc){ .submission = doc->submission, .k = (int)f->k,
				      .w = (int)f->w, .hash_version = PLAG_HASH_VERSION,
				      .ntokens = f->ntokens, .nfps = (int64_t)f->n,
				      .has_error = !fps, .source = (char *)doc->source,
				      .source_len = doc->source_len, .own_tokens = own_row(f) };
	snprintf(d->game, sizeof d->game, "%s", doc->game);
	snprintf(d->author, sizeof d->author, "%s", doc->author);
	snprintf(d->name, sizeof d->name, "%s", doc->name);
	snprintf(d->label, sizeof d->label, "%s", doc->label ? doc->label : "");
	err_set(d->error, "%s", fp_error ? fp_error : "no fingerprints");
	d->fps = plag_fps_encode(f, &d->fps_len);
	return d->fps ? 0 : out_of_memory(err);
}

static int insert_doc(struct store *s, const struct plag_doc *doc, const struct plag_fps *fps,
		      const char *fp_error, int64_t *id, err_t err)
{
	struct store_plag_doc d;
	if (doc_row(doc, fps, fp_error, &d, err) < 0)
		return -1;
	int rc = store_plag_insert(s, &d, id, err);
	free(d.fps);
	if (rc == 0 && doc->label)
		err_set(err, "%.60s by %.60s is already in archive %.40s of %.30s "
			 "(an archive is imported once)", doc->name, doc->author, doc->label, doc->game);
	else if (rc == 0)
		err_set(err, "submission %lld is fingerprinted already",
			 (long long)doc->submission);
	return rc == 1 ? 0 : -1;
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
static int write_rows(struct store *s, struct index_row *rows, size_t n, err_t err)
{
	if (n == 0)
		return 0; /* rows is NULL when there is none */
	qsort(rows, n, sizeof *rows, row_cmp);
	int64_t *keys = malloc(n * sizeof *keys), *docs = malloc(n * sizeof *docs);
	int rc = keys && docs ? 0 : out_of_memory(err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		keys[i] = rows[i].key;
		docs[i] = rows[i].doc;
	}
	if (rc == 0)
		rc = store_plag_index(s, keys, docs, n, err);
	free(keys);
	free(docs);
	return rc;
}

int plag_store_insert_batch(struct store *s, const struct plag_doc *docs,
			    const struct plag_fps *const *fps, size_t n, int64_t *ids,
			    err_t err)
{
	struct index_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = insert_doc(s, &docs[i], fps[i], NULL, &ids[i], err);
		if (rc == 0 && fps[i] && collect_rows(docs[i].game, ids[i], fps[i], &rows, &nrows,
						      &cap) < 0)
			rc = out_of_memory(err);
	}
	if (rc == 0)
		rc = write_rows(s, rows, nrows, err);
	free(rows);
	return rc;
}

int plag_store_insert(struct store *s, const struct plag_doc *doc, const struct plag_fps *fps,
		      const char *fp_error, int64_t *id, err_t err)
{
	if (!fps)
		return insert_doc(s, doc, NULL, fp_error, id, err);
	return plag_store_insert_batch(s, doc, &fps, 1, id, err);
}

static int record_pairs(struct store *s, const char *game, int64_t id,
			const struct plag_matches *m, err_t err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->n; i++) {
		const struct plag_pair *p = &m->v[i].pair;
		struct store_plag_pair row = {
			.doc_a = id, .doc_b = m->v[i].doc, .game = game,
			.similarity = m->v[i].similarity, .a_in_b = p->a_in_b, .b_in_a = p->b_in_a,
			.longest = plag_longest_tokens(p), .a_first_line = p->longest_a.first_line,
			.a_last_line = p->longest_a.last_line, .b_first_line = p->longest_b.first_line,
			.b_last_line = p->longest_b.last_line, .flagged = m->v[i].flagged,
		};
		rc = store_plag_put_pair(s, &row, err);
	}
	return rc;
}

/* A flag on a pair of authors the organiser dismissed holds only when the
 * new share is larger than the dismissed one by the margin. */
static int drop_dismissed(struct store *s, const struct cfg_plag *cfg, const char *game,
			  const char *author, struct plag_matches *m, err_t err)
{
	for (size_t i = 0; i < m->n; i++) {
		double share;
		if (!m->v[i].flagged)
			continue;
		int rc = store_plag_dismissed_share(s, game, author, m->v[i].author, &share, err);
		if (rc < 0)
			return -1;
		if (rc && m->v[i].similarity * 100 <= share * 100 + cfg->dismissed_margin_pct)
			m->v[i].flagged = false;
	}
	return 0;
}

int plag_store_add(struct store *s, const struct cfg_plag *cfg, const struct plag_doc *doc,
		   const struct plag_fps *fps, const char *fp_error, int64_t *id,
		   struct plag_matches *out, err_t err)
{
	struct plag_matches none = { 0 }, *m = out ? out : &none;
	struct idiom_news news = { 0 };
	*m = (struct plag_matches){ 0 };
	int rc = fps ? compare(s, cfg, doc->game, doc->author, 0, fps, &news, m, err) : 0;
	if (rc == 0)
		rc = drop_dismissed(s, cfg, doc->game, doc->author, m, err);
	if (rc == 0)
		rc = plag_store_insert(s, doc, fps, fp_error, id, err);
	if (rc == 0) /* the file is indexed: the counts include it */
		rc = store_plag_idioms_bump(s, news.held.v, news.held.n, err);
	if (rc == 0)
		rc = store_plag_idioms_list(s, news.found.v, news.found.n, err);
	if (rc == 0)
		rc = record_pairs(s, doc->game, *id, m, err);
	idiom_news_free(&news);
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

static int load_stored(struct store_plag_reader *r, const struct cfg_plag *cfg, int64_t id,
		       struct stored *out, err_t err)
{
	struct store_plag_doc d;
	*out = (struct stored){ 0 };
	int found = store_plag_load(r, id, &d, err);
	if (found < 0)
		return -1;
	int rc = -1;
	if (found == 0)
		err_set(err, "no fingerprinted file doc:%lld", (long long)id);
	else if (d.has_error)
		err_set(err, "doc:%lld has no fingerprints: %.150s", (long long)id,
			 d.error->msg);
	else if (d.k != (int)cfg->k || d.hash_version != PLAG_HASH_VERSION)
		err_set(err, "doc:%lld was fingerprinted with other settings (k %d, "
			 "version %d); the worker fingerprints it again with the next submission",
			 (long long)id, d.k, d.hash_version);
	else if (!plag_fps_decode(d.fps, d.fps_len, cfg->k, (unsigned)d.w, (uint32_t)d.ntokens,
				  &out->fps, err)) {
		snprintf(out->game, sizeof out->game, "%s", d.game);
		snprintf(out->author, sizeof out->author, "%s", d.author);
		out->fps.own = d.own_tokens >= 0 ? (uint32_t)d.own_tokens : PLAG_OWN_UNKNOWN;
		rc = 0;
	}
	if (found)
		store_plag_doc_clear(&d);
	return rc;
}

int plag_store_pair(struct store *s, const struct cfg_plag *cfg, int64_t a, int64_t b,
		    struct plag_match *out, struct plag_hashset *idioms, err_t err)
{
	bool swap = a < b;
	int64_t later = swap ? b : a, earlier = swap ? a : b;
	struct stored mine, other;
	struct lookup l = { .s = s, .r = store_plag_reader(s, err), .cfg = cfg, .self = later };
	int rc = l.r ? load_stored(l.r, cfg, later, &mine, err) : -1;
	if (rc == 0 && load_stored(l.r, cfg, earlier, &other, err) < 0) {
		plag_fps_free(&mine.fps);
		rc = -1;
	}
	if (rc < 0) {
		lookup_end(&l);
		return -1;
	}
	plag_fps_free(&other.fps);
	l.game = mine.game;
	l.author = mine.author;
	l.fps = &mine.fps;
	struct plag_matches counts = { 0 };
	rc = look_up_all(&l, &counts, err);
	if (rc == 0)
		rc = measure(&l, earlier, out, err);
	if (rc == 0 && swap) {
		plag_pair_swap(&out->pair);
		out->doc = later;
	}
	lookup_end(&l);
	if (idioms && rc == 0)
		*idioms = l.idioms;
	else
		plag_hashset_free(&l.idioms);
	plag_fps_free(&mine.fps);
	return rc;
}

/* ---- documents fingerprinted by an older version */

static int unindex(struct store *s, const struct store_plag_doc *d, err_t err)
{
	struct plag_fps old;
	if (d->fps_len % PLAG_FP_BYTES || d->k < 1 || d->k > PLAG_K_MAX)
		return 0; /* nothing readable was indexed under it */
	if (plag_fps_decode(d->fps, d->fps_len, (unsigned)d->k, 1, UINT32_MAX, &old, err))
		return 0;
	int64_t *keys = malloc((old.n ? old.n : 1) * sizeof *keys);
	int rc = keys ? 0 : out_of_memory(err);
	for (size_t i = 0; rc == 0 && i < old.n; i++)
		keys[i] = plag_index_key(d->game, old.v[i].hash);
	if (rc == 0)
		rc = store_plag_unindex(s, d->id, keys, old.n, err);
	free(keys);
	plag_fps_free(&old);
	return rc;
}

static int rewrite_doc(struct store *s, int64_t id, const struct plag_fps *fps,
		       const char *fp_error, err_t err)
{
	struct store_plag_doc d = { .id = id, .k = (int)fps->k, .w = (int)fps->w,
				    .hash_version = PLAG_HASH_VERSION, .ntokens = fps->ntokens,
				    .nfps = (int64_t)fps->n, .has_error = fp_error != NULL,
				    .own_tokens = own_row(fps) };
	err_set(d.error, "%s", fp_error ? fp_error : "");
	d.fps = plag_fps_encode(fps, &d.fps_len);
	if (!d.fps)
		return out_of_memory(err);
	int rc = store_plag_rewrite(s, &d, err);
	free(d.fps);
	return rc;
}

/* The refresh of many documents: the base code is loaded once per game. */
struct refresh {
	struct store *s;
	const struct cfg_plag *cfg;
	const char *data_dir;
	struct plag_hashset base;
	char base_game[64];
	size_t done;
	struct err *err;
};

/* One stale document: fingerprinted again from its source, indexed again. */
static int refresh_one(void *ctx, const struct store_plag_doc *d)
{
	struct refresh *r = ctx;
	const struct cfg_plag *cfg = r->cfg;
	if (strcmp(d->game, r->base_game) != 0) { /* the base code is the game's */
		plag_hashset_free(&r->base);
		snprintf(r->base_game, sizeof r->base_game, "%s", d->game);
		if (plag_base_load(r->data_dir, d->game, cfg->k, &r->base, r->err))
			return -1;
	}
	err_t fp_error = {0};
	struct plag_fps fps = { .k = cfg->k, .w = cfg->w };
	if (plag_fingerprint(cfg, &r->base, d->source, d->source_len, &fps, fp_error))
		fps = (struct plag_fps){ .k = cfg->k, .w = cfg->w };
	struct index_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	const char *why = fp_error->msg;
	int rc = unindex(r->s, d, r->err);
	if (rc == 0)
		rc = rewrite_doc(r->s, d->id, &fps, *why ? why : NULL, r->err);
	if (rc == 0 && !*why && collect_rows(d->game, d->id, &fps, &rows, &nrows, &cap) < 0)
		rc = out_of_memory(r->err);
	if (rc == 0)
		rc = write_rows(r->s, rows, nrows, r->err);
	free(rows);
	plag_fps_free(&fps);
	r->done += rc == 0;
	return rc;
}

int plag_store_stale(struct store *s, const char *game, int64_t *n, err_t err)
{
	return store_plag_stale(s, game, PLAG_HASH_VERSION, n, err);
}

int plag_store_refresh(struct store *s, const struct cfg_plag *cfg, const char *data_dir,
		       const char *game, size_t *refreshed, err_t err)
{
	struct refresh r = { .s = s, .cfg = cfg, .data_dir = data_dir, .err = err };
	int rc = store_plag_each_stale(s, game, PLAG_HASH_VERSION, refresh_one, &r, err);
	plag_hashset_free(&r.base);
	*refreshed = r.done;
	return rc;
}
