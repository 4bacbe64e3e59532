/* Directives and macro expansion for the plag_ tokenizer (see plag_raw.h).
 *
 * The model is the usual one, simplified: expansions are contexts on a
 * stack, read before the source; a macro is disabled while one of its
 * contexts is on the stack, and a name read while its macro is disabled is
 * painted and never expands (so "#define A A" and mutual recursion stop).
 * A context read to its end stays until a token is wanted from below it:
 * the expansion of its last token is thus nested in it and still sees its
 * macro disabled ("#define A B", "#define B A").  Arguments are expanded on
 * their own before substitution unless they meet # or ##.  Every context
 * pushed is charged to an expansion budget, the stack and the recursion
 * through arguments have a fixed depth, so no input makes the work or the
 * C stack unbounded.
 */
#include "judge/base/grow.h"
#include "judge/plag/plag_raw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 256

/* The floor of the outermost loop: it reads the source once the stack is
 * empty.  Any other floor is a stack depth the loop must not read below. */
#define TOP UINT32_MAX

struct rawbuf {
	struct plag_raw *v;
	size_t n, cap;
};

struct macro {
	bool defined, funclike, variadic;
	uint32_t nparams;
	struct plag_raw *body; /* parameters appear as PLAG_RAW_PARAM */
	size_t nbody;
	unsigned active;       /* its contexts now on the stack */
};

struct ctx {
	struct plag_raw *toks;
	size_t n, pos;
	int32_t macro;   /* -1: an argument being expanded on its own */
	bool owned;
};

/* One #if level.  Only literal 0 and 1 are evaluated: any other condition
 * might be true, and dropping code the compiler sees would let it hide. */
struct cond {
	uint32_t line;
	bool parent; /* the enclosing region is compiled */
	bool active; /* the current branch may be compiled */
	bool taken;  /* a branch surely compiled came already */
};

/* Arguments of one call: arg i is toks.v[i ? end[i-1] : 0 .. end[i]). */
struct args {
	struct rawbuf toks;
	size_t *end;
	size_t n, cap;
};

struct pp {
	const struct plag_raw *src;
	size_t nsrc, pos;
	struct plag_atoms *atoms;
	struct macro *macros;
	size_t nmacros, capmacros;
	int32_t *macro_of; /* atom -> index in macros, or -1 */
	size_t nmacro_of;
	struct ctx *stack; /* lim->max_depth entries */
	unsigned depth;
	unsigned cooking;  /* arguments being expanded, one inside the other */
	struct cond *conds;
	size_t nconds, capconds;
	struct rawbuf out;
	size_t expanded, pasted, paste_limit;
	const struct plag_tok_limits *lim;
	struct err *err;
};

static enum plag_err run(struct pp *pp, unsigned floor, struct rawbuf *sink);

__attribute__((format(printf, 3, 4)))
static enum plag_err fail(struct pp *pp, enum plag_err e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pp->err->msg, sizeof pp->err->msg, fmt, ap);
	va_end(ap);
	return e;
}

/* Grows b to hold extra more tokens. */
static bool rawbuf_reserve(struct rawbuf *b, size_t extra)
{
	return grow_room(&b->v, &b->cap, b->n + extra, sizeof *b->v, 16);
}

static bool rawbuf_push(struct rawbuf *b, const struct plag_raw *t, size_t count)
{
	if (!rawbuf_reserve(b, count))
		return false;
	if (count)
		memcpy(b->v + b->n, t, count * sizeof *t);
	b->n += count;
	return true;
}

static bool is_punct(const struct plag_raw *t, enum clex_punct p)
{
	return t->kind == PLAG_RAW_PUNCT && t->val == (uint32_t)p;
}

static bool is_directive(const struct plag_raw *t, bool from_src)
{
	return from_src && (t->flags & PLAG_RAW_BOL) && is_punct(t, CLEX_P_HASH);
}

/* An atom's spelling for messages, at most 64 bytes of it. */
static const char *spell(const struct pp *pp, uint32_t atom, int *len)
{
	size_t n;
	const char *s = plag_atom_text(pp->atoms, atom, &n);
	*len = n > 64 ? 64 : (int)n;
	return s;
}

static int32_t macro_lookup(const struct pp *pp, uint32_t atom)
{
	if (atom >= pp->nmacro_of)
		return -1;
	int32_t m = pp->macro_of[atom];
	return m >= 0 && pp->macros[m].defined ? m : -1;
}

static enum plag_err charge(struct pp *pp, size_t n, uint32_t line)
{
	pp->expanded += n;
	if (pp->expanded > pp->lim->max_expansion)
		return fail(pp, PLAG_E_TOO_MANY,
			    "macro expansion makes more than %zu tokens (line %u)",
			    pp->lim->max_expansion, line);
	return PLAG_OK;
}

/* ---- The context stack */

static enum plag_err push_ctx(struct pp *pp, struct plag_raw *toks, size_t n, int32_t macro,
			      bool owned, uint32_t line)
{
	if (n == 0 || pp->depth >= pp->lim->max_depth) {
		if (owned)
			free(toks);
		if (n == 0)
			return PLAG_OK;
		return fail(pp, PLAG_E_MACRO_DEPTH, "macros nested deeper than %u (line %u)",
			    pp->lim->max_depth, line);
	}
	pp->stack[pp->depth++] = (struct ctx){
		.toks = toks, .n = n, .macro = macro, .owned = owned,
	};
	if (macro >= 0)
		pp->macros[macro].active++;
	return PLAG_OK;
}

static void pop_ctx(struct pp *pp)
{
	struct ctx *c = &pp->stack[--pp->depth];
	if (c->macro >= 0)
		pp->macros[c->macro].active--;
	if (c->owned)
		free(c->toks);
}

/* A name read while its macro is disabled stays unexpandable for good. */
static void paint(const struct pp *pp, struct plag_raw *t)
{
	if (t->kind != PLAG_RAW_WORD)
		return;
	int32_t m = macro_lookup(pp, t->val);
	if (m >= 0 && pp->macros[m].active)
		t->flags |= PLAG_RAW_PAINTED;
}

static unsigned level(unsigned floor)
{
	return floor == TOP ? 0 : floor;
}

/* Pops the contexts above floor that are read to their end: the next
 * token comes from below them. */
static void pop_exhausted(struct pp *pp, unsigned floor)
{
	while (pp->depth > level(floor) && pp->stack[pp->depth - 1].pos == pp->stack[pp->depth - 1].n)
		pop_ctx(pp);
}

/* The next token above stack level floor, or from the source for TOP. */
static bool next_tok(struct pp *pp, unsigned floor, struct plag_raw *t, bool *from_src)
{
	*from_src = false;
	pop_exhausted(pp, floor);
	if (pp->depth > level(floor)) {
		struct ctx *c = &pp->stack[pp->depth - 1];
		*t = c->toks[c->pos++];
		paint(pp, t);
		return true;
	}
	if (floor != TOP || pp->pos >= pp->nsrc)
		return false;
	*t = pp->src[pp->pos++];
	*from_src = true;
	return true;
}

/* Whether a '(' comes next.  The contexts popped on the way end before the
 * call's arguments, so C does not count their macros as disabled either. */
static bool next_is_lparen(struct pp *pp, unsigned floor)
{
	const struct plag_raw *t = NULL;
	pop_exhausted(pp, floor);
	if (pp->depth > level(floor)) {
		const struct ctx *c = &pp->stack[pp->depth - 1];
		t = &c->toks[c->pos];
	} else if (floor == TOP && pp->pos < pp->nsrc) {
		t = &pp->src[pp->pos];
	}
	return t && is_punct(t, CLEX_P_LPAREN);
}

static void skip_src_line(struct pp *pp)
{
	while (pp->pos < pp->nsrc && !(pp->src[pp->pos].flags & PLAG_RAW_BOL))
		pp->pos++;
}

/* ---- Calls */

static bool args_end_arg(struct args *a)
{
	if (!grow_room(&a->end, &a->cap, a->n + 1, sizeof *a->end, 8))
		return false;
	a->end[a->n++] = a->toks.n;
	return true;
}

static void args_free(struct args *a)
{
	free(a->toks.v);
	free(a->end);
}

static struct plag_raw *arg_toks(const struct args *a, size_t i, size_t *n)
{
	size_t start = i ? a->end[i - 1] : 0;
	*n = a->end[i] - start;
	return *n ? a->toks.v + start : a->toks.v; /* no tokens at all: v may be NULL */
}

static enum plag_err check_arg_count(struct pp *pp, const struct macro *m, struct args *a,
				     uint32_t name, uint32_t line)
{
	size_t n0;
	if (m->nparams == 0 && a->n == 1 && (arg_toks(a, 0, &n0), n0 == 0))
		a->n = 0; /* F() calls a macro without parameters */
	if (m->variadic && a->n + 1 == m->nparams && !args_end_arg(a))
		return PLAG_E_NOMEM; /* nothing for the ... part */
	if (a->n == m->nparams)
		return PLAG_OK;
	int len;
	const char *s = spell(pp, name, &len);
	return fail(pp, PLAG_E_SYNTAX, "macro %.*s takes %u argument(s), not %zu (line %u)",
		    len, s, m->nparams, a->n, line);
}

/* Reads "( a, b, ... )" after a function-like macro's name.  Directive
 * lines inside the call are dropped: C leaves them undefined there. */
static enum plag_err collect_args(struct pp *pp, unsigned floor, int32_t mi, uint32_t name,
				  uint32_t line, struct args *a)
{
	const struct macro *m = &pp->macros[mi];
	struct plag_raw t;
	bool src;
	size_t nest = 0;
	next_tok(pp, floor, &t, &src); /* the '(' */
	for (;;) {
		if (!next_tok(pp, floor, &t, &src)) {
			int len;
			const char *s = spell(pp, name, &len);
			return fail(pp, PLAG_E_SYNTAX, "unterminated call of macro %.*s (line %u)",
				    len, s, line);
		}
		if (is_directive(&t, src)) {
			skip_src_line(pp);
			continue;
		}
		if (is_punct(&t, CLEX_P_LPAREN)) {
			nest++;
		} else if (is_punct(&t, CLEX_P_RPAREN)) {
			if (nest == 0)
				break;
			nest--;
		} else if (is_punct(&t, CLEX_P_COMMA) && nest == 0 &&
			   !(m->variadic && a->n + 1 >= m->nparams)) {
			if (!args_end_arg(a))
				return PLAG_E_NOMEM;
			continue;
		}
		if (!rawbuf_push(&a->toks, &t, 1))
			return PLAG_E_NOMEM;
	}
	if (!args_end_arg(a))
		return PLAG_E_NOMEM;
	return check_arg_count(pp, m, a, name, line);
}

/* ---- Substitution */

/* Expands an argument on its own, as C does before substituting it. */
static enum plag_err cook_arg(struct pp *pp, struct plag_raw *toks, size_t n, uint32_t line,
			      struct rawbuf *out)
{
	if (n == 0)
		return PLAG_OK;
	if (pp->cooking >= pp->lim->max_depth)
		return fail(pp, PLAG_E_MACRO_DEPTH, "macros nested deeper than %u (line %u)",
			    pp->lim->max_depth, line);
	enum plag_err e = charge(pp, n, line);
	unsigned floor = pp->depth;
	if (!e)
		e = push_ctx(pp, toks, n, -1, false, line);
	if (e)
		return e;
	pp->cooking++;
	e = run(pp, floor, out);
	pp->cooking--;
	return e;
}

/* Appends to res, charging the budget first so res cannot outgrow it. */
static enum plag_err append(struct pp *pp, struct rawbuf *res, const struct plag_raw *t,
			    size_t n, uint32_t line)
{
	enum plag_err e = charge(pp, n, line);
	if (e)
		return e;
	if (!rawbuf_reserve(res, n))
		return PLAG_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		struct plag_raw c = t[i];
		c.line = line;
		c.flags &= PLAG_RAW_PAINTED;
		res->v[res->n++] = c;
	}
	return PLAG_OK;
}

/* l ## r for two identifiers or numbers: the joined spelling, re-interned
 * (it may name a macro or a keyword). */
static enum plag_err paste_words(struct pp *pp, struct plag_raw *l, const struct plag_raw *r,
				 uint32_t line)
{
	size_t ln, rn;
	const char *ls = plag_atom_text(pp->atoms, l->val, &ln);
	const char *rs = plag_atom_text(pp->atoms, r->val, &rn);
	pp->pasted += ln + rn;
	if (pp->pasted > pp->paste_limit)
		return fail(pp, PLAG_E_TOO_MANY, "token pasting makes too much text (line %u)", line);
	char *buf = malloc(ln + rn);
	if (!buf)
		return PLAG_E_NOMEM;
	memcpy(buf, ls, ln);
	memcpy(buf + ln, rs, rn);
	enum plag_err e = plag_atom(pp->atoms, buf, ln + rn, &l->val);
	free(buf);
	if (e == PLAG_E_TOO_MANY)
		return fail(pp, e, "token pasting makes too much text (line %u)", line);
	l->flags &= (uint8_t)~PLAG_RAW_PAINTED;
	return e;
}

/* Pastes r onto l when C could; otherwise (an invalid paste) *merged is
 * false and the two stay side by side, which is what matters here. */
static enum plag_err paste(struct pp *pp, struct plag_raw *l, const struct plag_raw *r,
			   uint32_t line, bool *merged)
{
	bool lw = l->kind == PLAG_RAW_WORD || l->kind == PLAG_RAW_NUMBER;
	bool rw = r->kind == PLAG_RAW_WORD || r->kind == PLAG_RAW_NUMBER;
	*merged = false;
	if (lw && rw) {
		*merged = true;
		return paste_words(pp, l, r, line);
	}
	if (l->kind == PLAG_RAW_PUNCT && r->kind == PLAG_RAW_PUNCT) {
		char buf[8];
		int n = snprintf(buf, sizeof buf, "%s%s", clex_punct_spelling(l->val),
				 clex_punct_spelling(r->val));
		int p = clex_punct_lookup(buf, (size_t)n);
		if (p >= 0) {
			l->val = (uint32_t)p;
			*merged = true;
		}
	}
	return PLAG_OK;
}

struct subst {
	const struct macro *m;
	struct args *a;
	struct rawbuf *cooked; /* expanded arguments, made on first use */
	bool *have;
	struct rawbuf res;
	bool left_empty;       /* the last item gave no token to paste onto */
	uint32_t line;
};

/* The tokens body[i] stands for: itself, or an argument, raw next to ##. */
static enum plag_err item(struct pp *pp, struct subst *s, size_t i, bool raw,
			  const struct plag_raw **t, size_t *n)
{
	const struct plag_raw *b = &s->m->body[i];
	if (b->kind != PLAG_RAW_PARAM) {
		*t = b;
		*n = 1;
		return PLAG_OK;
	}
	struct plag_raw *at = arg_toks(s->a, b->val, n);
	if (raw) {
		*t = at;
		return PLAG_OK;
	}
	if (!s->have[b->val]) {
		enum plag_err e = cook_arg(pp, at, *n, s->line, &s->cooked[b->val]);
		if (e)
			return e;
		s->have[b->val] = true;
	}
	*t = s->cooked[b->val].v;
	*n = s->cooked[b->val].n;
	return PLAG_OK;
}

static bool is_va_args(const struct macro *m, const struct plag_raw *b)
{
	return m->variadic && b->kind == PLAG_RAW_PARAM && b->val + 1 == m->nparams;
}

/* "## body[i]": paste the item's first token onto the last one. */
static enum plag_err subst_paste(struct pp *pp, struct subst *s, size_t i)
{
	const struct plag_raw *t;
	size_t n;
	enum plag_err e = item(pp, s, i, true, &t, &n);
	if (e)
		return e;
	if (n == 0) {
		/* GNU: ", ## __VA_ARGS__" loses the comma when there are none. */
		if (is_va_args(s->m, &s->m->body[i]) && !s->left_empty && s->res.n > 0 &&
		    is_punct(&s->res.v[s->res.n - 1], CLEX_P_COMMA)) {
			s->res.n--;
			s->left_empty = true;
		}
		return PLAG_OK;
	}
	bool merged = false;
	if (!s->left_empty && s->res.n > 0) {
		e = paste(pp, &s->res.v[s->res.n - 1], t, s->line, &merged);
		if (e)
			return e;
	}
	s->left_empty = false;
	return merged ? append(pp, &s->res, t + 1, n - 1, s->line)
		      : append(pp, &s->res, t, n, s->line);
}

static enum plag_err subst_body(struct pp *pp, struct subst *s)
{
	const struct macro *m = s->m;
	enum plag_err e = PLAG_OK;
	for (size_t i = 0; i < m->nbody && !e; i++) {
		const struct plag_raw *b = &m->body[i];
		bool next_is_paste = i + 1 < m->nbody && is_punct(&m->body[i + 1], CLEX_P_HASHHASH);
		if (m->funclike && is_punct(b, CLEX_P_HASH) && i + 1 < m->nbody &&
		    m->body[i + 1].kind == PLAG_RAW_PARAM) {
			struct plag_raw str = { .kind = PLAG_RAW_STRING };
			e = append(pp, &s->res, &str, 1, s->line); /* #param */
			s->left_empty = false;
			i++;
		} else if (is_punct(b, CLEX_P_HASHHASH)) {
			e = subst_paste(pp, s, ++i);
		} else {
			const struct plag_raw *t;
			size_t n;
			e = item(pp, s, i, next_is_paste, &t, &n);
			if (!e)
				e = append(pp, &s->res, t, n, s->line);
			s->left_empty = n == 0;
		}
	}
	return e;
}

/* Replaces a use of macro mi by its substituted body, pushed as a context
 * (which disables mi until it is read to the end). */
static enum plag_err expand(struct pp *pp, int32_t mi, struct args *a, uint32_t line)
{
	struct subst s = { .m = &pp->macros[mi], .a = a, .left_empty = true, .line = line };
	uint32_t np = s.m->nparams;
	if (np) {
		s.cooked = calloc(np, sizeof *s.cooked);
		s.have = calloc(np, sizeof *s.have);
	}
	enum plag_err e = np && (!s.cooked || !s.have) ? PLAG_E_NOMEM : subst_body(pp, &s);
	for (uint32_t i = 0; s.cooked && i < np; i++)
		free(s.cooked[i].v);
	free(s.cooked);
	free(s.have);
	if (e) {
		free(s.res.v);
		return e;
	}
	return push_ctx(pp, s.res.v, s.res.n, mi, true, line);
}

/* ---- The main loop */

static enum plag_err emit(struct pp *pp, struct rawbuf *sink, const struct plag_raw *t)
{
	if (!sink && pp->out.n >= pp->lim->max_tokens)
		return fail(pp, PLAG_E_TOO_MANY, "more than %zu tokens after macro expansion (line %u)",
			    pp->lim->max_tokens, t->line);
	return rawbuf_push(sink ? sink : &pp->out, t, 1) ? PLAG_OK : PLAG_E_NOMEM;
}

static enum plag_err handle(struct pp *pp, unsigned floor, struct plag_raw *t,
			    struct rawbuf *sink)
{
	int32_t mi = -1;
	if (t->kind == PLAG_RAW_WORD && !(t->flags & PLAG_RAW_PAINTED))
		mi = macro_lookup(pp, t->val);
	if (mi < 0 || (pp->macros[mi].funclike && !next_is_lparen(pp, floor)))
		return emit(pp, sink, t);
	if (!pp->macros[mi].funclike)
		return expand(pp, mi, NULL, t->line);
	struct args a = { 0 };
	enum plag_err e = collect_args(pp, floor, mi, t->val, t->line, &a);
	if (!e)
		e = expand(pp, mi, &a, t->line);
	args_free(&a);
	return e;
}

static bool cond_active(const struct pp *pp)
{
	return pp->nconds == 0 || pp->conds[pp->nconds - 1].active;
}

static enum plag_err directive(struct pp *pp, uint32_t line);

static enum plag_err run(struct pp *pp, unsigned floor, struct rawbuf *sink)
{
	struct plag_raw t;
	bool src;
	enum plag_err e = PLAG_OK;
	while (!e && next_tok(pp, floor, &t, &src)) {
		if (is_directive(&t, src))
			e = directive(pp, t.line);
		else if (!src || cond_active(pp))
			e = handle(pp, floor, &t, sink);
	}
	return e;
}

/* ---- Directives */

static bool word_is(const struct pp *pp, const struct plag_raw *t, const char *w)
{
	size_t n;
	if (t->kind != PLAG_RAW_WORD)
		return false;
	const char *s = plag_atom_text(pp->atoms, t->val, &n);
	return n == strlen(w) && memcmp(s, w, n) == 0;
}

/* 0 or 1 for a literal 0 or 1, -1 for anything else (unknown). */
static int eval_if(const struct pp *pp, const struct plag_raw *d, size_t n)
{
	size_t len;
	if (n != 1 || d[0].kind != PLAG_RAW_NUMBER)
		return -1;
	const char *s = plag_atom_text(pp->atoms, d[0].val, &len);
	if (len == 1 && (s[0] == '0' || s[0] == '1'))
		return s[0] - '0';
	return -1;
}

static enum plag_err cond_push(struct pp *pp, int v, uint32_t line)
{
	if (!grow_room(&pp->conds, &pp->capconds, pp->nconds + 1, sizeof *pp->conds, 16))
		return PLAG_E_NOMEM;
	bool parent = cond_active(pp);
	pp->conds[pp->nconds++] = (struct cond){
		.line = line, .parent = parent, .active = parent && v != 0, .taken = v == 1,
	};
	return PLAG_OK;
}

/* #if, #ifdef, #ifndef, #elif, #else, #endif; false if d names none. */
static bool conditional(struct pp *pp, const struct plag_raw *d, size_t n, uint32_t line,
			enum plag_err *e)
{
	struct cond *top = pp->nconds ? &pp->conds[pp->nconds - 1] : NULL;
	*e = PLAG_OK;
	if (word_is(pp, d, "if")) {
		*e = cond_push(pp, eval_if(pp, d + 1, n - 1), line);
	} else if (word_is(pp, d, "ifdef") || word_is(pp, d, "ifndef")) {
		*e = cond_push(pp, -1, line);
	} else if (word_is(pp, d, "elif") || word_is(pp, d, "else") || word_is(pp, d, "endif")) {
		if (!top) {
			*e = fail(pp, PLAG_E_SYNTAX, "#elif, #else or #endif without #if (line %u)", line);
		} else if (word_is(pp, d, "endif")) {
			pp->nconds--;
		} else {
			int v = word_is(pp, d, "else") ? 1 : eval_if(pp, d + 1, n - 1);
			top->active = top->parent && !top->taken && v != 0;
			top->taken = top->taken || v == 1;
		}
	} else {
		return false;
	}
	return true;
}

struct param {
	uint32_t atom, index;
};

static int param_cmp(const void *a, const void *b)
{
	const struct param *x = a, *y = b;
	return x->atom < y->atom ? -1 : x->atom > y->atom;
}

/* Parses "(a, b, ...)" from d[*i] (just after the '('). */
static enum plag_err parse_params(struct pp *pp, const struct plag_raw *d, size_t n, size_t *i,
				  struct macro *m, struct param *ps, uint32_t line)
{
	if (*i < n && is_punct(&d[*i], CLEX_P_RPAREN)) {
		++*i;
		return PLAG_OK;
	}
	while (*i < n && m->nparams < MAX_PARAMS && !m->variadic) {
		uint32_t atom;
		if (is_punct(&d[*i], CLEX_P_ELLIPSIS)) {
			enum plag_err e = plag_atom(pp->atoms, "__VA_ARGS__", 11, &atom);
			if (e)
				return e;
			m->variadic = true;
		} else if (d[*i].kind == PLAG_RAW_WORD) {
			atom = d[*i].val;
			if (*i + 1 < n && is_punct(&d[*i + 1], CLEX_P_ELLIPSIS)) {
				m->variadic = true; /* GNU "args..." */
				++*i;
			}
		} else {
			break;
		}
		ps[m->nparams] = (struct param){ atom, m->nparams };
		m->nparams++;
		++*i;
		if (*i < n && is_punct(&d[*i], CLEX_P_RPAREN)) {
			++*i;
			return PLAG_OK;
		}
		if (*i >= n || !is_punct(&d[*i], CLEX_P_COMMA))
			break;
		++*i;
	}
	return fail(pp, PLAG_E_SYNTAX,
		    "#define with a bad parameter list or over %d parameters (line %u)",
		    MAX_PARAMS, line);
}

static enum plag_err check_params(struct pp *pp, struct param *ps, uint32_t np, uint32_t line)
{
	qsort(ps, np, sizeof *ps, param_cmp);
	for (uint32_t k = 1; k < np; k++)
		if (ps[k].atom == ps[k - 1].atom)
			return fail(pp, PLAG_E_SYNTAX, "#define with a repeated parameter (line %u)",
				    line);
	return PLAG_OK;
}

/* Copies the replacement list, turning parameter names into PARAM tokens.
 * A ## at either end (C forbids it there) is dropped, and "## ##" is one
 * ##, as GCC reads them. */
static enum plag_err copy_body(struct macro *m, const struct plag_raw *d, size_t n,
			       const struct param *ps)
{
	while (n > 0 && is_punct(&d[0], CLEX_P_HASHHASH))
		d++, n--;
	while (n > 0 && is_punct(&d[n - 1], CLEX_P_HASHHASH))
		n--;
	m->body = malloc((n ? n : 1) * sizeof *m->body);
	if (!m->body)
		return PLAG_E_NOMEM;
	m->nbody = 0;
	for (size_t k = 0; k < n; k++) {
		struct plag_raw t = d[k];
		if (k > 0 && is_punct(&t, CLEX_P_HASHHASH) && is_punct(&d[k - 1], CLEX_P_HASHHASH))
			continue;
		t.flags = 0;
		struct param key = { .atom = t.val };
		const struct param *p = NULL;
		if (t.kind == PLAG_RAW_WORD && m->nparams)
			p = bsearch(&key, ps, m->nparams, sizeof *ps, param_cmp);
		if (p) {
			t.kind = PLAG_RAW_PARAM;
			t.val = p->index;
		}
		m->body[m->nbody++] = t;
	}
	return PLAG_OK;
}

/* Gives name a macro slot; a redefinition reuses (and empties) it. */
static enum plag_err macro_slot(struct pp *pp, uint32_t name, int32_t *mi)
{
	if (pp->nmacro_of < pp->atoms->n) {
		int32_t *v = realloc(pp->macro_of, pp->atoms->n * sizeof *v);
		if (!v)
			return PLAG_E_NOMEM;
		memset(v + pp->nmacro_of, 0xff, (pp->atoms->n - pp->nmacro_of) * sizeof *v);
		pp->macro_of = v;
		pp->nmacro_of = pp->atoms->n;
	}
	if (pp->macro_of[name] >= 0) {
		*mi = pp->macro_of[name];
		free(pp->macros[*mi].body);
		pp->macros[*mi] = (struct macro){ 0 };
		return PLAG_OK;
	}
	if (!grow_room(&pp->macros, &pp->capmacros, pp->nmacros + 1, sizeof *pp->macros, 32))
		return PLAG_E_NOMEM;
	*mi = (int32_t)pp->nmacros;
	pp->macros[pp->nmacros++] = (struct macro){ 0 };
	pp->macro_of[name] = *mi;
	return PLAG_OK;
}

static enum plag_err define(struct pp *pp, const struct plag_raw *d, size_t n, uint32_t line)
{
	if (n == 0 || d[0].kind != PLAG_RAW_WORD)
		return fail(pp, PLAG_E_SYNTAX, "#define without a macro name (line %u)", line);
	struct macro m = { .defined = true };
	struct param ps[MAX_PARAMS];
	size_t i = 1;
	enum plag_err e = PLAG_OK;
	/* Function-like only when '(' touches the name. */
	if (n > 1 && is_punct(&d[1], CLEX_P_LPAREN) && !(d[1].flags & PLAG_RAW_SPACE)) {
		m.funclike = true;
		i = 2;
		e = parse_params(pp, d, n, &i, &m, ps, line);
		if (!e)
			e = check_params(pp, ps, m.nparams, line);
	}
	if (!e)
		e = copy_body(&m, d + i, n - i, ps);
	int32_t mi;
	if (!e)
		e = macro_slot(pp, d[0].val, &mi);
	if (e) {
		free(m.body);
		return e;
	}
	pp->macros[mi] = m;
	return PLAG_OK;
}

static enum plag_err undef(struct pp *pp, const struct plag_raw *d, size_t n, uint32_t line)
{
	if (n == 0 || d[0].kind != PLAG_RAW_WORD)
		return fail(pp, PLAG_E_SYNTAX, "#undef without a macro name (line %u)", line);
	int32_t mi = macro_lookup(pp, d[0].val);
	if (mi >= 0) {
		free(pp->macros[mi].body);
		pp->macros[mi] = (struct macro){ 0 };
	}
	return PLAG_OK;
}

/* Runs the directive whose '#' was just read: the rest of its line.
 * #include, #pragma, #error, #line and unknown ones are dropped. */
static enum plag_err directive(struct pp *pp, uint32_t line)
{
	const struct plag_raw *d = pp->src + pp->pos;
	skip_src_line(pp);
	size_t n = (size_t)(pp->src + pp->pos - d);
	enum plag_err e = PLAG_OK;
	if (n == 0 || conditional(pp, d, n, line, &e))
		return e;
	if (!cond_active(pp))
		return PLAG_OK;
	if (word_is(pp, d, "define"))
		return define(pp, d + 1, n - 1, line);
	if (word_is(pp, d, "undef"))
		return undef(pp, d + 1, n - 1, line);
	return PLAG_OK;
}

static void pp_free(struct pp *pp)
{
	while (pp->depth)
		pop_ctx(pp);
	for (size_t i = 0; i < pp->nmacros; i++)
		free(pp->macros[i].body);
	free(pp->macros);
	free(pp->macro_of);
	free(pp->stack);
	free(pp->conds);
}

enum plag_err plag_preprocess(const struct plag_raw *in, size_t n, struct plag_atoms *atoms,
			      const struct plag_tok_limits *lim, struct plag_raw **out,
			      size_t *nout, err_t err)
{
	struct pp pp = {
		.src = in, .nsrc = n, .atoms = atoms, .lim = lim, .err = err,
		.paste_limit = atoms->limit,
	};
	*out = NULL;
	*nout = 0;
	pp.stack = malloc(lim->max_depth * sizeof *pp.stack);
	enum plag_err e = pp.stack ? run(&pp, TOP, NULL) : PLAG_E_NOMEM;
	if (!e && pp.nconds)
		e = fail(&pp, PLAG_E_SYNTAX, "#if at line %u has no #endif",
			 pp.conds[pp.nconds - 1].line);
	pp_free(&pp);
	if (e) {
		free(pp.out.v);
		return e;
	}
	*out = pp.out.v;
	*nout = pp.out.n;
	return PLAG_OK;
}
