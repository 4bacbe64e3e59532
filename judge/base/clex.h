/* clex.h - C source as preprocessing tokens: translation phases 1 to 3,
 * done once for every part of the judge that reads C (the compile step's
 * checks, the plagiarism tokenizer).
 *
 * Promises.  clex_splice() does phases 1 and 2 as GCC does in -std=gnu17:
 * CRLF becomes LF, and a backslash, optional blanks (space, tab, CR, FF,
 * VT) and a newline are removed wherever they stand; no trigraphs.  Every
 * byte left keeps the physical line it came from, for reports.
 *
 * clex_next() then reads that text (or one line of gcc -E output) as GCC's
 * preprocessor does: blanks and comments are layout (an unterminated block
 * comment runs to the end); identifiers are letters, digits, '_', '$' and
 * bytes >= 0x80 (UTF-8); pp-numbers start with a digit or '.' and a digit
 * and go on with identifier characters, '.' and a sign after e E p P;
 * string and character literals take an L u U u8 prefix glued to the
 * quote, a backslash escapes the next byte but a newline, and an
 * unterminated one ends at the end of its line; punctuators are the
 * longest that fits, digraphs (<: :> <% %> %: %:%:) read as what they
 * spell; any other byte is a token alone.  A raw string prefix (R"...")
 * is an identifier followed by a string.  Header names are read only
 * where the caller asks (clex_header_name), since only #include has them.
 * Every token knows its line, whether it is the first of a logical line
 * (so a '#' there opens a directive) and whether layout precedes it.
 *
 * Any bytes, NUL included, are read without reading outside the text.
 * No global state: a struct clex is a cursor a caller may copy to look
 * ahead.
 */
#ifndef JUDGE_CLEX_H
#define JUDGE_CLEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum clex_kind {
	CLEX_END,     /* no token left */
	CLEX_WORD,    /* identifier or keyword */
	CLEX_NUMBER,
	CLEX_STRING,  /* with its prefix, if any */
	CLEX_CHAR,
	CLEX_PUNCT,   /* punct says which */
	CLEX_OTHER,   /* a byte that starts no token: '\\', '@', '`'... */
	CLEX_COMMENT, /* only with CLEX_KEEP_COMMENTS */
	CLEX_HEADER,  /* <name> or "name", only from clex_header_name() */
};

#define CLEX_BOL 1u   /* first token of a logical line */
#define CLEX_SPACE 2u /* layout or a comment just before it */
#define CLEX_OPEN 4u  /* a literal, comment or header name left unterminated */

/* Punctuators.  Stored plagiarism fingerprints number them in this order:
 * append only. */
enum clex_punct {
	CLEX_P_LBRACKET, CLEX_P_RBRACKET, CLEX_P_LPAREN, CLEX_P_RPAREN,
	CLEX_P_LBRACE, CLEX_P_RBRACE, CLEX_P_DOT, CLEX_P_ARROW,
	CLEX_P_INC, CLEX_P_DEC, CLEX_P_AMP, CLEX_P_STAR,
	CLEX_P_PLUS, CLEX_P_MINUS, CLEX_P_TILDE, CLEX_P_BANG,
	CLEX_P_SLASH, CLEX_P_PERCENT, CLEX_P_SHL, CLEX_P_SHR,
	CLEX_P_LT, CLEX_P_GT, CLEX_P_LE, CLEX_P_GE,
	CLEX_P_EQ, CLEX_P_NE, CLEX_P_CARET, CLEX_P_PIPE,
	CLEX_P_ANDAND, CLEX_P_OROR, CLEX_P_QUESTION, CLEX_P_COLON,
	CLEX_P_SEMI, CLEX_P_ELLIPSIS, CLEX_P_ASSIGN, CLEX_P_MUL_ASSIGN,
	CLEX_P_DIV_ASSIGN, CLEX_P_MOD_ASSIGN, CLEX_P_ADD_ASSIGN, CLEX_P_SUB_ASSIGN,
	CLEX_P_SHL_ASSIGN, CLEX_P_SHR_ASSIGN, CLEX_P_AND_ASSIGN, CLEX_P_XOR_ASSIGN,
	CLEX_P_OR_ASSIGN, CLEX_P_COMMA, CLEX_P_HASH, CLEX_P_HASHHASH,
	CLEX_P_COUNT
};

struct clex_token {
	uint8_t kind;   /* enum clex_kind */
	uint8_t flags;  /* CLEX_BOL, CLEX_SPACE, CLEX_OPEN */
	uint8_t punct;  /* enum clex_punct, for CLEX_PUNCT */
	uint32_t line;  /* where it starts */
	size_t start, len; /* its bytes in the text read */
};

/* The text after phase 2: c[0..n), NUL-terminated; line[i] is the source
 * line of c[i], line[n] the last line. */
struct clex_text {
	char *c;
	uint32_t *line;
	size_t n;
};

/* src[0..len) spliced into *out (clex_text_free).  0, or -1 when out of
 * memory (out is then empty). */
int clex_splice(const char *src, size_t len, struct clex_text *out);
void clex_text_free(struct clex_text *t);

/* Options of a cursor. */
#define CLEX_C23_NUMBERS 1u   /* ' separates digits in pp-numbers, as in C23; '$' ends them */
#define CLEX_KEEP_COMMENTS 2u /* comments come as CLEX_COMMENT tokens, not as layout */

struct clex {
	const char *c;
	size_t i, end;
	const uint32_t *lines; /* line of c[i], or NULL: every byte is on `line` */
	uint32_t line;
	unsigned opts;
	uint8_t flags;         /* BOL and SPACE for the next token */
	uint32_t open_comment; /* line where an unterminated block comment began, or 0 */
};

/* A cursor over spliced text, at its start (a line start). */
void clex_init(struct clex *lx, const struct clex_text *t, unsigned opts);

/* A cursor over c[0..n), all on one line, unspliced (gcc -E output has no
 * splices), at a line start. */
void clex_init_line(struct clex *lx, const char *c, size_t n, uint32_t line, unsigned opts);

/* The next token into *t; false (and t->kind CLEX_END) when none is left. */
bool clex_next(struct clex *lx, struct clex_token *t);

/* After #include: a header name <...> or "..." after layout on the same
 * line, read to its closing character as GCC reads it (no escapes, no
 * comments; CLEX_OPEN at the line's end).  False, the cursor unmoved,
 * when the line goes on with anything else. */
bool clex_header_name(struct clex *lx, struct clex_token *t);

/* The line of byte i of the cursor's text (clamped to its end). */
uint32_t clex_line_at(const struct clex *lx, size_t i);

/* The spelling of a punctuator, or NULL; the punctuator spelled exactly
 * s[0..len) (digraphs excluded), or -1. */
const char *clex_punct_spelling(unsigned p);
int clex_punct_lookup(const char *s, size_t len);

#endif
