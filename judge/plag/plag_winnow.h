/* plag_winnow.h - fingerprints of a token stream, and hash sets to ignore.
 *
 * Promises: plag_winnow() hashes every k-gram (k consecutive normalised
 * tokens) with one fixed 64-bit function - the same k-gram has the same hash
 * in every file, run and machine, until PLAG_HASH_VERSION changes - and keeps,
 * for each window of w consecutive k-grams, the one with the smallest hash
 * (the rightmost on ties), recording it once however many windows chose it.
 * This is winnowing (Schleimer, Wilkerson, Aiken, SIGMOD 2003), so:
 *   - every window of w consecutive k-grams contains a recorded one, and
 *   - two streams sharing a run of at least w + k - 1 tokens share at least
 *     one fingerprint hash (the run holds a whole window, chosen alike).
 * A stream shorter than w + k - 1 tokens but at least k is one window; a
 * stream shorter than k has no fingerprints.
 *
 * A hash set (sorted, no duplicates) holds hashes to leave out: the k-grams
 * of the game's header and shipped players, or idioms common to a whole
 * tournament.  plag_fps_exclude() drops them from one file's fingerprints.
 * Build a base set from every k-gram of the base (plag_hashset_add_tokens),
 * not from its fingerprints: in a player that starts with the header, a
 * window straddling the seam may select a header k-gram that the header's
 * own winnowing never selected, and it would match every such player.
 */
#ifndef JUDGE_PLAG_WINNOW_H
#define JUDGE_PLAG_WINNOW_H

#include "judge/base/config.h"
#include "judge/plag/plag_tokens.h"

#include <stdbool.h>

/* Bump when token codes or the k-gram hash change: stored hashes expire. */
#define PLAG_HASH_VERSION 2

/* k and w: PLAG_K_DEFAULT, PLAG_K_MAX... are the settings' (base/config.h) */

struct plag_fp {
	uint64_t hash;
	uint32_t tok;        /* index of the k-gram's first token */
	uint32_t first_line; /* lines the k-gram's tokens come from */
	uint32_t last_line;
};

struct plag_fps {
	struct plag_fp *v; /* by increasing tok */
	size_t n;
	uint32_t k, w;
	uint32_t ntokens;  /* length of the stream they come from */
	uint32_t own;      /* of which outside the base code (PLAG_OWN_UNKNOWN) */
};

/* A file fingerprinted before its own code was counted. */
#define PLAG_OWN_UNKNOWN UINT32_MAX

/* The hash of the k-gram t[0..k). */
uint64_t plag_kgram_hash(const struct plag_token *t, unsigned k);

/* Fingerprints of t[0..n) for 1 <= k <= PLAG_K_MAX, 1 <= w <= PLAG_W_MAX.
 * On PLAG_OK out owns its array (plag_fps_free); on error out is empty. */
enum plag_err plag_winnow(const struct plag_token *t, size_t n, unsigned k, unsigned w,
			  struct plag_fps *out, err_t err);

void plag_fps_free(struct plag_fps *f);

struct plag_hashset {
	uint64_t *v; /* sorted, distinct */
	size_t n;
};

/* plag_winnow(), and out->own counts the tokens in no k-gram of base (the
 * game's code every player starts from); base NULL: PLAG_OWN_UNKNOWN. */
enum plag_err plag_winnow_own(const struct plag_token *t, size_t n, unsigned k, unsigned w,
			      const struct plag_hashset *base, struct plag_fps *out,
			      err_t err);

/* Adds hashes h[0..n) (in any order, repeats allowed) to s; an empty
 * struct plag_hashset is a valid empty set. */
enum plag_err plag_hashset_add(struct plag_hashset *s, const uint64_t *h, size_t n,
			       err_t err);

/* Adds the hash of every k-gram of t[0..n) to s (base code). */
enum plag_err plag_hashset_add_tokens(struct plag_hashset *s, const struct plag_token *t,
				      size_t n, unsigned k, err_t err);

/* Adds every fingerprint hash of f to s. */
enum plag_err plag_hashset_add_fps(struct plag_hashset *s, const struct plag_fps *f,
				   err_t err);

/* s may be NULL: the empty set. */
bool plag_hashset_has(const struct plag_hashset *s, uint64_t h);

void plag_hashset_free(struct plag_hashset *s);

/* Removes from f every fingerprint whose hash is in base (order kept);
 * returns how many went.  base NULL removes none. */
size_t plag_fps_exclude(struct plag_fps *f, const struct plag_hashset *base);

#endif
