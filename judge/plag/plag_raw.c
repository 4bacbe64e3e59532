#include "judge/plag/plag_raw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/grow.h"

/* ---- Keywords.  Their order defines the token codes: append only. */

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
	if (!grow_room(&a->text, &a->cap, a->used + bytes, 1, 4096))
		return false;
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

/* ---- Tokens */

static enum plag_raw_kind raw_kind(enum clex_kind k)
{
	switch (k) {
	case CLEX_WORD:
		return PLAG_RAW_WORD;
	case CLEX_NUMBER:
		return PLAG_RAW_NUMBER;
	case CLEX_STRING:
		return PLAG_RAW_STRING;
	case CLEX_CHAR:
		return PLAG_RAW_CHAR;
	case CLEX_PUNCT:
		return PLAG_RAW_PUNCT;
	default:
		return PLAG_RAW_OTHER;
	}
}

static enum plag_err raw_token(const struct clex_token *t, const char *text,
			       struct plag_atoms *atoms, struct plag_raw *r, err_t err)
{
	*r = (struct plag_raw){
		.kind = (uint8_t)raw_kind(t->kind),
		.flags = t->flags & (PLAG_RAW_BOL | PLAG_RAW_SPACE),
		.val = t->kind == CLEX_PUNCT ? t->punct : 0,
		.line = t->line,
	};
	if (r->kind != PLAG_RAW_WORD && r->kind != PLAG_RAW_NUMBER)
		return PLAG_OK;
	enum plag_err e = plag_atom(atoms, text + t->start, t->len, &r->val);
	if (e == PLAG_E_TOO_MANY)
		err_set(err, "too much identifier text");
	return e;
}

static enum plag_err read_tokens(const struct clex_text *text, struct plag_atoms *atoms,
				 struct plag_raw *out, size_t *n, err_t err)
{
	struct clex lx;
	struct clex_token t;
	clex_init(&lx, text, CLEX_C23_NUMBERS);
	while (clex_next(&lx, &t)) {
		enum plag_err e = raw_token(&t, text->c, atoms, &out[*n], err);
		if (e)
			return e;
		++*n;
	}
	if (lx.open_comment) {
		err_set(err, "unterminated comment starting at line %u",
			 lx.open_comment);
		return PLAG_E_SYNTAX;
	}
	return PLAG_OK;
}

enum plag_err plag_raw_tokens(const char *src, size_t len, struct plag_atoms *atoms,
			      struct plag_raw **out, size_t *n, err_t err)
{
	struct clex_text text;
	*out = NULL;
	*n = 0;
	if (clex_splice(src, len, &text) < 0)
		return PLAG_E_NOMEM;
	/* Every token takes at least one byte. */
	struct plag_raw *v = malloc((text.n ? text.n : 1) * sizeof *v);
	enum plag_err e = v ? read_tokens(&text, atoms, v, n, err) : PLAG_E_NOMEM;
	clex_text_free(&text);
	if (e) {
		free(v);
		*n = 0;
		return e;
	}
	struct plag_raw *shrunk = realloc(v, (*n ? *n : 1) * sizeof *v);
	*out = shrunk ? shrunk : v;
	return PLAG_OK;
}
