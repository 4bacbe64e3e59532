/* plag_raw.h - internal to the plag_ tokenizer: a file's C tokens (read by
 * judge/base/clex.h) with their spellings interned, and the preprocessor
 * that runs over them (plag_macro.c).
 *
 * Promises: plag_raw_tokens() reads validated C text (no NUL, no control
 * bytes) as clex does, C23 digit separators included, and keeps of each
 * token its line, whether it starts a logical line (so '#' there opens a
 * directive) and whether layout precedes it (so "#define F(x)" and
 * "#define F (x)" differ).  Identifiers and numbers keep their spelling as
 * an interned atom; keywords are the first atoms, so an atom below
 * plag_nkeywords() is a keyword.  Unterminated string and char literals
 * end at the end of their line (C would refuse them, but they turn up in
 * #error lines and skipped blocks); an unterminated comment is an error.
 */
#ifndef JUDGE_PLAG_RAW_H
#define JUDGE_PLAG_RAW_H

#include "judge/base/clex.h"
#include "judge/plag/plag_tokens.h"

#include <stdbool.h>

enum plag_raw_kind {
	PLAG_RAW_WORD,   /* identifier or keyword: val is the atom */
	PLAG_RAW_NUMBER, /* val is the atom */
	PLAG_RAW_STRING,
	PLAG_RAW_CHAR,
	PLAG_RAW_PUNCT,  /* val is an enum clex_punct */
	PLAG_RAW_OTHER,
	PLAG_RAW_PARAM,  /* in a macro body only: val is the parameter index */
};

#define PLAG_RAW_BOL CLEX_BOL     /* first token of a logical line */
#define PLAG_RAW_SPACE CLEX_SPACE /* layout or a comment just before it */
#define PLAG_RAW_PAINTED 4u /* named a macro under expansion: never expands */

struct plag_raw {
	uint8_t kind;
	uint8_t flags;
	uint32_t val;
	uint32_t line;
};

/* Interned spellings.  Text is bounded by limit so that token pasting in
 * macros cannot grow it without end. */
struct plag_atoms {
	char *text;
	size_t used, cap, limit;
	uint32_t *off;  /* atom -> offset of its NUL-terminated spelling */
	uint32_t *len;
	uint32_t n, ncap;
	uint32_t *slot; /* open addressing: atom + 1, 0 when free */
	uint32_t nslot; /* a power of two */
};

unsigned plag_nkeywords(void);

/* The keyword code (PLAG_TOK_KEYWORD + n) of a keyword atom; synonyms such
 * as __inline__ and inline share one code. */
uint32_t plag_keyword_code(uint32_t atom);

/* Spelling of keyword code offset k, or NULL. */
const char *plag_keyword_spelling(unsigned k);

enum plag_err plag_atoms_init(struct plag_atoms *a, size_t limit);
enum plag_err plag_atom(struct plag_atoms *a, const char *s, size_t len, uint32_t *id);
const char *plag_atom_text(const struct plag_atoms *a, uint32_t id, size_t *len);
void plag_atoms_free(struct plag_atoms *a);

/* The tokens of src[0..len) into *out (caller frees).  At most len tokens. */
enum plag_err plag_raw_tokens(const char *src, size_t len, struct plag_atoms *atoms,
		       struct plag_raw **out, size_t *n, err_t err);

/* Runs the directives and expands the macros of lexed tokens in[0..n):
 * *out (caller frees) holds what the compiler would see, minus #include,
 * with every token of an expansion on the line of the macro's use.  Limits
 * as in plag_tokenize(); lim must be valid. */
enum plag_err plag_preprocess(const struct plag_raw *in, size_t n, struct plag_atoms *atoms,
			      const struct plag_tok_limits *lim, struct plag_raw **out,
			      size_t *nout, err_t err);

#endif
