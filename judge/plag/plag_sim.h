/* plag_sim.h - how much of two files' fingerprints they share.
 *
 * Promises: plag_compare() measures a pair from both sides, so a small file
 * copied whole into a big one scores high on one side and low on the other:
 *   a_in_b = tokens of A inside k-grams of fingerprints whose hash B also
 *            has, over tokens of A inside any of A's fingerprints' k-grams;
 * a matched fingerprint counts only in a run of at least min_run matched
 * ones in a row in its file (1: every one): two independent files share
 * scattered k-grams of common idioms, a copy shares runs of them.
 * The denominator leaves out what fingerprinting never sees (a few tokens at
 * the ends, fingerprints already removed as base code), so identical files
 * score exactly 1 both ways.  Hashes in the optional ignore set count for
 * neither side, in numerator or denominator.  The longest fragment is a
 * longest run of consecutive fingerprints of A whose hashes appear, in the
 * same order and also consecutive, in B; it is reported as token and line
 * ranges in both files (one of them when several are as long).
 * Cost: O(n log n) in the number of fingerprints, whatever the input.
 */
#ifndef JUDGE_PLAG_SIM_H
#define JUDGE_PLAG_SIM_H

#include "judge/plag/plag_winnow.h"

struct plag_span {
	uint32_t first_tok, last_tok;   /* inclusive */
	uint32_t first_line, last_line; /* inclusive */
};

struct plag_pair {
	double a_in_b, b_in_a;       /* in [0, 1]; 0 when a side has no fingerprint */
	uint32_t a_tokens, a_covered; /* a_in_b = a_covered / a_tokens */
	uint32_t b_tokens, b_covered;
	size_t a_matched, b_matched; /* fingerprints of A whose hash B has, and back */
	size_t longest;              /* fingerprints in the longest fragment; 0: none */
	struct plag_span longest_a, longest_b;
};

/* Tokens of A in the longest fragment (0 when there is none). */
static inline uint32_t plag_longest_tokens(const struct plag_pair *p)
{
	return p->longest ? p->longest_a.last_tok - p->longest_a.first_tok + 1 : 0;
}

/* The same pair as B sees it: each a-field trades places with its b-field. */
static inline void plag_pair_swap(struct plag_pair *p)
{
	struct plag_pair q = *p;
	p->a_in_b = q.b_in_a, p->b_in_a = q.a_in_b;
	p->a_tokens = q.b_tokens, p->b_tokens = q.a_tokens;
	p->a_covered = q.b_covered, p->b_covered = q.a_covered;
	p->a_matched = q.b_matched, p->b_matched = q.a_matched;
	p->longest_a = q.longest_b, p->longest_b = q.longest_a;
}

/* a and b must come from plag_winnow() with the same k.  ignore may be
 * NULL; min_run 0 counts as 1.  Fills *out, or returns an error with err filled. */
enum plag_err plag_compare(const struct plag_fps *a, const struct plag_fps *b,
			   const struct plag_hashset *ignore, unsigned min_run,
			   struct plag_pair *out, err_t err);

#endif
