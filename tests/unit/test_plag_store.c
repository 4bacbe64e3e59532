/* test_plag_store.c - plagiarism documents in the store (judge/plag/plag_doc.c,
 * judge/plag/plag_store.c): the fingerprint blob, base exclusion with the game's
 * shipped code, storing and comparing documents through the index, the
 * author, game and idiom rules.  Every test works on a real SQLite file made
 * by store_open in its own mkdtemp folder, removed afterwards; the suites
 * that store documents have a twin NAME_pg running the same bodies on a new
 * database of the run's PostgreSQL server (tests/unit/pg_testlib.h). */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_event.h"
#include "judge/plag/plag_sim.h"
#include "judge/plag/plag_store.h"
#include "judge/store/store.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/gen_testlib.h"
#include "tests/unit/pg_testlib.h"

/* ---- fixture: one store per test ----------------------------------------- */

static char tmpdir[64], dbpath[128];
static struct store *store;
static struct cfg_plag cfg;
static struct plag_hashset base;

/* The store at target (a new SQLite file in tmpdir when NULL). */
static void open_fixture(const char *target)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test-plag-store-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	snprintf(dbpath, sizeof dbpath, "%s/judge.sqlite", tmpdir);
	err_t err = {0};
	store = store_open(target ? target : dbpath, true, err);
	cr_assert_not_null(store, "store_open: %s", err->msg);
	struct judge_config jc;
	cfg_defaults(&jc);
	cfg = jc.plag;
	err_t perr = {0};
	cr_assert_eq(plag_base_load(".", "dominator", cfg.k, &base, perr), PLAG_OK, "base: %s", perr->msg);
}

static void setup(void)
{
	open_fixture(NULL);
}

static void setup_pg(void)
{
	char url[512];
	err_t err = {0};
	cr_assert_eq(pg_test_database(url, sizeof url, err), 0, "%s", err->msg);
	open_fixture(url);
}

static void teardown(void)
{
	plag_hashset_free(&base);
	store_close(store);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

TestSuite(plag_store_fps, .init = setup, .fini = teardown);
TestSuite(plag_store_base, .init = setup, .fini = teardown);
TestSuite(plag_store_add, .init = setup, .fini = teardown);
TestSuite(plag_store_index, .init = setup, .fini = teardown, .timeout = 60);
TestSuite(plag_store_idiom, .init = setup, .fini = teardown, .timeout = 60);
TestSuite(plag_store_add_pg, .init = setup_pg, .fini = teardown, .timeout = 60);
TestSuite(plag_store_index_pg, .init = setup_pg, .fini = teardown, .timeout = 120);
TestSuite(plag_store_idiom_pg, .init = setup_pg, .fini = teardown, .timeout = 120);

/* ---- sources --------------------------------------------------------------- */

/* A Dominator player of our own: farmers head for the farthest reachable
 * cell that is not ours, knights keep near the farmers. */
static const char SCOUT[] =
	"#include \"dominator.h\"\n"
	"\n"
	"PLAYER_NAME(Scout);\n"
	"\n"
	"static int heading[512];\n"
	"\n"
	"static int unclaimed_run(Pos from, Dir d)\n"
	"{\n"
	"\tint run = 0;\n"
	"\tPos p = pos_move(from, d);\n"
	"\twhile (pos_ok(p) && cell(p).type == Empty && run < 6) {\n"
	"\t\tif (cell(p).owner != me())\n"
	"\t\t\trun += 2;\n"
	"\t\telse\n"
	"\t\t\trun += 1;\n"
	"\t\tp = pos_move(p, d);\n"
	"\t}\n"
	"\treturn run;\n"
	"}\n"
	"\n"
	"static void scout(int id)\n"
	"{\n"
	"\tPos at = unit(id).pos;\n"
	"\tint best = -1, choice = heading[id % 512];\n"
	"\tfor (int d = 0; d < 8; d += 2) {\n"
	"\t\tPos q = pos_move(at, (Dir)d);\n"
	"\t\tif (!pos_ok(q) || cell(q).id != -1 || cell(q).haunted)\n"
	"\t\t\tcontinue;\n"
	"\t\tint run = unclaimed_run(at, (Dir)d) + (d == heading[id % 512]);\n"
	"\t\tif (run > best) {\n"
	"\t\t\tbest = run;\n"
	"\t\t\tchoice = d;\n"
	"\t\t}\n"
	"\t}\n"
	"\theading[id % 512] = choice;\n"
	"\tcommand(id, best < 0 ? None : (Dir)choice);\n"
	"}\n"
	"\n"
	"static void escort(int id, Pos towards)\n"
	"{\n"
	"\tPos at = unit(id).pos;\n"
	"\tint di = towards.i > at.i ? 1 : towards.i < at.i ? -1 : 0;\n"
	"\tint dj = towards.j > at.j ? 1 : towards.j < at.j ? -1 : 0;\n"
	"\tDir d = di > 0 ? (dj > 0 ? BR : dj < 0 ? LB : Bottom)\n"
	"\t      : di < 0 ? (dj > 0 ? RT : dj < 0 ? TL : Top) : (dj > 0 ? Right : Left);\n"
	"\tcommand(id, di == 0 && dj == 0 ? None : d);\n"
	"}\n"
	"\n"
	"void play(void)\n"
	"{\n"
	"\tIds f = farmers(me()), k = knights(me());\n"
	"\tfor (int i = 0; i < f.n; ++i)\n"
	"\t\tscout(f.id[i]);\n"
	"\tfor (int i = 0; i < k.n; ++i)\n"
	"\t\tescort(k.id[i], f.n ? unit(f.id[i % f.n]).pos : pos(0, 0));\n"
	"}\n";

/* SCOUT renamed and reformatted, its comments its own. */
static const char SCOUT_COPY[] =
	"#include \"dominator.h\"\n"
	"/* Pathfinder - my own work */\n"
	"PLAYER_NAME(Pathfinder);\n"
	"static int dirs[512];\n"
	"static int free_length(Pos start, Dir way) {\n"
	"    int len = 0; Pos c = pos_move(start, way);\n"
	"    while (pos_ok(c) && cell(c).type == Empty && len < 9) {\n"
	"        if (cell(c).owner != me()) len += 3; else len += 1;\n"
	"        c = pos_move(c, way);\n"
	"    }\n"
	"    return len;\n"
	"}\n"
	"static void explore(int u) {\n"
	"    Pos here = unit(u).pos;\n"
	"    int top = -1, pick = dirs[u % 512];\n"
	"    for (int w = 0; w < 8; w += 2) {\n"
	"        Pos nb = pos_move(here, (Dir)w);\n"
	"        if (!pos_ok(nb) || cell(nb).id != -1 || cell(nb).haunted) continue;\n"
	"        int len = free_length(here, (Dir)w) + (w == dirs[u % 512]);\n"
	"        if (len > top) { top = len; pick = w; }\n"
	"    }\n"
	"    dirs[u % 512] = pick;\n"
	"    command(u, top < 0 ? None : (Dir)pick);\n"
	"}\n"
	"static void follow(int u, Pos goal) {\n"
	"    Pos here = unit(u).pos;\n"
	"    int a = goal.i > here.i ? 1 : goal.i < here.i ? -1 : 0;\n"
	"    int b = goal.j > here.j ? 1 : goal.j < here.j ? -1 : 0;\n"
	"    Dir w = a > 0 ? (b > 0 ? BR : b < 0 ? LB : Bottom) : a < 0 ? (b > 0 ? RT : b < 0 ? TL : Top)"
	" : (b > 0 ? Right : Left);\n"
	"    command(u, a == 0 && b == 0 ? None : w);\n"
	"}\n"
	"void play(void) {\n"
	"    Ids fs = farmers(me()), ks = knights(me());\n"
	"    for (int n = 0; n < fs.n; ++n) explore(fs.id[n]);\n"
	"    for (int n = 0; n < ks.n; ++n) follow(ks.id[n], fs.n ? unit(fs.id[n % fs.n]).pos : pos(0, 0));\n"
	"}\n";

/* An independent player: counts threats, moves by a fixed table. */
static const char MINER[] =
	"#include <string.h>\n"
	"#include \"dominator.h\"\n"
	"PLAYER_NAME(Miner);\n"
	"\n"
	"struct plan { int unit; Dir way; };\n"
	"static struct plan plans[256];\n"
	"static const Dir order[4][4] = {\n"
	"\t{ Right, Bottom, Left, Top }, { Bottom, Left, Top, Right },\n"
	"\t{ Left, Top, Right, Bottom }, { Top, Right, Bottom, Left },\n"
	"};\n"
	"\n"
	"static int threats(Pos p)\n"
	"{\n"
	"\tint n = 0;\n"
	"\tfor (int di = -2; di <= 2; di++)\n"
	"\t\tfor (int dj = -2; dj <= 2; dj++) {\n"
	"\t\t\tPos q = pos(p.i + di, p.j + dj);\n"
	"\t\t\tif (!pos_ok(q) || cell(q).id == -1)\n"
	"\t\t\t\tcontinue;\n"
	"\t\t\tUnit u = unit(cell(q).id);\n"
	"\t\t\tn += u.player != 0 && u.type != Farmer;\n"
	"\t\t}\n"
	"\treturn n;\n"
	"}\n"
	"\n"
	"void play(void)\n"
	"{\n"
	"\tint nplans = 0, round = current_round();\n"
	"\tmemset(plans, 0, sizeof plans);\n"
	"\tIds all = farmers(0);\n"
	"\tdo {\n"
	"\t\tif (nplans >= all.n || nplans >= 256)\n"
	"\t\t\tbreak;\n"
	"\t\tint id = all.id[nplans];\n"
	"\t\tconst Dir *row = order[(id + round / 25) & 3];\n"
	"\t\tDir go = None;\n"
	"\t\tfor (unsigned t = 0; t < 4 && go == None; t++) {\n"
	"\t\t\tPos q = pos_move(unit(id).pos, row[t]);\n"
	"\t\t\tif (pos_ok(q) && cell(q).type != Wall && !threats(q))\n"
	"\t\t\t\tgo = row[t];\n"
	"\t\t}\n"
	"\t\tplans[nplans++] = (struct plan){ id, go };\n"
	"\t} while (1);\n"
	"\tfor (int i = nplans - 1; i >= 0; --i)\n"
	"\t\tcommand(plans[i].unit, plans[i].way);\n"
	"\tIds guard = knights(0);\n"
	"\tfor (int i = 0; i < guard.n; i++)\n"
	"\t\tcommand(guard.id[i], (Dir)(2 * ((i + round) % 4)));\n"
	"}\n";

/* ---- generated code ---------------------------------------------------------- */

static const char *pick(uint64_t *state, const char *const *v, size_t n)
{
	return v[gen_rand(state) % n];
}

#define PICK(st, arr) pick(st, arr, sizeof arr / sizeof *arr)

/* nfuncs functions of random arithmetic, one seed one text: code that
 * shares next to no run of tokens with other seeds or with any player. */
static void random_code(struct gen_text *t, uint64_t seed, int nfuncs)
{
	static const char *const names[] = { "a", "b", "c", "x", "y", "acc", "tmp", "k" };
	static const char *const assign[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
					      "^=", "<<=", ">>=" };
	static const char *const binop[] = { "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
					     "&&", "||" };
	static const char *const cmp[] = { "<", ">", "<=", ">=", "==", "!=" };
	uint64_t st = seed * 7919 + 1;
	for (int f = 0; f < nfuncs; f++) {
		gen_printf(t, "static long gen_%llu_%d(long a, long b, long c)\n{\n\tlong x = a, y = b, "
			 "acc = c, tmp = 0, k = 1;\n", (unsigned long long)seed, f);
		for (int i = 0; i < 8; i++) {
			const char *n1 = PICK(&st, names), *n2 = PICK(&st, names),
				   *n3 = PICK(&st, names);
			switch (gen_rand(&st) % 5) {
			case 0:
				gen_printf(t, "\t%s %s %s %s %s %s %d;\n", n1, PICK(&st, assign), n2,
					 PICK(&st, binop), n3, PICK(&st, binop), (int)(gen_rand(&st) % 90));
				break;
			case 1:
				gen_printf(t, "\tif (%s %s %s)\n\t\t%s %s %s %s %d;\n", n1, PICK(&st, cmp), n2,
					 n3, PICK(&st, assign), n1, PICK(&st, binop),
					 (int)(gen_rand(&st) % 90));
				break;
			case 2:
				gen_printf(t, "\twhile (%s %s %d)\n\t\t%s %s %s %s %s;\n", n1, PICK(&st, cmp),
					 (int)(gen_rand(&st) % 90), n2, PICK(&st, assign), n3,
					 PICK(&st, binop), n1);
				break;
			case 3:
				gen_printf(t, "\t%s = %s ? %s %s %s : (%s %s %d);\n", n1, n2, n3,
					 PICK(&st, binop), n1, n2, PICK(&st, binop),
					 (int)(gen_rand(&st) % 90));
				break;
			default:
				gen_printf(t, "\t{ long %s_%d = %s %s %s; %s %s %s_%d; }\n", n1, i, n2,
					 PICK(&st, binop), n3, n3, PICK(&st, assign), n1, i);
			}
		}
		gen_printf(t, "\treturn acc %s x %s y;\n}\n\n", PICK(&st, binop), PICK(&st, binop));
	}
}

/* ---- helpers ----------------------------------------------------------------- */

static struct plag_fps fingerprint(const char *src, size_t len, const struct plag_hashset *b)
{
	struct plag_fps f;
	err_t err = {0};
	enum plag_err e = plag_fingerprint(&cfg, b, src, len, &f, err);
	cr_assert_eq(e, PLAG_OK, "plag_fingerprint: %s (%s)", err->msg, plag_strerror(e));
	return f;
}

static struct plag_fps fp_of(const char *src)
{
	return fingerprint(src, strlen(src), &base);
}

struct doc_spec {
	const char *game, *author, *name, *label;
	int64_t submission;
};

/* plag_store_add in its own transaction; the matches go to *m if given. */
static int64_t add_fps(struct doc_spec d, const struct plag_fps *fps, const char *fp_error,
		       const char *src, struct plag_matches *m)
{
	err_t err = {0};
	err_t perr = {0};
	struct plag_doc doc = { .game = d.game ? d.game : "dominator", .author = d.author,
				.name = d.name, .label = d.label, .submission = d.submission,
				.source = src, .source_len = src ? strlen(src) : 0 };
	int64_t id = -1;
	cr_assert_eq(store_begin(store, err), 0, "begin: %s", err->msg);
	int rc = plag_store_add(store, &cfg, &doc, fps, fp_error, &id, m, perr);
	cr_assert_eq(rc, 0, "plag_store_add(%s by %s): %s", d.name, d.author, perr->msg);
	cr_assert_eq(store_commit(store, err), 0, "commit: %s", err->msg);
	cr_assert_gt(id, 0);
	return id;
}

/* Fingerprints src and stores it. */
static int64_t add_src(struct doc_spec d, const char *src, struct plag_matches *m)
{
	struct plag_fps f = fp_of(src);
	int64_t id = add_fps(d, &f, NULL, src, m);
	plag_fps_free(&f);
	return id;
}

static int64_t submit(const char *author, const char *name, const char *src)
{
	err_t err = {0};
	struct store_new_submission sub = {
		.game = "dominator", .author = author, .name = name, .source = src,
		.source_len = strlen(src),
		.source_sha256 = "0000000000000000000000000000000000000000000000000000000000000000",
	};
	int64_t id = -1;
	cr_assert_eq(store_submit(store, &sub, &id, err), 0, "store_submit: %s", err->msg);
	return id;
}

static size_t distinct(const struct plag_fps *f)
{
	struct plag_hashset s = { 0 };
	err_t err;
	if (f->n)
		cr_assert_eq(plag_hashset_add_fps(&s, f, err), PLAG_OK, "%s", err->msg);
	size_t n = s.n;
	plag_hashset_free(&s);
	return n;
}

static bool shares_hash(const struct plag_fps *a, const struct plag_fps *b)
{
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (a->v[i].hash == b->v[j].hash)
				return true;
	return false;
}

/* ---- the blob ------------------------------------------------------------------ */

static uint64_t le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

Test(plag_store_fps, encode_then_decode_gives_the_same_fingerprints)
{
	struct plag_fps f = fp_of(SCOUT);
	cr_assert_gt(f.n, 20);
	size_t len = 0;
	uint8_t *blob = plag_fps_encode(&f, &len);
	cr_assert_not_null(blob);
	cr_assert_eq(len, f.n * PLAG_FP_BYTES);
	/* The documented layout: hash 8, token 4, first line 4, last line 4, LE. */
	for (size_t i = 0; i < f.n; i++) {
		const uint8_t *p = blob + i * PLAG_FP_BYTES;
		cr_assert_eq(le(p, 8), f.v[i].hash);
		cr_assert_eq(le(p + 8, 4), f.v[i].tok);
		cr_assert_eq(le(p + 12, 4), f.v[i].first_line);
		cr_assert_eq(le(p + 16, 4), f.v[i].last_line);
	}
	struct plag_fps g;
	err_t err = {0};
	cr_assert_eq(plag_fps_decode(blob, len, f.k, f.w, f.ntokens, &g, err), PLAG_OK, "%s",
		     err->msg);
	cr_assert_eq(g.n, f.n);
	cr_assert_eq(g.k, f.k);
	cr_assert_eq(g.w, f.w);
	cr_assert_eq(g.ntokens, f.ntokens);
	for (size_t i = 0; i < f.n; i++) {
		cr_assert_eq(g.v[i].hash, f.v[i].hash, "fingerprint %zu", i);
		cr_assert_eq(g.v[i].tok, f.v[i].tok, "fingerprint %zu", i);
		cr_assert_eq(g.v[i].first_line, f.v[i].first_line, "fingerprint %zu", i);
		cr_assert_eq(g.v[i].last_line, f.v[i].last_line, "fingerprint %zu", i);
	}
	/* The decoded fingerprints compare with the originals as themselves. */
	struct plag_pair p;
	cr_assert_eq(plag_compare(&f, &g, NULL, 1, &p, err), PLAG_OK, "%s", err->msg);
	cr_assert_float_eq(p.a_in_b, 1.0, 1e-12);
	cr_assert_float_eq(p.b_in_a, 1.0, 1e-12);
	plag_fps_free(&g);
	free(blob);

	/* No fingerprints: an empty blob, which decodes to none. */
	struct plag_fps none = { .k = cfg.k, .w = cfg.w };
	blob = plag_fps_encode(&none, &len);
	cr_assert_not_null(blob);
	cr_assert_eq(len, 0);
	cr_assert_eq(plag_fps_decode(blob, 0, cfg.k, cfg.w, 0, &g, err), PLAG_OK, "%s", err->msg);
	cr_assert_eq(g.n, 0);
	plag_fps_free(&g);
	free(blob);
	plag_fps_free(&f);
}

/* Decoding blob must fail, leaving out empty and saying it is damaged. */
static void expect_damaged(const uint8_t *blob, size_t len, unsigned k, uint32_t ntokens,
			   const char *what)
{
	struct plag_fps g = { (void *)1, 99, 0, 0, 0, 0 };
	err_t err = {0};
	enum plag_err e = plag_fps_decode(blob, len, k, cfg.w, ntokens, &g, err);
	cr_assert_neq(e, PLAG_OK, "%s: accepted", what);
	cr_assert_null(g.v, "%s: output not empty", what);
	cr_assert_eq(g.n, 0, "%s", what);
	cr_assert(strstr(err->msg, "damaged"), "%s: message '%s'", what, err->msg);
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

Test(plag_store_fps, damaged_blobs_are_refused)
{
	struct plag_fps f = fp_of(SCOUT);
	cr_assert_gt(f.n, 3);
	size_t len;
	uint8_t *blob = plag_fps_encode(&f, &len);
	uint8_t *copy = malloc(len);
	cr_assert_not_null(blob);
	cr_assert_not_null(copy);
	err_t err;
	struct plag_fps g;

	/* A length that is no whole number of fingerprints. */
	expect_damaged(blob, len - 1, f.k, f.ntokens, "one byte short");
	expect_damaged(blob, PLAG_FP_BYTES - 1, f.k, f.ntokens, "19 bytes");
	expect_damaged(blob, len - PLAG_FP_BYTES / 2, f.k, f.ntokens, "half a fingerprint");

	/* Tokens out of order, or twice the same. */
	memcpy(copy, blob, len);
	put_le(copy + 8, f.v[1].tok, 4);
	put_le(copy + PLAG_FP_BYTES + 8, f.v[0].tok, 4);
	expect_damaged(copy, len, f.k, f.ntokens, "swapped tokens");
	memcpy(copy, blob, len);
	put_le(copy + 2 * PLAG_FP_BYTES + 8, f.v[1].tok, 4);
	expect_damaged(copy, len, f.k, f.ntokens, "a token twice");

	/* A k-gram running past the end of the stream: the last one ends at
	 * token v[n-1].tok + k - 1, so the stream has at least v[n-1].tok + k. */
	uint32_t need = f.v[f.n - 1].tok + f.k;
	expect_damaged(blob, len, f.k, need - 1, "ntokens one short");
	cr_assert_eq(plag_fps_decode(blob, len, f.k, f.w, need, &g, err), PLAG_OK, "%s", err->msg);
	plag_fps_free(&g);
	memcpy(copy, blob, len);
	put_le(copy + (f.n - 1) * PLAG_FP_BYTES + 8, 0xfffffff0u, 4);
	expect_damaged(copy, len, f.k, f.ntokens, "a token far past the end");

	/* Lines backwards. */
	memcpy(copy, blob, len);
	put_le(copy + 12, 50, 4);
	put_le(copy + 16, 49, 4);
	expect_damaged(copy, len, f.k, f.ntokens, "first line after last line");

	/* k out of range. */
	expect_damaged(blob, len, 0, f.ntokens, "k = 0");
	expect_damaged(blob, len, PLAG_K_MAX + 1, f.ntokens, "k too large");

	/* The untouched blob still decodes (the cases above changed copies). */
	cr_assert_eq(plag_fps_decode(blob, len, f.k, f.w, f.ntokens, &g, err), PLAG_OK, "%s",
		     err->msg);
	cr_assert_eq(g.n, f.n);
	plag_fps_free(&g);
	free(copy);
	free(blob);
	plag_fps_free(&f);
}

/* ---- base exclusion --------------------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	char *buf = malloc(1 << 20);
	cr_assert_not_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The shipped Demo under another name, followed by code of its own. */
static char *demo_plus(const char *name, const char *own, unsigned *demo_lines)
{
	size_t len;
	char *demo = read_all("games/dominator/players/AIDemo.c", &len);
	char *at = strstr(demo, "PLAYER_NAME(Demo)");
	cr_assert_not_null(at);
	struct gen_text t = { 0 };
	gen_printf(&t, "%.*sPLAYER_NAME(%s)%s", (int)(at - demo), demo, name,
		 at + strlen("PLAYER_NAME(Demo)"));
	*demo_lines = count_lines(t.s);
	gen_printf(&t, "%s", own);
	free(demo);
	return t.s;
}

static const char OWN_A[] =
	"\n/* Mine: how crowded the neighbourhood of a cell is. */\n"
	"int crowd(Pos p)\n"
	"{\n"
	"\tint n = 0;\n"
	"\tfor (int r = p.i - 1; r <= p.i + 1; r++)\n"
	"\t\tfor (int c = p.j - 1; c <= p.j + 1; c++)\n"
	"\t\t\tif (pos_ok(pos(r, c)) && cell(pos(r, c)).id >= 0)\n"
	"\t\t\t\tn++;\n"
	"\treturn n;\n"
	"}\n";

static const char OWN_B[] =
	"\n/* Mine: the land lead over the best other player. */\n"
	"long long lead(void)\n"
	"{\n"
	"\tlong long best = 0;\n"
	"\tint p = 1;\n"
	"\twhile (p < nb_players()) {\n"
	"\t\tif (land(p) > best)\n"
	"\t\t\tbest = land(p);\n"
	"\t\t++p;\n"
	"\t}\n"
	"\treturn land(me()) - best + score(me()) % 7;\n"
	"}\n";

Test(plag_store_base, the_demo_part_of_two_files_does_not_match)
{
	unsigned la, lb;
	char *a = demo_plus("Ann", OWN_A, &la), *b = demo_plus("Ben", OWN_B, &lb);
	struct plag_fps fa = fp_of(a), fb = fp_of(b);
	cr_assert_gt(fa.n, 0, "the own code keeps fingerprints");
	cr_assert_gt(fb.n, 0, "the own code keeps fingerprints");
	/* Nothing inside the Demo part survives. */
	for (size_t i = 0; i < fa.n; i++)
		cr_assert_gt(fa.v[i].last_line, la, "fingerprint at lines %u-%u is Demo's",
			     fa.v[i].first_line, fa.v[i].last_line);
	for (size_t i = 0; i < fb.n; i++)
		cr_assert_gt(fb.v[i].last_line, lb, "fingerprint at lines %u-%u is Demo's",
			     fb.v[i].first_line, fb.v[i].last_line);
	struct plag_pair p;
	err_t err;
	cr_assert_eq(plag_compare(&fa, &fb, NULL, 1, &p, err), PLAG_OK, "%s", err->msg);
	cr_assert_lt(p.a_in_b * 100, cfg.floor_pct, "a_in_b %.2f", p.a_in_b);
	cr_assert_lt(p.b_in_a * 100, cfg.floor_pct, "b_in_a %.2f", p.b_in_a);

	/* Without the base the Demo they share makes them look alike. */
	struct plag_fps ra = fingerprint(a, strlen(a), NULL), rb = fingerprint(b, strlen(b), NULL);
	cr_assert_eq(plag_compare(&ra, &rb, NULL, 1, &p, err), PLAG_OK, "%s", err->msg);
	cr_assert_geq(p.a_in_b * 100, cfg.flag_pct, "a_in_b %.2f", p.a_in_b);

	/* Stored, the two are no pair. */
	struct plag_matches m;
	add_fps((struct doc_spec){ .author = "ann", .name = "Ann" }, &fa, NULL, NULL, NULL);
	add_fps((struct doc_spec){ .author = "ben", .name = "Ben" }, &fb, NULL, NULL, &m);
	cr_assert_eq(m.n, 0, "similarity %.2f", m.n ? m.v[0].similarity : 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);

	plag_fps_free(&fa);
	plag_fps_free(&fb);
	plag_fps_free(&ra);
	plag_fps_free(&rb);
	free(a);
	free(b);
}

Test(plag_store_base, the_shipped_players_alone_have_no_fingerprints)
{
	static const char *const files[] = { "games/dominator/players/AIDemo.c",
					     "games/dominator/players/AINull.c",
					     "games/dominator/kit/dominator.h",
					     "games/kit/course.h" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		size_t len;
		char *src = read_all(files[i], &len);
		struct plag_fps f = fingerprint(src, len, &base);
		cr_assert_eq(f.n, 0, "%s keeps %zu fingerprints", files[i], f.n);
		plag_fps_free(&f);
		free(src);
	}
	/* The Dummy is no base: it keeps its fingerprints. */
	size_t len;
	char *src = read_all("games/dominator/players/AIDummy.c", &len);
	struct plag_fps f = fingerprint(src, len, &base);
	cr_assert_gt(f.n, 50);
	plag_fps_free(&f);
	free(src);
}

Test(plag_store_base, an_unknown_game_has_no_base)
{
	struct plag_hashset b = { 0 };
	err_t err = {0};
	cr_assert_neq(plag_base_load(".", "nosuchgame", cfg.k, &b, err), PLAG_OK);
	cr_assert(strstr(err->msg, "games/nosuchgame/kit/nosuchgame.h"), "%s", err->msg);
	cr_assert_null(b.v);
	cr_assert_eq(b.n, 0);
}

/* ---- storing and comparing ------------------------------------------------------- */

BOTH(plag_store_add, a_disguised_copy_by_another_author_is_flagged)
{
	int64_t s_miner = submit("bob", "Miner", MINER);
	int64_t s_scout = submit("alice", "Scout", SCOUT);
	int64_t s_copy = submit("mallory", "Pathfinder", SCOUT_COPY);
	struct plag_matches m;
	int64_t d_miner = add_src((struct doc_spec){ .author = "bob", .name = "Miner",
						     .submission = s_miner }, MINER, &m);
	cr_assert_eq(m.n, 0);
	plag_matches_free(&m);
	int64_t d_scout = add_src((struct doc_spec){ .author = "alice", .name = "Scout",
						     .submission = s_scout }, SCOUT, &m);
	cr_assert_eq(m.n, 0, "Scout resembles Miner: %.2f", m.n ? m.v[0].similarity : 0);
	plag_matches_free(&m);
	int64_t d_copy = add_src((struct doc_spec){ .author = "mallory", .name = "Pathfinder",
						    .submission = s_copy }, SCOUT_COPY, &m);

	cr_assert_eq(m.n, 1, "want only Scout, got %zu matches", m.n);
	const struct plag_match *x = &m.v[0];
	cr_assert_eq(x->doc, d_scout);
	cr_assert_eq(x->submission, s_scout);
	cr_assert_str_eq(x->author, "alice");
	cr_assert_str_eq(x->name, "Scout");
	cr_assert_str_eq(x->label, "");
	cr_assert_geq(x->similarity * 100, cfg.flag_pct, "similarity %.2f", x->similarity);
	cr_assert(x->flagged);
	double larger = x->pair.a_in_b > x->pair.b_in_a ? x->pair.a_in_b : x->pair.b_in_a;
	cr_assert_float_eq(x->similarity, larger, 1e-12);
	cr_assert_gt(x->pair.longest, 0);
	cr_assert(m.looked_up > 0 && m.candidates >= 1 && m.compared >= 1);

	/* The documents as stored. */
	cr_assert_eq(teststore_int(store, "SELECT submission_id FROM plag_docs WHERE id = %lld", (long long)d_copy),
		     s_copy);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE id = %lld AND game = 'dominator'"
			   " AND author = 'mallory' AND name = 'Pathfinder' AND label IS NULL"
			   " AND source IS NULL AND error IS NULL AND k = %u AND w = %u"
			   " AND nfps > 0 AND length(fps) = 20 * nfps", (long long)d_copy, cfg.k,
			   cfg.w), 1);
	struct plag_fps cf = fp_of(SCOUT_COPY);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_index WHERE doc_id = %lld", (long long)d_copy),
		     (int64_t)distinct(&cf), "one index row per distinct fingerprint");
	cr_assert_eq(teststore_int(store, "SELECT nfps FROM plag_docs WHERE id = %lld", (long long)d_copy),
		     (int64_t)cf.n);
	plag_fps_free(&cf);

	/* The later file suspected, not the original nor the independent one;
	 * one pair row. */
	cr_assert_eq(teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld", (long long)d_copy), 1);
	cr_assert_eq(teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld", (long long)d_scout), 0);
	cr_assert_eq(teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld", (long long)d_miner), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs WHERE doc_a = %lld AND doc_b = %lld"
			   " AND game = 'dominator' AND flagged = 1 AND longest > 0"
			   " AND a_first_line BETWEEN 1 AND a_last_line"
			   " AND b_first_line BETWEEN 1 AND b_last_line AND a_last_line <= %u"
			   " AND b_last_line <= %u", (long long)d_copy, (long long)d_scout,
			   count_lines(SCOUT_COPY), count_lines(SCOUT)), 1);
	cr_assert_float_eq(teststore_double(store, "SELECT similarity FROM plag_pairs"),
			   x->similarity, 1e-9);
	cr_assert_float_eq(teststore_double(store, "SELECT a_in_b FROM plag_pairs"),
			   x->pair.a_in_b, 1e-9);
	cr_assert_float_eq(teststore_double(store, "SELECT b_in_a FROM plag_pairs"),
			   x->pair.b_in_a, 1e-9);
	plag_matches_free(&m);
}

BOTH(plag_store_add, the_same_authors_copy_is_not_compared)
{
	add_src((struct doc_spec){ .author = "alice", .name = "Scout" }, SCOUT, NULL);
	struct plag_matches m;
	int64_t d = add_src((struct doc_spec){ .author = "alice", .name = "Scout2" }, SCOUT_COPY, &m);
	cr_assert_eq(m.n, 0, "similarity %.2f", m.n ? m.v[0].similarity : 0);
	cr_assert_eq(m.compared, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1"), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_index WHERE doc_id = %lld", (long long)d) > 0, 1);

	/* The same text by anybody else is a flagged pair. */
	add_src((struct doc_spec){ .author = "bob", .name = "Scout3" }, SCOUT_COPY, &m);
	cr_assert_eq(m.n, 2, "bob's file against both of alice's: %zu", m.n);
	cr_assert(m.v[0].flagged && m.v[1].flagged);
	cr_assert_str_eq(m.v[0].author, "alice");
	cr_assert_str_eq(m.v[1].author, "alice");
	cr_assert(m.v[0].doc == d || m.v[1].doc == d);
	cr_assert_geq(m.v[0].similarity, m.v[1].similarity, "most similar first");
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1"), 1,
		     "only the later file");
}

BOTH(plag_store_add, files_of_another_game_are_never_candidates)
{
	add_src((struct doc_spec){ .game = "ants", .author = "alice", .name = "Scout" }, SCOUT,
		NULL);
	struct plag_matches m;
	add_src((struct doc_spec){ .author = "bob", .name = "Pathfinder" }, SCOUT_COPY, &m);
	cr_assert_eq(m.n, 0);
	cr_assert_eq(m.candidates, 0, "an ants file is a dominator candidate");
	cr_assert_eq(m.compared, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1"), 0);

	/* In its own game the copy is caught. */
	add_src((struct doc_spec){ .game = "ants", .author = "carol", .name = "Pathfinder" },
		SCOUT_COPY, &m);
	cr_assert_eq(m.n, 1);
	cr_assert_str_eq(m.v[0].author, "alice");
	cr_assert(m.v[0].flagged);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs WHERE game = 'ants'"), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs WHERE game = 'dominator'"), 0);
	/* The index keys differ by game for the same hash. */
	cr_assert_neq(plag_index_key("ants", 12345), plag_index_key("dominator", 12345));
	cr_assert_neq(plag_index_key("ants", 1), plag_index_key("ants", 2));
}

BOTH(plag_store_add, an_unrelated_file_is_no_pair)
{
	add_src((struct doc_spec){ .author = "alice", .name = "Scout" }, SCOUT, NULL);
	struct plag_matches m;
	add_src((struct doc_spec){ .author = "bob", .name = "Miner" }, MINER, &m);
	cr_assert_eq(m.n, 0, "similarity %.2f", m.n ? m.v[0].similarity : 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1"), 0);
	/* Really below the floor, not merely unlisted. */
	struct plag_fps a = fp_of(SCOUT), b = fp_of(MINER);
	struct plag_pair p;
	err_t err;
	cr_assert_eq(plag_compare(&a, &b, NULL, 1, &p, err), PLAG_OK, "%s", err->msg);
	cr_assert_lt(p.a_in_b * 100, cfg.floor_pct);
	cr_assert_lt(p.b_in_a * 100, cfg.floor_pct);
	plag_fps_free(&a);
	plag_fps_free(&b);
}

BOTH(plag_store_add, a_file_without_fingerprints_is_kept_with_its_error)
{
	struct plag_matches m;
	int64_t bad = add_fps((struct doc_spec){ .author = "alice", .name = "Scout" }, NULL,
			      "AIScout.c: the file contains a NUL byte", SCOUT, &m);
	cr_assert_eq(m.n, 0);
	plag_matches_free(&m);
	char text[128];
	teststore_text(store, text, sizeof text, "SELECT error FROM plag_docs WHERE id = %lld", (long long)bad);
	cr_assert_str_eq(text, "AIScout.c: the file contains a NUL byte");
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE nfps = 0 AND ntokens = 0"
			   " AND length(fps) = 0 AND suspected = 0 AND id = %lld", (long long)bad), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_index"), 0);

	/* Without a reason it still says something. */
	int64_t bad2 = add_fps((struct doc_spec){ .author = "dan", .name = "Dan" }, NULL, NULL, NULL,
			       NULL);
	teststore_text(store, text, sizeof text, "SELECT error FROM plag_docs WHERE id = %lld", (long long)bad2);
	cr_assert_str_eq(text, "no fingerprints");

	/* It is compared with nothing: a copy of its text finds no pair. */
	add_src((struct doc_spec){ .author = "bob", .name = "Pathfinder" }, SCOUT_COPY, &m);
	cr_assert_eq(m.n, 0);
	cr_assert_eq(m.candidates, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1"), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);
}

BOTH(plag_store_add, a_file_of_base_code_only_is_kept_with_no_fingerprints)
{
	/* The Demo handed in as it is: every fingerprint is base code. */
	size_t len;
	char *demo = read_all("games/dominator/players/AIDemo.c", &len);
	struct plag_fps f = fingerprint(demo, len, &base);
	cr_assert_eq(f.n, 0);
	struct plag_matches m;
	int64_t id = add_fps((struct doc_spec){ .author = "alice", .name = "Demo2" }, &f, NULL, NULL,
			     &m);
	cr_assert_eq(m.n, 0);
	cr_assert_eq(m.looked_up, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE nfps = 0 AND ntokens > 0"
			   " AND error IS NULL AND length(fps) = 0 AND id = %lld", (long long)id), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_index"), 0);
	/* A second one by somebody else: nothing in common that counts. */
	add_fps((struct doc_spec){ .author = "bob", .name = "Demo3" }, &f, NULL, NULL, &m);
	cr_assert_eq(m.n, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);
	plag_fps_free(&f);
	free(demo);
}

BOTH(plag_store_add, an_archived_file_keeps_its_source_and_is_stored_once)
{
	struct plag_fps f = fp_of(SCOUT);
	struct doc_spec d = { .author = "alice", .name = "Scout", .label = "2025" };
	int64_t id = add_fps(d, &f, NULL, SCOUT, NULL);
	cr_assert_eq(teststore_int(store, "SELECT length(source) FROM plag_docs WHERE id = %lld", (long long)id),
		     (int64_t)strlen(SCOUT));
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE submission_id IS NULL"
			   " AND label = '2025' AND id = %lld", (long long)id), 1);

	/* The same file in the same archive again: an error, nothing stored. */
	err_t err = {0};
	err_t perr = {0};
	struct plag_doc doc = { .game = "dominator", .author = "alice", .name = "Scout",
				.label = "2025", .source = SCOUT, .source_len = strlen(SCOUT) };
	int64_t id2 = -1;
	cr_assert_eq(store_begin(store, err), 0, "%s", err->msg);
	cr_assert_eq(plag_store_add(store, &cfg, &doc, &f, NULL, &id2, NULL, perr), -1);
	store_rollback(store);
	cr_assert(strstr(perr->msg, "already in archive 2025"), "%s", perr->msg);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs"), 1);

	/* In another archive it is a new document (same author: no pair). */
	d.label = "2024";
	add_fps(d, &f, NULL, SCOUT, NULL);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs"), 2);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 0);

	/* A submission's source stays in its submission, not here. */
	int64_t sid = submit("bob", "Miner", MINER);
	struct plag_matches m;
	int64_t mine = add_src((struct doc_spec){ .author = "bob", .name = "Miner",
						  .submission = sid }, MINER, &m);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE source IS NULL AND id = %lld", (long long)mine), 1);
	plag_fps_free(&f);
}

/* ---- the index ------------------------------------------------------------------ */

#define NRANDOM 40

/* ---- a function copied into an otherwise original file ------------------ */

/* base, then nfuncs functions of seed's generated code. */
static char *grown(const char *base_src, uint64_t seed, int nfuncs)
{
	struct gen_text t = { 0 };
	gen_printf(&t, "%s\n", base_src);
	random_code(&t, seed, nfuncs);
	return t.s;
}

/* SCOUT's scout() and unclaimed_run(), as a copier pastes them. */
static char *scout_functions(void)
{
	const char *from = strstr(SCOUT, "static int unclaimed_run"),
		   *to = strstr(SCOUT, "static void escort");
	cr_assert(from && to && from < to);
	return strndup(from, (size_t)(to - from));
}

BOTH(plag_store_add, a_function_copied_into_an_original_file_is_flagged_by_its_fragment)
{
	cfg.fragment_tokens = 120;
	char *alice_src = grown(SCOUT, 1, 5), *copied = scout_functions();
	char *host = grown(MINER, 2, 5);
	struct gen_text bob = { 0 };
	gen_printf(&bob, "%s\n%s", host, copied);
	int64_t alice = add_src((struct doc_spec){ .author = "alice", .name = "Scout" }, alice_src,
				NULL);
	/* An independent file first: no pair, and its longest run is short. */
	struct plag_matches m;
	add_src((struct doc_spec){ .author = "carol", .name = "Miner" }, host, &m);
	for (size_t i = 0; i < m.n; i++)
		cr_assert(!m.v[i].flagged && !m.v[i].fragment, "an independent file is flagged: "
			  "%.0f%%, %u tokens", m.v[i].similarity * 100,
			  plag_longest_tokens(&m.v[i].pair));
	plag_matches_free(&m);

	struct plag_fps fb = fp_of(bob.s);
	err_t err = {0};
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "bob", 0, &fb, &m, err), 0, "%s", err->msg);
	const struct plag_match *hit = NULL;
	for (size_t i = 0; i < m.n; i++)
		if (m.v[i].doc == alice)
			hit = &m.v[i];
	cr_assert_not_null(hit, "the copied function made no pair");
	cr_assert_lt(hit->similarity * 100, cfg.flag_pct, "the shares alone would flag it");
	cr_assert(hit->fragment && hit->flagged, "not flagged: longest %u tokens",
		  plag_longest_tokens(&hit->pair));
	cr_assert_geq(plag_longest_tokens(&hit->pair), cfg.fragment_tokens);
	/* The fragment's lines: inside the pasted part of bob's file and inside
	 * SCOUT's two functions in alice's. */
	unsigned host_lines = 0, first_fn = 0, last_fn = 0;
	for (const char *c = host; *c; c++)
		host_lines += *c == '\n';
	for (const char *c = SCOUT; c < strstr(SCOUT, "static int unclaimed_run"); c++)
		first_fn += *c == '\n';
	for (const char *c = SCOUT; c < strstr(SCOUT, "static void escort"); c++)
		last_fn += *c == '\n';
	cr_assert_gt(hit->pair.longest_a.first_line, host_lines);
	cr_assert_gt(hit->pair.longest_b.first_line, first_fn);
	cr_assert_leq(hit->pair.longest_b.last_line, last_fn);
	/* The event says so, with the fragment's lines on both sides. */
	json_t *ev = plag_event_data("Mixed", "bob", hit, 1);
	cr_assert_not_null(ev);
	json_t *first = json_array_get(json_object_get(ev, "similar"), 0);
	cr_assert(json_is_true(json_object_get(first, "fragment")));
	cr_assert_eq(json_integer_value(json_array_get(json_object_get(first, "lines"), 0)),
		     hit->pair.longest_a.first_line);
	cr_assert_eq(json_integer_value(json_array_get(json_object_get(first, "their_lines"), 1)),
		     hit->pair.longest_b.last_line);
	json_decref(ev);
	plag_matches_free(&m);

	/* Stored: the pair with its lines, flagged, the later file suspected. */
	int64_t bob_id = add_fps((struct doc_spec){ .author = "bob", .name = "Mixed" }, &fb, NULL,
				 NULL, &m);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT flagged FROM plag_pairs WHERE doc_a = %lld AND doc_b = %lld",
			    (long long)bob_id, (long long)alice), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE suspected = 1 AND id IN "
			    "(%lld, %lld)", (long long)bob_id, (long long)alice), 1);
	cr_assert_eq(teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld",
				   (long long)bob_id), 1);
	/* With a higher threshold the same pair is not flagged. */
	cfg.fragment_tokens = 2000;
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "dan", 0, &fb, &m, err), 0, "%s", err->msg);
	for (size_t i = 0; i < m.n; i++)
		if (m.v[i].doc == alice)
			cr_assert(!m.v[i].flagged);
	plag_matches_free(&m);
	plag_fps_free(&fb);
	free(bob.s);
	free(host);
	free(copied);
	free(alice_src);
}

BOTH(plag_store_add, a_stored_pair_measures_as_when_it_was_new)
{
	int64_t a = add_src((struct doc_spec){ .author = "alice", .name = "Scout" }, SCOUT, NULL);
	struct plag_matches m;
	int64_t b = add_src((struct doc_spec){ .author = "bob", .name = "Copy" }, SCOUT_COPY, &m);
	cr_assert_eq(m.n, 1);
	struct plag_match again, back;
	err_t err = {0};
	cr_assert_eq(plag_store_pair(store, &cfg, b, a, &again, NULL, err), 0, "%s", err->msg);
	cr_assert_float_eq(again.similarity, m.v[0].similarity, 1e-12);
	cr_assert_float_eq(again.pair.a_in_b, m.v[0].pair.a_in_b, 1e-12);
	cr_assert_eq(plag_longest_tokens(&again.pair), plag_longest_tokens(&m.v[0].pair));
	/* From the other side: the same pair, the sides swapped. */
	cr_assert_eq(plag_store_pair(store, &cfg, a, b, &back, NULL, err), 0, "%s", err->msg);
	cr_assert_float_eq(back.pair.a_in_b, m.v[0].pair.b_in_a, 1e-12);
	cr_assert_eq(back.pair.longest_a.first_line, m.v[0].pair.longest_b.first_line);
	plag_matches_free(&m);
	cr_assert_neq(plag_store_pair(store, &cfg, a, 999, &back, NULL, err), 0);
	cr_assert(strstr(err->msg, "no fingerprinted file doc:999"), "%s", err->msg);
}

BOTH(plag_store_add, files_of_an_older_version_are_fingerprinted_again)
{
	int64_t s = submit("alice", "Scout", SCOUT);
	int64_t a = add_src((struct doc_spec){ .author = "alice", .name = "Scout", .submission = s },
			    SCOUT, NULL);
	int64_t b = add_src((struct doc_spec){ .author = "bob", .name = "Copy", .label = "2025" },
			    SCOUT_COPY, NULL);
	int64_t before = teststore_int(store, "SELECT count(*) FROM plag_index");
	/* As an older judge left them (its rows must go: written again over
	 * them, the index's key would be taken twice). */
	teststore_run(store, "UPDATE plag_docs SET hash_version = 1");
	struct plag_match m;
	err_t err = {0};
	err_t serr = {0};
	cr_assert_neq(plag_store_pair(store, &cfg, b, a, &m, NULL, err), 0);
	cr_assert(strstr(err->msg, "other settings"), "%s", err->msg);
	size_t n = 0;
	cr_assert_eq(store_begin(store, serr), 0, "%s", serr->msg);
	cr_assert_eq(plag_store_refresh(store, &cfg, ".", "dominator", &n, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(store, serr), 0, "%s", serr->msg);
	cr_assert_eq(n, 2);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_docs WHERE hash_version = %d",
			    PLAG_HASH_VERSION), 2);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_index"), before);
	cr_assert_eq(plag_store_pair(store, &cfg, b, a, &m, NULL, err), 0, "%s", err->msg);
	cr_assert(m.flagged);
	/* Nothing left to do: a second refresh touches nothing. */
	cr_assert_eq(plag_store_refresh(store, &cfg, ".", "dominator", &n, err), 0, "%s", err->msg);
	cr_assert_eq(n, 0);
}

BOTH(plag_store_index, only_files_sharing_fingerprints_are_compared)
{
	/* NRANDOM unrelated files by as many authors, one of them sharing
	 * a function with the probe, then the original the probe copies. */
	struct plag_fps all[NRANDOM + 1];
	const char *shared_fn = strstr(SCOUT, "static int unclaimed_run(");
	cr_assert_not_null(shared_fn);
	int shared_len = (int)(strstr(shared_fn, "\n}\n") + 3 - shared_fn);
	int64_t ids[NRANDOM + 1];
	for (int i = 0; i < NRANDOM; i++) {
		struct gen_text t = { 0 };
		random_code(&t, (uint64_t)i + 1, 4);
		if (i == 7)
			gen_printf(&t, "%.*s", shared_len, shared_fn);
		char author[32], name[32];
		snprintf(author, sizeof author, "author%d", i);
		snprintf(name, sizeof name, "Gen%d", i);
		all[i] = fp_of(t.s);
		cr_assert_gt(all[i].n, 20);
		ids[i] = add_fps((struct doc_spec){ .author = author, .name = name }, &all[i], NULL,
				 NULL, NULL);
		free(t.s);
	}
	all[NRANDOM] = fp_of(SCOUT);
	ids[NRANDOM] = add_fps((struct doc_spec){ .author = "alice", .name = "Scout" },
			       &all[NRANDOM], NULL, NULL, NULL);

	struct plag_fps probe = fp_of(SCOUT_COPY);
	size_t sharing = 0;
	for (int i = 0; i <= NRANDOM; i++)
		sharing += shares_hash(&probe, &all[i]);
	cr_assert_lt(sharing, NRANDOM / 4, "the generated files are not unrelated enough");
	cr_assert(shares_hash(&probe, &all[7]), "file 7 holds a function of the probe");

	struct plag_matches m;
	err_t err = {0};
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "mallory", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_eq(m.looked_up, distinct(&probe), "one look-up per distinct fingerprint");
	cr_assert_eq(m.idioms, 0);
	cr_assert_eq(m.candidates, sharing, "candidates are exactly the files sharing a hash");
	cr_assert_leq(m.compared, m.candidates);
	cr_assert_geq(m.compared, 1);
	cr_assert_lt(m.compared, NRANDOM / 4, "compared %zu of %d files", m.compared, NRANDOM + 1);
	cr_assert_eq(m.n, 1);
	cr_assert_eq(m.v[0].doc, ids[NRANDOM]);
	cr_assert(m.v[0].flagged);
	plag_matches_free(&m);

	/* self: the probe stored, then compared as itself, skips itself. */
	int64_t self = add_fps((struct doc_spec){ .author = "mallory", .name = "Pathfinder" }, &probe,
			       NULL, NULL, NULL);
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "mallory", self, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_eq(m.candidates, sharing);
	cr_assert_eq(m.n, 1);
	cr_assert_eq(m.v[0].doc, ids[NRANDOM]);
	plag_matches_free(&m);

	/* Fingerprints of another k are refused, not compared. */
	struct cfg_plag other = cfg;
	other.k = cfg.k + 1;
	cr_assert_eq(plag_store_compare(store, &other, "dominator", "zed", 0, &probe, &m, err), -1);
	cr_assert(strstr(err->msg, "k ="), "%s", err->msg);

	for (int i = 0; i <= NRANDOM; i++)
		plag_fps_free(&all[i]);
	plag_fps_free(&probe);
}

/* ---- idioms --------------------------------------------------------------------- */

/* Code that every contestant of a tournament ends up writing (not in the
 * base): a helper about as long as the rest of each file. */
static const char IDIOM[] =
	"static int clamp_dir(int d)\n"
	"{\n"
	"\twhile (d < 0)\n"
	"\t\td += 8;\n"
	"\twhile (d >= 8)\n"
	"\t\td -= 8;\n"
	"\treturn d;\n"
	"}\n"
	"\n"
	"static bool can_enter(Pos p)\n"
	"{\n"
	"\tif (!pos_ok(p))\n"
	"\t\treturn false;\n"
	"\tCell c = cell(p);\n"
	"\tif (c.type == Wall || c.id != -1)\n"
	"\t\treturn false;\n"
	"\treturn !c.haunted;\n"
	"}\n"
	"\n"
	"static Dir turn_towards(Pos from, Pos to)\n"
	"{\n"
	"\tint di = (to.i > from.i) - (to.i < from.i);\n"
	"\tint dj = (to.j > from.j) - (to.j < from.j);\n"
	"\tstatic const Dir table[3][3] = { { TL, Top, RT }, { Left, None, Right },"
	" { LB, Bottom, BR } };\n"
	"\treturn table[di + 1][dj + 1];\n"
	"}\n";

/* IDIOM followed by seed's own generated code. */
static char *with_idiom(uint64_t seed)
{
	struct gen_text t = { 0 };
	gen_printf(&t, "%s\n", IDIOM);
	random_code(&t, seed, 1);
	return t.s;
}

static void add_idiom_file(int i)
{
	char author[32], name[32];
	snprintf(author, sizeof author, "writer%d", i);
	snprintf(name, sizeof name, "W%d", i);
	char *src = with_idiom(100 + (uint64_t)i);
	add_src((struct doc_spec){ .author = author, .name = name }, src, NULL);
	free(src);
}

/* The rule (plag_store.h): a fingerprint in more of the game's files than
 * common_percent of them and than common_min_files is an idiom. */
BOTH(plag_store_idiom, a_fingerprint_in_most_files_is_an_idiom_once_there_are_enough)
{
	cfg.common_min_docs = 5;
	cfg.common_pct = 40;
	char *probe_src = with_idiom(999);
	struct plag_fps probe = fp_of(probe_src);
	err_t err = {0};
	struct plag_matches m;

	/* Five files holding the idiom, no more than common_min_files: it
	 * counts, and the shared helpers make the probe like each of them. */
	for (int i = 0; i < 5; i++)
		add_idiom_file(i);
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "zoe", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_eq(m.idioms, 0, "an idiom in only common_min_files files");
	cr_assert_eq(m.n, 5, "the shared helpers are counted");
	for (size_t i = 0; i < m.n; i++)
		cr_assert_geq(m.v[i].similarity * 100, cfg.floor_pct);
	plag_matches_free(&m);

	/* The sixth: now the idiom is in 6 files, more than 5 and than 40% of
	 * them. */
	add_idiom_file(5);
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "zoe", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_geq(m.idioms, 5, "the helpers' fingerprints are idioms: %zu", m.idioms);
	cr_assert_lt(m.idioms, m.looked_up, "the probe's own code is no idiom");
	cr_assert_eq(m.n, 0, "the idiom made a pair: %.2f", m.n ? m.v[0].similarity : 0);
	plag_matches_free(&m);

	/* So stored, the probe is in no pair and not suspected (the first
	 * files were paired with each other while they were too few). */
	int64_t zoe = add_fps((struct doc_spec){ .author = "zoe", .name = "Zoe" }, &probe, NULL,
			      NULL, &m);
	cr_assert_eq(m.n, 0);
	cr_assert_gt(m.idioms, 0);
	plag_matches_free(&m);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs WHERE %lld IN (doc_a, doc_b)",
			   (long long)zoe), 0);
	cr_assert_eq(teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld", (long long)zoe), 0);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 5 * 6 / 2,
		     "pairs among the six (each compared with fewer than six files)");

	/* With the share at 100% nothing is ever in more than all files. */
	cfg.common_pct = 100;
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "newcomer", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_eq(m.idioms, 0);
	cr_assert_eq(m.n, 7, "the six files and zoe's: %zu", m.n);
	/* Most similar first: zoe's is the probe itself. */
	cr_assert_str_eq(m.v[0].author, "zoe");
	cr_assert_float_eq(m.v[0].similarity, 1.0, 1e-12);
	for (size_t i = 1; i < m.n; i++) {
		cr_assert_lt(m.v[i].similarity, 1.0);
		cr_assert_geq(m.v[i - 1].similarity, m.v[i].similarity, "match %zu", i);
	}
	plag_matches_free(&m);

	/* An idiom still counts when the copy is real: the probe's own code,
	 * copied, is a pair even among idioms. */
	cfg.common_pct = 40;
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "copier", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_gt(m.idioms, 0);
	cr_assert_eq(m.n, 1);
	cr_assert_str_eq(m.v[0].author, "zoe");
	cr_assert(m.v[0].flagged);
	plag_matches_free(&m);

	plag_fps_free(&probe);
	free(probe_src);
}

BOTH(plag_store_idiom, files_without_fingerprints_do_not_count_towards_the_share)
{
	cfg.common_min_docs = 2;
	cfg.common_pct = 50;
	/* Four files with the idiom and seven without fingerprints: with
	 * those counted, 4 of 11 files would be under 50%. */
	for (int i = 0; i < 3; i++)
		add_idiom_file(i);
	for (int i = 0; i < 7; i++) {
		char name[32];
		snprintf(name, sizeof name, "Broken%d", i);
		add_fps((struct doc_spec){ .author = name, .name = name }, NULL, "binary", NULL, NULL);
	}
	add_idiom_file(3);
	char *probe_src = with_idiom(4242);
	struct plag_fps probe = fp_of(probe_src);
	struct plag_matches m;
	err_t err = {0};
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "zoe", 0, &probe, &m, err), 0,
		     "%s", err->msg);
	cr_assert_gt(m.idioms, 0, "4 of 4 fingerprinted files hold it");
	cr_assert_eq(m.n, 0);
	plag_matches_free(&m);
	plag_fps_free(&probe);
	free(probe_src);
}
