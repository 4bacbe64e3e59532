/* clex: C source as preprocessing tokens, read as GCC reads it (phases 1-3). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "judge/base/clex.h"

/* The tokens as "KIND LINE:TEXT" words, '^' before a token that starts a
 * logical line, '+' after one left unterminated; src is spliced first
 * unless line is nonzero (one line of gcc -E output). */
static const char *render_n(const char *src, size_t len, unsigned opts, uint32_t line)
{
	static const char kinds[] = "-WNSCPOMH";
	static char out[4096];
	struct clex_text text = { 0 };
	struct clex lx;
	struct clex_token t;
	size_t n = 0;
	if (line) {
		clex_init_line(&lx, src, len, line, opts);
	} else {
		cr_assert_eq(clex_splice(src, len, &text), 0);
		clex_init(&lx, &text, opts);
	}
	out[0] = '\0';
	while (clex_next(&lx, &t) && n < sizeof out - 200)
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s%c%u:%.*s%s", n ? " " : "",
				      t.flags & CLEX_BOL ? "^" : "", kinds[t.kind], t.line,
				      (int)t.len, lx.c + t.start, t.flags & CLEX_OPEN ? "+" : "");
	cr_expect_eq(t.kind, CLEX_END);
	clex_text_free(&text);
	return out;
}

static const char *render(const char *src, unsigned opts)
{
	return render_n(src, strlen(src), opts, 0);
}

#define EXPECT_TOKENS(src, opts, want) cr_expect_str_eq(render(src, opts), want, "%s", src)

/* A cursor at the start of src, spliced into *text (clex_text_free). */
static void start(const char *src, struct clex_text *text, struct clex *lx)
{
	cr_assert_eq(clex_splice(src, strlen(src), text), 0);
	clex_init(lx, text, 0);
}

Test(clex, splices_go_first_and_tokens_keep_their_lines)
{
	EXPECT_TOKENS("ret\\\nurn 1;\n", 0, "^W1:return N2:1 P2:;");
	/* blanks between the backslash and the newline, as GCC takes them */
	EXPECT_TOKENS("a\\ \t\f\v\r\nb c\n", 0, "^W1:ab W2:c");
	EXPECT_TOKENS("x\r\ny\r\n", 0, "^W1:x ^W2:y");
	/* one backslash left before a newline: GCC splices once */
	EXPECT_TOKENS("a \\\\\nb\n", 0, "^W1:a O1:\\ W2:b");
	EXPECT_TOKENS("// a comment \\\nstill one\nx\n", 0, "^W3:x");
}

Test(clex, comments_are_layout_and_leave_a_line_start)
{
	EXPECT_TOKENS("/* a\n b */ # x\nint/**/y;\n", 0, "^P2:# W2:x ^W3:int W3:y P3:;");
	EXPECT_TOKENS("a // b\n/* never closed\n c", 0, "^W1:a");
	EXPECT_TOKENS("a /* b */ c // d\n", CLEX_KEEP_COMMENTS,
		      "^W1:a M1:/* b */ W1:c M1:// d");
	EXPECT_TOKENS("/* never closed\n", CLEX_KEEP_COMMENTS, "^M1:/* never closed\n+");

	struct clex_text text;
	struct clex lx;
	struct clex_token t;
	start("a\n\nb /* c\n", &text, &lx);
	while (clex_next(&lx, &t))
		;
	cr_expect_eq(lx.open_comment, 3, "the line an unterminated comment starts on");
	clex_text_free(&text);
}

Test(clex, literals_with_prefixes_end_with_their_line)
{
	EXPECT_TOKENS("L\"a\" u8\"b\" u'c' U\"d\" x\"e\"", 0,
		      "^S1:L\"a\" S1:u8\"b\" C1:u'c' S1:U\"d\" W1:x S1:\"e\"");
	EXPECT_TOKENS("\"a\\\"b\" '\\''", 0, "^S1:\"a\\\"b\" C1:'\\''");
	EXPECT_TOKENS("\"open\nx 'y\n", 0, "^S1:\"open+ ^W2:x C2:'y+");
	/* a raw string prefix is a name: the checks decide what to make of it */
	EXPECT_TOKENS("R\"x(a)x\"", 0, "^W1:R S1:\"x(a)x\"");
}

Test(clex, pp_numbers_as_gcc_reads_them_and_as_c23_does)
{
	EXPECT_TOKENS("0x1p-3 1e+5 .5e-1 0xe+1 1R\"", 0,
		      "^N1:0x1p-3 N1:1e+5 N1:.5e-1 N1:0xe+1 N1:1R S1:\"+");
	EXPECT_TOKENS("1$x 1'000", 0, "^N1:1$x N1:1 C1:'000+");
	EXPECT_TOKENS("1$x 1'000", CLEX_C23_NUMBERS, "^N1:1 W1:$x N1:1'000");
	EXPECT_TOKENS("...5 ..5", 0, "^P1:... N1:5 P1:. N1:.5");
}

Test(clex, identifiers_punctuators_and_digraphs)
{
	EXPECT_TOKENS("$a caf\xc3\xa9 @`", 0, "^W1:$a W1:caf\xc3\xa9 O1:@ O1:`");
	EXPECT_TOKENS("a<<=b->c...d##e", 0, "^W1:a P1:<<= W1:b P1:-> W1:c P1:... W1:d P1:## W1:e");
	EXPECT_TOKENS("%:%: %:# <::> <%%>", 0, "^P1:%:%: P1:%: P1:# P1:<: P1::> P1:<% P1:%>");

	struct clex_text text;
	struct clex lx;
	struct clex_token t;
	start("<:%:%:", &text, &lx);
	cr_assert(clex_next(&lx, &t));
	cr_expect_eq(t.punct, CLEX_P_LBRACKET);
	cr_assert(clex_next(&lx, &t));
	cr_expect_eq(t.punct, CLEX_P_HASHHASH);
	clex_text_free(&text);
	cr_expect_str_eq(clex_punct_spelling(CLEX_P_SHL_ASSIGN), "<<=");
	cr_expect_eq(clex_punct_lookup("->", 2), CLEX_P_ARROW);
	cr_expect_eq(clex_punct_lookup("<:", 2), -1);
}

Test(clex, header_names_only_where_asked)
{
	struct clex_text text;
	struct clex lx;
	struct clex_token t;
	const char *src = "include /* c */ <a b.h> x\ninclude \"open\ninclude\n<y.h>\n";
	start(src, &text, &lx);
	for (int k = 0; k < 3; k++) {
		cr_assert(clex_next(&lx, &t));
		cr_assert_eq(t.len, 7, "include");
		bool got = clex_header_name(&lx, &t);
		cr_expect_eq(got, k < 2, "header name %d", k);
		if (k == 0)
			cr_expect(t.kind == CLEX_HEADER && t.len == 7 && !(t.flags & CLEX_OPEN));
		if (k == 1)
			cr_expect(t.kind == CLEX_HEADER && t.len == 5 && (t.flags & CLEX_OPEN));
		if (k == 0 && clex_next(&lx, &t))
			cr_expect(t.kind == CLEX_WORD && lx.c[t.start] == 'x');
	}
	cr_expect(clex_next(&lx, &t) && t.kind == CLEX_PUNCT && t.line == 4, "<y.h> is tokens");
	clex_text_free(&text);
}

Test(clex, one_line_of_output_and_any_bytes)
{
	cr_expect_str_eq(render_n("a \"b\\\n", 6, 0, 7), "^W7:a S7:\"b\\+");
	cr_expect_str_eq(render_n("u8", 2, 0, 1), "^W1:u8");
	cr_expect_str_eq(render_n("1e", 2, 0, 1), "^N1:1e");
	cr_expect_str_eq(render_n("'\\", 2, 0, 1), "^C1:'\\+");

	/* NUL bytes are read as bytes, and nothing past the text */
	static const uint8_t kinds[] = { CLEX_WORD, CLEX_OTHER, CLEX_STRING, CLEX_NUMBER };
	static const size_t lens[] = { 1, 1, 3, 2 };
	struct clex lx;
	struct clex_token t;
	clex_init_line(&lx, "a\0\"\0\"1e", 7, 1, 0);
	for (size_t k = 0; k < 4; k++) {
		cr_assert(clex_next(&lx, &t), "token %zu", k);
		cr_expect(t.kind == kinds[k] && t.len == lens[k], "token %zu", k);
	}
	cr_expect_not(clex_next(&lx, &t));
}
