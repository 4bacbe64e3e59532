#include "judge/plag/plag_winnow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rotl64(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

/* Final avalanche: every input bit moves about half the output bits, so
 * the window minimum is a fair sample of the k-grams. */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* Each step is invertible in h, and the rotation makes the result depend on
 * the order of the codes.  Only fixed-width unsigned arithmetic: the value
 * is the same on every machine. */
uint64_t plag_kgram_hash(const struct plag_token *t, unsigned k)
{
	uint64_t h = 0x6a09e667f3bcc909ULL ^ ((uint64_t)k * 0x9e3779b97f4a7c15ULL);
	for (unsigned i = 0; i < k; i++) {
		h ^= (uint64_t)t[i].code * 0x87c37b91114253d5ULL;
		h = rotl64(h, 31) * 0x9e3779b97f4a7c15ULL;
	}
	return mix64(h);
}

static void record(struct plag_fps *out, const struct plag_token *t, const uint64_t *h,
		   uint32_t pos)
{
	uint32_t lo = t[pos].line, hi = t[pos].line;
	for (uint32_t i = pos + 1; i < pos + out->k; i++) {
		lo = t[i].line < lo ? t[i].line : lo;
		hi = t[i].line > hi ? t[i].line : hi;
	}
	out->v[out->n++] = (struct plag_fp){
		.hash = h[pos], .tok = pos, .first_line = lo, .last_line = hi,
	};
}

/* The window minimum over the k-gram hashes h[0..nk), with a deque q of
 * positions whose hashes rise strictly from front to back: a new hash
 * evicts every queued one not smaller, so the front is the window's
 * rightmost minimum. */
static void select_minima(struct plag_fps *out, const struct plag_token *t, const uint64_t *h,
			  uint32_t nk, uint32_t *q)
{
	uint32_t head = 0, tail = 0, w = out->w;
	uint32_t last = UINT32_MAX;
	for (uint32_t i = 0; i < nk; i++) {
		while (tail > head && h[q[tail - 1]] >= h[i])
			tail--;
		q[tail++] = i;
		/* A stream shorter than one window is one window, ending at nk-1. */
		if (i + 1 < w && i + 1 < nk)
			continue;
		while (q[head] + w <= i)
			head++;
		if (q[head] != last) {
			last = q[head];
			record(out, t, h, last);
		}
	}
}

/* Tokens in no k-gram of base, from the k-gram hashes h[0..nk) of n
 * tokens: the file's own code. */
static uint32_t own_tokens(const uint64_t *h, uint32_t nk, size_t n, unsigned k,
			   const struct plag_hashset *base)
{
	size_t covered_until = 0, own = 0;
	for (size_t i = 0; i < n; i++) {
		if (i < nk && plag_hashset_has(base, h[i]))
			covered_until = i + k;
		own += i >= covered_until;
	}
	return (uint32_t)own;
}

enum plag_err plag_winnow(const struct plag_token *t, size_t n, unsigned k, unsigned w,
			  struct plag_fps *out, err_t err)
{
	return plag_winnow_own(t, n, k, w, NULL, out, err);
}

enum plag_err plag_winnow_own(const struct plag_token *t, size_t n, unsigned k, unsigned w,
			      const struct plag_hashset *base, struct plag_fps *out,
			      err_t err)
{
	err_t ignored;
	if (!err)
		err = ignored;
	if (!out || (!t && n) || k < 1 || k > PLAG_K_MAX || w < 1 || w > PLAG_W_MAX ||
	    n >= UINT32_MAX) {
		err_set(err, "plag_winnow: need tokens, output, 1 <= k <= %d, "
			 "1 <= w <= %d and under 2^32-1 tokens", PLAG_K_MAX, PLAG_W_MAX);
		return PLAG_E_PARAM;
	}
	*out = (struct plag_fps){ .k = k, .w = w, .ntokens = (uint32_t)n,
				  .own = base ? (uint32_t)n : PLAG_OWN_UNKNOWN };
	if (n < k)
		return PLAG_OK;
	uint32_t nk = (uint32_t)(n - k + 1);
	uint64_t *h = malloc(nk * sizeof *h);
	uint32_t *q = malloc(nk * sizeof *q);
	out->v = malloc(nk * sizeof *out->v);
	if (!h || !q || !out->v) {
		free(h);
		free(q);
		plag_fps_free(out);
		err_set(err, "out of memory");
		return PLAG_E_NOMEM;
	}
	for (uint32_t i = 0; i < nk; i++)
		h[i] = plag_kgram_hash(t + i, k);
	select_minima(out, t, h, nk, q);
	if (base)
		out->own = own_tokens(h, nk, n, k, base);
	free(h);
	free(q);
	/* At least one window, so n > 0: realloc cannot be asked for 0 bytes. */
	struct plag_fp *v = realloc(out->v, out->n * sizeof *v);
	if (v)
		out->v = v;
	return PLAG_OK;
}

void plag_fps_free(struct plag_fps *f)
{
	if (!f)
		return;
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

/* ---- Hash sets */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Merges sorted a[0..na) and sorted b[0..nb) into out, dropping repeats. */
static size_t merge_unique(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
			   uint64_t *out)
{
	size_t i = 0, j = 0, n = 0;
	while (i < na || j < nb) {
		uint64_t x = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
		if (n == 0 || out[n - 1] != x)
			out[n++] = x;
	}
	return n;
}

enum plag_err plag_hashset_add(struct plag_hashset *s, const uint64_t *h, size_t n,
			       err_t err)
{
	err_t ignored;
	if (!err)
		err = ignored;
	if (!s || (!h && n)) {
		err_set(err, "plag_hashset_add: no set or no hashes");
		return PLAG_E_PARAM;
	}
	if (n == 0)
		return PLAG_OK;
	uint64_t *sorted = malloc(n * sizeof *sorted);
	uint64_t *v = malloc((s->n + n) * sizeof *v);
	if (!sorted || !v) {
		free(sorted);
		free(v);
		err_set(err, "out of memory");
		return PLAG_E_NOMEM;
	}
	memcpy(sorted, h, n * sizeof *h);
	qsort(sorted, n, sizeof *sorted, u64_cmp);
	size_t m = merge_unique(s->v, s->n, sorted, n, v);
	free(sorted);
	free(s->v);
	s->v = v;
	s->n = m;
	return PLAG_OK;
}

enum plag_err plag_hashset_add_tokens(struct plag_hashset *s, const struct plag_token *t,
				      size_t n, unsigned k, err_t err)
{
	err_t ignored;
	if (!err)
		err = ignored;
	if ((!t && n) || k < 1 || k > PLAG_K_MAX) {
		err_set(err, "plag_hashset_add_tokens: need tokens and 1 <= k <= %d",
			 PLAG_K_MAX);
		return PLAG_E_PARAM;
	}
	if (n < k)
		return PLAG_OK;
	uint64_t *h = malloc((n - k + 1) * sizeof *h);
	if (!h) {
		err_set(err, "out of memory");
		return PLAG_E_NOMEM;
	}
	for (size_t i = 0; i + k <= n; i++)
		h[i] = plag_kgram_hash(t + i, k);
	enum plag_err e = plag_hashset_add(s, h, n - k + 1, err);
	free(h);
	return e;
}

enum plag_err plag_hashset_add_fps(struct plag_hashset *s, const struct plag_fps *f,
				   err_t err)
{
	err_t ignored;
	if (!err)
		err = ignored;
	if (!f) {
		err_set(err, "plag_hashset_add_fps: no fingerprints");
		return PLAG_E_PARAM;
	}
	uint64_t *h = malloc((f->n ? f->n : 1) * sizeof *h);
	if (!h) {
		err_set(err, "out of memory");
		return PLAG_E_NOMEM;
	}
	for (size_t i = 0; i < f->n; i++)
		h[i] = f->v[i].hash;
	enum plag_err e = plag_hashset_add(s, h, f->n, err);
	free(h);
	return e;
}

/* A binary search without a call per step: every file's k-grams are
 * looked up in the base code's set. */
bool plag_hashset_has(const struct plag_hashset *s, uint64_t h)
{
	if (!s || !s->n)
		return false;
	const uint64_t *at = s->v;
	for (size_t n = s->n; n > 1; n -= n / 2)
		at = at[n / 2] <= h ? at + n / 2 : at;
	return *at == h;
}

void plag_hashset_free(struct plag_hashset *s)
{
	if (!s)
		return;
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

size_t plag_fps_exclude(struct plag_fps *f, const struct plag_hashset *base)
{
	if (!f || !base || !base->n)
		return 0;
	size_t kept = 0;
	for (size_t i = 0; i < f->n; i++)
		if (!plag_hashset_has(base, f->v[i].hash))
			f->v[kept++] = f->v[i];
	size_t removed = f->n - kept;
	f->n = kept;
	return removed;
}
