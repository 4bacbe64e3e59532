/* energy_asm.c - the rewrite of energy_asm.h: two passes over gcc's lines,
 * the first to learn the labels (which are defined, which start loops,
 * which are used as data), the second to write the counted program. */
#include "games/aic2018/engine/energy_asm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATH1(f) #f "," #f "f,"
const char energy_asm_library[] =
	"memcpy,memset,memmove,memcmp,memchr,strlen,strcmp,strncmp,strcpy,strncpy,strchr,"
	"qsort,bsearch,abs,labs,llabs,snprintf,printf,puts,putchar,"
	MATH1(sqrt) MATH1(cbrt) MATH1(hypot) MATH1(sin) MATH1(cos) MATH1(tan) MATH1(asin)
	MATH1(acos) MATH1(atan) MATH1(atan2) MATH1(sinh) MATH1(cosh) MATH1(tanh) MATH1(exp)
	MATH1(exp2) MATH1(log) MATH1(log2) MATH1(log10) MATH1(pow) MATH1(fmod) MATH1(floor)
	MATH1(ceil) MATH1(round) MATH1(trunc) MATH1(fabs) MATH1(fmin) MATH1(fmax)
	MATH1(lround) "__popcountdi2,__divti3,__udivti3,__modti3,__umodti3";

/* ---- lines ------------------------------------------------------------------ */

/* LINE_DEBUG_LABEL: a label gcc writes for the debugging information
 * alone (-g: lexical blocks, inlined calls, variables' locations).  It
 * starts no block, so a build with line information (judge repro) is
 * counted exactly as the judge's build without it. */
enum line_kind { LINE_OTHER, LINE_LABEL, LINE_DEBUG_LABEL, LINE_DIRECTIVE, LINE_INSN };

struct line {
	const char *p; /* the line, without its newline */
	size_t n;
	enum line_kind kind;
	bool code;     /* in an executable section */
	bool debug;    /* in a debugging section (.debug_*): never run */
};

enum check { CHECK_NONE, CHECK_LOOP, CHECK_ENTRY };

struct labels {
	char **name;
	size_t *line;      /* where each is defined */
	unsigned char *checkpoint; /* enum check */
	size_t n, cap;
	long *index;       /* open addressing over name, -1 free */
	size_t index_cap;  /* a power of two */
};

struct pass {
	struct line *lines;
	size_t nlines;
	struct labels def;
	char **functions;  /* names given `.type NAME, @function` */
	size_t nfunctions, fcap;
	char *out;
	size_t out_len, out_cap;
	bool oom;
	struct err *err;
};

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static size_t skip_space(const char *p, size_t n, size_t i)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p, w, n) == 0;
}

static bool starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(p, prefix, k) == 0;
}

/* The mnemonic (or directive) of a line: its first word. */
static size_t first_word(const struct line *l, const char **w)
{
	size_t i = skip_space(l->p, l->n, 0), j = i;
	while (j < l->n && !isspace((unsigned char)l->p[j]))
		j++;
	*w = l->p + i;
	return j - i;
}

/* The instruction's operation: its first word past any prefix. */
static size_t mnemonic(const struct line *l, const char **w)
{
	static const char *const prefixes[] = { "rep", "repe", "repz", "repne", "repnz", "lock",
						"notrack", "bnd", "data16", "rex64" };
	size_t n = first_word(l, w);
	for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
		if (!word_is(*w, n, prefixes[k]))
			continue;
		size_t i = skip_space(l->p, l->n, (size_t)(*w - l->p) + n), j = i;
		while (j < l->n && !isspace((unsigned char)l->p[j]) && l->p[j] != ';')
			j++;
		if (j == i)
			return n;
		*w = l->p + i;
		return j - i;
	}
	return n;
}

/* Where the operands start. */
static size_t mnemonic(const struct line *l, const char **w);
static size_t operands_at(const struct line *l)
{
	const char *w;
	size_t n = mnemonic(l, &w);
	return skip_space(l->p, l->n, (size_t)(w - l->p) + n);
}

static bool debug_label(const char *p, size_t n)
{
	static const char *const prefixes[] = { ".LBB", ".LBE", ".LBI", ".LVL", ".Ltext",
						".Letext" };
	for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
		if (starts(p, n, prefixes[k]))
			return true;
	return false;
}

static enum line_kind classify(const char *p, size_t n)
{
	size_t i = skip_space(p, n, 0);
	if (i == n || p[i] == '#')
		return LINE_OTHER;
	if (i == 0 && p[n - 1] == ':')
		return debug_label(p, n) ? LINE_DEBUG_LABEL : LINE_LABEL;
	return p[i] == '.' ? LINE_DIRECTIVE : LINE_INSN;
}

/* Where a line is: in code, in debugging information, or elsewhere. */
enum where { IN_DATA, IN_CODE, IN_DEBUG };

/* Follows .text/.section/.previous: where what comes next is. */
static void track_section(const struct line *l, enum where *at, enum where *previous)
{
	const char *w;
	size_t n = first_word(l, &w);
	enum where now = *at;
	if (word_is(w, n, ".text")) {
		now = IN_CODE;
	} else if (word_is(w, n, ".data") || word_is(w, n, ".bss")) {
		now = IN_DATA;
	} else if (word_is(w, n, ".section")) {
		size_t i = operands_at(l);
		now = starts(l->p + i, l->n - i, ".text")	 ? IN_CODE
		      : starts(l->p + i, l->n - i, ".debug_") ? IN_DEBUG
							       : IN_DATA;
	} else if (word_is(w, n, ".previous")) {
		now = *previous;
	} else {
		return;
	}
	*previous = *at;
	*at = now;
}

static int split_lines(struct pass *ps, const char *in, size_t len)
{
	size_t cap = 1;
	for (size_t i = 0; i < len; i++)
		cap += in[i] == '\n';
	ps->lines = calloc(cap, sizeof *ps->lines);
	if (!ps->lines)
		return -1;
	enum where at = IN_DATA, previous = IN_DATA;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(in + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (in + i)) : len - i;
		struct line *l = &ps->lines[ps->nlines++];
		*l = (struct line){ in + i, n, classify(in + i, n), false, false };
		if (l->kind == LINE_DIRECTIVE)
			track_section(l, &at, &previous);
		l->code = at == IN_CODE;
		l->debug = at == IN_DEBUG;
		i += n + 1;
	}
	return 0;
}

/* ---- names ------------------------------------------------------------------- */

static int label_add(struct labels *t, const char *p, size_t n, size_t line)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **name = realloc(t->name, cap * sizeof *name);
		if (name)
			t->name = name;
		size_t *at = realloc(t->line, cap * sizeof *at);
		if (at)
			t->line = at;
		unsigned char *cp = realloc(t->checkpoint, cap * sizeof *cp);
		if (cp)
			t->checkpoint = cp;
		if (!name || !at || !cp)
			return -1;
		t->cap = cap;
	}
	if (!(t->name[t->n] = strndup(p, n)))
		return -1;
	t->line[t->n] = line;
	t->checkpoint[t->n] = CHECK_NONE;
	t->n++;
	return 0;
}

static size_t name_hash(const char *p, size_t n)
{
	size_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return h;
}

static int label_index(struct labels *t)
{
	t->index_cap = 64;
	while (t->index_cap < 2 * t->n)
		t->index_cap *= 2;
	if (!(t->index = malloc(t->index_cap * sizeof *t->index)))
		return -1;
	for (size_t i = 0; i < t->index_cap; i++)
		t->index[i] = -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = name_hash(t->name[i], strlen(t->name[i])) & (t->index_cap - 1);
		while (t->index[h] >= 0)
			h = (h + 1) & (t->index_cap - 1);
		t->index[h] = (long)i;
	}
	return 0;
}

/* The first definition of the name, or -1. */
static long label_find(const struct labels *t, const char *p, size_t n)
{
	long found = -1;
	for (size_t h = name_hash(p, n) & (t->index_cap - 1); t->index[h] >= 0;
	     h = (h + 1) & (t->index_cap - 1)) {
		long k = t->index[h];
		if (strlen(t->name[k]) == n && memcmp(t->name[k], p, n) == 0 && (found < 0 || k < found))
			found = k;
	}
	return found;
}

static bool in_list(const char *list, const char *p, size_t n)
{
	for (const char *s = list; *s;) {
		size_t k = strcspn(s, ",");
		if (k == n && memcmp(s, p, n) == 0)
			return true;
		s += k + (s[k] == ',');
	}
	return false;
}

static bool api_name(const char *p, size_t n)
{
	static const char *const prefixes[] = { "uc_", "loc_", "dir_", "type_", "team_" };
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (starts(p, n, prefixes[i]))
			return true;
	return false;
}

static void refuse(struct pass *ps, const char *fmt, ...)
{
	if (ps->err->msg[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
	va_end(ap);
}

/* Calls fn for each name in the operands from i on (registers, numbers and
 * relocation suffixes such as @PLT skipped); stops early when it says so. */
typedef bool name_fn(struct pass *ps, const struct line *l, size_t at, size_t n, void *ctx);
static void each_name(struct pass *ps, const struct line *l, size_t i, name_fn *fn, void *ctx)
{
	const char *p = l->p;
	while (i < l->n) {
		char c = p[i];
		if (c == '"' || c == '#')
			return;
		if (c == '%' || c == '@' || isdigit((unsigned char)c)) {
			for (i++; i < l->n && ident_char(p[i]); i++)
				;
			continue;
		}
		if (!ident_start(c)) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < l->n && ident_char(p[j]))
			j++;
		if (!fn(ps, l, i, j - i, ctx))
			return;
		i = j;
	}
}

/* Directives whose operands are values that may name labels. */
static bool data_directive(const char *w, size_t n)
{
	static const char *const d[] = { ".long", ".quad", ".value", ".word", ".short", ".int",
					  ".byte", ".2byte", ".4byte", ".8byte", ".set", ".equ" };
	for (size_t i = 0; i < sizeof d / sizeof *d; i++)
		if (word_is(w, n, d[i]))
			return true;
	return false;
}

static bool is_jump(const char *w, size_t n)
{
	return n >= 2 && w[0] == 'j';
}

static bool ends_block(const char *w, size_t n)
{
	return is_jump(w, n) || starts(w, n, "ret") || word_is(w, n, "ud2");
}

/* Sections whose code runs before round 0 or after the match. */
static bool startup_section(const struct line *l)
{
	static const char *const names[] = { ".init_array", ".fini_array", ".preinit_array", ".ctors",
					     ".dtors", ".init", ".fini" };
	size_t i = operands_at(l), j = i;
	while (j < l->n && ident_char(l->p[j]))
		j++;
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (word_is(l->p + i, j - i, names[k]) ||
		    (starts(l->p + i, j - i, names[k]) && l->p[i + strlen(names[k])] == '.'))
			return true;
	return false;
}

/* ---- the first pass: labels ---------------------------------------------------- */

static int collect_definitions(struct pass *ps)
{
	for (size_t i = 0; i < ps->nlines; i++) {
		struct line *l = &ps->lines[i];
		const char *w;
		size_t n;
		if (l->kind == LINE_LABEL || l->kind == LINE_DEBUG_LABEL) {
			if (label_add(&ps->def, l->p, l->n - 1, i) < 0)
				return -1;
			if (starts(l->p, l->n, "__aic_"))
				refuse(ps, "your file defines `%.*s`: names starting __aic_ are the energy "
				       "count's own", (int)(l->n - 1), l->p);
			continue;
		}
		if (l->kind != LINE_DIRECTIVE)
			continue;
		n = first_word(l, &w);
		if (word_is(w, n, ".section") && startup_section(l))
			refuse(ps, "your file has a constructor or destructor (`%.*s`): no code of yours "
			       "may run outside a unit's turn", (int)l->n, l->p);
		bool sets = word_is(w, n, ".set") || word_is(w, n, ".equ") || word_is(w, n, ".comm") ||
			    word_is(w, n, ".lcomm");
		bool type = word_is(w, n, ".type");
		if (!sets && !type)
			continue;
		size_t a = operands_at(l), b = a;
		while (b < l->n && ident_char(l->p[b]))
			b++;
		if (sets && label_add(&ps->def, l->p + a, b - a, i) < 0)
			return -1;
		if (type && memmem(l->p + b, l->n - b, "@function", 9)) {
			if (ps->nfunctions == ps->fcap) {
				size_t cap = ps->fcap ? 2 * ps->fcap : 16;
				char **f = realloc(ps->functions, cap * sizeof *f);
				if (!f)
					return -1;
				ps->functions = f;
				ps->fcap = cap;
			}
			if (!(ps->functions[ps->nfunctions++] = strndup(l->p + a, b - a)))
				return -1;
		}
	}
	return 0;
}

struct mark_ctx {
	size_t line;
	bool jump; /* the operand of a direct jump */
};

/* A code label becomes a check: used as data, or jumped back to. */
static bool mark_use(struct pass *ps, const struct line *l, size_t at, size_t n, void *ctx)
{
	const struct mark_ctx *m = ctx;
	long k = label_find(&ps->def, l->p + at, n);
	if (k < 0 || !ps->lines[ps->def.line[k]].code)
		return true;
	if ((!m->jump || ps->def.line[k] <= m->line) && ps->def.checkpoint[k] == CHECK_NONE)
		ps->def.checkpoint[k] = CHECK_LOOP;
	return true;
}

static void mark_checkpoints(struct pass *ps)
{
	for (size_t i = 0; i < ps->def.n; i++)
		for (size_t f = 0; f < ps->nfunctions; f++)
			if (strcmp(ps->def.name[i], ps->functions[f]) == 0)
				ps->def.checkpoint[i] = CHECK_ENTRY;
	for (size_t i = 0; i < ps->nlines; i++) {
		const struct line *l = &ps->lines[i];
		const char *w;
		size_t n = mnemonic(l, &w);
		bool insn = l->kind == LINE_INSN;
		if (l->debug || (!insn && !(l->kind == LINE_DIRECTIVE && data_directive(w, n))))
			continue;
		struct mark_ctx m = { i, insn && is_jump(w, n) && l->p[operands_at(l)] != '*' };
		each_name(ps, l, operands_at(l), mark_use, &m);
	}
}

/* ---- the second pass: the counted program ---------------------------------------- */

static void emit(struct pass *ps, const char *p, size_t n)
{
	if (ps->oom)
		return;
	if (ps->out_len + n + 1 > ps->out_cap) {
		size_t cap = ps->out_cap ? ps->out_cap : 4096;
		while (ps->out_len + n + 1 > cap)
			cap *= 2;
		char *o = realloc(ps->out, cap);
		if (!o) {
			ps->oom = true;
			return;
		}
		ps->out = o;
		ps->out_cap = cap;
	}
	memcpy(ps->out + ps->out_len, p, n);
	ps->out_len += n;
	ps->out[ps->out_len] = '\0';
}

static void emits(struct pass *ps, const char *s)
{
	emit(ps, s, strlen(s));
}

static void emitf(struct pass *ps, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	emit(ps, buf, (size_t)n);
}

/* ---- what a unit may not do, and its stack ------------------------------------ */

/* Instructions that reach past the game or across units: the clock and
 * the processor's identity (a unit's play must be repeatable), system
 * calls, the x87 status and environment (not switched between units),
 * the saving of the whole register file, protection keys, the thread's
 * segment bases, transactions.  gcc writes none of them for plain C; a
 * builtin (__builtin_ia32_rdtsc...) would. */
static bool refused_insn(const struct line *l)
{
	static const char *const families[] = {
		"rdtsc", "rdpmc", "rdrand", "rdseed", "rdpid", "rdpkru", "wrpkru", "cpuid", "syscall",
		"sysenter", "int", "xgetbv", "xsetbv", "xsave", "xrstor", "fxsave", "fxrstor", "fnstsw",
		"fstsw", "fnstenv", "fstenv", "fldenv", "fnsave", "fsave", "frstor", "fnclex", "fclex",
		"fninit", "finit", "rdfsbase", "rdgsbase", "wrfsbase", "wrgsbase", "xbegin", "xend",
		"xabort", "xtest", "monitor", "mwait", "umonitor", "umwait", "tpause", "hlt", "rdssp",
		"incssp", "wrss", "wruss", "rstorssp", "ptwrite", "enqcmd", "senduipi",
	};
	static const char *const exact[] = { "in", "inb", "inw", "inl", "out", "outb", "outw",
					     "outl", "insb", "insw", "insl", "outsb", "outsw", "outsl" };
	const char *w;
	size_t n = mnemonic(l, &w);
	for (size_t k = 0; k < sizeof families / sizeof *families; k++)
		if (starts(w, n, families[k]))
			return true;
	for (size_t k = 0; k < sizeof exact / sizeof *exact; k++)
		if (word_is(w, n, exact[k]))
			return true;
	return false;
}

/* The register of the count, in any width. */
static bool names_counter(const struct line *l)
{
	size_t i = operands_at(l);
	return memmem(l->p + i, l->n - i, "%r15", 4) != NULL;
}

/* How far an instruction moves the stack pointer down, when it may move it
 * by a page or more (ENERGY_ASM_PROBE_FREE): a constant, or the operand
 * that holds a size known only when it runs (*size_op, *size_len). */
enum stack_move { STACK_SMALL, STACK_CONST, STACK_DYNAMIC };

static enum stack_move stack_move(const struct line *l, long long *amount, const char **size_op,
				  size_t *size_len)
{
	const char *w;
	size_t n = mnemonic(l, &w), i = operands_at(l), comma = l->n;
	for (size_t k = i, depth = 0; k < l->n && l->p[k] != '#'; k++) {
		depth += l->p[k] == '(';
		depth -= l->p[k] == ')' && depth;
		if (l->p[k] == ',' && !depth)
			comma = k;
	}
	if (comma == l->n)
		return STACK_SMALL;
	size_t d = skip_space(l->p, l->n, comma + 1), e = d;
	while (e < l->n && !isspace((unsigned char)l->p[e]))
		e++;
	if (!word_is(l->p + d, e - d, "%rsp"))
		return STACK_SMALL;
	const char *src = l->p + i;
	size_t src_len = comma - i;
	while (src_len && isspace((unsigned char)src[src_len - 1]))
		src_len--;
	long long v = 0;
	bool constant = false;
	char num[32];
	if ((src[0] == '$' || (starts(w, n, "lea") && src[0] == '-')) && src_len < sizeof num) {
		memcpy(num, src + (src[0] == '$'), src_len - (src[0] == '$'));
		num[src_len - (src[0] == '$')] = '\0';
		char *end;
		v = strtoll(num, &end, 0);
		constant = end != num && (*end == '\0' || word_is(end, strlen(end), "(%rsp)"));
		if (starts(w, n, "lea") && !word_is(end, strlen(end), "(%rsp)"))
			return STACK_SMALL; /* a frame restored from its base */
	}
	if (starts(w, n, "sub")) {
		if (!constant) {
			*size_op = src;
			*size_len = src_len;
			return STACK_DYNAMIC;
		}
		*amount = v;
	} else if ((starts(w, n, "add") || starts(w, n, "lea") || starts(w, n, "and")) && constant) {
		*amount = -v;
	} else {
		return STACK_SMALL;
	}
	return *amount >= ENERGY_ASM_PROBE_FREE ? STACK_CONST : STACK_SMALL;
}

/* Before a move of the stack pointer by a page or more: the kit's probe
 * touches every page of the way down, so the first one past the unit's
 * stack faults in its guard, never in the memory beyond (another unit's
 * stack).  It keeps every register and the flags. */
static void emit_stack_probe(struct pass *ps, const struct line *l)
{
	long long amount = 0;
	const char *op = NULL;
	size_t op_len = 0;
	enum stack_move m = stack_move(l, &amount, &op, &op_len);
	if (m == STACK_SMALL)
		return;
	if (m == STACK_DYNAMIC && memmem(op, op_len, "%rsp", 4)) {
		refuse(ps, "your file moves the stack pointer by a size kept on the stack (`%.*s`), "
		       "which the stack probe cannot follow", (int)l->n, l->p);
		return;
	}
	emits(ps, "\tleaq\t-128(%rsp), %rsp\n");
	if (m == STACK_CONST)
		emitf(ps, "\tpushq\t$%lld\n", amount > 0x7fffffff ? 0x7fffffffLL : amount);
	else
		emitf(ps, "\tpushq\t%.*s\n", (int)op_len, op);
	emits(ps, "\tcall\t__aic_stack_probe\n\tleaq\t136(%rsp), %rsp\n");
}

static bool needs_probe(const struct line *l)
{
	long long amount;
	const char *op;
	size_t op_len;
	return stack_move(l, &amount, &op, &op_len) != STACK_SMALL;
}

static long insn_weight(const struct line *l)
{
	const char *w;
	size_t n = mnemonic(l, &w);
	if (w[0] == 'v') { /* the AVX spelling weighs as the SSE one */
		w++;
		n--;
	}
	if (starts(w, n, "idiv") || (starts(w, n, "div") && !starts(w, n, "divs") && !starts(w, n, "divp")))
		return ENERGY_ASM_DIV;
	if (starts(w, n, "div") || starts(w, n, "sqrt"))
		return ENERGY_ASM_FDIV;
	return needs_probe(l) ? 1 + ENERGY_ASM_PROBE : 1;
}

/* The weight of the block starting at line i: up to the next code label,
 * or through the next jump. */
static long block_weight(const struct pass *ps, size_t i)
{
	long w = 0;
	for (; i < ps->nlines; i++) {
		const struct line *l = &ps->lines[i];
		if (l->kind == LINE_LABEL && l->code)
			break;
		if (l->kind != LINE_INSN)
			continue;
		w += insn_weight(l);
		const char *m;
		size_t n = mnemonic(l, &m);
		if (ends_block(m, n))
			break;
	}
	return w;
}

/* An integer operation that sets every flag the jumps read, with or
 * without its size letter: cmp, cmpl, cmpq... */
static bool sets_flags(const char *w, size_t n)
{
	static const char *const ops[] = { "cmp", "test", "add", "sub", "and", "or", "xor", "neg" };
	static const char *const exact[] = { "ucomiss", "ucomisd", "comiss", "comisd", "call" };
	for (size_t k = 0; k < sizeof exact / sizeof *exact; k++)
		if (word_is(w, n, exact[k]))
			return true;
	for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
		size_t b = strlen(ops[k]);
		if (starts(w, n, ops[k]) && (n == b || (n == b + 1 && strchr("bwlq", w[b]))))
			return true;
	}
	return false;
}

/* Moves and address arithmetic: they neither read nor write the flags. */
static bool keeps_flags(const char *w, size_t n)
{
	static const char *const ops[] = { "mov", "lea", "push", "pop", "cvt", "pxor", "endbr" };
	if (starts(w, n, "pushf") || starts(w, n, "popf"))
		return false;
	for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
		if (starts(w, n, ops[k]))
			return true;
	return false;
}

/* Whether the flags are surely dead at line i: the block overwrites them
 * all before anything could read them. */
static bool flags_dead(const struct pass *ps, size_t i)
{
	for (; i < ps->nlines; i++) {
		const struct line *l = &ps->lines[i];
		if (l->kind == LINE_LABEL)
			return false;
		if (l->kind != LINE_INSN)
			continue;
		const char *w;
		size_t n = first_word(l, &w);
		if (sets_flags(w, n))
			return true;
		if (!keeps_flags(w, n))
			return false;
	}
	return false;
}

static void emit_charge(struct pass *ps, long weight)
{
	if (weight > 0)
		emitf(ps, "\tleaq\t-%ld(%%r15), %%r15\n", weight);
}

/* Below 0: pause.  The call steps over the red zone; lea keeps the flags. */
static void emit_check(struct pass *ps, bool save_flags)
{
	emits(ps, "\tleaq\t-128(%rsp), %rsp\n");
	if (save_flags)
		emits(ps, "\tpushfq\n");
	emitf(ps, "\ttestq\t%%r15, %%r15\n\tjns\t1f\n\tcall\t__aic_energy_pause\n1:\n");
	if (save_flags)
		emits(ps, "\tpopfq\n");
	emits(ps, "\tleaq\t128(%rsp), %rsp\n");
}

/* Copies the operands from i, renaming the library's names. */
static bool rename_use(struct pass *ps, const struct line *l, size_t at, size_t n, void *ctx)
{
	size_t *copied = ctx;
	const char *p = l->p + at;
	if (label_find(&ps->def, p, n) >= 0 || api_name(p, n))
		return true;
	if (!in_list(energy_asm_library, p, n)) {
		refuse(ps, "your file uses `%.*s`, which a unit may not call: its work could not be "
		       "counted in energy.  The C library functions a unit may use are: %s",
		       (int)n, p, energy_asm_library);
		return false;
	}
	emit(ps, l->p + *copied, at - *copied);
	emits(ps, "__aic_");
	emit(ps, p, n);
	*copied = at + n;
	return true;
}

static void emit_line(struct pass *ps, const struct line *l)
{
	const char *w;
	size_t n = first_word(l, &w);
	bool names = l->kind == LINE_INSN ||
		     (l->kind == LINE_DIRECTIVE && data_directive(w, n) && !l->debug);
	size_t copied = 0;
	if (names)
		each_name(ps, l, operands_at(l), rename_use, &copied);
	emit(ps, l->p + copied, l->n - copied);
	emits(ps, "\n");
}

/* A repeated string instruction: it runs rcx times. */
static bool string_op(const struct line *l)
{
	static const char *const ops[] = { "movs", "stos", "lods", "cmps", "scas" };
	const char *w, *m;
	size_t n = first_word(l, &w), k = mnemonic(l, &m);
	if (w == m || !starts(w, n, "rep"))
		return false;
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (starts(m, k, ops[i]))
			return true;
	return false;
}

static void rewrite(struct pass *ps)
{
	bool open = false; /* inside a block already charged */
	for (size_t i = 0; i < ps->nlines && !ps->err->msg[0]; i++) {
		const struct line *l = &ps->lines[i];
		const char *w;
		size_t n = mnemonic(l, &w);
		if (l->kind == LINE_LABEL && l->code) {
			emit_line(ps, l);
			long k = label_find(&ps->def, l->p, l->n - 1);
			bool check = k >= 0 && ps->def.checkpoint[k] != CHECK_NONE;
			bool save_flags = check && ps->def.checkpoint[k] == CHECK_LOOP &&
					  !flags_dead(ps, i + 1);
			emit_charge(ps, block_weight(ps, i + 1) +
					(save_flags ? ENERGY_ASM_CHECK_FLAGS : check ? ENERGY_ASM_CHECK : 0));
			if (check)
				emit_check(ps, save_flags);
			open = true;
			continue;
		}
		if (l->kind == LINE_INSN && l->code && !open) {
			emit_charge(ps, block_weight(ps, i));
			open = true;
		}
		if (l->kind == LINE_INSN && refused_insn(l))
			refuse(ps, "your file uses the instruction `%.*s` (a builtin?), which a unit may "
			       "not run: it reads the clock or the processor, calls the system, or "
			       "touches state the units of a team share", (int)n, w);
		if (l->kind == LINE_INSN && names_counter(l))
			refuse(ps, "your file uses register r15, the energy count's");
		if (l->kind == LINE_INSN && l->code)
			emit_stack_probe(ps, l);
		if (l->kind == LINE_INSN && string_op(l))
			emits(ps, "\tnotq\t%r15\n\tleaq\t(%r15,%rcx), %r15\n\tnotq\t%r15\n");
		emit_line(ps, l);
		if (l->kind == LINE_INSN && ends_block(w, n))
			open = false;
	}
}

static void pass_free(struct pass *ps)
{
	for (size_t i = 0; i < ps->def.n; i++)
		free(ps->def.name[i]);
	free(ps->def.name);
	free(ps->def.line);
	free(ps->def.checkpoint);
	free(ps->def.index);
	for (size_t i = 0; i < ps->nfunctions; i++)
		free(ps->functions[i]);
	free(ps->functions);
	free(ps->lines);
}

int energy_asm_rewrite(const char *in, size_t len, char **out, size_t *out_len, err_t err)
{
	struct pass ps = { .err = err };
	err->msg[0] = '\0';
	int rc = split_lines(&ps, in, len) < 0 || collect_definitions(&ps) < 0 ||
			 label_index(&ps.def) < 0 ? -1 : 0;
	if (rc == 0 && !err->msg[0]) {
		mark_checkpoints(&ps);
		rewrite(&ps);
	}
	pass_free(&ps);
	if (rc < 0 || ps.oom) {
		free(ps.out);
		return -1;
	}
	if (err->msg[0]) {
		free(ps.out);
		return 1;
	}
	if (!ps.out)
		emit(&ps, "", 0);
	*out = ps.out;
	*out_len = ps.out_len;
	return ps.oom ? -1 : 0;
}
