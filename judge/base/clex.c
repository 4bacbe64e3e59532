#include "judge/base/clex.h"

#include <stdlib.h>
#include <string.h>

static const char *const punct_spell[CLEX_P_COUNT] = {
	"[", "]", "(", ")", "{", "}", ".", "->",
	"++", "--", "&", "*", "+", "-", "~", "!",
	"/", "%", "<<", ">>", "<", ">", "<=", ">=",
	"==", "!=", "^", "|", "&&", "||", "?", ":",
	";", "...", "=", "*=", "/=", "%=", "+=", "-=",
	"<<=", ">>=", "&=", "^=", "|=", ",", "#", "##",
};

static const struct digraph {
	const char *s;
	enum clex_punct p;
} digraphs[] = {
	{ "<:", CLEX_P_LBRACKET }, { ":>", CLEX_P_RBRACKET },
	{ "<%", CLEX_P_LBRACE },   { "%>", CLEX_P_RBRACE },
	{ "%:", CLEX_P_HASH },     { "%:%:", CLEX_P_HASHHASH },
};

const char *clex_punct_spelling(unsigned p)
{
	return p < CLEX_P_COUNT ? punct_spell[p] : NULL;
}

int clex_punct_lookup(const char *s, size_t len)
{
	for (unsigned p = 0; p < CLEX_P_COUNT; p++)
		if (strlen(punct_spell[p]) == len && memcmp(punct_spell[p], s, len) == 0)
			return (int)p;
	return -1;
}

/* ---- phases 1 and 2 */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Length of a splice at src[i] ("\\", blanks, "\n"), or 0.  GCC splices
 * also with blanks before the newline, so a copier or a contestant cannot
 * hide a token behind them from us and not from it. */
static size_t splice_at(const char *src, size_t len, size_t i)
{
	if (src[i] != '\\')
		return 0;
	size_t j = i + 1;
	while (j < len && is_blank(src[j]))
		j++;
	return j < len && src[j] == '\n' ? j + 1 - i : 0;
}

int clex_splice(const char *src, size_t len, struct clex_text *out)
{
	out->c = malloc(len + 1);
	out->line = malloc((len + 1) * sizeof *out->line);
	out->n = 0;
	if (!out->c || !out->line) {
		clex_text_free(out);
		return -1;
	}
	uint32_t line = 1;
	for (size_t i = 0; i < len;) {
		size_t sp = splice_at(src, len, i);
		if (sp) {
			line++;
			i += sp;
			continue;
		}
		if (src[i] == '\r' && i + 1 < len && src[i + 1] == '\n')
			i++;
		out->c[out->n] = src[i];
		out->line[out->n++] = line;
		line += src[i++] == '\n';
	}
	out->c[out->n] = '\0';
	out->line[out->n] = line;
	return 0;
}

void clex_text_free(struct clex_text *t)
{
	free(t->c);
	free(t->line);
	*t = (struct clex_text){ 0 };
}

/* ---- phase 3 */

void clex_init(struct clex *lx, const struct clex_text *t, unsigned opts)
{
	*lx = (struct clex){
		.c = t->c, .end = t->n, .lines = t->line, .opts = opts,
		.flags = CLEX_BOL | CLEX_SPACE,
	};
}

void clex_init_line(struct clex *lx, const char *c, size_t n, uint32_t line, unsigned opts)
{
	*lx = (struct clex){
		.c = c, .end = n, .line = line, .opts = opts, .flags = CLEX_BOL | CLEX_SPACE,
	};
}

uint32_t clex_line_at(const struct clex *lx, size_t i)
{
	return lx->lines ? lx->lines[i < lx->end ? i : lx->end] : lx->line;
}

static char peek(const struct clex *lx, size_t ahead)
{
	return lx->i + ahead < lx->end ? lx->c[lx->i + ahead] : '\0';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word_char(char c)
{
	unsigned char u = (unsigned char)c;
	return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || is_digit(c) || u == '_' ||
	       u == '$' || u >= 0x80;
}

static void start_token(struct clex *lx, struct clex_token *t, enum clex_kind kind)
{
	*t = (struct clex_token){
		.kind = kind, .flags = lx->flags, .line = clex_line_at(lx, lx->i), .start = lx->i,
	};
	lx->flags = 0;
}

static void end_token(const struct clex *lx, struct clex_token *t)
{
	t->len = lx->i - t->start;
}

/* From the comment's opening to past its end, or to the end of the text. */
static bool skip_block_comment(struct clex *lx)
{
	for (lx->i += 2; lx->i + 1 < lx->end; lx->i++) {
		if (lx->c[lx->i] == '*' && lx->c[lx->i + 1] == '/') {
			lx->i += 2;
			return true;
		}
	}
	lx->i = lx->end;
	return false;
}

/* Up to the newline, which the next round sees. */
static void skip_line_comment(struct clex *lx)
{
	const char *nl = memchr(lx->c + lx->i, '\n', lx->end - lx->i);
	lx->i = nl ? (size_t)(nl - lx->c) : lx->end;
}

/* A comment at the cursor, skipped (or made a token under
 * CLEX_KEEP_COMMENTS, then true); false when there is none. */
static bool comment(struct clex *lx, struct clex_token *t, bool *made)
{
	char d = peek(lx, 1);
	if (lx->c[lx->i] != '/' || (d != '*' && d != '/'))
		return false;
	bool keep = lx->opts & CLEX_KEEP_COMMENTS;
	uint8_t flags = lx->flags;
	uint32_t line = clex_line_at(lx, lx->i);
	if (keep)
		start_token(lx, t, CLEX_COMMENT);
	/* a comment is one space: the token after it may still open the line */
	lx->flags = flags | CLEX_SPACE;
	if (d == '/') {
		skip_line_comment(lx);
	} else if (!skip_block_comment(lx)) {
		lx->open_comment = line;
		if (keep)
			t->flags |= CLEX_OPEN;
	}
	if (keep)
		end_token(lx, t);
	*made = keep;
	return true;
}

/* Blanks, newlines and comments; true when a comment token was made. */
static bool skip_layout(struct clex *lx, struct clex_token *t)
{
	bool made = false;
	while (lx->i < lx->end) {
		char c = lx->c[lx->i];
		if (c == '\n') {
			lx->flags |= CLEX_BOL | CLEX_SPACE;
			lx->i++;
		} else if (is_blank(c)) {
			lx->flags |= CLEX_SPACE;
			lx->i++;
		} else if (!comment(lx, t, &made) || made) {
			break;
		}
	}
	return made;
}

/* From the opening quote to past the closing one; an unescaped newline
 * ends it unterminated, before the newline. */
static void literal(struct clex *lx, struct clex_token *t, char quote)
{
	t->kind = quote == '"' ? CLEX_STRING : CLEX_CHAR;
	t->flags |= CLEX_OPEN;
	for (lx->i++; lx->i < lx->end; lx->i++) {
		char c = lx->c[lx->i];
		if (c == quote) {
			lx->i++;
			t->flags &= (uint8_t)~CLEX_OPEN;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\' && lx->i + 1 < lx->end && lx->c[lx->i + 1] != '\n')
			lx->i++; /* the escaped character */
	}
}

static bool is_literal_prefix(const char *w, size_t n)
{
	return (n == 1 && (w[0] == 'L' || w[0] == 'u' || w[0] == 'U')) ||
	       (n == 2 && w[0] == 'u' && w[1] == '8');
}

static void word(struct clex *lx, struct clex_token *t)
{
	while (lx->i < lx->end && is_word_char(lx->c[lx->i]))
		lx->i++;
	char q = peek(lx, 0);
	if ((q == '"' || q == '\'') && is_literal_prefix(lx->c + t->start, lx->i - t->start))
		literal(lx, t, q);
}

/* In 0xe+1 the + belongs to the number, and in 1R"x( the R does (so no
 * raw string starts): the C standard's pp-number. */
static void number(struct clex *lx)
{
	bool c23 = lx->opts & CLEX_C23_NUMBERS;
	while (lx->i < lx->end) {
		char c = lx->c[lx->i], d = peek(lx, 1);
		if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (d == '+' || d == '-'))
			lx->i += 2;
		else if (c23 && c == '\'' && is_word_char(d) && d != '$')
			lx->i += 2;
		else if (c == '.' || (is_word_char(c) && !(c23 && c == '$')))
			lx->i++;
		else
			break;
	}
}

/* The length of s when it stands at the cursor and is longer than best;
 * else 0. */
static size_t longer_match(const struct clex *lx, const char *s, size_t best)
{
	/* the first byte rules out nearly every spelling cheaply: this runs
	 * for each spelling at each punctuator of every file read */
	if (s[0] != lx->c[lx->i])
		return 0;
	size_t len = strlen(s);
	return len > best && len <= lx->end - lx->i && memcmp(s, lx->c + lx->i, len) == 0 ? len : 0;
}

/* The longest punctuator or digraph; a byte that starts none is OTHER. */
static void punct(struct clex *lx, struct clex_token *t)
{
	size_t best = 0, len;
	int p = -1;
	for (unsigned k = 0; k < CLEX_P_COUNT; k++)
		if ((len = longer_match(lx, punct_spell[k], best)))
			best = len, p = (int)k;
	for (size_t k = 0; k < sizeof digraphs / sizeof digraphs[0]; k++)
		if ((len = longer_match(lx, digraphs[k].s, best)))
			best = len, p = (int)digraphs[k].p;
	if (p < 0) {
		lx->i++;
		t->kind = CLEX_OTHER;
		return;
	}
	lx->i += best;
	t->punct = (uint8_t)p;
}

bool clex_next(struct clex *lx, struct clex_token *t)
{
	if (skip_layout(lx, t))
		return true;
	if (lx->i >= lx->end) {
		start_token(lx, t, CLEX_END);
		return false;
	}
	char c = lx->c[lx->i];
	if (c == '"' || c == '\'') {
		start_token(lx, t, CLEX_STRING);
		literal(lx, t, c);
	} else if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1)))) {
		start_token(lx, t, CLEX_NUMBER);
		number(lx);
	} else if (is_word_char(c)) {
		start_token(lx, t, CLEX_WORD);
		word(lx, t);
	} else {
		start_token(lx, t, CLEX_PUNCT);
		punct(lx, t);
	}
	end_token(lx, t);
	return true;
}

bool clex_header_name(struct clex *lx, struct clex_token *t)
{
	struct clex ahead = *lx;
	ahead.opts &= ~CLEX_KEEP_COMMENTS;
	skip_layout(&ahead, t);
	char open = ahead.i < ahead.end ? ahead.c[ahead.i] : '\0';
	if ((ahead.flags & CLEX_BOL) || (open != '<' && open != '"'))
		return false;
	*lx = ahead;
	start_token(lx, t, CLEX_HEADER);
	char close = open == '<' ? '>' : '"';
	for (lx->i++; lx->i < lx->end && lx->c[lx->i] != close && lx->c[lx->i] != '\n';)
		lx->i++;
	if (lx->i < lx->end && lx->c[lx->i] == close)
		lx->i++;
	else
		t->flags |= CLEX_OPEN;
	end_token(lx, t);
	return true;
}
