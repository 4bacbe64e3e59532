/* Pair similarity: matches by binary search in sorted hash lists, the
 * longest common run of fingerprints with a suffix array over both files'
 * fingerprint sequences.  A pairing of equal hashes would be quadratic on
 * repetitive files (one idiom a thousand times in each); these are not. */
#include "judge/plag/plag_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The sorted, distinct hashes of f that are not ignored; NULL on no memory. */
static uint64_t *sorted_hashes(const struct plag_fps *f, const struct plag_hashset *ignore,
			       size_t *n)
{
	uint64_t *h = malloc((f->n ? f->n : 1) * sizeof *h);
	if (!h)
		return NULL;
	*n = 0;
	for (size_t i = 0; i < f->n; i++)
		if (!plag_hashset_has(ignore, f->v[i].hash))
			h[(*n)++] = f->v[i].hash;
	qsort(h, *n, sizeof *h, u64_cmp);
	size_t m = 0;
	for (size_t i = 0; i < *n; i++)
		if (m == 0 || h[m - 1] != h[i])
			h[m++] = h[i];
	*n = m;
	return h;
}

static bool in_sorted(const uint64_t *v, size_t n, uint64_t h)
{
	return n && bsearch(&h, v, n, sizeof h, u64_cmp);
}

static bool matched_fp(const struct plag_fp *p, const struct plag_hashset *ignore,
		       const uint64_t *other, size_t nother)
{
	return !plag_hashset_has(ignore, p->hash) && in_sorted(other, nother, p->hash);
}

/* How many matched fingerprints of f run from i on (ignored ones skipped). */
static size_t run_from(const struct plag_fps *f, size_t i, const struct plag_hashset *ignore,
		       const uint64_t *other, size_t nother)
{
	size_t len = 0;
	for (; i < f->n; i++) {
		if (plag_hashset_has(ignore, f->v[i].hash))
			continue;
		if (!in_sorted(other, nother, f->v[i].hash))
			break;
		len++;
	}
	return len;
}

/* Tokens inside the k-grams of the fingerprints of f that are wanted
 * (not ignored, and in other if match): one sweep, as f->v is sorted by
 * position.  A matched fingerprint counts only in a run of at least
 * min_run matched ones (ignored ones neither break nor make a run). */
static uint32_t covered(const struct plag_fps *f, const struct plag_hashset *ignore,
			const uint64_t *other, size_t nother, bool match, unsigned min_run,
			size_t *count)
{
	uint64_t total = 0, end = 0; /* end: first token not yet counted */
	size_t left = 0;             /* fingerprints left in the current run */
	bool counts = true;          /* whether the current run is long enough */
	*count = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct plag_fp *p = &f->v[i];
		if (match ? !matched_fp(p, ignore, other, nother) : plag_hashset_has(ignore, p->hash))
			continue;
		if (match && left == 0) {
			left = run_from(f, i, ignore, other, nother);
			counts = left >= min_run;
		}
		left -= match;
		if (!counts)
			continue;
		uint64_t from = p->tok > end ? p->tok : end, to = (uint64_t)p->tok + f->k;
		if (to > from)
			total += to - from;
		end = to > end ? to : end;
		++*count;
	}
	return (uint32_t)total;
}

/* ---- Longest common run */

/* Suffix arrays by prefix doubling with counting sorts, O(n log n): after
 * the round for length len, rk[i] ranks suffix i by its first 2 len letters
 * and sa lists the suffixes in that order. */
struct sa_work {
	uint32_t n, classes;
	uint32_t *sa, *rk, *tmp, *cnt; /* cnt: max(n, alphabet) + 1 entries */
};

/* Ranks by the first letter alone. */
static void sa_first(struct sa_work *w, const uint32_t *s, uint32_t alpha)
{
	for (uint32_t i = 0; i < w->n; i++)
		w->cnt[s[i] + 1]++;
	for (uint32_t c = 0; c < alpha; c++)
		w->cnt[c + 1] += w->cnt[c];
	for (uint32_t i = 0; i < w->n; i++)
		w->sa[w->cnt[s[i]]++] = i;
	w->classes = 1;
	w->rk[w->sa[0]] = 0;
	for (uint32_t i = 1; i < w->n; i++) {
		w->classes += s[w->sa[i]] != s[w->sa[i - 1]];
		w->rk[w->sa[i]] = w->classes - 1;
	}
}

/* From ranks by len letters to ranks by 2 len letters. */
static void sa_round(struct sa_work *w, uint32_t len)
{
	uint32_t n = w->n, *sa = w->sa, *rk = w->rk, *tmp = w->tmp, *cnt = w->cnt;
	/* By second half: the suffixes without one first, then in sa order. */
	uint32_t p = 0;
	for (uint32_t i = n - len; i < n; i++)
		tmp[p++] = i;
	for (uint32_t j = 0; j < n; j++)
		if (sa[j] >= len)
			tmp[p++] = sa[j] - len;
	/* Then stably by first half. */
	memset(cnt, 0, (w->classes + 1) * sizeof *cnt);
	for (uint32_t i = 0; i < n; i++)
		cnt[rk[i] + 1]++;
	for (uint32_t c = 0; c < w->classes; c++)
		cnt[c + 1] += cnt[c];
	for (uint32_t j = 0; j < n; j++)
		sa[cnt[rk[tmp[j]]]++] = tmp[j];
	tmp[sa[0]] = 0;
	w->classes = 1;
	for (uint32_t j = 1; j < n; j++) {
		uint32_t a = sa[j - 1], b = sa[j];
		uint64_t ra = a + len < n ? rk[a + len] + 1ULL : 0;
		uint64_t rb = b + len < n ? rk[b + len] + 1ULL : 0;
		w->classes += rk[a] != rk[b] || ra != rb;
		tmp[b] = w->classes - 1;
	}
	memcpy(rk, tmp, n * sizeof *rk);
}

/* The suffix array of s[0..n) over letters [0, alpha) into sa, ranks into rk.
 * All suffixes differ in length, so the rounds end once all ranks differ,
 * which happens before len reaches n. */
static bool suffix_array(const uint32_t *s, uint32_t n, uint32_t alpha, uint32_t *sa,
			 uint32_t *rk)
{
	struct sa_work w = {
		.n = n, .sa = sa, .rk = rk,
		.tmp = malloc(n * sizeof *w.tmp),
		.cnt = calloc((n > alpha ? n : alpha) + 1, sizeof *w.cnt),
	};
	bool ok = w.tmp && w.cnt;
	if (ok) {
		sa_first(&w, s, alpha);
		for (uint32_t len = 1; w.classes < n; len *= 2)
			sa_round(&w, len);
	}
	free(w.tmp);
	free(w.cnt);
	return ok;
}

/* Letters for A's fingerprints, a separator, then B's: a hash both sides
 * have is its index among the common hashes; any other fingerprint, and the
 * separator, get a letter of their own, so no common run crosses them. */
static uint32_t *letters(const struct plag_fps *a, const struct plag_fps *b,
			 const uint64_t *common, size_t ncommon, uint32_t *alpha)
{
	uint32_t n = (uint32_t)(a->n + 1 + b->n), fresh = (uint32_t)ncommon;
	uint32_t *s = malloc(n * sizeof *s);
	if (!s)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		const struct plag_fp *p = i < a->n ? &a->v[i] : i > a->n ? &b->v[i - a->n - 1] : NULL;
		const uint64_t *c = p && ncommon ? bsearch(&p->hash, common, ncommon,
							   sizeof *common, u64_cmp) : NULL;
		s[i] = c ? (uint32_t)(c - common) : fresh++;
	}
	*alpha = fresh;
	return s;
}

/* Kasai's LCP pass, keeping only neighbours from different files. */
static void best_neighbours(const uint32_t *s, uint32_t n, uint32_t na, const uint32_t *sa,
			    const uint32_t *rk, uint32_t *len, uint32_t *ia, uint32_t *ib)
{
	uint32_t h = 0;
	*len = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (rk[i] == 0) {
			h = 0;
			continue;
		}
		uint32_t j = sa[rk[i] - 1];
		while (i + h < n && j + h < n && s[i + h] == s[j + h])
			h++;
		if (h > *len && (i < na) != (j < na)) {
			*len = h;
			*ia = i < j ? i : j;
			*ib = (i < j ? j : i) - na - 1;
		}
		if (h > 0)
			h--;
	}
}

static struct plag_span span_of(const struct plag_fps *f, uint32_t first, uint32_t len)
{
	struct plag_span sp = {
		.first_tok = f->v[first].tok,
		.last_tok = f->v[first + len - 1].tok + f->k - 1,
		.first_line = f->v[first].first_line,
		.last_line = f->v[first].last_line,
	};
	for (uint32_t i = first; i < first + len; i++) {
		sp.first_line = f->v[i].first_line < sp.first_line ? f->v[i].first_line : sp.first_line;
		sp.last_line = f->v[i].last_line > sp.last_line ? f->v[i].last_line : sp.last_line;
	}
	return sp;
}

static enum plag_err longest_run(const struct plag_fps *a, const struct plag_fps *b,
				 const uint64_t *common, size_t ncommon, struct plag_pair *out)
{
	if (ncommon == 0)
		return PLAG_OK;
	uint32_t n = (uint32_t)(a->n + 1 + b->n), alpha, len = 0, ia = 0, ib = 0;
	uint32_t *s = letters(a, b, common, ncommon, &alpha);
	uint32_t *sa = malloc(n * sizeof *sa), *rk = malloc(n * sizeof *rk);
	bool ok = s && sa && rk && suffix_array(s, n, alpha, sa, rk);
	if (ok)
		best_neighbours(s, n, (uint32_t)a->n, sa, rk, &len, &ia, &ib);
	free(s);
	free(sa);
	free(rk);
	if (!ok)
		return PLAG_E_NOMEM;
	out->longest = len;
	if (len) {
		out->longest_a = span_of(a, ia, len);
		out->longest_b = span_of(b, ib, len);
	}
	return PLAG_OK;
}

/* ---- The pair */

static enum plag_err check_pair(const struct plag_fps *a, const struct plag_fps *b,
				const struct plag_pair *out, err_t err)
{
	if (!a || !b || !out || (a->n && !a->v) || (b->n && !b->v)) {
		err_set(err, "plag_compare: missing fingerprints or result");
		return PLAG_E_PARAM;
	}
	if (a->k != b->k) {
		err_set(err, "plag_compare: fingerprints of %u-grams and %u-grams",
			 a->k, b->k);
		return PLAG_E_PARAM;
	}
	if (a->n + b->n >= UINT32_MAX) {
		err_set(err, "plag_compare: too many fingerprints");
		return PLAG_E_PARAM;
	}
	return PLAG_OK;
}

static double share(uint32_t part, uint32_t whole)
{
	return whole ? (double)part / whole : 0.0;
}

enum plag_err plag_compare(const struct plag_fps *a, const struct plag_fps *b,
			   const struct plag_hashset *ignore, unsigned min_run,
			   struct plag_pair *out, err_t err)
{
	err_t ignored;
	if (!err)
		err = ignored;
	enum plag_err e = check_pair(a, b, out, err);
	if (e)
		return e;
	*out = (struct plag_pair){ 0 };
	size_t na, nb, ncommon = 0, unused;
	uint64_t *ha = sorted_hashes(a, ignore, &na), *hb = sorted_hashes(b, ignore, &nb);
	uint64_t *common = malloc((na ? na : 1) * sizeof *common);
	e = ha && hb && common ? PLAG_OK : PLAG_E_NOMEM;
	if (!e) {
		for (size_t i = 0; i < na; i++)
			if (in_sorted(hb, nb, ha[i]))
				common[ncommon++] = ha[i];
		out->a_tokens = covered(a, ignore, NULL, 0, false, 1, &unused);
		out->b_tokens = covered(b, ignore, NULL, 0, false, 1, &unused);
		out->a_covered = covered(a, ignore, common, ncommon, true, min_run, &out->a_matched);
		out->b_covered = covered(b, ignore, common, ncommon, true, min_run, &out->b_matched);
		out->a_in_b = share(out->a_covered, out->a_tokens);
		out->b_in_a = share(out->b_covered, out->b_tokens);
		e = longest_run(a, b, common, ncommon, out);
	}
	free(ha);
	free(hb);
	free(common);
	if (e == PLAG_E_NOMEM)
		err_set(err, "out of memory");
	return e;
}
