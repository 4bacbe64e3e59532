/* cscan_attr.c - attributes in gcc -E output.  Every line of the output is
 * read (headers too, so the nesting of parentheses is the compiler's), and
 * the attributes whose tokens come from the contestant's file are checked:
 * GNU __attribute__((...)) and C2x [[...]] (gcc accepts both in gnu17),
 * names with or without the __ around them, digraphs read as brackets. */
#include "judge/compile/cscan_int.h"

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

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* One token of a line: what the attribute grammar needs to tell apart. */
enum tok_kind { TOK_IDENT, TOK_STRING, TOK_OTHER, TOK_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *p;
	size_t n;
	char punct; /* for TOK_PUNCT: ( ) [ ] , : */
};

static size_t quoted_end(const char *p, size_t n, size_t i)
{
	char q = p[i];
	for (i++; i < n; i++) {
		if (p[i] == q)
			return i + 1;
		if (p[i] == '\\' && i + 1 < n)
			i++;
	}
	return n;
}

/* The token at p[*i], advancing *i; false at the end of the line. */
static bool next_token(const char *p, size_t n, size_t *i, struct tok *t)
{
	while (*i < n && (p[*i] == ' ' || p[*i] == '\t' || p[*i] == '\f' || p[*i] == '\v'))
		(*i)++;
	if (*i >= n)
		return false;
	size_t s = *i, e = s;
	t->p = p + s;
	t->punct = 0;
	if (is_ident_char(p[s])) {
		while (e < n && (is_ident_char(p[e]) || (p[e] == '.' && p[s] >= '0' && p[s] <= '9')))
			e++;
		/* L"..", u8'..': a prefixed literal (any other name before a quote
		 * is a name, which must be seen) */
		static const char *const prefixes[] = { "L", "u", "U", "u8", NULL };
		if (e < n && (p[e] == '"' || p[e] == '\'') && cscan_in_list(prefixes, p + s, e - s)) {
			t->kind = p[e] == '"' ? TOK_STRING : TOK_OTHER;
			e = quoted_end(p, n, e);
		} else {
			t->kind = p[s] >= '0' && p[s] <= '9' ? TOK_OTHER : TOK_IDENT;
		}
	} else if (p[s] == '"' || p[s] == '\'') {
		e = quoted_end(p, n, s);
		t->kind = p[s] == '"' ? TOK_STRING : TOK_OTHER;
	} else if (s + 1 < n && p[s] == '<' && p[s + 1] == ':') {
		e = s + 2, t->kind = TOK_PUNCT, t->punct = '[';
	} else if (s + 1 < n && p[s] == ':' && p[s + 1] == '>') {
		e = s + 2, t->kind = TOK_PUNCT, t->punct = ']';
	} else {
		e = s + 1;
		t->kind = strchr("()[],:", p[s]) ? TOK_PUNCT : TOK_OTHER;
		t->punct = t->kind == TOK_PUNCT ? p[s] : 0;
	}
	t->n = e - s;
	*i = e;
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
			   const char *name, char err[CSCAN_ERRLEN])
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
		    const char *name, char err[CSCAN_ERRLEN])
{
	struct tok t;
	for (size_t i = 0; next_token(p, n, &i, &t);) {
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
			 char err[CSCAN_ERRLEN])
{
	struct tok t;
	for (size_t i = 0; next_token(p, n, &i, &t);)
		if (t.kind == TOK_STRING && !plain_message(&t))
			return cscan_refuse(err, name, line,
					    "the text of #pragma message, GCC warning or GCC error "
					    "may only use printable ASCII characters and no "
					    "backslash escapes");
	return 0;
}
