/* cscan_as.c - the assembly check: an allow-list of what gcc 12 writes for
 * plain C at -O2 on x86-64 (no -g), collected from the shipped, test and
 * benchmark players and programs with floats, switch tables, big
 * initialised arrays, thread-local data, variadic and nested functions,
 * constructors and computed gotos.  Anything else is refused, so a
 * directive that reads a file, defines a macro or names an unknown section
 * cannot reach the assembler, however it was smuggled in. */
#include "judge/compile/cscan_int.h"

#include <stdio.h>

/* How a directive's operands must look. */
enum as_args {
	ARGS_NONE,    /* nothing */
	ARGS_EXPR,    /* symbols, numbers, registers, + - * ( ) , : @ $ % */
	ARGS_STRING,  /* exactly one string literal */
	ARGS_SECTION, /* NAME[,"FLAGS"[,@TYPE[,SIZE]]] with NAME on the list */
	ARGS_TYPE,    /* SYMBOL, @function | @object | @tls_object */
};

static const struct as_directive {
	const char *name;
	enum as_args args;
} as_directives[] = {
	{ "text", ARGS_NONE }, { "data", ARGS_NONE }, { "bss", ARGS_NONE },
	{ "section", ARGS_SECTION }, { "type", ARGS_TYPE },
	{ "file", ARGS_STRING }, { "ident", ARGS_STRING },
	{ "string", ARGS_STRING }, { "ascii", ARGS_STRING },
	{ "globl", ARGS_EXPR }, { "local", ARGS_EXPR }, { "comm", ARGS_EXPR },
	{ "size", ARGS_EXPR }, { "align", ARGS_EXPR }, { "p2align", ARGS_EXPR },
	{ "byte", ARGS_EXPR }, { "value", ARGS_EXPR }, { "long", ARGS_EXPR },
	{ "quad", ARGS_EXPR }, { "zero", ARGS_EXPR },
	{ "cfi_startproc", ARGS_NONE }, { "cfi_endproc", ARGS_NONE },
	{ "cfi_def_cfa", ARGS_EXPR }, { "cfi_def_cfa_offset", ARGS_EXPR },
	{ "cfi_def_cfa_register", ARGS_EXPR }, { "cfi_offset", ARGS_EXPR },
	{ "cfi_restore", ARGS_EXPR }, { "cfi_remember_state", ARGS_NONE },
	{ "cfi_restore_state", ARGS_NONE }, { "cfi_escape", ARGS_EXPR },
	{ "cfi_adjust_cfa_offset", ARGS_EXPR }, { "cfi_rel_offset", ARGS_EXPR },
	{ NULL, ARGS_NONE },
};

/* Sections gcc names with .section for plain C; the object check adds the
 * ones the assembler makes itself. */
static const char *const asm_sections[] = {
	".text", ".data", ".bss", ".rodata", ".data.rel", ".data.rel.local",
	".data.rel.ro", ".data.rel.ro.local", ".tbss", ".tdata", ".init_array",
	".fini_array", ".text.startup", ".text.unlikely", ".text.hot", ".text.exit",
	".note.GNU-stack", NULL,
};

static const char *const object_sections[] = {
	".comment", ".symtab", ".strtab", ".shstrtab", ".eh_frame", NULL,
};

/* Followed by digits and dots only. */
static const char *const numbered_sections[] = {
	".rodata.str", ".rodata.cst", ".init_array.", ".fini_array.", NULL,
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_sym_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
	       c == '.' || c == '$';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool numbered_section(const char *s, size_t n)
{
	for (const char *const *p = numbered_sections; *p; p++) {
		size_t k = strlen(*p);
		if (n <= k || memcmp(s, *p, k) != 0)
			continue;
		size_t i = k;
		while (i < n && (is_digit(s[i]) || s[i] == '.'))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

bool cscan_section_allowed(const char *s, size_t n, bool object)
{
	return cscan_in_list(asm_sections, s, n) || numbered_section(s, n) ||
	       (object && cscan_in_list(object_sections, s, n));
}

/* ---- one line ------------------------------------------------------------- */

struct as_line {
	const char *p;  /* the line, without its newline */
	size_t n, i;    /* length, read position */
};

static void skip_blanks(struct as_line *l)
{
	while (l->i < l->n && is_blank(l->p[l->i]))
		l->i++;
}

static bool at_end(struct as_line *l)
{
	skip_blanks(l);
	return l->i == l->n;
}

static size_t symbol_end(const struct as_line *l, size_t i)
{
	while (i < l->n && is_sym_char(l->p[i]))
		i++;
	return i;
}

/* Operands made of symbols, numbers, registers, the operators gcc uses and
 * AVX-512 masks ({%k1}{z}): no string, no comment ('#', '/'), no statement
 * separator (';'), no assignment ('='), nothing gas could read as more than
 * one statement. */
static bool plain_operands(struct as_line *l)
{
	for (; l->i < l->n; l->i++) {
		char c = l->p[l->i];
		if (!is_sym_char(c) && !is_blank(c) && !strchr("%()*+-,:@{}", c))
			return false;
	}
	return true;
}

/* A string literal as gas reads it: a backslash takes the next character
 * with it (octal escapes continue with plain digits). */
static bool string_literal(struct as_line *l)
{
	skip_blanks(l);
	if (l->i >= l->n || l->p[l->i] != '"')
		return false;
	for (l->i++; l->i < l->n; l->i++) {
		char c = l->p[l->i];
		if (c == '"') {
			l->i++;
			return true;
		}
		if (c == '\\')
			l->i++;
	}
	return false;
}

static bool literal_word(struct as_line *l, const char *w)
{
	skip_blanks(l);
	size_t k = strlen(w);
	if (l->n - l->i < k || memcmp(l->p + l->i, w, k) != 0 ||
	    (l->i + k < l->n && is_sym_char(l->p[l->i + k])))
		return false;
	l->i += k;
	return true;
}

static bool comma(struct as_line *l)
{
	skip_blanks(l);
	if (l->i < l->n && l->p[l->i] == ',') {
		l->i++;
		return true;
	}
	return false;
}

/* "FLAGS" with the letters gcc uses for plain C data and code. */
static bool section_flags(struct as_line *l)
{
	skip_blanks(l);
	size_t start = l->i;
	if (!string_literal(l))
		return false;
	for (size_t i = start + 1; i + 1 < l->i; i++)
		if (!strchr("awxMST", l->p[i]))
			return false;
	return true;
}

static bool section_args(struct as_line *l)
{
	skip_blanks(l);
	size_t start = l->i, end = start;
	while (end < l->n && (is_sym_char(l->p[end]) || l->p[end] == '-'))
		end++;
	if (!cscan_section_allowed(l->p + start, end - start, false))
		return false;
	l->i = end;
	if (!comma(l))
		return at_end(l);
	if (!section_flags(l))
		return false;
	if (!comma(l))
		return at_end(l);
	if (!literal_word(l, "@progbits") && !literal_word(l, "@nobits"))
		return false;
	if (!comma(l))
		return at_end(l);
	skip_blanks(l);
	size_t d = l->i;
	while (l->i < l->n && is_digit(l->p[l->i]))
		l->i++;
	return l->i > d && at_end(l);
}

static bool type_args(struct as_line *l)
{
	skip_blanks(l);
	size_t end = symbol_end(l, l->i);
	if (end == l->i)
		return false;
	l->i = end;
	return comma(l) &&
	       (literal_word(l, "@function") || literal_word(l, "@object") ||
		literal_word(l, "@tls_object")) && at_end(l);
}

static bool args_fit(struct as_line *l, enum as_args args)
{
	switch (args) {
	case ARGS_NONE:
		return at_end(l);
	case ARGS_EXPR:
		return plain_operands(l);
	case ARGS_STRING:
		return string_literal(l) && at_end(l);
	case ARGS_SECTION:
		return section_args(l);
	case ARGS_TYPE:
		return type_args(l);
	}
	return false;
}

static const struct as_directive *directive(const char *w, size_t n)
{
	for (const struct as_directive *d = as_directives; d->name; d++)
		if (strlen(d->name) == n && memcmp(d->name, w, n) == 0)
			return d;
	return NULL;
}

/* A label alone on its line ("name:"), a directive on the list with the
 * operands it takes, or an instruction: a mnemonic (and prefixes) in lower
 * case letters and digits, then plain operands. */
static bool line_allowed(struct as_line *l)
{
	if (at_end(l))
		return true;
	size_t start = l->i, end = symbol_end(l, start);
	if (end > start && end < l->n && l->p[end] == ':') {
		l->i = end + 1;
		return at_end(l);
	}
	if (l->p[start] == '.') {
		const struct as_directive *d = directive(l->p + start + 1, end - start - 1);
		l->i = end;
		return d && args_fit(l, d->args);
	}
	size_t m = start;
	while (m < l->n && ((l->p[m] >= 'a' && l->p[m] <= 'z') || is_digit(l->p[m])))
		m++;
	if (m == start || (m < l->n && !is_blank(l->p[m])))
		return false;
	l->i = m;
	return plain_operands(l);
}

/* ---- the whole file ----------------------------------------------------- */

/* The last global name defined before line, to tell the contestant where. */
static void note_symbol(const struct as_line *l, char near[64])
{
	size_t end = symbol_end(l, 0);
	if (end > 0 && end < l->n && l->p[end] == ':' && l->p[0] != '.')
		snprintf(near, 64, "%.*s", (int)(end > 60 ? 60 : end), l->p);
}

static int refuse_line(err_t err, const char *name, const struct as_line *l,
		       const char *near)
{
	size_t i = 0;
	while (i < l->n && is_blank(l->p[i]))
		i++;
	int show = (int)(l->n - i > 60 ? 60 : l->n - i);
	return cscan_refuse(err, name, 0,
			    "the generated assembly contains `%.*s`%s%s%s, which plain C "
			    "does not produce: refused (assembler text smuggled in through "
			    "an attribute or a name?)", show, l->p + i,
			    near[0] ? " (after `" : "", near, near[0] ? "`)" : "");
}

int cscan_assembly(const char *name, const char *buf, size_t len, err_t err)
{
	char near[64] = "";
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct as_line l = { buf + i, end - i, 0 };
		/* gcc escapes every other byte inside strings (octal) */
		for (size_t k = 0; k < l.n; k++) {
			unsigned char c = (unsigned char)l.p[k];
			if ((c < 0x20 && c != '\t') || c >= 0x7f)
				return cscan_refuse(err, name, 0,
						    "the generated assembly contains the byte "
						    "0x%02x, which plain C does not produce: refused "
						    "(a name or string smuggled in?)", c);
		}
		if (!line_allowed(&l))
			return refuse_line(err, name, &l, near);
		note_symbol(&l, near);
		i = end + 1;
	}
	return 0;
}
