/* plag_tokens.h - C source to normalised tokens, for plagiarism fingerprints.
 *
 * Promises: plag_tokenize() turns one C source file into the token stream a
 * copier cannot change cheaply.  Comments and layout vanish; #include lines
 * are dropped; macros the file defines are expanded where they are used (so
 * code hidden in macros still counts); then every identifier is one class,
 * every number one class, every string or character literal one class
 * (adjacent string literals are one literal), while keywords and operators
 * stay themselves.  Each token keeps the source line it starts on; tokens of
 * a macro expansion carry the line of the macro's use.  Code inside "#if 0"
 * (or after "#if 1 ... #else") is skipped; every other conditional branch is
 * kept, since the tool cannot know which one the compiler takes.  Forms
 * that mean the same (x++ and x += 1, a > b and b < a, for and while,
 * braces or none, the order of an if chain) are written one way first:
 * plag_norm.h lists them.
 *
 * Input is untrusted: empty input, binary data, oversized files, runaway
 * macros and malformed directives end in an error code and a message, never
 * in unbounded time or memory.  Token codes are stable across runs and
 * machines: the hashes built from them may be stored.
 */
#ifndef JUDGE_PLAG_TOKENS_H
#define JUDGE_PLAG_TOKENS_H

#include <stddef.h>
#include <stdint.h>
#include "judge/base/error.h"


/* Every plag_ function that can fail returns one of these; PLAG_OK is 0. */
enum plag_err {
	PLAG_OK = 0,
	PLAG_E_EMPTY,       /* no bytes, or no C tokens at all */
	PLAG_E_BINARY,      /* NUL or other control bytes: not C text */
	PLAG_E_TOO_BIG,     /* over the byte limit */
	PLAG_E_SYNTAX,      /* malformed beyond approximation (comment, directive) */
	PLAG_E_MACRO_DEPTH, /* macro expansions nested deeper than the limit */
	PLAG_E_TOO_MANY,    /* token or macro-expansion budget exhausted */
	PLAG_E_PARAM,       /* a caller's argument is out of range */
	PLAG_E_NOMEM,
};

/* Normalised token codes.  Never renumber: append new keywords or
 * punctuators at the end of their tables (and bump PLAG_HASH_VERSION in
 * plag_winnow.h if a code ever has to change). */
enum {
	PLAG_TOK_IDENT = 1,
	PLAG_TOK_NUMBER = 2,
	PLAG_TOK_STRING = 3, /* string and character literals */
	PLAG_TOK_OTHER = 4,  /* a byte that is no C token, e.g. '@' */
	PLAG_TOK_KEYWORD = 32,  /* + index in the keyword table */
	PLAG_TOK_PUNCT = 160,   /* + index in the punctuator table */
};

struct plag_token {
	uint32_t code;
	uint32_t line; /* 1-based */
};

struct plag_tokens {
	struct plag_token *v;
	size_t n;
};

struct plag_tok_limits {
	size_t max_bytes;      /* larger sources are refused */
	unsigned max_depth;    /* nesting of macro expansions and arguments */
	size_t max_tokens;     /* tokens after expansion */
	size_t max_expansion;  /* tokens produced by all macro expansions */
};

#define PLAG_MAX_BYTES_DEFAULT (1024 * 1024)
#define PLAG_MAX_BYTES_CAP (256 * 1024 * 1024)

void plag_tok_limits_default(struct plag_tok_limits *lim);

/* Tokenizes src[0..len) (not NUL-terminated; a NUL inside is an error).
 * lim NULL: the defaults.  On PLAG_OK out owns an array the caller frees
 * with plag_tokens_free(); on error out is empty and err says why. */
enum plag_err plag_tokenize(const char *src, size_t len, const struct plag_tok_limits *lim,
			    struct plag_tokens *out, err_t err);

void plag_tokens_free(struct plag_tokens *t);

/* The spelling of a code for people and tests: "ID", "NUM", "STR", "OTHER",
 * the keyword or the punctuator; "<invalid>" for a code that is none. */
const char *plag_tok_name(uint32_t code);

/* A fixed name for an error code, e.g. "macro depth". */
const char *plag_strerror(enum plag_err e);

#endif
