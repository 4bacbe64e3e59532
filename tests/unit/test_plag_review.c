/* test_plag_review.c - the plagiarism workflow (judge/plag/plag_store.c,
 * judge/store/store_plag_review.c): a flag names its earlier and later
 * file and marks only the later suspected; the organiser confirms,
 * dismisses or clears it with the history kept; a dismissed pair of
 * authors is not flagged again unless the shared part grows; a file that
 * is mostly the shipped Demo cannot flag on a few shared lines; look-ups
 * of fingerprints common to the field read no index row once a look-up
 * has listed them, and a listing the field outgrew is not trusted.  Each test runs
 * on a new SQLite file and, as NAME_pg, on a new PostgreSQL database. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_store.h"
#include "judge/store/store.h"
#include "judge/store/store_plag_review.h"
#include "tests/unit/db_testlib.h"
#include "tests/unit/gen_testlib.h"

static struct test_target target;
static struct store *store;
static struct cfg_plag cfg;
static struct plag_hashset base;

static void open_fixture(void)
{
	store = teststore_open(target.where, true);
	struct judge_config jc;
	cfg_defaults(&jc);
	cfg = jc.plag;
	err_t err = {0};
	cr_assert_eq(plag_base_load(".", "dominator", cfg.k, &base, err), PLAG_OK, "%s", err->msg);
}

static void setup(void)
{
	test_target_sqlite(&target, "test-plag-review");
	open_fixture();
}

static void setup_pg(void)
{
	test_target_pg(&target, "test-plag-review");
	open_fixture();
}

static void teardown(void)
{
	plag_hashset_free(&base);
	store_close(store);
	test_target_remove(&target);
}

TestSuite(plag_review, .init = setup, .fini = teardown, .timeout = 60);
TestSuite(plag_review_pg, .init = setup_pg, .fini = teardown, .timeout = 120);

/* ---- files */

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = calloc(1, 1 << 20);
	cr_assert_not_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Lines first..last (1-based) of path. */
static char *lines_of(const char *path, int first, int last)
{
	char *all = read_file(path), *p = all;
	struct gen_text t = { 0 };
	for (int line = 1; *p && line <= last; line++) {
		char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p + 1) : strlen(p);
		if (line >= first)
			gen_printf(&t, "%.*s", (int)len, p);
		p += len;
	}
	free(all);
	return t.s;
}

#define ALDER "bench/plag/players/AIAlder.c"

/* The shipped Demo renamed, with extra code appended. */
static char *demo_with(const char *name, const char *extra)
{
	char *demo = read_file("games/dominator/players/AIDemo.c");
	char *at = strstr(demo, "PLAYER_NAME(Demo)");
	cr_assert_not_null(at);
	struct gen_text t = { 0 };
	gen_printf(&t, "%.*sPLAYER_NAME(%s)%s\n%s", (int)(at - demo), demo, name,
		   at + strlen("PLAYER_NAME(Demo)"), extra);
	free(demo);
	return t.s;
}

/* src fingerprinted and stored as a new submission of author, in its own
 * transaction, as the worker does; the matches to *m. */
static int64_t add(const char *author, const char *name, const char *src,
		   struct plag_matches *m)
{
	struct plag_fps f;
	err_t err = {0};
	err_t serr = {0};
	cr_assert_eq(plag_fingerprint(&cfg, &base, src, strlen(src), &f, err), PLAG_OK, "%s",
		     err->msg);
	int64_t sub = teststore_submit(store, "dominator", author, name), id;
	struct plag_doc doc = { .game = "dominator", .author = author, .name = name,
				.submission = sub };
	cr_assert_eq(store_begin(store, serr), 0, "%s", serr->msg);
	cr_assert_eq(plag_store_add(store, &cfg, &doc, &f, NULL, &id, m, err), 0, "%s", err->msg);
	cr_assert_eq(store_commit(store, serr), 0, "%s", serr->msg);
	plag_fps_free(&f);
	return id;
}

/* The one match of a new file, which must exist. */
static struct plag_match only_match(const char *author, const char *name, const char *src)
{
	struct plag_matches m;
	add(author, name, src, &m);
	cr_assert_eq(m.n, 1, "%s by %s: %zu similar files", name, author, m.n);
	struct plag_match one = m.v[0];
	plag_matches_free(&m);
	return one;
}

static int64_t flag_count(void)
{
	return teststore_int(store, "SELECT count(*) FROM plag_flags");
}

static int64_t last_flag(void)
{
	return teststore_int(store, "SELECT max(id) FROM plag_flags");
}

static void review(int64_t flag, const char *action, const char *note)
{
	err_t err = {0};
	cr_assert_eq(store_plag_review(store, flag, action, "teacher", note, NULL, err), 1,
		     "%s %lld: %s", action, (long long)flag, err->msg);
}

static bool suspected(int64_t doc)
{
	return teststore_int(store, "SELECT suspected FROM plag_docs WHERE id = %lld",
			     (long long)doc) != 0;
}

/* ---- the own-code minimum */

BOTH(plag_review, a_file_mostly_demo_with_a_few_shared_lines_does_not_flag)
{
	char *alder = read_file(ALDER), *shared = lines_of(ALDER, 15, 40);
	char *mostly_demo = demo_with("Copycat", shared);
	add("alder", "Alder", alder, NULL);
	struct plag_match m = only_match("cat", "Copycat", mostly_demo);
	/* The few lines are most of what is left once Demo is taken out. */
	cr_assert_geq(m.similarity * 100, cfg.flag_pct, "the share is %.0f%%", m.similarity * 100);
	cr_assert_not(m.fragment, "no long fragment: %u tokens", plag_longest_tokens(&m.pair));
	cr_assert_not(m.flagged, "flagged at %.0f%%", m.similarity * 100);
	cr_assert_eq(flag_count(), 0);
	cr_assert_lt(teststore_int(store, "SELECT tokens FROM plag_own o JOIN plag_docs d"
				   " ON d.id = o.doc_id WHERE d.author = 'cat'"), cfg.own_min_tokens);
	/* The same lines in a file of enough code of its own still flag. */
	struct gen_text more = { 0 };
	gen_printf(&more, "%s\n%s", shared, alder);
	struct plag_matches dog;
	add("dog", "Copydog", more.s, &dog);
	cr_assert_geq(dog.n, 1);
	cr_assert_str_eq(dog.v[0].author, "alder");
	cr_assert(dog.v[0].flagged, "a whole copy at %.0f%%", dog.v[0].similarity * 100);
	plag_matches_free(&dog);
	free(more.s);
	free(alder);
	free(shared);
	free(mostly_demo);
}

/* ---- earlier and later, review and history */

BOTH(plag_review, only_the_later_file_is_suspected_and_decisions_keep_their_history)
{
	char *alder = read_file(ALDER);
	int64_t original = add("alder", "Alder", alder, NULL);
	struct plag_matches m;
	int64_t copy = add("cat", "Copycat", alder, &m);
	cr_assert_eq(m.n, 1);
	cr_assert(m.v[0].flagged);
	plag_matches_free(&m);
	cr_assert_eq(flag_count(), 1);
	int64_t flag = last_flag();
	cr_assert_eq(teststore_int(store, "SELECT later_doc FROM plag_flags WHERE id = %lld",
				   (long long)flag), copy);
	cr_assert(suspected(copy), "the later file is suspected");
	cr_assert_not(suspected(original), "the earlier author is not marked like the copier");

	json_t *flags;
	err_t err = {0};
	cr_assert_eq(store_plag_flags(store, "dominator", &flags, err), 0, "%s", err->msg);
	json_t *f = json_array_get(flags, 0);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "earlier"), "author")),
			 "alder");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "later"), "author")),
			 "cat");
	cr_assert(json_is_integer(json_object_get(json_object_get(f, "later"), "uploaded_at")));
	cr_assert(json_is_false(json_object_get(f, "seen")));
	json_decref(flags);

	review(flag, "confirm", "admitted");
	cr_assert(suspected(copy));
	json_t *copies;
	cr_assert_eq(store_plag_confirmed_authors(store, "dominator", &copies, err), 0, "%s",
		     err->msg);
	cr_assert_eq(json_array_size(copies), 1);
	cr_assert_str_eq(json_string_value(json_array_get(copies, 0)), "cat");
	json_decref(copies);
	review(flag, "dismiss", "a shared tutorial after all");
	cr_assert_not(suspected(copy), "a dismissed flag suspects nobody");
	review(flag, "clear", NULL);
	cr_assert(suspected(copy), "cleared, the flag is open again");

	json_t *history;
	cr_assert_eq(store_plag_history(store, flag, &history, err), 0, "%s", err->msg);
	cr_assert_eq(json_array_size(history), 3);
	const char *actions[] = { "confirm", "dismiss", "clear" };
	for (size_t i = 0; i < 3; i++)
		cr_assert_str_eq(json_string_value(json_object_get(json_array_get(history, i),
								   "action")), actions[i]);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(history, 0), "by")),
			 "teacher");
	json_decref(history);
	cr_assert_eq(store_plag_review(store, flag + 100, "confirm", "t", NULL, NULL, err), 0,
		     "no such flag");
	cr_assert_eq(store_plag_review(store, flag, "forgive", "t", NULL, NULL, err), -1);
	free(alder);
}

BOTH(plag_review, news_are_the_flags_not_seen_yet)
{
	char *alder = read_file(ALDER);
	add("alder", "Alder", alder, NULL);
	add("cat", "Copycat", alder, NULL);
	json_t *news;
	err_t err = {0};
	cr_assert_eq(store_plag_news(store, &news, err), 0, "%s", err->msg);
	cr_assert_eq(json_array_size(news), 1);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(news, 0), "unseen")), 1);
	json_decref(news);
	int64_t n;
	cr_assert_eq(store_plag_flags_seen(store, "dominator", &n, err), 0, "%s", err->msg);
	cr_assert_eq(n, 1);
	cr_assert_eq(store_plag_news(store, &news, err), 0, "%s", err->msg);
	cr_assert_eq(json_array_size(news), 0);
	json_decref(news);
	free(alder);
}

/* ---- a dismissed pair of authors */

BOTH(plag_review, a_dismissed_pair_is_not_flagged_again_unless_the_share_grows)
{
	char *alder = read_file(ALDER), *half = lines_of(ALDER, 1, 150);
	char *own = read_file("bench/plag/players/AIBirch.c");
	struct gen_text part = { 0 };
	gen_printf(&part, "%s\n%s", half, strstr(own, "PLAYER_NAME(Birch);") +
		   strlen("PLAYER_NAME(Birch);"));
	add("alder", "Alder", alder, NULL);
	struct plag_match first = only_match("cat", "Copycat", part.s);
	cr_assert(first.flagged, "the first version is flagged at %.0f%%", first.similarity * 100);
	cr_assert_lt(first.similarity * 100 + cfg.dismissed_margin_pct, 100,
		     "a whole copy must be able to exceed the margin");
	review(last_flag(), "dismiss", "their shared lab code");

	/* The next version, the same share: stored, not flagged. */
	struct plag_match again = only_match("cat", "Copycat", part.s);
	cr_assert_not(again.flagged, "flagged again at %.0f%% after a dismissal at %.0f%%",
		      again.similarity * 100, first.similarity * 100);
	cr_assert_eq(flag_count(), 1);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_pairs"), 2);

	/* The whole file copied: the shared part grew past the margin. */
	struct plag_match grown = only_match("cat", "Copycat", alder);
	cr_assert(grown.flagged, "a copy grown to %.0f%% is flagged", grown.similarity * 100);
	cr_assert_eq(flag_count(), 2);
	free(part.s);
	free(own);
	free(half);
	free(alder);
}

/* ---- fingerprints common to the field */

/* n copies of Alder by authors prefix0, prefix1, ... each added as the
 * worker adds a file. */
static void add_copies(const char *prefix, int n, const char *src)
{
	for (int i = 0; i < n; i++) {
		char author[16], name[16];
		snprintf(author, sizeof author, "%s%d", prefix, i);
		snprintf(name, sizeof name, "Alder%d", i);
		add(author, name, src, NULL);
	}
}

/* The files of paths imported in one batch, as an archive of an earlier
 * year is: indexed without a comparison. */
static void import(const char *const *paths, int n)
{
	struct plag_fps f[16];
	const struct plag_fps *fp[16];
	struct plag_doc doc[16];
	char *src[16], author[16][16];
	err_t err = {0};
	err_t serr = {0};
	int64_t ids[16];
	cr_assert_leq(n, 16);
	for (int i = 0; i < n; i++) {
		src[i] = read_file(paths[i]);
		cr_assert_eq(plag_fingerprint(&cfg, &base, src[i], strlen(src[i]), &f[i], err),
			     PLAG_OK, "%s", err->msg);
		fp[i] = &f[i];
		snprintf(author[i], sizeof author[i], "old%d", i);
		doc[i] = (struct plag_doc){ .game = "dominator", .author = author[i],
					    .name = paths[i], .label = "2025", .source = src[i],
					    .source_len = strlen(src[i]) };
	}
	cr_assert_eq(store_begin(store, serr), 0, "%s", serr->msg);
	cr_assert_eq(plag_store_insert_batch(store, doc, fp, (size_t)n, ids, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_commit(store, serr), 0, "%s", serr->msg);
	for (int i = 0; i < n; i++) {
		plag_fps_free(&f[i]);
		free(src[i]);
	}
}

/* src compared with the stored files by a new author, read-only. */
static struct plag_matches probe(const char *src)
{
	struct plag_fps f;
	struct plag_matches m;
	err_t err = {0};
	cr_assert_eq(plag_fingerprint(&cfg, &base, src, strlen(src), &f, err), PLAG_OK, "%s",
		     err->msg);
	cr_assert_eq(plag_store_compare(store, &cfg, "dominator", "new", 0, &f, &m, err), 0, "%s",
		     err->msg);
	plag_fps_free(&f);
	return m;
}

BOTH(plag_review, common_fingerprints_are_skipped_without_reading_index_rows)
{
	char *alder = read_file(ALDER);
	cfg.common_min_docs = 2;
	cfg.common_pct = 1;
	add_copies("a", 4, alder);
	struct plag_matches m = probe(alder);
	cr_assert_gt(m.idioms, 0);
	cr_assert_eq(m.idioms, m.looked_up, "all four hold every fingerprint");
	cr_assert_eq(m.rows_read, 0, "%zu index rows read for idioms", m.rows_read);
	cr_assert_eq(m.counts_read, m.looked_up);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_idioms"), (int64_t)m.looked_up,
		     "the fourth file's look-ups listed every fingerprint");
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_idioms c WHERE c.docs <>"
				   " (SELECT count(*) FROM plag_index i WHERE i.key = c.key)"), 0,
		     "each listed count is its index's");
	plag_matches_free(&m);
	free(alder);
}

BOTH(plag_review, indexing_lists_no_idiom_and_the_next_look_up_lists_them)
{
	char *alder = read_file(ALDER);
	cfg.common_min_docs = 2;
	cfg.common_pct = 1;
	import((const char *const[]){ ALDER, ALDER, ALDER, ALDER }, 4);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_idioms"), 0,
		     "indexing wrote a row besides the index's");
	struct plag_matches m = probe(alder);
	cr_assert_gt(m.idioms, 0);
	cr_assert_eq(m.idioms, m.looked_up, "decided by their rows: all four hold every one");
	cr_assert_gt(m.rows_read, 0);
	cr_assert_eq(m.n, 0, "an idiom shared is no similarity");
	int64_t fingerprints = (int64_t)m.looked_up;
	plag_matches_free(&m);

	add_copies("b", 1, alder);
	cr_assert_eq(teststore_int(store, "SELECT count(*) FROM plag_idioms WHERE docs = 5"),
		     fingerprints, "listed by the added file's look-ups, counting it");
	m = probe(alder);
	cr_assert_eq(m.idioms, m.looked_up);
	cr_assert_eq(m.rows_read, 0, "%zu index rows read for listed idioms", m.rows_read);
	plag_matches_free(&m);
	free(alder);
}

BOTH(plag_review, a_listed_idiom_the_field_outgrew_is_no_idiom)
{
	char *alder = read_file(ALDER);
	cfg.common_min_docs = 2;
	cfg.common_pct = 50;
	add_copies("a", 4, alder); /* the fourth lists them: 3 others over a cap of 2 */
	cr_assert_gt(teststore_int(store, "SELECT count(*) FROM plag_idioms WHERE docs = 4"), 0);
	/* Eight other files: 12 in all, so the cap is 6 and four copies are
	 * no idiom; the look-up reads their rows and finds each copy. */
	import((const char *const[]){ "bench/plag/players/AIBirch.c", "bench/plag/players/AICedar.c",
				      "bench/plag/players/AIDaisy.c", "bench/plag/players/AIElm.c",
				      "bench/plag/players/AIFern.c", "bench/plag/players/AIGorse.c",
				      "bench/plag/players/AIHazel.c", "bench/plag/players/AIIris.c" },
	       8);
	struct plag_matches m = probe(alder);
	cr_assert_lt(m.idioms, m.looked_up / 2, "%zu of %zu fingerprints taken for idioms",
		     m.idioms, m.looked_up);
	cr_assert_eq(m.n, 4, "%zu of the four copies found", m.n);
	for (size_t i = 0; i < m.n; i++)
		cr_assert(m.v[i].flagged, "copy %s at %.0f%%", m.v[i].author,
			  m.v[i].similarity * 100);
	plag_matches_free(&m);
	free(alder);
}
