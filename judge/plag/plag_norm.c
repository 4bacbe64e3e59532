/* Five passes over the preprocessed tokens, each into a new array: blocks
 * and loops, then parentheses, then declarations, increments and compound
 * assignments, then comparisons, then if chains (sorted last, by tokens the
 * other passes already made canonical).  Statements are found by a small recogniser of C's
 * statement forms; expressions are only ever scanned inside a bounded
 * window. */
#include "judge/plag/plag_norm.h"

#include "judge/base/grow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A `for` step longer than this is not copied before each `continue`
 * (and the loop stays a for): it bounds how much the stream can grow. */
#define STEP_MAX 16

uint32_t plag_raw_code(const struct plag_raw *t)
{
	switch (t->kind) {
	case PLAG_RAW_WORD:
		return t->val < plag_nkeywords() ? plag_keyword_code(t->val) : PLAG_TOK_IDENT;
	case PLAG_RAW_NUMBER:
		return PLAG_TOK_NUMBER;
	case PLAG_RAW_STRING:
	case PLAG_RAW_CHAR:
		return PLAG_TOK_STRING;
	case PLAG_RAW_PUNCT:
		return PLAG_TOK_PUNCT + t->val;
	default:
		return PLAG_TOK_OTHER;
	}
}

/* ---- growing token arrays */

struct vec {
	struct plag_raw *v;
	size_t n, cap;
	bool failed;
};

static void grow(struct vec *o, size_t want)
{
	if (o->failed || !grow_room(&o->v, &o->cap, want, sizeof *o->v, 256))
		o->failed = true;
}

static inline void push(struct vec *o, struct plag_raw t)
{
	if (o->n == o->cap)
		grow(o, o->n + 1);
	if (!o->failed)
		o->v[o->n++] = t;
}

static void push_range(struct vec *o, const struct plag_raw *t, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		push(o, t[i]);
}

static struct plag_raw punct(unsigned p, uint32_t line)
{
	return (struct plag_raw){ .kind = PLAG_RAW_PUNCT, .val = p, .line = line };
}

/* A keyword's token: keywords are the first atoms, in code order. */
static struct plag_raw keyword_tok(uint32_t code, uint32_t line)
{
	return (struct plag_raw){ .kind = PLAG_RAW_WORD, .val = code - PLAG_TOK_KEYWORD,
				  .line = line };
}

/* ---- recognising tokens and statements */

struct norm {
	const struct plag_raw *t;
	size_t n;
	uint32_t kw_for, kw_while, kw_do, kw_if, kw_else, kw_continue, kw_return, kw_sizeof,
		kw_case, kw_default, kw_switch, kw_struct, kw_union, kw_enum;
	bool specifier[PLAG_TOK_PUNCT - PLAG_TOK_KEYWORD]; /* by keyword code offset */
	uint32_t one; /* the number atom `1` */
	const size_t *match; /* bracket partners in t (n: none) */
};

static bool is_p(const struct plag_raw *t, unsigned p)
{
	return t->kind == PLAG_RAW_PUNCT && t->val == p;
}

/* Only for keywords without synonyms (if, for, struct...): their atom is
 * their code's offset. */
static bool is_kw(const struct plag_raw *t, uint32_t code)
{
	return t->kind == PLAG_RAW_WORD && t->val + PLAG_TOK_KEYWORD == code;
}

static bool is_ident(const struct plag_raw *t)
{
	return t->kind == PLAG_RAW_WORD && plag_raw_code(t) == PLAG_TOK_IDENT;
}

static bool same_tok(const struct plag_raw *a, const struct plag_raw *b)
{
	return a->kind == b->kind && (a->val == b->val || a->kind == PLAG_RAW_STRING ||
				      a->kind == PLAG_RAW_CHAR);
}

static bool same_range(const struct plag_raw *t, size_t a, size_t b, size_t c, size_t d)
{
	if (b - a != d - c)
		return false;
	for (size_t i = 0; i < b - a; i++)
		if (!same_tok(&t[a + i], &t[c + i]))
			return false;
	return true;
}

static uint32_t keyword(const char *s)
{
	for (unsigned k = 0; plag_keyword_spelling(k); k++)
		if (strcmp(plag_keyword_spelling(k), s) == 0)
			return PLAG_TOK_KEYWORD + k;
	return 0;
}

static bool opens(const struct plag_raw *t)
{
	return is_p(t, CLEX_P_LPAREN) || is_p(t, CLEX_P_LBRACKET) || is_p(t, CLEX_P_LBRACE);
}

static bool closes(const struct plag_raw *t)
{
	return is_p(t, CLEX_P_RPAREN) || is_p(t, CLEX_P_RBRACKET) || is_p(t, CLEX_P_RBRACE);
}

/* The index of the bracket closing the one at i (< end), or end. */
static size_t scan_close(const struct plag_raw *t, size_t i, size_t end)
{
	size_t depth = 0;
	for (size_t j = i; j < end; j++) {
		depth += opens(&t[j]);
		if (closes(&t[j]) && --depth == 0)
			return j;
	}
	return end;
}

/* The same in c's tokens, from their partners found once. */
static size_t match_close(const struct norm *c, size_t i, size_t end)
{
	size_t m = c->match[i];
	return m < end ? m : end;
}

/* One past the `;` ending a simple statement at i (brackets skipped), or
 * the unmatched closer / end where it stops. */
static size_t simple_end(const struct norm *c, size_t i, size_t end)
{
	const struct plag_raw *t = c->t;
	while (i < end && !is_p(&t[i], CLEX_P_SEMI)) {
		if (closes(&t[i]))
			return i;
		i = opens(&t[i]) ? match_close(c, i, end) + 1 : i + 1;
	}
	return i < end ? i + 1 : end;
}

/* One past the statement starting at i (no further than end). */
static size_t stmt_end(const struct norm *c, size_t i, size_t end, unsigned depth)
{
	const struct plag_raw *t = c->t;
	if (i >= end)
		return end;
	if (depth > PLAG_NORM_DEPTH)
		return simple_end(c, i, end);
	if (is_p(&t[i], CLEX_P_LBRACE)) {
		size_t j = match_close(c, i, end);
		return j < end ? j + 1 : end;
	}
	bool head = is_kw(&t[i], c->kw_if) || is_kw(&t[i], c->kw_for) ||
		    is_kw(&t[i], c->kw_while) || is_kw(&t[i], c->kw_switch);
	if (head && i + 1 < end && is_p(&t[i + 1], CLEX_P_LPAREN)) {
		size_t j = stmt_end(c, match_close(c, i + 1, end) + 1, end, depth + 1);
		if (is_kw(&t[i], c->kw_if) && j < end && is_kw(&t[j], c->kw_else))
			j = stmt_end(c, j + 1, end, depth + 1);
		return j;
	}
	if (is_kw(&t[i], c->kw_do)) {
		size_t j = stmt_end(c, i + 1, end, depth + 1);
		return j < end && is_kw(&t[j], c->kw_while) ? simple_end(c, j, end) : j;
	}
	if (is_kw(&t[i], c->kw_case) || is_kw(&t[i], c->kw_default) ||
	    (is_ident(&t[i]) && i + 1 < end && is_p(&t[i + 1], CLEX_P_COLON))) {
		size_t j = i;
		while (j < end && !is_p(&t[j], CLEX_P_COLON))
			j++;
		return stmt_end(c, j + 1, end, depth + 1);
	}
	return simple_end(c, i, end);
}

/* Binding strength of a binary operator (higher binds tighter); 0: none;
 * -1: comma, assignment and ?: (they need their parentheses). */
static int binary_prec(const struct plag_raw *t)
{
	if (t->kind != PLAG_RAW_PUNCT)
		return 0;
	switch (t->val) {
	case CLEX_P_STAR: case CLEX_P_SLASH: case CLEX_P_PERCENT: return 10;
	case CLEX_P_PLUS: case CLEX_P_MINUS: return 9;
	case CLEX_P_SHL: case CLEX_P_SHR: return 8;
	case CLEX_P_LT: case CLEX_P_GT: case CLEX_P_LE: case CLEX_P_GE: return 7;
	case CLEX_P_EQ: case CLEX_P_NE: return 6;
	case CLEX_P_AMP: return 5;
	case CLEX_P_CARET: return 4;
	case CLEX_P_PIPE: return 3;
	case CLEX_P_ANDAND: return 2;
	case CLEX_P_OROR: return 1;
	case CLEX_P_QUESTION: case CLEX_P_COLON: case CLEX_P_COMMA: return -1;
	default:
		return CLEX_P_ASSIGN <= t->val && t->val <= CLEX_P_OR_ASSIGN ? -1 : 0;
	}
}

/* An operand ends here: what follows an operator is unary. */
static bool ends_operand(const struct plag_raw *t)
{
	return t->kind != PLAG_RAW_PUNCT || is_p(t, CLEX_P_RPAREN) ||
	       is_p(t, CLEX_P_RBRACKET) || is_p(t, CLEX_P_INC) || is_p(t, CLEX_P_DEC);
}

/* ---- pass 1: braced bodies and one loop form */

struct step {
	size_t a, b; /* the for's step tokens */
};

static void blocks(const struct norm *c, size_t a, size_t b, const struct step *step,
		   unsigned depth, struct vec *o);

/* The body [a, b) as a braced block, S appended when the loop has one. */
static void body(const struct norm *c, size_t a, size_t b, const struct step *step,
		 bool append_step, unsigned depth, struct vec *o)
{
	const struct plag_raw *t = c->t;
	uint32_t line = a < b ? t[a].line : t[a ? a - 1 : 0].line;
	bool braced = a < b && is_p(&t[a], CLEX_P_LBRACE) && match_close(c, a, b) == b - 1;
	push(o, punct(CLEX_P_LBRACE, line));
	if (braced)
		blocks(c, a + 1, b - 1, step, depth + 1, o);
	else
		blocks(c, a, b, step, depth + 1, o);
	if (append_step && step && step->b > step->a) {
		push_range(o, t, step->a, step->b);
		push(o, punct(CLEX_P_SEMI, t[step->b - 1].line));
	}
	push(o, punct(CLEX_P_RBRACE, b > a ? t[b - 1].line : line));
}

/* `for (I; C; S)` at i: its two semicolons, or false when it is not that. */
static bool for_header(const struct norm *c, size_t i, size_t end, size_t *s1, size_t *s2,
		       size_t *close)
{
	const struct plag_raw *t = c->t;
	*close = match_close(c, i + 1, end);
	if (*close >= end)
		return false;
	size_t semis = 0;
	for (size_t j = i + 2; j < *close; j++) {
		if (opens(&t[j]))
			j = match_close(c, j, *close);
		else if (is_p(&t[j], CLEX_P_SEMI))
			*(semis++ ? s2 : s1) = j;
	}
	return semis == 2 && *close - *s2 - 1 <= STEP_MAX;
}

static size_t emit_for(const struct norm *c, size_t i, size_t end, unsigned depth,
		       struct vec *o)
{
	const struct plag_raw *t = c->t;
	size_t s1, s2, close;
	if (!for_header(c, i, end, &s1, &s2, &close))
		return 0;
	uint32_t line = t[i].line;
	if (s1 > i + 2) {
		push_range(o, t, i + 2, s1);
		push(o, punct(CLEX_P_SEMI, line));
	}
	push(o, keyword_tok(c->kw_while, line));
	push(o, punct(CLEX_P_LPAREN, line));
	if (s2 > s1 + 1)
		push_range(o, t, s1 + 1, s2);
	else
		push(o, (struct plag_raw){ .kind = PLAG_RAW_NUMBER, .val = c->one, .line = line });
	push(o, punct(CLEX_P_RPAREN, line));
	size_t e = stmt_end(c, close + 1, end, depth);
	struct step st = { s2 + 1, close };
	body(c, close + 1, e, &st, true, depth, o);
	return e;
}

/* `if (C) { do B while (C); }` (braces optional) at i: one past it, with
 * `while (C) B` emitted, or 0 when it is not that. */
static size_t emit_guarded_do(const struct norm *c, size_t i, size_t end, unsigned depth,
			      struct vec *o)
{
	const struct plag_raw *t = c->t;
	size_t close = match_close(c, i + 1, end), j = close + 1;
	bool brace = j < end && is_p(&t[j], CLEX_P_LBRACE);
	j += brace;
	if (close >= end || j >= end || !is_kw(&t[j], c->kw_do))
		return 0;
	size_t be = stmt_end(c, j + 1, end, depth);
	if (be + 1 >= end || !is_kw(&t[be], c->kw_while) || !is_p(&t[be + 1], CLEX_P_LPAREN))
		return 0;
	size_t c2 = match_close(c, be + 1, end);
	if (c2 + 1 >= end || !is_p(&t[c2 + 1], CLEX_P_SEMI) ||
	    !same_range(t, i + 2, close, be + 2, c2))
		return 0;
	size_t after = c2 + 2;
	if (brace && (after >= end || !is_p(&t[after], CLEX_P_RBRACE)))
		return 0;
	after += brace;
	push(o, t[be]);
	push_range(o, t, i + 1, close + 1);
	body(c, j + 1, be, NULL, false, depth, o);
	return after;
}

/* A loop or if at i: emitted, and one past it; 0 when it is none. */
static size_t control(const struct norm *c, size_t i, size_t b, const struct step *step,
		      unsigned depth, struct vec *o)
{
	const struct plag_raw *t = c->t;
	bool paren = i + 1 < b && is_p(&t[i + 1], CLEX_P_LPAREN);
	size_t e = 0;
	if (is_kw(&t[i], c->kw_for) && paren)
		e = emit_for(c, i, b, depth, o);
	else if (is_kw(&t[i], c->kw_if) && paren)
		e = emit_guarded_do(c, i, b, depth, o);
	if (e)
		return e;
	bool loop = is_kw(&t[i], c->kw_while) || is_kw(&t[i], c->kw_for);
	if ((loop || is_kw(&t[i], c->kw_if)) && paren) {
		size_t close = match_close(c, i + 1, b);
		if (close >= b)
			return 0;
		e = stmt_end(c, close + 1, b, depth);
		push_range(o, t, i, close + 1);
		body(c, close + 1, e, loop ? NULL : step, false, depth, o);
		return e;
	}
	if (is_kw(&t[i], c->kw_else) && i + 1 < b && !is_kw(&t[i + 1], c->kw_if)) {
		e = stmt_end(c, i + 1, b, depth);
		push(o, t[i]);
		body(c, i + 1, e, step, false, depth, o);
		return e;
	}
	if (is_kw(&t[i], c->kw_do)) {
		e = stmt_end(c, i + 1, b, depth);
		push(o, t[i]);
		body(c, i + 1, e, NULL, false, depth, o);
		size_t tail = e < b && is_kw(&t[e], c->kw_while) ? simple_end(c, e, b) : e;
		push_range(o, t, e, tail);
		return tail;
	}
	return 0;
}

static void blocks(const struct norm *c, size_t a, size_t b, const struct step *step,
		   unsigned depth, struct vec *o)
{
	const struct plag_raw *t = c->t;
	if (depth > PLAG_NORM_DEPTH) {
		push_range(o, t, a, b);
		return;
	}
	for (size_t i = a; i < b;) {
		size_t next = control(c, i, b, step, depth, o);
		if (next > i) {
			i = next;
			continue;
		}
		if (step && step->b > step->a && is_kw(&t[i], c->kw_continue)) {
			push_range(o, t, step->a, step->b);
			push(o, punct(CLEX_P_SEMI, t[i].line));
		}
		push(o, t[i++]);
	}
}

/* ---- pass 2: parentheses that change nothing */

static bool unary_op(const struct plag_raw *t)
{
	return is_p(t, CLEX_P_BANG) || is_p(t, CLEX_P_TILDE) || is_p(t, CLEX_P_MINUS) ||
	       is_p(t, CLEX_P_PLUS) || is_p(t, CLEX_P_STAR) || is_p(t, CLEX_P_AMP) ||
	       is_p(t, CLEX_P_INC) || is_p(t, CLEX_P_DEC);
}

/* What the inside of a group (a, b) holds outside its own brackets: the
 * loosest binary operator (100: none), and whether it is more than one
 * operand with postfix parts. */
static int inner_prec(const struct plag_raw *t, const size_t *match, size_t a, size_t b,
		      bool *postfix_only)
{
	int low = 100;
	*postfix_only = true;
	for (size_t i = a; i < b; i++) {
		if (opens(&t[i])) {
			i = match[i];
			continue;
		}
		int p = binary_prec(&t[i]);
		bool binary = p && i > a && ends_operand(&t[i - 1]);
		if (p < 0 || (t[i].kind == PLAG_RAW_WORD && !is_ident(&t[i])))
			return -1; /* comma, assignment, ?:, or a type: keep */
		if (binary) {
			low = p < low ? p : low;
			*postfix_only = false;
		} else if (unary_op(&t[i])) {
			*postfix_only = false;
		}
	}
	return low;
}

/* Whether the group at i (closing at match[i]) may lose its parentheses:
 * prev is the token before it once dropped ones are skipped (binary tells
 * whether it stands between two operands), next the one after it. */
static bool redundant(const struct norm *c, const struct plag_raw *t, const size_t *match,
		      size_t i, const struct plag_raw *prev, bool binary, const struct plag_raw *next)
{
	bool postfix_only;
	int in = inner_prec(t, match, i + 1, match[i], &postfix_only);
	if (in < 0 || match[i] == i + 1)
		return false;
	int left = 0, right = 0;
	bool needs_postfix = false;
	if (prev && (prev->kind == PLAG_RAW_WORD || is_p(prev, CLEX_P_RBRACKET))) {
		if (!is_kw(prev, c->kw_return))
			return false; /* a call, or if ( / while ( / sizeof ( ... */
	} else if (prev && binary && binary_prec(prev) > 0) {
		left = binary_prec(prev);
	} else if (prev && (unary_op(prev) || is_p(prev, CLEX_P_RPAREN))) {
		needs_postfix = true; /* after a unary operator or a cast */
	}
	if (next && (is_p(next, CLEX_P_LBRACKET) || is_p(next, CLEX_P_DOT) ||
		     is_p(next, CLEX_P_ARROW) || is_p(next, CLEX_P_LPAREN) ||
		     is_p(next, CLEX_P_INC) || is_p(next, CLEX_P_DEC)))
		needs_postfix = true;
	else if (next && binary_prec(next) > 0)
		right = binary_prec(next);
	else if (next && (next->kind != PLAG_RAW_PUNCT || unary_op(next)))
		return false; /* a cast: (T) x */
	if (needs_postfix)
		return postfix_only;
	return in > left && in >= right;
}

/* Bracket partners of t[0..n) (n where unmatched); NULL on no memory. */
static size_t *partners(const struct plag_raw *t, size_t n)
{
	size_t *match = malloc((n ? n : 1) * sizeof *match), *stack = malloc((n ? n : 1) * sizeof *stack);
	size_t depth = 0;
	if (!match || !stack) {
		free(match);
		free(stack);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		match[i] = n;
		if (opens(&t[i]))
			stack[depth++] = i;
		else if (closes(&t[i]) && depth)
			match[i] = stack[--depth], match[match[i]] = i;
	}
	while (depth)
		match[stack[--depth]] = n;
	free(stack);
	return match;
}

static void parentheses(const struct norm *c, const struct plag_raw *t, size_t n, struct vec *o)
{
	size_t *match = partners(t, n);
	bool *drop = calloc(n ? n : 1, sizeof *drop);
	if (!match || !drop) {
		o->failed = true;
		free(match);
		free(drop);
		return;
	}
	/* Outer groups first, so an inner one sees what stays around it. */
	for (size_t i = 0; i < n; i++) {
		if (!is_p(&t[i], CLEX_P_LPAREN) || match[i] >= n)
			continue;
		size_t p = i;
		while (p > 0 && drop[p - 1])
			p--;
		size_t q = match[i] + 1;
		while (q < n && drop[q])
			q++;
		bool binary = p >= 2 && ends_operand(&t[p - 2]) && !is_kw(&t[p - 2], c->kw_return);
		if (redundant(c, t, match, i, p ? &t[p - 1] : NULL, binary, q < n ? &t[q] : NULL))
			drop[i] = drop[match[i]] = true;
	}
	for (size_t i = 0; i < n; i++)
		if (!drop[i])
			push(o, t[i]);
	free(match);
	free(drop);
}

/* ---- pass 3: increments and compound assignments as statements */

/* One past an lvalue at i: identifier, then members, arrows, indexes. */
static size_t lvalue_end(const struct norm *c, size_t i, size_t end)
{
	const struct plag_raw *t = c->t;
	if (i >= end || !is_ident(&t[i]))
		return i;
	i++;
	while (i < end) {
		if ((is_p(&t[i], CLEX_P_DOT) || is_p(&t[i], CLEX_P_ARROW)) && i + 1 < end &&
		    is_ident(&t[i + 1]))
			i += 2;
		else if (is_p(&t[i], CLEX_P_LBRACKET) && match_close(c, i, end) < end)
			i = match_close(c, i, end) + 1;
		else
			break;
	}
	return i;
}

static bool is_one(const struct norm *c, const struct plag_raw *t)
{
	return t->kind == PLAG_RAW_NUMBER && t->val == c->one;
}

/* Whether e[a, b) has, outside brackets, a binary operator binding no
 * tighter than one of strength prec. */
static bool has_looser(const struct norm *c, size_t a, size_t b, int prec)
{
	const struct plag_raw *t = c->t;
	for (size_t i = a; i < b; i++) {
		if (opens(&t[i])) {
			i = match_close(c, i, b);
			continue;
		}
		int p = binary_prec(&t[i]);
		if (p && i > a && ends_operand(&t[i - 1]) && p <= prec)
			return true;
		if (p < 0)
			return true;
	}
	return false;
}

static const unsigned compound_of[][2] = {
	{ CLEX_P_PLUS, CLEX_P_ADD_ASSIGN }, { CLEX_P_MINUS, CLEX_P_SUB_ASSIGN },
	{ CLEX_P_STAR, CLEX_P_MUL_ASSIGN }, { CLEX_P_SLASH, CLEX_P_DIV_ASSIGN },
	{ CLEX_P_PERCENT, CLEX_P_MOD_ASSIGN }, { CLEX_P_AMP, CLEX_P_AND_ASSIGN },
	{ CLEX_P_PIPE, CLEX_P_OR_ASSIGN }, { CLEX_P_CARET, CLEX_P_XOR_ASSIGN },
	{ CLEX_P_SHL, CLEX_P_SHL_ASSIGN }, { CLEX_P_SHR, CLEX_P_SHR_ASSIGN },
};

static int compound_for(const struct plag_raw *t)
{
	for (size_t i = 0; t->kind == PLAG_RAW_PUNCT && i < sizeof compound_of / sizeof *compound_of;
	     i++)
		if (compound_of[i][0] == t->val)
			return (int)compound_of[i][1];
	return -1;
}

/* Emits `L ++ ;` or `L -- ;` for lvalue [a, b). */
static void emit_step(struct vec *o, const struct plag_raw *t, size_t a, size_t b, bool up,
		      uint32_t line)
{
	push_range(o, t, a, b);
	push(o, punct(up ? CLEX_P_INC : CLEX_P_DEC, line));
	push(o, punct(CLEX_P_SEMI, line));
}

/* Emits `L OP= E ;` (E [e, f) without parentheses around the whole of it),
 * or `L ++ ;` when that is what it is. */
static void emit_compound(const struct norm *c, struct vec *o, size_t a, size_t b, unsigned op,
			  size_t e, size_t f, uint32_t line)
{
	const struct plag_raw *t = c->t;
	if (f - e > 2 && is_p(&t[e], CLEX_P_LPAREN) && match_close(c, e, f) == f - 1)
		e++, f--;
	if (f == e + 1 && is_one(c, &t[e]) && (op == CLEX_P_ADD_ASSIGN || op == CLEX_P_SUB_ASSIGN)) {
		emit_step(o, t, a, b, op == CLEX_P_ADD_ASSIGN, line);
		return;
	}
	push_range(o, t, a, b);
	push(o, punct(op, line));
	push_range(o, t, e, f);
	push(o, punct(CLEX_P_SEMI, line));
}

/* A statement at i in one of the forms of rule 3: emitted, and one past
 * it; 0 when it is none. */
static size_t assignment(const struct norm *c, size_t i, size_t end, struct vec *o)
{
	const struct plag_raw *t = c->t;
	uint32_t line = t[i].line;
	if ((is_p(&t[i], CLEX_P_INC) || is_p(&t[i], CLEX_P_DEC))) {
		size_t l = lvalue_end(c, i + 1, end);
		if (l > i + 1 && l < end && is_p(&t[l], CLEX_P_SEMI)) {
			emit_step(o, t, i + 1, l, is_p(&t[i], CLEX_P_INC), line);
			return l + 1;
		}
		return 0;
	}
	size_t l = lvalue_end(c, i, end);
	if (l == i || l + 1 >= end)
		return 0;
	size_t semi = simple_end(c, l, end) - 1;
	if (semi >= end || !is_p(&t[semi], CLEX_P_SEMI) || semi <= l + 1)
		return 0;
	const struct plag_raw *op = &t[l];
	if (op->kind != PLAG_RAW_PUNCT)
		return 0;
	for (size_t k = 0; k < sizeof compound_of / sizeof *compound_of; k++)
		if (op->val == compound_of[k][1]) {
			emit_compound(c, o, i, l, op->val, l + 1, semi, line);
			return semi + 1;
		}
	if (op->val != CLEX_P_ASSIGN)
		return 0;
	/* L = L OP E, or L = 1 + L */
	size_t r = l + 1, rl = lvalue_end(c, r, semi);
	if (rl < semi && same_range(t, i, l, r, rl)) {
		int cop = compound_for(&t[rl]);
		if (cop < 0 || rl + 1 >= semi || has_looser(c, rl + 1, semi, binary_prec(&t[rl])))
			return 0;
		emit_compound(c, o, i, l, (unsigned)cop, rl + 1, semi, line);
		return semi + 1;
	}
	if (semi == r + 2 + (l - i) && is_one(c, &t[r]) && is_p(&t[r + 1], CLEX_P_PLUS) &&
	    same_range(t, i, l, r + 2, semi)) {
		emit_step(o, t, i, l, true, line);
		return semi + 1;
	}
	return 0;
}

/* Whether t is part of a declaration's specifiers: a type keyword, a
 * qualifier or storage class, or struct / union / enum. */
static bool specifier(const struct norm *c, const struct plag_raw *t)
{
	if (t->kind != PLAG_RAW_WORD || is_ident(t))
		return false;
	uint32_t k = plag_raw_code(t) - PLAG_TOK_KEYWORD;
	return k < sizeof c->specifier / sizeof *c->specifier && c->specifier[k];
}

/* `T a = 1, *b;` at i: emitted as `T a = 1; T *b;`, one past it; 0 when
 * it is no declaration of several names.  T is keywords (with a tag's
 * name) or one identifier followed by a declarator. */
static size_t declaration(const struct norm *c, size_t i, size_t end, struct vec *o)
{
	const struct plag_raw *t = c->t;
	size_t d = i;
	while (d < end && (specifier(c, &t[d]) ||
			   (d > i && is_ident(&t[d]) && (is_kw(&t[d - 1], c->kw_struct) ||
							is_kw(&t[d - 1], c->kw_union) ||
							is_kw(&t[d - 1], c->kw_enum)))))
		d++;
	if (d == i && i + 1 < end && is_ident(&t[i]) &&
	    (is_ident(&t[i + 1]) || is_p(&t[i + 1], CLEX_P_STAR)))
		d = i + 1; /* a typedef's name */
	if (d == i || d >= end || is_p(&t[d], CLEX_P_LBRACE))
		return 0;
	size_t semi = simple_end(c, d, end);
	if (semi == 0 || semi > end || !is_p(&t[semi - 1], CLEX_P_SEMI))
		return 0;
	size_t commas = 0;
	for (size_t j = d; j < semi - 1; j++) {
		if (opens(&t[j]))
			j = match_close(c, j, semi - 1);
		else
			commas += is_p(&t[j], CLEX_P_COMMA);
	}
	if (!commas)
		return 0;
	size_t from = d;
	for (size_t j = d; j < semi; j++) {
		if (j < semi - 1 && opens(&t[j])) {
			j = match_close(c, j, semi - 1);
			continue;
		}
		if (j == semi - 1 || is_p(&t[j], CLEX_P_COMMA)) {
			push_range(o, t, i, d);
			push_range(o, t, from, j);
			push(o, punct(CLEX_P_SEMI, t[j].line));
			from = j + 1;
		}
	}
	return semi;
}

static void assignments(const struct norm *c, struct vec *o)
{
	const struct plag_raw *t = c->t;
	for (size_t i = 0; i < c->n;) {
		bool start = i == 0 || is_p(&t[i - 1], CLEX_P_SEMI) || is_p(&t[i - 1], CLEX_P_LBRACE) ||
			     is_p(&t[i - 1], CLEX_P_RBRACE) || is_p(&t[i - 1], CLEX_P_COLON);
		size_t next = start ? assignment(c, i, c->n, o) : 0;
		if (!next && start)
			next = declaration(c, i, c->n, o);
		if (next > i)
			i = next;
		else
			push(o, t[i++]);
	}
}

/* ---- pass 4: a > b as b < a */

/* Tokens that may be part of a simple operand (brackets apart). */
static bool operand_tok(const struct norm *c, const struct plag_raw *t)
{
	if (t->kind == PLAG_RAW_NUMBER || t->kind == PLAG_RAW_STRING || t->kind == PLAG_RAW_CHAR)
		return true;
	if (t->kind == PLAG_RAW_WORD)
		return is_ident(t) || plag_raw_code(t) == c->kw_sizeof;
	if (t->kind != PLAG_RAW_PUNCT)
		return false;
	switch (t->val) {
	case CLEX_P_DOT: case CLEX_P_ARROW: case CLEX_P_PLUS: case CLEX_P_MINUS:
	case CLEX_P_STAR: case CLEX_P_SLASH: case CLEX_P_PERCENT: case CLEX_P_SHL:
	case CLEX_P_SHR: case CLEX_P_INC: case CLEX_P_DEC: case CLEX_P_BANG: case CLEX_P_TILDE:
		return true;
	}
	return false;
}

/* What may stand before a comparison's left operand, or after its right one. */
static bool bounds_left(const struct norm *c, const struct plag_raw *t)
{
	if (is_kw(t, c->kw_return))
		return true;
	int p = binary_prec(t);
	return p == 6 || p == 2 || p == 1 || p == -1 || is_p(t, CLEX_P_LPAREN) ||
	       is_p(t, CLEX_P_LBRACKET) || is_p(t, CLEX_P_SEMI) || is_p(t, CLEX_P_LBRACE) ||
	       is_p(t, CLEX_P_RBRACE);
}

static bool bounds_right(const struct plag_raw *t)
{
	int p = binary_prec(t);
	return p == 6 || p == 2 || p == 1 || is_p(t, CLEX_P_QUESTION) || is_p(t, CLEX_P_COLON) ||
	       is_p(t, CLEX_P_COMMA) || is_p(t, CLEX_P_RPAREN) || is_p(t, CLEX_P_RBRACKET) ||
	       is_p(t, CLEX_P_SEMI) || is_p(t, CLEX_P_RBRACE);
}

/* The start of the left operand ending before j, or j when not simple. */
static size_t left_operand(const struct norm *c, const struct plag_raw *t, size_t j)
{
	size_t k = j;
	while (k > 0 && j - k < PLAG_NORM_OPERAND) {
		const struct plag_raw *p = &t[k - 1];
		if (is_p(p, CLEX_P_RPAREN) || is_p(p, CLEX_P_RBRACKET)) {
			size_t depth = 0, m = k;
			do {
				m--;
				depth += closes(&t[m]);
				depth -= opens(&t[m]);
			} while (depth && m > 0 && j - m < PLAG_NORM_OPERAND);
			if (depth)
				return j;
			k = m;
			continue;
		}
		if (!operand_tok(c, p))
			break;
		k--;
	}
	if (k == j || j - k >= PLAG_NORM_OPERAND || (k > 0 && !bounds_left(c, &t[k - 1])))
		return j;
	return k;
}

/* One past the right operand starting at j, or j when not simple. */
static size_t right_operand(const struct norm *c, const struct plag_raw *t, size_t j, size_t n)
{
	size_t k = j;
	while (k < n && k - j < PLAG_NORM_OPERAND) {
		if (is_p(&t[k], CLEX_P_LPAREN) || is_p(&t[k], CLEX_P_LBRACKET)) {
			size_t m = scan_close(t, k, n < j + PLAG_NORM_OPERAND ? n : j + PLAG_NORM_OPERAND);
			if (m >= n || m >= j + PLAG_NORM_OPERAND)
				return j;
			k = m + 1;
			continue;
		}
		if (!operand_tok(c, &t[k]))
			break;
		k++;
	}
	if (k == j || k - j >= PLAG_NORM_OPERAND || (k < n && !bounds_right(&t[k])))
		return j;
	return k;
}

static void comparisons(const struct norm *c, struct plag_raw *t, size_t n)
{
	struct plag_raw tmp[2 * PLAG_NORM_OPERAND + 1];
	for (size_t j = 1; j + 1 < n; j++) {
		bool gt = is_p(&t[j], CLEX_P_GT), ge = is_p(&t[j], CLEX_P_GE);
		if (!gt && !ge)
			continue;
		size_t a = left_operand(c, t, j), e = right_operand(c, t, j + 1, n);
		if (a == j || e == j + 1)
			continue;
		/* B OP' A, in place: the same tokens in another order */
		size_t nb = e - j - 1, na = j - a;
		memcpy(tmp, &t[j + 1], nb * sizeof *tmp);
		tmp[nb] = punct(gt ? CLEX_P_LT : CLEX_P_LE, t[j].line);
		memcpy(&tmp[nb + 1], &t[a], na * sizeof *tmp);
		memcpy(&t[a], tmp, (na + nb + 1) * sizeof *tmp);
		j = e - 1;
	}
}

/* ---- pass 5: if chains in a canonical order */

struct arm {
	size_t a, b; /* `( C ) { ... }` after sorting inside, in the arms buffer */
};

static int code_cmp(const struct plag_raw *x, size_t nx, const struct plag_raw *y, size_t ny)
{
	for (size_t i = 0; i < nx && i < ny; i++) {
		uint32_t a = plag_raw_code(&x[i]), b = plag_raw_code(&y[i]);
		if (a != b)
			return a < b ? -1 : 1;
	}
	return (nx > ny) - (nx < ny);
}

static int arm_cmp(const void *p, const void *q, void *base)
{
	const struct arm *x = p, *y = q;
	const struct plag_raw *v = base;
	int r = code_cmp(v + x->a, x->b - x->a, v + y->a, y->b - y->a);
	return r ? r : (x->a > y->a) - (x->a < y->a);
}

static void chains(const struct norm *c, size_t a, size_t b, unsigned depth, struct vec *o);

/* The chain at i (an `if`): emitted with its arms sorted; one past it. */
static size_t chain(const struct norm *c, size_t i, size_t end, unsigned depth, struct vec *o)
{
	const struct plag_raw *t = c->t;
	struct vec arms_buf = { 0 };
	struct arm *arms = NULL;
	size_t narms = 0, cap = 0, tail_a = 0, tail_b = 0, j = i;
	bool ok = true;
	while (ok && j + 1 < end && is_kw(&t[j], c->kw_if) && is_p(&t[j + 1], CLEX_P_LPAREN)) {
		size_t close = match_close(c, j + 1, end);
		if (close >= end) {
			ok = false;
			break;
		}
		size_t e = stmt_end(c, close + 1, end, depth);
		if (narms == cap) {
			cap = cap ? 2 * cap : 8;
			struct arm *grown = realloc(arms, cap * sizeof *arms);
			if (!grown) {
				arms_buf.failed = true;
				break;
			}
			arms = grown;
		}
		arms[narms].a = arms_buf.n;
		push_range(&arms_buf, t, j + 1, close + 1);
		chains(c, close + 1, e, depth + 1, &arms_buf);
		arms[narms++].b = arms_buf.n;
		j = e;
		if (j + 1 < end && is_kw(&t[j], c->kw_else) && is_kw(&t[j + 1], c->kw_if)) {
			j++;
			continue;
		}
		if (j < end && is_kw(&t[j], c->kw_else)) {
			tail_a = arms_buf.n;
			size_t te = stmt_end(c, j + 1, end, depth);
			chains(c, j + 1, te, depth + 1, &arms_buf);
			tail_b = arms_buf.n;
			j = te;
		}
		break;
	}
	ok = ok && !arms_buf.failed && narms > 0;
	if (ok) {
		if (narms > 1)
			qsort_r(arms, narms, sizeof *arms, arm_cmp, arms_buf.v);
		for (size_t k = 0; k < narms; k++) {
			uint32_t line = arms_buf.v[arms[k].a].line;
			if (k)
				push(o, keyword_tok(c->kw_else, line));
			push(o, keyword_tok(c->kw_if, line));
			push_range(o, arms_buf.v, arms[k].a, arms[k].b);
		}
		if (tail_b > tail_a) {
			push(o, keyword_tok(c->kw_else, arms_buf.v[tail_a].line));
			push_range(o, arms_buf.v, tail_a, tail_b);
		}
	}
	free(arms);
	free(arms_buf.v);
	if (!ok) {
		push(o, t[i]);
		return i + 1;
	}
	return j;
}

static void chains(const struct norm *c, size_t a, size_t b, unsigned depth, struct vec *o)
{
	const struct plag_raw *t = c->t;
	if (depth > PLAG_NORM_DEPTH) {
		push_range(o, t, a, b);
		return;
	}
	for (size_t i = a; i < b;) {
		if (is_kw(&t[i], c->kw_if) && i + 1 < b && is_p(&t[i + 1], CLEX_P_LPAREN))
			i = chain(c, i, b, depth, o);
		else
			push(o, t[i++]);
	}
}

/* ---- the passes */

static enum plag_err init(struct norm *c, struct plag_atoms *atoms)
{
	c->kw_for = keyword("for"), c->kw_while = keyword("while"), c->kw_do = keyword("do");
	c->kw_if = keyword("if"), c->kw_else = keyword("else");
	c->kw_continue = keyword("continue"), c->kw_return = keyword("return");
	c->kw_sizeof = keyword("sizeof"), c->kw_case = keyword("case");
	c->kw_default = keyword("default"), c->kw_switch = keyword("switch");
	c->kw_struct = keyword("struct"), c->kw_union = keyword("union");
	c->kw_enum = keyword("enum");
	static const char *const specifiers[] = { "int", "char", "short", "long", "unsigned",
		"signed", "float", "double", "bool", "void", "const", "volatile", "static",
		"register", "extern", "struct", "union", "enum", "auto", "_Complex", "inline" };
	for (size_t i = 0; i < sizeof specifiers / sizeof *specifiers; i++) {
		uint32_t k = keyword(specifiers[i]) - PLAG_TOK_KEYWORD;
		if (k < sizeof c->specifier / sizeof *c->specifier)
			c->specifier[k] = true;
	}
	return plag_atom(atoms, "1", 1, &c->one);
}

/* c's tokens become t[0..n), their bracket partners found once. */
static bool use(struct norm *c, const struct plag_raw *t, size_t n, size_t **match)
{
	free(*match);
	*match = partners(t, n);
	c->t = t, c->n = n, c->match = *match;
	return *match != NULL;
}

enum plag_err plag_norm(const struct plag_raw *in, size_t n, struct plag_atoms *atoms,
			struct plag_raw **out, size_t *nout)
{
	struct norm c = { 0 };
	struct vec a = { 0 }, p = { 0 }, b = { 0 }, d = { 0 };
	size_t *match = NULL;
	*out = NULL;
	*nout = 0;
	enum plag_err e = init(&c, atoms);
	if (e)
		return e;
	/* Room for what each pass adds (braces, loop steps) without copying. */
	grow(&a, n + n / 4 + 16);
	grow(&p, n + n / 4 + 16);
	grow(&b, n + n / 4 + 16);
	grow(&d, n + n / 4 + 16);
	bool ok = !a.failed && !p.failed && !b.failed && !d.failed && use(&c, in, n, &match);
	if (ok)
		blocks(&c, 0, n, NULL, 0, &a);
	ok = ok && !a.failed;
	if (ok)
		parentheses(&c, a.v, a.n, &p);
	ok = ok && !p.failed && use(&c, p.v, p.n, &match);
	if (ok)
		assignments(&c, &b);
	ok = ok && !b.failed;
	if (ok)
		comparisons(&c, b.v, b.n);
	ok = ok && use(&c, b.v, b.n, &match);
	if (ok)
		chains(&c, 0, b.n, 0, &d);
	ok = ok && !d.failed;
	free(match);
	free(a.v);
	free(p.v);
	free(b.v);
	if (!ok) {
		free(d.v);
		return PLAG_E_NOMEM;
	}
	*out = d.v;
	*nout = d.n;
	return PLAG_OK;
}
