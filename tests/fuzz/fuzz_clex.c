/* fuzz_clex.c - hostile bytes through the one C lexer (judge/base/clex.c)
 * and everything that reads C with it: the compile step's source and
 * gcc -E checks, the player's name, and the plagiarism tokenizer with its
 * macro expansion.
 * Checks that every token lies inside the text, after the one before it,
 * on a line no earlier; that the checks answer 0, 1 or -1 with a message;
 * and that the tokenizer's lines are lines of the input. */
#define FUZZ_NAME "fuzz_clex"
#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <string.h>

#include "judge/base/clex.h"
#include "judge/compile/cscan.h"
#include "judge/plag/plag_tokens.h"

static void check_tokens(struct clex *lx, uint32_t last_line)
{
	struct clex_token t;
	size_t end = 0;
	uint32_t line = 0;
	while (clex_next(lx, &t)) {
		check(t.kind != CLEX_END && t.len > 0, "an empty token at %zu", t.start);
		check(t.start >= end && t.start + t.len <= lx->end, "token %zu+%zu out of order or "
		      "outside the text (%zu bytes)", t.start, t.len, lx->end);
		check(t.line >= line && t.line >= 1 && t.line <= last_line, "token at %zu on line %u",
		      t.start, t.line);
		check(t.kind != CLEX_PUNCT || clex_punct_spelling(t.punct), "punctuator %u", t.punct);
		end = t.start + t.len;
		line = t.line;
		if (t.kind == CLEX_WORD && t.len == 7 && memcmp(lx->c + t.start, "include", 7) == 0 &&
		    clex_header_name(lx, &t)) {
			check(t.kind == CLEX_HEADER && t.start >= end && t.start + t.len <= lx->end,
			      "header name %zu+%zu", t.start, t.len);
			end = t.start + t.len;
		}
	}
	check(lx->i == lx->end, "the cursor stopped at %zu of %zu", lx->i, lx->end);
}

static uint32_t lines_of(const char *s, size_t n)
{
	uint32_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

static void lex_everything(const char *src, size_t n)
{
	struct clex_text text;
	struct clex lx;
	check(clex_splice(src, n, &text) == 0, "out of memory splicing %zu bytes", n);
	check(text.n <= n && text.c[text.n] == '\0', "spliced %zu bytes into %zu", n, text.n);
	for (unsigned opts = 0; opts < 4; opts++) {
		clex_init(&lx, &text, opts);
		check_tokens(&lx, lines_of(src, n));
	}
	clex_text_free(&text);
	clex_init_line(&lx, src, n, 3, CLEX_KEEP_COMMENTS);
	check_tokens(&lx, 3);
}

static void check_verdict(const char *what, int rc, const struct err *err)
{
	check(rc >= -1 && rc <= 1, "%s answered %d", what, rc);
	check(rc == 0 || (memchr(err->msg, '\0', ERR_LEN) && err->msg[0]), "%s refused in silence",
	      what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *src = (const char *)data;
	err_t err = {0};
	err_t perr;
	lex_everything(src, size);
	check_verdict("cscan_source", cscan_source("AIName.c", src, size, "dominator.h", err), err);
	struct cscan_names names;
	check(cscan_player_names(src, size, &names) == 0, "cscan_player_names failed");
	check(names.count >= 0 && names.line <= lines_of(src, size) && strlen(names.name) <= PLAYER_NAME_MAX,
	      "names: %d, line %u", names.count, names.line);
	err->msg[0] = '\0';
	check_verdict("cscan_preprocessed",
		      cscan_preprocessed("AIName.c", src, size, "dominator.h", "course.h", err), err);

	struct plag_tok_limits lim;
	struct plag_tokens toks;
	plag_tok_limits_default(&lim);
	lim.max_depth = 16;
	lim.max_tokens = 1 << 16;
	lim.max_expansion = 1 << 16;
	if (plag_tokenize(src, size, &lim, &toks, perr) == PLAG_OK) {
		uint32_t lines = lines_of(src, size);
		for (size_t i = 0; i < toks.n; i++)
			check(toks.v[i].line >= 1 && toks.v[i].line <= lines, "plag token %zu on line %u",
			      i, toks.v[i].line);
		plag_tokens_free(&toks);
	}
	return 0;
}
