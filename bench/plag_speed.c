/* plag_speed.c - plagiarism at the scale of many years of submissions:
 * 10,000 generated C players are fingerprinted and indexed into a real
 * SQLite store (goal < 10 s), then one new submission is compared with all
 * of them through the index (goal < 100 ms), side by side with the naive
 * way - every pair compared in full - on a 1,000-submission subset.
 * The generated players are random programs of the size of a course
 * player (150-300 lines) built from a small grammar of C statements and
 * the game's API calls, so they share idioms but no code. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_store.h"
#include "judge/store/store.h"

#define NDOCS ((int)bench_size(10000, 200))
#define NSUBSET ((int)bench_size(1000, 50))
#define NPROBES ((int)bench_size(21, 1))
#define NAIVE_ROWS ((int)bench_size(50, 5))
#define BATCH_MAX 2500
#define BATCH ((size_t)bench_size(BATCH_MAX, 100))
#define GOAL_INDEX_S 10.0
#define GOAL_COMPARE_MS 100.0

/* ---- a small generator of C players */

struct gen {
	uint64_t s;
	char *buf;
	size_t len, cap;
	int depth;
};

static uint32_t gen_rand(struct gen *g, uint32_t n)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return (uint32_t)(g->s % n);
}

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
	va_end(ap);
	if (n > 0 && g->len + (size_t)n < g->cap)
		g->len += (size_t)n;
}

static const char *const api[] = { "move", "attack", "unit", "cell", "rows", "cols", "me",
				   "round", "random", "farmers", "knights", "witches", "abs",
				   "min", "max", "dist", "owner", "health" };
static const char *const vars[] = { "a", "b", "c", "d", "x", "y", "n", "k", "best", "id" };
static const char *const binops[] = { "+", "-", "*", "/", "%", "<", ">", "==", "!=", "&&",
				      "||", "<=", ">=", "&", "|", "^", "<<", ">>" };
static const char *const assigns[] = { "=", "+=", "-=", "*=", "|=", "&=", "^=", "/=" };
static const char *const types[] = { "int", "double", "char", "long", "unsigned",
				     "short", "float", "bool" };

#define PICK(g, arr) (arr)[gen_rand(g, sizeof(arr) / sizeof *(arr))]

static void gen_expr(struct gen *g, int depth)
{
	switch (depth > 2 ? gen_rand(g, 4) : gen_rand(g, 13)) {
	case 0: put(g, "%s", PICK(g, vars)); break;
	case 1: put(g, "%u", gen_rand(g, 100)); break;
	case 2: put(g, "p.%s", PICK(g, vars)); break;
	case 3: put(g, "t[%s]", PICK(g, vars)); break;
	case 4: put(g, "%s(%s)", PICK(g, api), PICK(g, vars)); break;
	case 5: put(g, "%s(", PICK(g, api)); gen_expr(g, depth + 1); put(g, ", ");
		gen_expr(g, depth + 1); put(g, ")"); break;
	case 6: put(g, "-"); gen_expr(g, depth + 1); break;
	case 7: put(g, "!"); gen_expr(g, depth + 1); break;
	case 8: put(g, "(%s)", PICK(g, types)); gen_expr(g, depth + 1); break;
	case 9: put(g, "("); gen_expr(g, depth + 1); put(g, " ? "); gen_expr(g, depth + 1);
		put(g, " : "); gen_expr(g, depth + 1); put(g, ")"); break;
	case 10: put(g, "q->%s", PICK(g, vars)); break;
	default:
		put(g, "(");
		gen_expr(g, depth + 1);
		put(g, " %s ", PICK(g, binops));
		gen_expr(g, depth + 1);
		put(g, ")");
	}
}

static void gen_block(struct gen *g, int stmts);

static void gen_loop(struct gen *g)
{
	switch (gen_rand(g, 4)) {
	case 0: put(g, "for (int i = 0; i < "); gen_expr(g, 1); put(g, "; ++i) "); break;
	case 1: put(g, "for (%s = ", PICK(g, vars)); gen_expr(g, 2);
		put(g, "; %s > 0; %s--) ", PICK(g, vars), PICK(g, vars)); break;
	case 2: put(g, "while ("); gen_expr(g, 0); put(g, ") "); break;
	default: put(g, "do "); gen_block(g, 3); put(g, "%*swhile (", 4 * g->depth, "");
		gen_expr(g, 0); put(g, ");\n"); return;
	}
	gen_block(g, 3);
}

static void gen_switch(struct gen *g)
{
	put(g, "switch (");
	gen_expr(g, 1);
	put(g, ") {\n");
	for (int c = 1 + (int)gen_rand(g, 4); c > 0; c--) {
		put(g, "%*scase %u:\n", 4 * g->depth, "", gen_rand(g, 20));
		g->depth++;
		for (int s = 1 + (int)gen_rand(g, 2); s > 0; s--) {
			put(g, "%*s%s %s ", 4 * g->depth, "", PICK(g, vars), PICK(g, assigns));
			gen_expr(g, 1);
			put(g, ";\n");
		}
		put(g, "%*sbreak;\n", 4 * g->depth, "");
		g->depth--;
	}
	put(g, "%*s}\n", 4 * g->depth, "");
}

static void gen_stmt(struct gen *g)
{
	unsigned kind = g->depth > 2 ? gen_rand(g, 4) : gen_rand(g, 9);
	put(g, "%*s", 4 * g->depth, "");
	switch (kind) {
	case 0: put(g, "%s %s ", PICK(g, vars), PICK(g, assigns)); gen_expr(g, 0); put(g, ";\n"); break;
	case 1: put(g, "%s(%s, ", PICK(g, api), PICK(g, vars)); gen_expr(g, 1); put(g, ");\n"); break;
	case 2: put(g, "t[%s] %s ", PICK(g, vars), PICK(g, assigns)); gen_expr(g, 1); put(g, ";\n"); break;
	case 3: put(g, "%s %s = ", PICK(g, types), PICK(g, vars)); gen_expr(g, 1); put(g, ";\n"); break;
	case 4: put(g, "if ("); gen_expr(g, 0); put(g, ") "); gen_block(g, 3);
		if (gen_rand(g, 2)) { put(g, "%*selse ", 4 * g->depth, ""); gen_block(g, 2); }
		break;
	case 5: gen_loop(g); break;
	case 6: gen_switch(g); break;
	case 7: put(g, "p.%s = ", PICK(g, vars)); gen_expr(g, 1); put(g, ";\n"); break;
	default: put(g, "return "); gen_expr(g, 0); put(g, ";\n");
	}
}

static void gen_block(struct gen *g, int stmts)
{
	put(g, "{\n");
	g->depth++;
	for (int i = 1 + (int)gen_rand(g, (uint32_t)stmts); i > 0; i--)
		gen_stmt(g);
	g->depth--;
	put(g, "%*s}\n", 4 * g->depth, "");
}

static void gen_function(struct gen *g, int f)
{
	put(g, "\nstatic %s f%d(", PICK(g, types), f);
	for (int a = (int)gen_rand(g, 4); a >= 0; a--)
		put(g, "%s %s%s", PICK(g, types), PICK(g, vars), a ? ", " : "");
	put(g, ")\n{\n");
	g->depth = 1;
	for (int v = (int)gen_rand(g, 4); v > 0; v--) {
		put(g, "    %s %s = ", PICK(g, types), PICK(g, vars));
		gen_expr(g, 2);
		put(g, ";\n");
	}
	for (int s = 4 + (int)gen_rand(g, 8); s > 0; s--)
		gen_stmt(g);
	put(g, "    return %s;\n}\n", PICK(g, vars));
	g->depth = 0;
}

/* One player: globals, a handful of helpers, play(). */
static size_t gen_player(char *buf, size_t cap, uint64_t seed)
{
	struct gen g = { .s = seed * 0x9e3779b97f4a7c15ULL | 1, .buf = buf, .cap = cap };
	put(&g, "#include \"dominator.h\"\n\nPLAYER_NAME(G%llu);\n\nstatic int t[%u];\n",
	    (unsigned long long)(seed % 1000000), 10 + gen_rand(&g, 1000));
	for (int f = 4 + (int)gen_rand(&g, 6); f > 0; f--)
		gen_function(&g, f);
	put(&g, "\nvoid play(void)\n");
	gen_block(&g, 12);
	return g.len;
}

/* ---- measuring */

struct corpus {
	struct plag_fps *fps;
	size_t n;
};

struct sources {
	char **text;
	size_t *len;
};

/* The generated players, made before the clock starts. */
static int generate_all(struct sources *src)
{
	static char buf[64 * 1024];
	src->text = calloc(NDOCS, sizeof *src->text);
	src->len = calloc(NDOCS, sizeof *src->len);
	for (size_t i = 0; src->text && src->len && i < (size_t)NDOCS; i++) {
		src->len[i] = gen_player(buf, sizeof buf, i + 1);
		if (!(src->text[i] = malloc(src->len[i])))
			return -1;
		memcpy(src->text[i], buf, src->len[i]);
	}
	return src->text && src->len ? 0 : -1;
}

static int fingerprint(const struct cfg_plag *cfg, const struct plag_hashset *base,
		       const char *src, size_t len, struct plag_fps *out)
{
	err_t err;
	if (plag_fingerprint(cfg, base, src, len, out, err)) {
		fprintf(stderr, "bench: generated player: %s\n", err->msg);
		return -1;
	}
	return 0;
}

static int fingerprint_new(const struct cfg_plag *cfg, const struct plag_hashset *base,
			   uint64_t seed, struct plag_fps *out)
{
	static char buf[64 * 1024];
	size_t len = gen_player(buf, sizeof buf, seed);
	return fingerprint(cfg, base, buf, len, out);
}

/* One batch: fingerprinted, then stored and indexed in one transaction
 * with its index rows in key order (plag_store_insert_batch).  The worker
 * adds files one at a time, each compared as it comes: the "indexed, each
 * added and compared in turn" line times that path. */
static int store_batch(struct store *s, const struct judge_config *cfg,
		       const struct plag_hashset *base, const struct sources *src, size_t from,
		       struct corpus *subset)
{
	static struct plag_fps f[BATCH_MAX];
	static const struct plag_fps *fp[BATCH_MAX];
	static struct plag_doc doc[BATCH_MAX];
	static char author[BATCH_MAX][32];
	static int64_t ids[BATCH_MAX];
	err_t err;
	err_t serr;
	for (size_t j = 0; j < BATCH; j++) {
		if (fingerprint(&cfg->plag, base, src->text[from + j], src->len[from + j], &f[j]) < 0)
			return -1;
		snprintf(author[j], sizeof author[j], "author%zu", from + j);
		doc[j] = (struct plag_doc){ .game = "dominator", .author = author[j],
					    .name = author[j], .label = "generated" };
		fp[j] = &f[j];
	}
	if (store_begin(s, serr) < 0 || plag_store_insert_batch(s, doc, fp, BATCH, ids,
								 err) < 0 ||
	    store_commit(s, serr) < 0)
		return fprintf(stderr, "bench: %s %s\n", err->msg, serr->msg), -1;
	for (size_t j = 0; j < BATCH; j++) {
		if (from + j < (size_t)NSUBSET)
			subset->fps[subset->n++] = f[j];
		else
			plag_fps_free(&f[j]);
	}
	return 0;
}

static int build_store(struct store *s, const struct judge_config *cfg,
		       const struct plag_hashset *base, const struct sources *src,
		       struct corpus *subset, double *secs, double *cpu)
{
	uint64_t t0 = bench_now_ns();
	clock_t c0 = clock();
	for (size_t i = 0; i < (size_t)NDOCS; i += BATCH)
		if (store_batch(s, cfg, base, src, i, subset) < 0)
			return -1;
	*secs = (bench_now_ns() - t0) / 1e9;
	*cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
	return 0;
}

/* Median time to compare one new player with all stored ones. */
static int time_indexed(struct store *s, const struct judge_config *cfg,
			const struct plag_hashset *base, double *ms, struct plag_matches *last)
{
	uint64_t t[NPROBES];
	err_t err;
	for (int p = 0; p < NPROBES; p++) {
		struct plag_fps f;
		if (fingerprint_new(&cfg->plag, base, 1000000 + (uint64_t)p, &f) < 0)
			return -1;
		struct plag_matches m;
		uint64_t t0 = bench_now_ns();
		int rc = plag_store_compare(s, &cfg->plag, "dominator", "newcomer", 0, &f,
					    &m, err);
		t[p] = bench_now_ns() - t0;
		free(m.v);
		*last = m;
		last->v = NULL;
		last->n = 0;
		plag_fps_free(&f);
		if (rc < 0)
			return fprintf(stderr, "bench: %s\n", err->msg), -1;
	}
	*ms = bench_median(t, NPROBES) / 1e6;
	return 0;
}

/* The naive way on the subset: one new player against each in turn, and
 * every pair of the subset. */
static int time_naive(const struct judge_config *cfg, const struct plag_hashset *base,
		      const struct corpus *c, double *one_ms, double *all_s)
{
	struct plag_fps f;
	struct plag_pair pair;
	err_t err;
	if (fingerprint_new(&cfg->plag, base, 2000000, &f) < 0)
		return -1;
	uint64_t t0 = bench_now_ns();
	for (size_t i = 0; i < c->n; i++)
		if (plag_compare(&f, &c->fps[i], NULL, cfg->plag.min_run, &pair, err))
			return -1;
	*one_ms = (bench_now_ns() - t0) / 1e6;
	plag_fps_free(&f);
	/* All 499,500 pairs would take minutes: time every pair of the first
	 * NAIVE_ROWS players with all the others and scale by the pair count. */
	t0 = bench_now_ns();
	size_t pairs = 0;
	for (size_t i = 0; i < (size_t)NAIVE_ROWS; i++)
		for (size_t j = i + 1; j < c->n; j++, pairs++)
			if (plag_compare(&c->fps[i], &c->fps[j], NULL, cfg->plag.min_run, &pair, err))
				return -1;
	double all_pairs = c->n * (c->n - 1) / 2.0;
	*all_s = (bench_now_ns() - t0) / 1e9 * all_pairs / pairs;
	return 0;
}

/* Every player of the subset compared with the other 999 through the
 * index (the subset alone in a store of its own). */
static int time_indexed_subset(const struct judge_config *cfg, const struct corpus *c,
			       const char *path, double *secs)
{
	char author[32];
	err_t serr;
	err_t err;
	unlink(path);
	struct store *s = store_open(path, true, serr);
	if (!s || store_set_sync(s, STORE_SYNC_NORMAL, serr) < 0 || store_begin(s, serr) < 0)
		return fprintf(stderr, "bench: %s\n", serr->msg), -1;
	uint64_t t0 = bench_now_ns();
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < c->n; i++) {
		snprintf(author, sizeof author, "author%zu", i);
		struct plag_doc doc = { .game = "dominator", .author = author, .name = author };
		int64_t id;
		rc = plag_store_add(s, &cfg->plag, &doc, &c->fps[i], NULL, &id, NULL, err);
	}
	*secs = (bench_now_ns() - t0) / 1e9;
	if (rc < 0)
		fprintf(stderr, "bench: %s\n", err->msg);
	store_commit(s, serr);
	store_close(s);
	unlink(path);
	return rc;
}

int main(void)
{
	struct judge_config cfg;
	char dir[] = "/tmp/judge-plag-bench-XXXXXX";
	err_t err;
	err_t serr;
	char path[64], subset_path[64];
	cfg_defaults(&cfg);
	struct plag_hashset base;
	if (!mkdtemp(dir) || plag_base_load(cfg.data_dir, "dominator", cfg.plag.k, &base, err)) {
		fprintf(stderr, "bench: %s\n", err->msg);
		return 1;
	}
	snprintf(path, sizeof path, "%s/all.sqlite", dir);
	snprintf(subset_path, sizeof subset_path, "%s/subset.sqlite", dir);
	struct store *s = store_open(path, true, serr);
	struct corpus subset = { .fps = calloc(NSUBSET, sizeof *subset.fps) };
	struct sources src = { 0 };
	double index_s, index_cpu, cmp_ms, naive_one_ms, naive_all_s, subset_s;
	struct plag_matches probe = { 0 };
	int rc = !s || store_set_sync(s, STORE_SYNC_NORMAL, serr) < 0 ? -1 : 0;
	if (rc == 0)
		rc = generate_all(&src);
	if (rc == 0)
		rc = build_store(s, &cfg, &base, &src, &subset, &index_s, &index_cpu);
	if (rc == 0)
		rc = time_indexed(s, &cfg, &base, &cmp_ms, &probe);
	if (rc == 0)
		rc = time_naive(&cfg, &base, &subset, &naive_one_ms, &naive_all_s);
	if (rc == 0)
		rc = time_indexed_subset(&cfg, &subset, subset_path, &subset_s);
	if (rc == 0) {
		printf("plagiarism: fingerprint + index %d generated players: %.2f s (goal < %.0f s; "
		       "CPU %.2f s)\n", NDOCS, index_s, GOAL_INDEX_S, index_cpu);
		printf("plagiarism: one new player vs all %d, through the index: %.1f ms "
		       "(goal < %.0f ms)\n"
		       "plagiarism:   its %zu fingerprints: %zu idioms, %zu index rows read (%.2f per "
		       "look-up; listed idioms are skipped unread, %zu stop-list entries read), %zu files "
		       "sharing one, %zu compared in full\n", NDOCS, cmp_ms, GOAL_COMPARE_MS,
		       probe.looked_up, probe.idioms, probe.rows_read,
		       probe.looked_up ? (double)probe.rows_read / probe.looked_up : 0,
		       probe.counts_read, probe.candidates, probe.compared);
		printf("plagiarism: one new player vs %d, naive loop: %.1f ms; through the index it "
		       "meets 10x as many in %.2fx the time\n", NSUBSET, naive_one_ms,
		       cmp_ms / naive_one_ms);
		printf("plagiarism: all pairs of %d players: naive %.1f s (scaled from %d rows), indexed (each added and "
		       "compared in turn) %.2f s: ratio %.1f\n", NSUBSET, naive_all_s, NAIVE_ROWS, subset_s,
		       naive_all_s / subset_s);
	} else if (!s) {
		fprintf(stderr, "bench: %s\n", serr->msg);
	}
	for (size_t i = 0; i < subset.n; i++)
		plag_fps_free(&subset.fps[i]);
	for (size_t i = 0; src.text && i < (size_t)NDOCS; i++)
		free(src.text[i]);
	free(src.text);
	free(src.len);
	free(subset.fps);
	plag_hashset_free(&base);
	store_close(s);
	unlink(path);
	rmdir(dir);
	return rc < 0;
}
