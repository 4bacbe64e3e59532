/* plag_recall.c - does the detector catch disguised copies, and only them?
 * The independent players in bench/plag/players/ (and the shipped Dummy)
 * are stored as a tournament's submissions, each by its own author; every
 * disguised copy that bench/plag/make_copies.sh made of them (levels 1-8,
 * build/plag/copies/LEVEL/ORIGINAL-SEED.c, or $PLAG_COPIES) is then compared
 * with them as a new submission by another author.  A copy is caught when
 * its pair with its original is flagged (similar enough, or sharing a long
 * fragment: level 8 copies one function into another player).  Printed:
 * recall per level at the configured defaults, false positives among the
 * independent players, the separation (the least similar copy caught by
 * similarity against the most similar independent pair; the shortest
 * fragment that caught a partial copy against the longest fragment two
 * independent players share), and the same for other k and w and other
 * fragment thresholds, which is what the defaults are chosen by.
 * Goals: recall >= 95% at every level, no false positive, a separation of
 * at least 20 points. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_store.h"
#include "judge/compile/source.h"
#include "judge/store/store.h"

#define PLAYERS_DIR "bench/plag/players"
#define DUMMY "games/dominator/players/AIDummy.c"
#define COPIES_DIR "build/plag/copies"
#define LEVELS 8
#define PARTIAL 8 /* the level of partial copies */
#define GOAL_RECALL 95
#define GOAL_SEPARATION 20
#define MAX_FILES 512

struct file {
	char name[64]; /* "AIAlder" */
	char *src;
	size_t len;
	int level;     /* copies: 1..LEVELS; originals: 0 */
	int original;  /* copies: index of their original */
};

struct corpus {
	struct file orig[MAX_FILES], copy[MAX_FILES * 8];
	size_t norig, ncopy;
};

/* One compared pair: its similarity and longest fragment (tokens). */
struct measured {
	double sim;
	unsigned frag;
	int level; /* copies: their level; independent pairs: 0 */
};

struct result {
	int copies[LEVELS + 1], caught[LEVELS + 1];
	double sim_min[LEVELS + 1];
	int pairs, false_pos;
	double indep_max;
	unsigned indep_frag_max;
	struct measured copy[MAX_FILES * 8], indep[MAX_FILES * MAX_FILES / 2];
	size_t ncopy, nindep;
};

static int load(const char *path, const char *name, int level, struct file *f)
{
	err_t err;
	*f = (struct file){ .level = level };
	snprintf(f->name, sizeof f->name, "%s", name);
	if (src_read(path, PLAG_MAX_BYTES_DEFAULT, &f->src, &f->len, err) < 0) {
		fprintf(stderr, "bench: %s\n", err->msg);
		return -1;
	}
	return 0;
}

static int load_originals(struct corpus *c)
{
	DIR *d = opendir(PLAYERS_DIR);
	struct dirent *e;
	char path[512], name[64];
	while (d && (e = readdir(d)) && c->norig < MAX_FILES - 1) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", PLAYERS_DIR, e->d_name);
		snprintf(name, sizeof name, "%.*s", (int)(n - 2), e->d_name);
		if (load(path, name, 0, &c->orig[c->norig++]) < 0)
			return -1;
	}
	if (d)
		closedir(d);
	return load(DUMMY, "AIDummy", 0, &c->orig[c->norig++]);
}

static int find_original(const struct corpus *c, const char *copy_name)
{
	const char *dash = strrchr(copy_name, '-');
	size_t n = dash ? (size_t)(dash - copy_name) : strlen(copy_name);
	for (size_t i = 0; i < c->norig; i++)
		if (strlen(c->orig[i].name) == n && strncmp(c->orig[i].name, copy_name, n) == 0)
			return (int)i;
	return -1;
}

/* Copies of the shipped Demo are base code by definition: not counted. */
static int load_copies(struct corpus *c, const char *copies)
{
	char dir[256], path[512];
	for (int level = 1; level <= LEVELS; level++) {
		snprintf(dir, sizeof dir, "%s/%d", copies, level);
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)) && c->ncopy < sizeof c->copy / sizeof *c->copy) {
			size_t n = strlen(e->d_name);
			int o = n > 2 && strcmp(e->d_name + n - 2, ".c") == 0
				? find_original(c, e->d_name) : -1;
			if (o < 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			struct file *f = &c->copy[c->ncopy++];
			if (load(path, e->d_name, level, f) < 0)
				return -1;
			f->original = o;
		}
		if (d)
			closedir(d);
	}
	return 0;
}

/* ---- one setting of k and w */

static int fingerprint(const struct cfg_plag *cfg, const struct plag_hashset *base,
		       const struct file *f, struct plag_fps *out)
{
	err_t err;
	if (plag_fingerprint(cfg, base, f->src, f->len, out, err)) {
		fprintf(stderr, "bench: %s: %s\n", f->name, err->msg);
		return -1;
	}
	return 0;
}

/* The originals as one tournament's submissions: every pair among them is
 * compared as each arrives; a flagged one is a false positive. */
static int store_originals(struct store *s, const struct cfg_plag *cfg,
			   const struct plag_hashset *base, const struct corpus *c,
			   int64_t *ids, struct result *r)
{
	err_t err;
	for (size_t i = 0; i < c->norig; i++) {
		struct plag_fps f;
		struct plag_matches m;
		if (fingerprint(cfg, base, &c->orig[i], &f) < 0)
			return -1;
		struct plag_doc doc = { .game = "dominator", .author = c->orig[i].name,
					.name = c->orig[i].name, .submission = 0, .label = "bench" };
		int rc = plag_store_add(s, cfg, &doc, &f, NULL, &ids[i], &m, err);
		plag_fps_free(&f);
		if (rc < 0)
			return fprintf(stderr, "bench: %s\n", err->msg), -1;
		r->pairs += (int)i;
		for (size_t j = 0; j < m.n; j++) {
			unsigned frag = plag_longest_tokens(&m.v[j].pair);
			r->false_pos += m.v[j].flagged;
			if (m.v[j].similarity > r->indep_max)
				r->indep_max = m.v[j].similarity;
			if (frag > r->indep_frag_max)
				r->indep_frag_max = frag;
			r->indep[r->nindep++] = (struct measured){ m.v[j].similarity, frag, 0 };
		}
		plag_matches_free(&m);
	}
	return 0;
}

static int check_copies(struct store *s, const struct cfg_plag *cfg,
			const struct plag_hashset *base, const struct corpus *c,
			const int64_t *ids, struct result *r)
{
	err_t err;
	for (int l = 0; l <= LEVELS; l++)
		r->sim_min[l] = 1;
	for (size_t i = 0; i < c->ncopy; i++) {
		const struct file *f = &c->copy[i];
		struct plag_fps fps;
		struct plag_matches m;
		if (fingerprint(cfg, base, f, &fps) < 0)
			return -1;
		int rc = plag_store_compare(s, cfg, "dominator", "copier", 0, &fps, &m, err);
		plag_fps_free(&fps);
		if (rc < 0)
			return fprintf(stderr, "bench: %s\n", err->msg), -1;
		double sim = 0;
		unsigned frag = 0;
		bool caught = false;
		for (size_t j = 0; j < m.n; j++)
			if (m.v[j].doc == ids[f->original]) {
				sim = m.v[j].similarity;
				frag = plag_longest_tokens(&m.v[j].pair);
				caught = m.v[j].flagged;
			}
		r->copy[r->ncopy++] = (struct measured){ sim, frag, f->level };
		r->copies[f->level]++;
		r->caught[f->level] += caught;
		if (sim < r->sim_min[f->level])
			r->sim_min[f->level] = sim;
		plag_matches_free(&m);
	}
	return 0;
}

/* Every pair over 1% is returned (the floor only decides what is kept;
 * flagging is the same), so the figures see every pair. */
static int run(const char *data_dir, const struct cfg_plag *settings, const struct corpus *c,
	       struct result *r)
{
	struct cfg_plag seen = *settings, *cfg = &seen;
	seen.floor_pct = 1;
	char path[] = "/tmp/judge-plag-recall-XXXXXX";
	err_t err;
	err_t perr;
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(path);
	memset(r, 0, sizeof *r);
	struct plag_hashset base;
	int64_t ids[MAX_FILES];
	struct store *s = store_open(path, true, err);
	int rc = s && !plag_base_load(data_dir, "dominator", cfg->k, &base, perr) ? 0 : -1;
	if (rc < 0)
		fprintf(stderr, "bench: %s\n", s ? perr->msg : err->msg);
	if (rc == 0) {
		rc = store_begin(s, err);
		if (rc == 0)
			rc = store_originals(s, cfg, &base, c, ids, r);
		if (rc == 0)
			rc = check_copies(s, cfg, &base, c, ids, r);
		store_rollback(s);
		plag_hashset_free(&base);
	}
	store_close(s);
	unlink(path);
	char wal[64];
	snprintf(wal, sizeof wal, "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", path);
	unlink(wal);
	return rc;
}

static double pct(int a, int b)
{
	return b ? 100.0 * a / b : 0;
}

/* The least similar copy caught by similarity (whole-file levels). */
static double lowest_caught(const struct result *r, unsigned flag_pct)
{
	double low = 1;
	for (size_t i = 0; i < r->ncopy; i++)
		if (r->copy[i].level != PARTIAL && r->copy[i].sim * 100 >= flag_pct &&
		    r->copy[i].sim < low)
			low = r->copy[i].sim;
	return low;
}

static unsigned shortest_caught_fragment(const struct result *r, unsigned n)
{
	unsigned low = UINT32_MAX;
	for (size_t i = 0; i < r->ncopy; i++)
		if (r->copy[i].level == PARTIAL && r->copy[i].frag >= n && r->copy[i].frag < low)
			low = r->copy[i].frag;
	return low == UINT32_MAX ? 0 : low;
}

static const char *const level_names[LEVELS + 1] = {
	"", "layout", "renamed", "reordered", "dead code", "other forms", "split/merged",
	"equivalent forms", "partial copy",
};

static void print_default(const struct cfg_plag *cfg, const struct corpus *c,
			  const struct result *r)
{
	printf("plagiarism recall: %zu independent players, %zu disguised copies; k %u, w %u, "
	       "runs of %u, flag at %u%% or a fragment of %u tokens\n", c->norig, c->ncopy, cfg->k,
	       cfg->w, cfg->min_run, cfg->flag_pct, cfg->fragment_tokens);
	for (int l = 1; l <= LEVELS; l++)
		printf("  level %d %-17s %3d of %3d caught = %5.1f%% (goal >= %d%%), least similar "
		       "copy %.0f%%\n", l, level_names[l], r->caught[l], r->copies[l],
		       pct(r->caught[l], r->copies[l]), GOAL_RECALL, r->sim_min[l] * 100);
	printf("  false positives: %d of %d pairs of independent players (goal 0); the most "
	       "similar pair %.0f%%, the longest fragment two of them share %u tokens\n",
	       r->false_pos, r->pairs, r->indep_max * 100, r->indep_frag_max);
	double low = lowest_caught(r, cfg->flag_pct);
	printf("  separation: the least similar copy caught by similarity (levels 1-%d) %.0f%% "
	       "against the most similar independent pair %.0f%%: %.0f points (goal >= %d)\n",
	       PARTIAL - 1, low * 100, r->indep_max * 100, (low - r->indep_max) * 100,
	       GOAL_SEPARATION);
	printf("  fragments: the shortest that caught a partial copy %u tokens against the "
	       "longest two independent players share %u tokens\n",
	       shortest_caught_fragment(r, cfg->fragment_tokens), r->indep_frag_max);
}

/* Caught per level, and false positives, for a flag threshold and a
 * fragment threshold, from the measured pairs. */
static int offline(const struct result *r, unsigned flag_pct, unsigned n, int caught[LEVELS + 1],
		   int copies[LEVELS + 1])
{
	for (int l = 0; l <= LEVELS; l++)
		caught[l] = copies[l] = 0;
	for (size_t i = 0; i < r->ncopy; i++) {
		copies[r->copy[i].level]++;
		caught[r->copy[i].level] += r->copy[i].sim * 100 >= flag_pct || r->copy[i].frag >= n;
	}
	int fp = 0;
	for (size_t i = 0; i < r->nindep; i++)
		fp += r->indep[i].sim * 100 >= flag_pct || r->indep[i].frag >= n;
	return fp;
}

static void print_levels(const int *caught, const int *copies)
{
	for (int l = 1; l <= LEVELS; l++)
		printf(" %5.1f", pct(caught[l], copies[l]));
}

/* Other flag and fragment thresholds need no new run: the measured pairs
 * say which would be flagged. */
static void sweep_thresholds(const struct cfg_plag *cfg, const struct result *r)
{
	static const unsigned flags[] = { 40, 45, 50, 55, 60, 65 };
	static const unsigned ns[] = { 60, 80, 100, 120, 150, 200, 250, 300 };
	int caught[LEVELS + 1], copies[LEVELS + 1];
	printf("  flag thresholds at the defaults (recall %% per level 1-%d | false positives | "
	       "separation):\n", LEVELS);
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		int fp = offline(r, flags[i], cfg->fragment_tokens, caught, copies);
		printf("    flag %2u%%:", flags[i]);
		print_levels(caught, copies);
		printf(" | %d | %.0f%s\n", fp, (lowest_caught(r, flags[i]) - r->indep_max) * 100,
		       flags[i] == cfg->flag_pct ? "   <- default" : "");
	}
	printf("  fragment thresholds at the defaults (recall %% per level 1-%d | false "
	       "positives):\n", LEVELS);
	for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
		int fp = offline(r, cfg->flag_pct, ns[i], caught, copies);
		printf("    %3u tokens:", ns[i]);
		print_levels(caught, copies);
		printf(" | %d%s\n", fp, ns[i] == cfg->fragment_tokens ? "   <- default" : "");
	}
}

static int sweep_one(const struct judge_config *cfg, const struct corpus *c,
		     const struct cfg_plag *p, bool is_default)
{
	static struct result r;
	if (run(cfg->data_dir, p, c, &r) < 0)
		return -1;
	printf("    k %2u w %2u run %u:", p->k, p->w, p->min_run);
	for (int l = 1; l <= LEVELS; l++)
		printf(" %5.1f", pct(r.caught[l], r.copies[l]));
	printf(" | %d | %.0f%% | %.0f | %u%s\n", r.false_pos, r.indep_max * 100,
	       (lowest_caught(&r, p->flag_pct) - r.indep_max) * 100, r.indep_frag_max,
	       is_default ? "   <- default" : "");
	return 0;
}

static int sweep(const struct judge_config *cfg, const struct corpus *c)
{
	static const unsigned ks[] = { 10, 12, 14, 16, 20 }, ws[] = { 4, 6, 8, 16 }, runs[] = { 1, 3 };
	printf("  other settings (recall %% per level 1-%d | false positives | most similar "
	       "independent pair | separation | longest independent fragment):\n", LEVELS);
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
		for (size_t j = 0; j < sizeof ws / sizeof *ws; j++) {
			struct cfg_plag p = cfg->plag;
			p.k = ks[i];
			p.w = ws[j];
			if (sweep_one(cfg, c, &p, p.k == cfg->plag.k && p.w == cfg->plag.w) < 0)
				return -1;
		}
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		struct cfg_plag p = cfg->plag;
		p.min_run = runs[i];
		if (p.min_run != cfg->plag.min_run && sweep_one(cfg, c, &p, false) < 0)
			return -1;
	}
	return 0;
}

/* The own-code minimum: how much code of its own a file needs before its
 * share of another can flag (plagiarism.own_min_tokens).  The default is
 * the largest that leaves recall and false positives as without one. */
static int sweep_own(const struct judge_config *cfg, const struct corpus *c)
{
	static const unsigned mins[] = { 0, 100, 200, 400, 800, 1200, 1400, 1600 };
	static struct result r;
	printf("  own-code minimum (recall %% per level 1-%d | false positives):\n", LEVELS);
	for (size_t i = 0; i < sizeof mins / sizeof *mins; i++) {
		struct cfg_plag p = cfg->plag;
		p.own_min_tokens = mins[i];
		if (run(cfg->data_dir, &p, c, &r) < 0)
			return -1;
		printf("    %4u tokens:", mins[i]);
		for (int l = 1; l <= LEVELS; l++)
			printf(" %5.1f", pct(r.caught[l], r.copies[l]));
		printf(" | %d%s\n", r.false_pos, mins[i] == cfg->plag.own_min_tokens
		       ? "   <- default" : "");
	}
	return 0;
}

int main(void)
{
	static struct corpus c;
	struct judge_config cfg;
	cfg_defaults(&cfg);
	const char *copies = getenv("PLAG_COPIES") ? getenv("PLAG_COPIES") : COPIES_DIR;
	if (load_originals(&c) < 0 || load_copies(&c, copies) < 0)
		return 1;
	if (c.ncopy == 0) {
		fprintf(stderr, "bench: no copies in %s: run bench/plag/make_copies.sh\n", copies);
		return 1;
	}
	static struct result r;
	if (run(cfg.data_dir, &cfg.plag, &c, &r) < 0)
		return 1;
	print_default(&cfg.plag, &c, &r);
	sweep_thresholds(&cfg.plag, &r);
	/* Quick: the defaults' run alone (the sweeps are many more of it). */
	if (bench_quick())
		return 0;
	if (sweep_own(&cfg, &c) < 0)
		return 1;
	return sweep(&cfg, &c) < 0;
}
