#include "judge/plag/plag_lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Spelling tables.  Their order defines the token codes: append only. */

static const char *const punct_spell[PLAG_P_COUNT] = {
	"[", "]", "(", ")", "{", "}", ".", "->",
	"++", "--", "&", "*", "+", "-", "~", "!",
	"/", "%", "<<", ">>", "<", ">", "<=", ">=",
	"==", "!=", "^", "|", "&&", "||", "?", ":",
	";", "...", "=", "*=", "/=", "%=", "+=", "-=",
	"<<=", ">>=", "&=", "^=", "|=", ",", "#", "##",
};

struct digraph {
	const char *s;
	enum plag_punct p;
};

static const struct digraph digraphs[] = {
	{ "<:", PLAG_P_LBRACKET }, { ":>", PLAG_P_RBRACKET },
	{ "<%", PLAG_P_LBRACE },   { "%>", PLAG_P_RBRACE },
	{ "%:", PLAG_P_HASH },     { "%:%:", PLAG_P_HASHHASH },
};

/* C17, C23 and the GNU spellings students meet.  Index = code offset. */
static const char *const keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short", "signed",
	"sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
	"volatile", "while", "bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
	"alignas", "alignof", "_Atomic", "static_assert", "thread_local", "constexpr",
	"false", "nullptr", "true", "typeof", "typeof_unqual", "asm", "__attribute__",
	"__extension__",
};

#define NKEYWORDS (sizeof keywords / sizeof keywords[0])

/* Synonyms a copier may swap in for free; they take the canonical code. */
struct kw_alias {
	const char *alias, *canon;
};

static const struct kw_alias kw_aliases[] = {
	{ "_Bool", "bool" },           { "_Alignas", "alignas" },
	{ "_Alignof", "alignof" },     { "__alignof__", "alignof" },
	{ "_Static_assert", "static_assert" }, { "_Thread_local", "thread_local" },
	{ "__asm__", "asm" },          { "__asm", "asm" },
	{ "__inline__", "inline" },    { "__inline", "inline" },
	{ "__typeof__", "typeof" },    { "__typeof", "typeof" },
	{ "__restrict__", "restrict" }, { "__restrict", "restrict" },
	{ "__volatile__", "volatile" }, { "__const", "const" },
	{ "__signed__", "signed" },    { "__attribute", "__attribute__" },
};

#define NALIASES (sizeof kw_aliases / sizeof kw_aliases[0])

_Static_assert(PLAG_TOK_KEYWORD + NKEYWORDS <= PLAG_TOK_PUNCT, "keyword codes overflow");

const char *plag_punct_spelling(unsigned p)
{
	return p < PLAG_P_COUNT ? punct_spell[p] : NULL;
}

int plag_punct_lookup(const char *s, size_t len)
{
	for (unsigned p = 0; p < PLAG_P_COUNT; p++)
		if (strlen(punct_spell[p]) == len && memcmp(punct_spell[p], s, len) == 0)
			return (int)p;
	return -1;
}

unsigned plag_nkeywords(void)
{
	return NKEYWORDS + NALIASES;
}

static unsigned keyword_index(const char *s)
{
	for (unsigned k = 0; k < NKEYWORDS; k++)
		if (strcmp(keywords[k], s) == 0)
			return k;
	abort(); /* the alias table names a keyword that is not in the list */
}

uint32_t plag_keyword_code(uint32_t atom)
{
	if (atom < NKEYWORDS)
		return PLAG_TOK_KEYWORD + atom;
	return PLAG_TOK_KEYWORD + keyword_index(kw_aliases[atom - NKEYWORDS].canon);
}

const char *plag_keyword_spelling(unsigned k)
{
	return k < NKEYWORDS ? keywords[k] : NULL;
}

/* ---- Atoms */

/* Spellings come from untrusted files; a multiplicative mix over 8-byte
 * words spreads them well enough that the table stays near O(1). */
static uint64_t spelling_hash(const char *s, size_t len)
{
	uint64_t h = 0x243f6a8885a308d3ULL ^ len;
	while (len > 0) {
		uint64_t w = 0;
		size_t m = len < 8 ? len : 8;
		memcpy(&w, s, m);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
		s += m;
		len -= m;
	}
	return h * 0xbf58476d1ce4e5b9ULL ^ (h >> 32);
}

static bool atoms_rehash(struct plag_atoms *a, uint32_t nslot)
{
	uint32_t *slot = calloc(nslot, sizeof *slot);
	if (!slot)
		return false;
	for (uint32_t id = 0; id < a->n; id++) {
		uint32_t i = (uint32_t)spelling_hash(a->text + a->off[id], a->len[id]) & (nslot - 1);
		while (slot[i])
			i = (i + 1) & (nslot - 1);
		slot[i] = id + 1;
	}
	free(a->slot);
	a->slot = slot;
	a->nslot = nslot;
	return true;
}

static bool atoms_reserve(struct plag_atoms *a, size_t bytes)
{
	if (a->used + bytes > a->cap) {
		size_t cap = a->cap ? a->cap : 4096;
		while (cap < a->used + bytes)
			cap *= 2;
		char *t = realloc(a->text, cap);
		if (!t)
			return false;
		a->text = t;
		a->cap = cap;
	}
	if (a->n == a->ncap) {
		uint32_t ncap = a->ncap ? a->ncap * 2 : 256;
		uint32_t *off = realloc(a->off, ncap * sizeof *off);
		if (off)
			a->off = off;
		uint32_t *len = realloc(a->len, ncap * sizeof *len);
		if (len)
			a->len = len;
		if (!off || !len)
			return false;
		a->ncap = ncap;
	}
	/* Keep the load factor under one half. */
	if ((a->n + 1) * 2 > a->nslot)
		return atoms_rehash(a, a->nslot ? a->nslot * 2 : 1024);
	return true;
}

enum plag_err plag_atom(struct plag_atoms *a, const char *s, size_t len, uint32_t *id)
{
	uint32_t i = a->nslot ? (uint32_t)spelling_hash(s, len) & (a->nslot - 1) : 0;
	for (; a->nslot && a->slot[i]; i = (i + 1) & (a->nslot - 1)) {
		uint32_t c = a->slot[i] - 1;
		if (a->len[c] == len && memcmp(a->text + a->off[c], s, len) == 0) {
			*id = c;
			return PLAG_OK;
		}
	}
	if (a->used + len + 1 > a->limit || a->n == UINT32_MAX - 1)
		return PLAG_E_TOO_MANY;
	if (!atoms_reserve(a, len + 1))
		return PLAG_E_NOMEM;
	i = (uint32_t)spelling_hash(s, len) & (a->nslot - 1);
	while (a->slot[i])
		i = (i + 1) & (a->nslot - 1);
	memcpy(a->text + a->used, s, len);
	a->text[a->used + len] = '\0';
	a->off[a->n] = (uint32_t)a->used;
	a->len[a->n] = (uint32_t)len;
	a->used += len + 1;
	a->slot[i] = a->n + 1;
	*id = a->n++;
	return PLAG_OK;
}

const char *plag_atom_text(const struct plag_atoms *a, uint32_t id, size_t *len)
{
	*len = a->len[id];
	return a->text + a->off[id];
}

void plag_atoms_free(struct plag_atoms *a)
{
	free(a->text);
	free(a->off);
	free(a->len);
	free(a->slot);
	memset(a, 0, sizeof *a);
}

/* Keywords first, so that "atom < plag_nkeywords()" means keyword. */
enum plag_err plag_atoms_init(struct plag_atoms *a, size_t limit)
{
	memset(a, 0, sizeof *a);
	a->limit = limit;
	uint32_t id;
	for (unsigned k = 0; k < NKEYWORDS; k++) {
		enum plag_err e = plag_atom(a, keywords[k], strlen(keywords[k]), &id);
		if (e)
			return e;
	}
	for (unsigned k = 0; k < NALIASES; k++) {
		enum plag_err e = plag_atom(a, kw_aliases[k].alias, strlen(kw_aliases[k].alias), &id);
		if (e)
			return e;
	}
	return PLAG_OK;
}

/* ---- Lexer */

/* Translation phase 2 first: every backslash-newline goes, as in GCC also
 * when blanks separate the two (a copier could otherwise split "return"
 * or hide tokens behind splices for free).  line[i] is the source line of
 * text[i]. */
struct spliced {
	char *text;
	uint32_t *line;
	size_t len;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Length of a splice at src[i] ("\\", blanks, "\n"), or 0. */
static size_t splice_at(const char *src, size_t len, size_t i)
{
	if (src[i] != '\\')
		return 0;
	size_t j = i + 1;
	while (j < len && is_blank(src[j]))
		j++;
	return j < len && src[j] == '\n' ? j + 1 - i : 0;
}

static bool splice(const char *src, size_t len, struct spliced *out)
{
	out->text = malloc(len ? len : 1);
	out->line = malloc((len ? len : 1) * sizeof *out->line);
	out->len = 0;
	if (!out->text || !out->line)
		return false;
	uint32_t line = 1;
	for (size_t i = 0; i < len;) {
		size_t sp = splice_at(src, len, i);
		if (sp) {
			line++;
			i += sp;
			continue;
		}
		out->text[out->len] = src[i];
		out->line[out->len++] = line;
		line += src[i++] == '\n';
	}
	return true;
}

struct lexer {
	const char *s;
	const uint32_t *lines; /* source line of s[i] */
	size_t len, i;
	uint8_t flags; /* BOL / SPACE for the next token */
	struct plag_atoms *atoms;
	struct plag_raw *out;
	size_t n;
	char *err;
};

static bool is_word_char(unsigned char c)
{
	/* '$' is a GNU identifier character; bytes >= 0x80 are UTF-8 letters. */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c >= 0x80;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char peek(const struct lexer *lx, size_t ahead)
{
	return lx->i + ahead < lx->len ? lx->s[lx->i + ahead] : '\0';
}

static enum plag_err skip_block_comment(struct lexer *lx)
{
	uint32_t start = lx->lines[lx->i];
	for (lx->i += 2; lx->i + 1 < lx->len; lx->i++) {
		if (lx->s[lx->i] == '*' && lx->s[lx->i + 1] == '/') {
			lx->i += 2;
			return PLAG_OK;
		}
	}
	snprintf(lx->err, PLAG_ERRLEN, "unterminated comment starting at line %u", start);
	return PLAG_E_SYNTAX;
}

static enum plag_err skip_layout(struct lexer *lx)
{
	while (lx->i < lx->len) {
		char c = lx->s[lx->i];
		if (c == '\n') {
			lx->flags |= PLAG_RAW_BOL | PLAG_RAW_SPACE;
			lx->i++;
		} else if (is_blank(c)) {
			lx->flags |= PLAG_RAW_SPACE;
			lx->i++;
		} else if (c == '/' && peek(lx, 1) == '*') {
			lx->flags |= PLAG_RAW_SPACE;
			enum plag_err e = skip_block_comment(lx);
			if (e)
				return e;
		} else if (c == '/' && peek(lx, 1) == '/') {
			/* Up to the newline, which the next round sees. */
			lx->flags |= PLAG_RAW_SPACE;
			while (lx->i < lx->len && lx->s[lx->i] != '\n')
				lx->i++;
		} else {
			break;
		}
	}
	return PLAG_OK;
}

/* A token that began at text offset start. */
static void emit(struct lexer *lx, enum plag_raw_kind kind, uint32_t val, size_t start)
{
	lx->out[lx->n++] = (struct plag_raw){
		.kind = kind, .flags = lx->flags, .val = val, .line = lx->lines[start],
	};
	lx->flags = 0;
}

/* From the opening quote (the prefix, if any, began at start); an
 * unescaped newline ends it unterminated. */
static void lex_literal(struct lexer *lx, char quote, size_t start)
{
	for (lx->i++; lx->i < lx->len; lx->i++) {
		char c = lx->s[lx->i];
		if (c == quote) {
			lx->i++;
			break;
		}
		if (c == '\n')
			break;
		if (c == '\\' && lx->i + 1 < lx->len && lx->s[lx->i + 1] != '\n')
			lx->i++; /* the escaped character */
	}
	emit(lx, quote == '"' ? PLAG_RAW_STRING : PLAG_RAW_CHAR, 0, start);
}

static enum plag_err emit_atom(struct lexer *lx, enum plag_raw_kind kind, size_t start)
{
	uint32_t id;
	enum plag_err e = plag_atom(lx->atoms, lx->s + start, lx->i - start, &id);
	if (e == PLAG_E_TOO_MANY)
		snprintf(lx->err, PLAG_ERRLEN, "too much identifier text");
	if (e)
		return e;
	emit(lx, kind, id, start);
	return PLAG_OK;
}

/* An encoding prefix (L, u, U, u8) glued to a quote opens a literal. */
static bool is_literal_prefix(const char *w, size_t n)
{
	return (n == 1 && (w[0] == 'L' || w[0] == 'u' || w[0] == 'U')) ||
	       (n == 2 && w[0] == 'u' && w[1] == '8');
}

static enum plag_err lex_word(struct lexer *lx)
{
	size_t start = lx->i;
	while (lx->i < lx->len && is_word_char((unsigned char)lx->s[lx->i]))
		lx->i++;
	char q = peek(lx, 0);
	if ((q == '"' || q == '\'') && is_literal_prefix(lx->s + start, lx->i - start)) {
		lex_literal(lx, q, start);
		return PLAG_OK;
	}
	return emit_atom(lx, PLAG_RAW_WORD, start);
}

/* A preprocessing number: digits, letters, '.', exponent signs and C23
 * digit separators, the way the C standard defines pp-number. */
static enum plag_err lex_number(struct lexer *lx)
{
	size_t start = lx->i;
	while (lx->i < lx->len) {
		char c = lx->s[lx->i], d = peek(lx, 1);
		if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (d == '+' || d == '-'))
			lx->i += 2;
		else if (c == '\'' && is_word_char((unsigned char)d) && d != '$')
			lx->i += 2;
		else if (c == '.' || (is_word_char((unsigned char)c) && c != '$'))
			lx->i++;
		else
			break;
	}
	return emit_atom(lx, PLAG_RAW_NUMBER, start);
}

/* Longest punctuator (or digraph) at the cursor; a stray byte is OTHER. */
static void lex_punct(struct lexer *lx)
{
	size_t rest = lx->len - lx->i, best = 0, start = lx->i;
	char c = lx->s[lx->i];
	int p = -1;
	/* The first byte rules out nearly every spelling cheaply: this loop
	 * runs once per punctuator of every file fingerprinted. */
	for (unsigned k = 0; k < PLAG_P_COUNT; k++) {
		if (punct_spell[k][0] != c)
			continue;
		size_t n = strlen(punct_spell[k]);
		if (n > best && n <= rest && memcmp(punct_spell[k], lx->s + lx->i, n) == 0) {
			best = n;
			p = (int)k;
		}
	}
	for (size_t k = 0; k < sizeof digraphs / sizeof digraphs[0]; k++) {
		if (digraphs[k].s[0] != c)
			continue;
		size_t n = strlen(digraphs[k].s);
		if (n > best && n <= rest && memcmp(digraphs[k].s, lx->s + lx->i, n) == 0) {
			best = n;
			p = (int)digraphs[k].p;
		}
	}
	if (p < 0) {
		lx->i++;
		emit(lx, PLAG_RAW_OTHER, 0, start);
		return;
	}
	lx->i += best;
	emit(lx, PLAG_RAW_PUNCT, (uint32_t)p, start);
}

static enum plag_err lex_one(struct lexer *lx)
{
	char c = lx->s[lx->i];
	if (c == '"' || c == '\'') {
		lex_literal(lx, c, lx->i);
		return PLAG_OK;
	}
	if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1))))
		return lex_number(lx);
	if (is_word_char((unsigned char)c))
		return lex_word(lx);
	lex_punct(lx);
	return PLAG_OK;
}

enum plag_err plag_lex(const char *src, size_t len, struct plag_atoms *atoms,
		       struct plag_raw **out, size_t *n, char err[PLAG_ERRLEN])
{
	struct spliced sp;
	*out = NULL;
	*n = 0;
	bool ok = splice(src, len, &sp);
	struct lexer lx = {
		.s = sp.text, .lines = sp.line, .len = sp.len,
		.flags = PLAG_RAW_BOL | PLAG_RAW_SPACE, .atoms = atoms, .err = err,
	};
	/* Every token takes at least one byte. */
	lx.out = ok ? malloc((sp.len ? sp.len : 1) * sizeof *lx.out) : NULL;
	enum plag_err e = lx.out ? PLAG_OK : PLAG_E_NOMEM;
	while (!e) {
		e = skip_layout(&lx);
		if (e || lx.i >= lx.len)
			break;
		e = lex_one(&lx);
	}
	free(sp.text);
	free(sp.line);
	if (e) {
		free(lx.out);
		return e;
	}
	struct plag_raw *shrunk = realloc(lx.out, (lx.n ? lx.n : 1) * sizeof *lx.out);
	*out = shrunk ? shrunk : lx.out;
	*n = lx.n;
	return PLAG_OK;
}
