/* cscan_attr.c - attributes in gcc -E output.  Every line of the output is
 * read (headers too, so the nesting of parentheses is the compiler's), and
 * the attributes whose tokens come from the contestant's file are checked:
 * GNU __attribute__((...)) and C2x [[...]] (gcc accepts both in gnu17),
 * names with or without the __ around them, digraphs read as brackets.
 * Lines are read as tokens by judge/base/clex.h. */
#include "judge/compile/cscan_int.h"

#include "judge/base/clex.h"

/* Attributes that choose a section, change how a symbol is linked or seen,
 * or make gcc write code or assembler text no check of ours expects. */
static const char *const refused_attributes[] = {
	"section", "noinit", "persistent", "retain", "alias", "weakref", "weak", "ifunc",
	"symver", "copy", "visibility", "naked", "target_clones",
	"patchable_function_entry", "fentry_name", "fentry_section", "indirect_branch",
	"function_return", "no_address_safety_analysis",
	/* would take a function out of a game's energy count */
	"no_instrument_function", "no_profile_instrument_function", NULL,
};

/* Attributes whose string argument gcc prints in a warning or an error,
 * escapes interpreted: the text must be printable ASCII, no backslash. */
static const char *const message_attributes[] = {
	"warning", "error", "deprecated", "unavailable", NULL,
};

/* One token of a line: what the attribute grammar needs to tell apart. */
enum tok_kind { TOK_IDENT, TOK_STRING, TOK_OTHER, TOK_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *p;
	size_t n;
	char punct; /* for TOK_PUNCT: ( ) [ ] , : */
};

/* The next token of the line, read as GCC reads it (digraphs too); false
 * at the end of the line. */
static bool next_token(struct clex *lx, struct tok *t)
{
	static const char bracket[CLEX_P_COUNT] = {
		[CLEX_P_LPAREN] = '(', [CLEX_P_RPAREN] = ')', [CLEX_P_LBRACKET] = '[',
		[CLEX_P_RBRACKET] = ']', [CLEX_P_COMMA] = ',', [CLEX_P_COLON] = ':',
	};
	struct clex_token c;
	if (!clex_next(lx, &c))
		return false;
	t->p = lx->c + c.start;
	t->n = c.len;
	t->punct = c.kind == CLEX_PUNCT ? bracket[c.punct] : 0;
	t->kind = c.kind == CLEX_WORD ? TOK_IDENT : c.kind == CLEX_STRING ? TOK_STRING
		: t->punct ? TOK_PUNCT : TOK_OTHER;
	return true;
}

static bool is_word(const struct tok *t, const char *w)
{
	return t->kind == TOK_IDENT && t->n == strlen(w) && memcmp(t->p, w, t->n) == 0;
}

/* "__section__" -> "section" */
static void attribute_name(const struct tok *t, const char **w, size_t *n)
{
	*w = t->p;
	*n = t->n;
	if (*n > 2 && memcmp(*w, "__", 2) == 0) {
		*w += 2;
		*n -= 2;
	}
	if (*n > 2 && memcmp(*w + *n - 2, "__", 2) == 0)
		*n -= 2;
}

static bool refused_name(const char *w, size_t n)
{
	return cscan_in_list(refused_attributes, w, n) ||
	       (n >= 11 && memcmp(w, "no_sanitize", 11) == 0);
}

/* A string the compiler could print with its escapes interpreted. */
static bool plain_message(const struct tok *t)
{
	for (size_t i = 0; i < t->n; i++) {
		unsigned char c = (unsigned char)t->p[i];
		if (c == '\\' || c < 0x20 || c >= 0x7f)
			return false;
	}
	return true;
}

static int attribute_token(struct cs_attr *a, const struct tok *t, bool mine, unsigned line,
			   const char *name, err_t err)
{
	if (t->kind == TOK_PUNCT && (t->punct == '(' || t->punct == '[')) {
		a->depth++;
		return 0;
	}
	if (t->kind == TOK_PUNCT && (t->punct == ')' || t->punct == ']')) {
		if (a->depth == 0) {
			/* the list ends; the second closing bracket is ignored */
			a->state = ATTR_IDLE;
			return 0;
		}
		if (--a->depth == 0)
			a->message = false;
		return 0;
	}
	if (a->depth == 0) {
		if (t->kind == TOK_PUNCT && t->punct == ',')
			a->message = false;
		if (t->kind != TOK_IDENT)
			return 0;
		const char *w;
		size_t n;
		attribute_name(t, &w, &n);
		/* in gnu::name the namespace is checked too: harmless */
		if (mine && refused_name(w, n))
			return cscan_refuse(err, name, line,
					    "the attribute %.*s is not allowed: it changes the "
					    "sections, symbols or assembler text the compiler writes",
					    (int)n, w);
		a->message = mine && cscan_in_list(message_attributes, w, n);
		return 0;
	}
	if (mine && a->message && t->kind == TOK_STRING && !plain_message(t))
		return cscan_refuse(err, name, line,
				    "the message of an attribute may only use printable ASCII "
				    "characters and no backslash escapes");
	return 0;
}

int cscan_attr_line(struct cs_attr *a, const char *p, size_t n, bool mine, unsigned line,
		    const char *name, err_t err)
{
	struct clex lx;
	struct tok t;
	clex_init_line(&lx, p, n, line, 0);
	while (next_token(&lx, &t)) {
		bool open_paren = t.kind == TOK_PUNCT && t.punct == '(';
		bool open_bracket = t.kind == TOK_PUNCT && t.punct == '[';
		switch (a->state) {
		case ATTR_IDLE:
			if (is_word(&t, "__attribute__") || is_word(&t, "__attribute"))
				a->state = ATTR_KEYWORD;
			else if (open_bracket)
				a->state = ATTR_BRACKET;
			continue;
		case ATTR_KEYWORD:
			a->state = open_paren ? ATTR_PAREN : ATTR_IDLE;
			continue;
		case ATTR_PAREN:
		case ATTR_BRACKET:
			if ((a->state == ATTR_PAREN && open_paren) ||
			    (a->state == ATTR_BRACKET && open_bracket)) {
				a->c2x = a->state == ATTR_BRACKET;
				a->state = ATTR_LIST;
				a->depth = 0;
				a->message = false;
				continue;
			}
			a->state = ATTR_IDLE;
			if (is_word(&t, "__attribute__") || is_word(&t, "__attribute"))
				a->state = ATTR_KEYWORD;
			continue;
		case ATTR_LIST: {
			int rc = attribute_token(a, &t, mine, line, name, err);
			if (rc)
				return rc;
			continue;
		}
		}
	}
	return 0;
}

/* The text of `#pragma message` and `#pragma GCC warning|error` in gcc -E
 * output (macros expanded): gcc prints it with escapes interpreted. */
int cscan_pragma_message(const char *p, size_t n, unsigned line, const char *name,
			 err_t err)
{
	struct clex lx;
	struct tok t;
	clex_init_line(&lx, p, n, line, 0);
	while (next_token(&lx, &t))
		if (t.kind == TOK_STRING && !plain_message(&t))
			return cscan_refuse(err, name, line,
					    "the text of #pragma message, GCC warning or GCC error "
					    "may only use printable ASCII characters and no "
					    "backslash escapes");
	return 0;
}
