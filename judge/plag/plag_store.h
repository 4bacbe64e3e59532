/* plag_store.h - plagiarism fingerprints in the store, and comparison
 * through their index.
 *
 * Promises: a document (a submission, or an archived file of an earlier
 * year) is stored with its fingerprints and indexed by hash in the same
 * transaction as what the caller records with it.  A new document is
 * compared with the earlier documents of its game by other authors only
 * through the index: one look-up per distinct fingerprint, then a full
 * comparison (plag_sim.h) of just the documents that share enough of them,
 * never a loop over every earlier file.  A fingerprint found in more of the
 * game's files than common_percent of them and than common_min_files is an
 * idiom of the whole tournament and counts for neither side: a look-up
 * reads the fingerprint's entry in a stop-list of idioms first, and the
 * rows of an idiom listed there are never read.  Keys are listed when a
 * look-up of plag_store_add() finds them over the cap; indexing writes no
 * other row than the index's.  Pairs at least
 * floor_percent similar are stored; at least flag_percent, the pair is
 * flagged and its later document marked suspected (store_plag_review.h;
 * the caller sends the event; ranking goes on).  A file's share of the
 * other counts toward flag_percent only when it has own_min_tokens of its
 * own code (outside the base code).  A pair of authors the organiser
 * dismissed is flagged again only above the dismissed share plus
 * dismissed_margin_percent.
 * Similarity is the larger containment: a small file copied whole into a
 * big one is caught from the small side.  A pair whose longest shared
 * fragment has at least fragment_tokens tokens (a function copied into an
 * otherwise original file) is stored and flagged whatever its shares.
 * Documents fingerprinted by an older PLAG_HASH_VERSION are never compared
 * until plag_store_refresh() has fingerprinted them again.
 */
#ifndef JUDGE_PLAG_STORE_H
#define JUDGE_PLAG_STORE_H

#include <stdbool.h>

#include "judge/base/config.h"
#include "judge/plag/plag_sim.h"
#include "judge/store/store.h"

struct plag_doc {
	const char *game, *author, *name;
	const char *label;   /* NULL: this tournament; else an archive's label */
	int64_t submission;  /* 0: archived */
	const char *source;  /* stored for archived files only */
	size_t source_len;
};

/* An earlier document that the new one resembles at least floor_percent. */
struct plag_match {
	int64_t doc, submission; /* submission 0: archived */
	char author[64], name[64], label[64];
	double similarity;
	bool fragment;           /* its longest fragment reached fragment_tokens */
	bool flagged;            /* at flag_percent, or fragment */
	struct plag_pair pair;   /* a: the new document, b: this one */
};

struct plag_matches {
	struct plag_match *v;    /* most similar first */
	size_t n;
	size_t looked_up;        /* distinct fingerprints looked up */
	size_t idioms;           /* of which common to the whole tournament */
	size_t rows_read;        /* index rows read */
	size_t counts_read;      /* stop-list entries read (one per look-up) */
	size_t candidates;       /* documents sharing any fingerprint */
	size_t compared;         /* of which compared in full */
};

void plag_matches_free(struct plag_matches *m);

/* Read-only: compares fps (k = cfg->k) with every earlier document of
 * game by an author other than author, skipping document self (0: none). */
int plag_store_compare(struct store *s, const struct cfg_plag *cfg, const char *game,
		       const char *author, int64_t self, const struct plag_fps *fps,
		       struct plag_matches *out, err_t err);

/* Inside a write transaction: stores the document with its fingerprints
 * (fps NULL: none could be taken, fp_error says why) and indexes them;
 * nothing else.  Sets *id. */
int plag_store_insert(struct store *s, const struct plag_doc *doc, const struct plag_fps *fps,
		      const char *fp_error, int64_t *id, err_t err);

/* The same for n documents at once (fps[i] NULL: none), the index rows
 * written in key order: much faster for many documents (an archive). */
int plag_store_insert_batch(struct store *s, const struct plag_doc *docs,
			    const struct plag_fps *const *fps, size_t n, int64_t *ids,
			    err_t err);

/* Inside a write transaction: compares (before inserting, so a document is
 * never its own match), inserts, then records the pairs over the floor and
 * marks flagged documents suspected.  out may be NULL. */
int plag_store_add(struct store *s, const struct cfg_plag *cfg, const struct plag_doc *doc,
		   const struct plag_fps *fps, const char *fp_error, int64_t *id,
		   struct plag_matches *out, err_t err);

/* Stored documents a and b measured as plag_store_compare() measured the
 * later one against the earlier when it was new (the same comparison, the
 * idioms as the index counts them now, the document itself left out), seen
 * from a's side.  The one way the list of pairs and `show` compute them.
 * idioms (may be NULL) receives the idioms left out (plag_hashset_free). */
int plag_store_pair(struct store *s, const struct cfg_plag *cfg, int64_t a, int64_t b,
		    struct plag_match *out, struct plag_hashset *idioms, err_t err);

/* Inside a write transaction: every document of game (NULL: of every game)
 * fingerprinted by an
 * older PLAG_HASH_VERSION is fingerprinted again from its source (the base
 * code of data_dir removed) and indexed again; *refreshed counts them.
 * Cheap when there is none: one query. */
int plag_store_refresh(struct store *s, const struct cfg_plag *cfg, const char *data_dir,
		       const char *game, size_t *refreshed, err_t err);

/* Read-only: how many documents of game (NULL: of every game) an older
 * PLAG_HASH_VERSION fingerprinted. */
int plag_store_stale(struct store *s, const char *game, int64_t *n, err_t err);

/* The key a fingerprint hash is indexed under in game. */
int64_t plag_index_key(const char *game, uint64_t hash);

#endif
