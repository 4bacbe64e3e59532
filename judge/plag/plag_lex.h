/* plag_lex.h - internal to the plag_ tokenizer: raw C tokens and spellings.
 *
 * Promises: plag_lex() splits validated C text (no NUL, no control bytes)
 * into preprocessing tokens with their line, whether they start a logical
 * line (so '#' there opens a directive) and whether layout precedes them (so
 * "#define F(x)" and "#define F (x)" differ).  Identifiers and numbers keep
 * their spelling as an interned atom; keywords are the first atoms, so an
 * atom below plag_nkeywords() is a keyword.  Unterminated string and char
 * literals end at the end of their line (C would refuse them, but they turn
 * up in #error lines and skipped blocks); an unterminated comment is an
 * error.  Backslash-newline splices (also with blanks before the newline,
 * as GCC takes them) are removed first, wherever they are, and tokens keep
 * the line they start on in the original text.
 */
#ifndef JUDGE_PLAG_LEX_H
#define JUDGE_PLAG_LEX_H

#include "judge/plag/plag_tokens.h"

#include <stdbool.h>

enum plag_raw_kind {
	PLAG_RAW_WORD,   /* identifier or keyword: val is the atom */
	PLAG_RAW_NUMBER, /* val is the atom */
	PLAG_RAW_STRING,
	PLAG_RAW_CHAR,
	PLAG_RAW_PUNCT,  /* val is an enum plag_punct */
	PLAG_RAW_OTHER,
	PLAG_RAW_PARAM,  /* in a macro body only: val is the parameter index */
};

#define PLAG_RAW_BOL 1u     /* first token of a logical line */
#define PLAG_RAW_SPACE 2u   /* layout or a comment just before it */
#define PLAG_RAW_PAINTED 4u /* named a macro under expansion: never expands */

struct plag_raw {
	uint8_t kind;
	uint8_t flags;
	uint32_t val;
	uint32_t line;
};

/* Punctuators in code order; digraphs lex as their equivalents. */
enum plag_punct {
	PLAG_P_LBRACKET, PLAG_P_RBRACKET, PLAG_P_LPAREN, PLAG_P_RPAREN,
	PLAG_P_LBRACE, PLAG_P_RBRACE, PLAG_P_DOT, PLAG_P_ARROW,
	PLAG_P_INC, PLAG_P_DEC, PLAG_P_AMP, PLAG_P_STAR,
	PLAG_P_PLUS, PLAG_P_MINUS, PLAG_P_TILDE, PLAG_P_BANG,
	PLAG_P_SLASH, PLAG_P_PERCENT, PLAG_P_SHL, PLAG_P_SHR,
	PLAG_P_LT, PLAG_P_GT, PLAG_P_LE, PLAG_P_GE,
	PLAG_P_EQ, PLAG_P_NE, PLAG_P_CARET, PLAG_P_PIPE,
	PLAG_P_ANDAND, PLAG_P_OROR, PLAG_P_QUESTION, PLAG_P_COLON,
	PLAG_P_SEMI, PLAG_P_ELLIPSIS, PLAG_P_ASSIGN, PLAG_P_MUL_ASSIGN,
	PLAG_P_DIV_ASSIGN, PLAG_P_MOD_ASSIGN, PLAG_P_ADD_ASSIGN, PLAG_P_SUB_ASSIGN,
	PLAG_P_SHL_ASSIGN, PLAG_P_SHR_ASSIGN, PLAG_P_AND_ASSIGN, PLAG_P_XOR_ASSIGN,
	PLAG_P_OR_ASSIGN, PLAG_P_COMMA, PLAG_P_HASH, PLAG_P_HASHHASH,
	PLAG_P_COUNT
};

const char *plag_punct_spelling(unsigned p);

/* The punctuator spelled exactly s[0..len), or -1. */
int plag_punct_lookup(const char *s, size_t len);

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

/* Lexes src[0..len) into *out (caller frees).  At most len tokens. */
enum plag_err plag_lex(const char *src, size_t len, struct plag_atoms *atoms,
		       struct plag_raw **out, size_t *n, char err[PLAG_ERRLEN]);

/* Runs the directives and expands the macros of lexed tokens in[0..n):
 * *out (caller frees) holds what the compiler would see, minus #include,
 * with every token of an expansion on the line of the macro's use.  Limits
 * as in plag_tokenize(); lim must be valid. */
enum plag_err plag_preprocess(const struct plag_raw *in, size_t n, struct plag_atoms *atoms,
			      const struct plag_tok_limits *lim, struct plag_raw **out,
			      size_t *nout, char err[PLAG_ERRLEN]);

#endif
