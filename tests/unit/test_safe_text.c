/* safe_text: what may reach a terminal or a page as itself (text_char). */
#include <criterion/criterion.h>
#include <string.h>

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
