/* safe_text: what may reach a terminal or a page as itself (text_char). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/json_text.h"
#include "judge/base/safe_text.h"

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
