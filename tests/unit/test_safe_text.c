/* safe_text: what may reach a terminal or a page as itself (text_char). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/grow.h"
#include "judge/base/json_text.h"
#include "judge/base/safe_text.h"
#include "tests/unit/gen_testlib.h"

/* text_char() on the bytes of s: the length it steps and its verdict. */
static size_t step(const char *s, bool *printable)
{
	return text_char((const unsigned char *)s, strlen(s), printable);
}

static void expect_char(const char *s, size_t len, bool printable, const char *what)
{
	bool p = !printable;
	cr_expect_eq(step(s, &p), len, "%s: steps %zu bytes", what, len);
	cr_expect_eq(p, printable, "%s: %s", what, printable ? "printable" : "not printable");
}

Test(safe_text, text_char_lets_text_through_and_stops_what_drives_a_screen)
{
	expect_char("a", 1, true, "a letter");
	expect_char("\xc3\xa9t\xc3\xa9", 2, true, "e acute");
	expect_char("\xf0\x9f\x90\x89", 4, true, "a dragon");
	expect_char("\x1b[2J", 1, false, "ESC");
	expect_char("\x7f", 1, false, "DEL");
	expect_char("\xc2\x9b" "31m", 2, false, "the C1 CSI");
	expect_char("\xe2\x80\xae" "txt.exe", 3, false, "a right-to-left override");
	expect_char("\xe2\x81\xa6", 3, false, "a left-to-right isolate");
	expect_char("\xe2\x80\x8f", 3, false, "a right-to-left mark");
	expect_char("\xe2\x80\x94", 3, true, "an em dash beside them");
	expect_char("\xc0\xaf", 1, false, "an overlong slash");
	expect_char("\xed\xa0\x80", 1, false, "a surrogate");
	expect_char("\xe2\x80", 1, false, "a cut sequence");
}

/* ---- JSON written as text (json_text.h) ------------------------------------ */

/* What jtext wrote and what jansson dumps for the same value: the same
 * bytes. */
static void expect_as_jansson(void (*put)(struct jtext *, const void *), const void *arg,
			      json_t *value, const char *what)
{
	struct jtext t = { 0 };
	put(&t, arg);
	char *mine = jtext_finish(&t, NULL);
	char *theirs = json_dumps(value, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
	cr_assert(mine && theirs);
	cr_expect_str_eq(mine, theirs, "%s", what);
	free(mine);
	free(theirs);
	json_decref(value);
}

static void put_str(struct jtext *t, const void *s)
{
	jtext_str(t, s);
}

static void put_real(struct jtext *t, const void *v)
{
	jtext_real(t, *(const double *)v);
}

Test(json_text, strings_and_reals_are_written_as_jansson_dumps_them)
{
	static const char *const names[] = {
		"Sauron", "quote \" and \\ backslash", "\b\f\n\r\t\x01\x1f\x7f", "</script>",
		"\xc3\xa9t\xc3\xa9", "\xf0\x9f\x90\x89 dragon", "\xe2\x80\xae" "txt.exe",
		"bad \xff byte", "cut \xe2\x82", "overlong \xc0\xaf", "surrogate \xed\xa0\x80", "",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		expect_as_jansson(put_str, names[i], safe_json_text(names[i]), names[i]);
	static const double reals[] = { 0, 15, -3.5, 0.1, 1.0 / 3, 25.000000000000004, 1e20,
					1e-7, -2.5e-300, 1.7976931348623157e308, 123456789012.5 };
	for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
		expect_as_jansson(put_real, &reals[i], json_real(reals[i]), "a real");
	struct jtext t = { 0 };
	jtext_str(&t, NULL);
	jtext_int(&t, -42);
	jtext_bool(&t, true);
	char *rest = jtext_finish(&t, NULL);
	cr_expect_str_eq(rest, "null-42true");
	free(rest);
}

/* A real as jtext and jansson write it: false (and said) when they differ. */
static bool real_as_jansson(double v)
{
	struct jtext t = { 0 };
	jtext_real(&t, v);
	char *mine = jtext_finish(&t, NULL);
	json_t *value = json_real(v);
	char *theirs = json_dumps(value, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
	bool same = mine && theirs && strcmp(mine, theirs) == 0;
	cr_expect(same, "%a: jtext wrote %s, jansson %s", v, mine, theirs);
	free(mine);
	free(theirs);
	json_decref(value);
	return same;
}

static uint64_t random_bits(void)
{
	return (uint64_t)rand() << 62 ^ (uint64_t)rand() << 31 ^ (uint64_t)rand();
}

/* 53 random bits as a real in [0, 1). */
static double random_unit(void)
{
	return ldexp((double)(random_bits() >> 11), -53);
}

Test(json_text, random_reals_and_ties_are_written_as_jansson_dumps_them)
{
	srand(2026);
	int wrong = 0;
	for (int i = 0; i < 20000 && wrong < 10; i++) {
		uint64_t bits = random_bits();
		double any;
		memcpy(&any, &bits, sizeof any);
		/* m / 2^18 for odd m has 18 significant digits ending in 5: the
		 * 17th is a tie, rounded to even. */
		double tie = ldexp((double)((random_bits() % (1u << 18)) | 1), -18);
		double reals[] = {
			any, /* every exponent: subnormals, huge, the printf path */
			random_unit() * 60 - 10, /* ratings and scores */
			ldexp((double)(random_bits() >> 11 | 1), -(int)(random_bits() % 90) - 20),
			tie, -tie, ldexp(1, (int)(random_bits() % 240) - 120),
			(double)(rand() % 100000) / 1000, /* few digits: trailing zeros */
		};
		for (size_t k = 0; k < sizeof reals / sizeof *reals; k++)
			wrong += isfinite(reals[k]) && !real_as_jansson(reals[k]);
	}
	static const double edges[] = { 1e-5, 9.9999999999999991e-6, 1e-6, 9.9999999999999995e-7,
					1e-4, 1e16, 9.9999999999999984e15, 1e17,
					9.9999999999999984e16, 0.30000000000000004, 5e-324, -0.0 };
	for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
		real_as_jansson(edges[i]);
}

/* A random string of every kind jansson holds: quotes, backslashes,
 * control characters, DEL, slashes, two- and four-byte UTF-8, and (in a
 * value, not a key) NUL. */
static json_t *random_string(uint64_t *rng, bool key, char *text)
{
	static const char *const parts[] = { "a", "Zz9", "\"", "\\", "/", "\n", "\t", "\x01",
					     "\x1f", "\x7f", "\xc3\xa9", "\xf0\x9f\x90\x89", " " };
	size_t len = 0, n = gen_rand(rng) % 6;
	for (size_t i = 0; i < n; i++) {
		if (!key && gen_rand(rng) % 9 == 0) {
			text[len++] = '\0';
			continue;
		}
		const char *p = parts[gen_rand(rng) % (sizeof parts / sizeof *parts)];
		memcpy(text + len, p, strlen(p));
		len += strlen(p);
	}
	text[len] = '\0';
	return json_stringn(text, len);
}

static json_t *random_tree(uint64_t *rng, int depth)
{
	char text[64];
	switch (gen_rand(rng) % (depth < 4 ? 9 : 6)) {
	case 0:
		return json_integer((json_int_t)gen_rand(rng) >> (gen_rand(rng) % 64));
	case 1:
		return json_integer(gen_rand(rng) % 2 ? INT64_MIN : INT64_MAX);
	case 2:
		return json_real(ldexp((double)(gen_rand(rng) >> 11), (int)(gen_rand(rng) % 80) - 60));
	case 3:
		return random_string(rng, false, text);
	case 4:
		return gen_rand(rng) % 2 ? json_true() : json_false();
	case 5:
		return json_null();
	case 6:
	case 7: {
		json_t *a = json_array();
		for (uint64_t i = gen_rand(rng) % 5; i > 0; i--)
			json_array_append_new(a, random_tree(rng, depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (uint64_t i = gen_rand(rng) % 5; i > 0; i--) {
			json_t *k = random_string(rng, true, text);
			json_object_set_new(o, json_string_value(k), random_tree(rng, depth + 1));
			json_decref(k);
		}
		return o;
	}
	}
}

/* jtext_json writes a replay: whatever the tree, json_dumps' bytes. */
Test(json_text, whole_trees_are_written_as_jansson_dumps_them)
{
	uint64_t rng = 29;
	for (int i = 0; i < 3000; i++) {
		json_t *tree = random_tree(&rng, 0);
		struct jtext t = { 0 };
		jtext_json(&t, tree);
		size_t len;
		char *mine = jtext_finish(&t, &len);
		char *theirs = json_dumps(tree, JSON_COMPACT | JSON_ENCODE_ANY);
		cr_assert(mine && theirs);
		cr_assert(len == strlen(theirs) && memcmp(mine, theirs, len) == 0,
			  "tree %d: jtext wrote %s, jansson %s", i, mine, theirs);
		free(mine);
		free(theirs);
		json_decref(tree);
	}
}

/* grow_room: doubles from the first capacity, keeps what the array held,
 * and on a size past SIZE_MAX leaves the array and its capacity alone. */
Test(grow, doubles_keeps_the_contents_and_fails_without_losing_them)
{
	int *v = NULL;
	size_t cap = 0;
	cr_assert(grow_room(&v, &cap, 1, sizeof *v, 4));
	cr_assert_eq(cap, 4);
	for (int i = 0; i < 4; i++)
		v[i] = i * 7;
	cr_assert(grow_room(&v, &cap, 4, sizeof *v, 4));
	cr_assert_eq(cap, 4, "room enough: no move");
	cr_assert(grow_room(&v, &cap, 9, sizeof *v, 4));
	cr_assert_eq(cap, 16);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(v[i], i * 7);
	int *before = v;
	cr_assert_not(grow_room(&v, &cap, SIZE_MAX / 2, sizeof *v, 4));
	cr_assert_eq(v, before);
	cr_assert_eq(cap, 16);
	free(v);
}
