#include "judge/compile/cscan_int.h"

#include "judge/base/clex.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- words and names ---------------------------------------------------- */

static const char *const standard_headers[] = {
	"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h",
	"inttypes.h", "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h",
	"signal.h", "stdalign.h", "stdarg.h", "stdatomic.h", "stdbool.h",
	"stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h",
	"string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h",
	"wctype.h", NULL,
};

/* The directives a contestant may write.  Anything else, even in a group a
 * conditional skips, is refused: new GCC versions add directives that read
 * files (#embed), and the judge cannot know what a future one will do. */
static const char *const allowed_directives[] = {
	"define", "undef", "include", "if", "ifdef", "ifndef", "elif",
	"elifdef", "elifndef", "else", "endif", "pragma", "error", "warning",
	NULL,
};

/* #pragma GCC ... names that read files (dependency, pch_preprocess) or make
 * the file a system header, whose part of the gcc -E output the second check
 * skips.  The source check allows far fewer (below); this list is what the
 * gcc -E check still looks for. */
static const char *const refused_gcc_pragmas[] = {
	"dependency", "system_header", "pch_preprocess", NULL,
};

/* The pragmas a contestant may write: none changes a symbol's name, linkage,
 * visibility or section (weak, redefine_extname, GCC visibility), reads a
 * file or writes assembler text.  STDC pragmas are all allowed. */
static const char *const allowed_pragmas[] = { "once", "pack", "message", NULL };
static const char *const allowed_gcc_pragmas[] = {
	"diagnostic", "optimize", "target", "push_options", "pop_options", "reset_options",
	"unroll", "ivdep", "novector", "warning", "error", "poison", NULL,
};

/* Macros a contestant may define before an #include, empty or as a number:
 * glibc's and gcc's headers only test them in #if (outside comments, no
 * other line names them), so they change no header line. */
static const char *const feature_macros[] = {
	"NDEBUG", "_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE", "_SVID_SOURCE",
	"_POSIX_SOURCE", "_POSIX_C_SOURCE", "_XOPEN_SOURCE", "_XOPEN_SOURCE_EXTENDED",
	"_ISOC99_SOURCE", "_ISOC11_SOURCE", "_ISOC2X_SOURCE", "_USE_MATH_DEFINES",
	"__STDC_WANT_LIB_EXT2__", "__STDC_WANT_IEC_60559_BFP_EXT__", "__STDC_FORMAT_MACROS",
	"__STDC_LIMIT_MACROS", "__STDC_CONSTANT_MACROS", NULL,
};

struct banned_word {
	const char *word;
	const char *why;
};

static const struct banned_word banned_words[] = {
	{ "asm", "inline assembler cannot be used" },
	{ "__asm", "inline assembler cannot be used" },
	{ "__asm__", "inline assembler cannot be used" },
	{ "_Pragma", "write #pragma on a line of its own instead" },
	{ "__has_include", "it looks up files on the judge" },
	{ "__has_include__", "it looks up files on the judge" },
	{ "__has_include_next", "it looks up files on the judge" },
	{ "__has_embed", "it looks up files on the judge" },
	{ NULL, NULL },
};

bool cscan_standard_header(const char *h)
{
	return cscan_in_list(standard_headers, h, strlen(h));
}

static const struct banned_word *banned(const char *w, size_t n)
{
	for (const struct banned_word *b = banned_words; b->word; b++)
		if (strlen(b->word) == n && memcmp(b->word, w, n) == 0)
			return b;
	return NULL;
}

/* ---- characters ---------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- the text check ------------------------------------------------------ */

int cscan_text(const char *name, const char *buf, size_t len, err_t err)
{
	if (len == 0)
		return cscan_refuse(err, name, 0, "the file is empty");
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		return cscan_refuse(err, name, 1,
				    "the file starts with a byte-order mark (bytes EF BB BF): save it "
				    "as UTF-8 without BOM, or as plain ASCII");
	unsigned line = 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == '\n')
			line++;
		else if (c == '\0')
			return cscan_refuse(err, name, line,
					    "the file contains a NUL byte: submit C source text");
		else if (c == '\r' && (i + 1 == len || buf[i + 1] != '\n'))
			return cscan_refuse(err, name, line,
					    "a carriage return that does not end a line: "
					    "save the file with LF or CRLF line endings");
		else if ((c < 0x20 && !is_blank((char)c) && c != '\r') || c == 0x7f)
			return cscan_refuse(err, name, line,
					    "control character 0x%02x: submit C source text", c);
	}
	return 0;
}

/* ---- tokens shared by the source and the gcc -E checks -------------------- */

/* The source as GCC reads it (judge/base/clex.h), or one line of gcc -E
 * output, and what a refusal says. */
struct cs_lex {
	struct clex lx;
	const char *name;   /* the contestant's file, for messages */
	const char *header; /* the game header, or NULL */
	const char *origin; /* "" or a note that the text came from a macro */
	struct err *err;
	unsigned define_line; /* the first #define or #undef that is not a
				 feature macro (see feature_macros), or 0 */
};

static const char *tok_text(const struct cs_lex *s, const struct clex_token *t)
{
	return s->lx.c + t->start;
}

static bool tok_is(const struct cs_lex *s, const struct clex_token *t, const char *w)
{
	return t->kind == CLEX_WORD && t->len == strlen(w) && memcmp(tok_text(s, t), w, t->len) == 0;
}

static bool tok_in(const struct cs_lex *s, const struct clex_token *t, const char *const *list)
{
	return t->kind == CLEX_WORD && cscan_in_list(list, tok_text(s, t), t->len);
}

/* The next token into *t, lx moving past it, when it is on the current
 * line. */
static bool next_on_line(struct clex *lx, struct clex_token *t)
{
	return clex_next(lx, t) && !(t->flags & CLEX_BOL);
}

static bool peek_on_line(const struct clex *lx, struct clex_token *t)
{
	struct clex ahead = *lx;
	return next_on_line(&ahead, t);
}

static bool is_raw_prefix(const char *w, size_t n)
{
	static const char *const prefixes[] = { "R", "LR", "uR", "UR", "u8R", NULL };
	return cscan_in_list(prefixes, w, n);
}

/* GCC reads UTF-8 in identifiers and numbers; the checks read ASCII. */
static int refuse_non_ascii(const struct cs_lex *s, const struct clex_token *t)
{
	if (t->kind != CLEX_WORD && t->kind != CLEX_NUMBER)
		return 0;
	for (size_t i = t->start; i < t->start + t->len; i++)
		if ((unsigned char)s->lx.c[i] >= 0x80)
			return cscan_refuse(s->err, s->name, clex_line_at(&s->lx, i),
					    "non-ASCII characters may only appear in comments and "
					    "string literals%s", s->origin);
	return 0;
}

static int check_word(const struct cs_lex *s, const struct clex_token *t)
{
	const char *w = tok_text(s, t);
	size_t end = t->start + t->len;
	/* A raw string keeps backslash-newlines and may span lines; refusing it
	 * spares the checks a second, rarely used way of ending a literal. */
	if (end < s->lx.end && s->lx.c[end] == '"' && is_raw_prefix(w, t->len))
		return cscan_refuse(s->err, s->name, t->line,
				    "raw string literals (%.*s\"...\") are not allowed%s",
				    (int)t->len, w, s->origin);
	const struct banned_word *b = banned(w, t->len);
	if (b)
		return cscan_refuse(s->err, s->name, t->line, "%s is not allowed: %s%s", b->word,
				    b->why, s->origin);
	return 0;
}

/* One token that is no directive. */
static int check_token(const struct cs_lex *s, const struct clex_token *t)
{
	int rc = refuse_non_ascii(s, t);
	if (rc || t->kind != CLEX_WORD) {
		if (!rc && t->kind == CLEX_OTHER && tok_text(s, t)[0] == '\\')
			return cscan_refuse(s->err, s->name, t->line,
					    "a backslash outside a string or character literal is "
					    "not allowed (universal character names cannot be used "
					    "here)%s", s->origin);
		return rc;
	}
	return check_word(s, t);
}

/* ---- the source check ---------------------------------------------------- */

static bool allowed_header(const struct cs_lex *s, const char *h, size_t n)
{
	return cscan_in_list(standard_headers, h, n) ||
	       (s->header && strlen(s->header) == n && memcmp(s->header, h, n) == 0);
}

/* The rest of the logical line from byte i, for quoting a refused
 * directive. */
static int rest_of_line(const struct cs_lex *s, size_t i)
{
	const char *c = s->lx.c + i;
	const char *nl = memchr(c, '\n', s->lx.end - i);
	size_t n = nl ? (size_t)(nl - c) : s->lx.end - i;
	while (n && is_blank(c[n - 1]))
		n--;
	return n > 60 ? 60 : (int)n;
}

static int check_include(struct cs_lex *s, unsigned line)
{
	struct clex_token t, h;
	const char *others = s->header ? " and " : "";
	const char *hdr = s->header ? s->header : "";
	if (!peek_on_line(&s->lx, &t))
		return cscan_refuse(s->err, s->name, line, "#include without a header name");
	if (!clex_header_name(&s->lx, &h))
		return cscan_refuse(s->err, s->name, line,
				    "#include %.*s is not allowed: name the header directly, "
				    "e.g. #include <stdio.h>", rest_of_line(s, t.start),
				    tok_text(s, &t));
	const char *p = tok_text(s, &h);
	if (h.flags & CLEX_OPEN)
		return cscan_refuse(s->err, s->name, line, "#include %.*s has no closing %c",
				    rest_of_line(s, h.start), p, p[0] == '"' ? '"' : '>');
	if (!allowed_header(s, p + 1, h.len - 2))
		return cscan_refuse(s->err, s->name, line,
				    "#include %.*s is not allowed: only the standard C headers%s%s "
				    "may be included", (int)(h.len > 64 ? 64 : h.len), p, others, hdr);
	return 0;
}

static int check_pragma(struct cs_lex *s, unsigned line)
{
	struct clex ahead = s->lx;
	struct clex_token ns, w;
	bool on_line = next_on_line(&ahead, &ns);
	bool gcc = on_line && tok_is(s, &ns, "GCC"), stdc = on_line && tok_is(s, &ns, "STDC");
	int rc = on_line ? refuse_non_ascii(s, &ns) : 0;
	w = ns;
	if (gcc && (on_line = next_on_line(&ahead, &w)))
		rc = refuse_non_ascii(s, &w);
	if (rc || stdc || (on_line && tok_in(s, &w, gcc ? allowed_gcc_pragmas : allowed_pragmas)))
		return rc;
	int wn = on_line && w.kind == CLEX_WORD ? (int)(w.len > 40 ? 40 : w.len) : 0;
	int rest = on_line ? rest_of_line(s, w.start) : 0;
	return cscan_refuse(s->err, s->name, line,
			    "#pragma %s%.*s is not allowed: use only #pragma once, pack, "
			    "message, STDC ..., GCC diagnostic, optimize, target, push_options, "
			    "pop_options, unroll, ivdep, warning, error or poison",
			    gcc ? "GCC " : "", wn ? wn : rest > 40 ? 40 : rest,
			    on_line ? tok_text(s, &w) : "");
}

/* #error and #warning text goes to the compile log as it is written:
 * printable ASCII only, so it cannot pass for anything but the contestant's
 * own message. */
static int check_message(const struct cs_lex *s, const char *directive)
{
	for (size_t i = s->lx.i; i < s->lx.end && s->lx.c[i] != '\n'; i++) {
		unsigned char c = (unsigned char)s->lx.c[i];
		if (c >= 0x7f || (c < 0x20 && c != '\t'))
			return cscan_refuse(s->err, s->name, clex_line_at(&s->lx, i),
					    "#%s text may only use printable ASCII characters",
					    directive);
	}
	return 0;
}

/* A #define or #undef: the first one that could change a header's text is
 * remembered, so that no #include may follow it. */
static void note_define(struct cs_lex *s, unsigned line, bool is_define)
{
	struct clex ahead = s->lx;
	struct clex_token t;
	bool feature = next_on_line(&ahead, &t) && tok_in(s, &t, feature_macros);
	/* the body: nothing, or one pp-number */
	if (feature && is_define && next_on_line(&ahead, &t))
		feature = is_digit(tok_text(s, &t)[0]) && !next_on_line(&ahead, &t);
	if (!feature && !s->define_line)
		s->define_line = line;
}

/* The '#' that starts a logical line was just read; the tokens after the
 * directive's name (or header name) are left to the caller. */
static int check_directive(struct cs_lex *s, unsigned line)
{
	struct clex_token t;
	if (!peek_on_line(&s->lx, &t))
		return 0; /* the null directive */
	const char *d = tok_text(s, &t);
	if (is_digit(d[0]))
		return cscan_refuse(s->err, s->name, line, "line markers (# %.*s) are not allowed",
				    rest_of_line(s, t.start), d);
	int rc = refuse_non_ascii(s, &t);
	if (rc)
		return rc;
	if (!tok_in(s, &t, allowed_directives))
		return cscan_refuse(s->err, s->name, line,
				    "#%.*s is not allowed: use #include, #define, #undef, #if, "
				    "#ifdef, #ifndef, #elif, #else, #endif, #pragma, #error or "
				    "#warning", t.kind == CLEX_WORD ? (int)t.len
				    : rest_of_line(s, t.start), d);
	clex_next(&s->lx, &t);
	if (tok_is(s, &t, "include")) {
		if (s->define_line)
			return cscan_refuse(s->err, s->name, line,
					    "#include after the #define or #undef on line %u: put "
					    "every #include before your first macro, so that no "
					    "macro of yours can change the headers' text",
					    s->define_line);
		return check_include(s, line);
	}
	if (tok_is(s, &t, "pragma"))
		return check_pragma(s, line);
	if (tok_is(s, &t, "define") || tok_is(s, &t, "undef"))
		note_define(s, line, tok_is(s, &t, "define"));
	if (tok_is(s, &t, "error") || tok_is(s, &t, "warning"))
		return check_message(s, tok_is(s, &t, "error") ? "error" : "warning");
	return 0;
}

static int scan_source(struct cs_lex *s)
{
	/* A '#' first on its logical line opens a directive; comments, even
	 * ones spanning lines, are blanks and leave that unchanged.  ## and
	 * %:%: are the paste operator there too. */
	struct clex_token t;
	while (clex_next(&s->lx, &t)) {
		bool hash = t.kind == CLEX_PUNCT && t.punct == CLEX_P_HASH;
		int rc = hash && (t.flags & CLEX_BOL) ? check_directive(s, t.line)
						       : check_token(s, &t);
		if (rc)
			return rc;
	}
	return 0;
}

int cscan_source(const char *name, const char *buf, size_t len, const char *header,
		 err_t err)
{
	int rc = cscan_text(name, buf, len, err);
	if (rc)
		return rc;
	struct clex_text text;
	if (clex_splice(buf, len, &text) < 0) {
		err_set(err, "out of memory scanning %s", name);
		return -1;
	}
	struct cs_lex s = { .name = name, .header = header, .origin = "", .err = err };
	clex_init(&s.lx, &text, 0);
	rc = scan_source(&s);
	clex_text_free(&text);
	return rc;
}

/* ---- the player's name ---------------------------------------------------- */

/* Where the names scan stands: in a directive's line, inside how many
 * conditional groups, inside how many braces and parentheses. */
struct cs_names_at {
	const struct clex_text *text;
	bool in_directive;
	int groups, nest;
	struct cscan_names *out;
};

static bool names_word_is(const struct cs_names_at *at, const struct clex_token *t,
			  const char *w)
{
	return t->kind == CLEX_WORD && t->len == strlen(w) &&
	       memcmp(at->text->c + t->start, w, t->len) == 0;
}

/* The directive whose '#' was just read: +1 when it opens a conditional
 * group, -1 when it closes one, else 0.  Its name is read, so that the
 * rest of the line is read as the directive's. */
static int group_change(struct clex *lx, const struct cs_names_at *at)
{
	struct clex_token t;
	if (!peek_on_line(lx, &t))
		return 0;
	clex_next(lx, &t);
	return names_word_is(at, &t, "if") || names_word_is(at, &t, "ifdef") ||
			       names_word_is(at, &t, "ifndef") ? 1
	       : names_word_is(at, &t, "endif")	       ? -1
							       : 0;
}

static bool is_punct(const struct clex_token *t, enum clex_punct p)
{
	return t->kind == CLEX_PUNCT && t->punct == p;
}

/* PLAYER_NAME's argument, the tokens after the word: "( Name )", newlines
 * only before the '(', Name a valid player name. */
static void names_argument(const struct clex *lx, const struct cs_names_at *at)
{
	struct clex ahead = *lx;
	struct clex_token open, name, close;
	if (!clex_next(&ahead, &open) || !is_punct(&open, CLEX_P_LPAREN) ||
	    !next_on_line(&ahead, &name) || !next_on_line(&ahead, &close) ||
	    !is_punct(&close, CLEX_P_RPAREN))
		return;
	const char *n = at->text->c + name.start;
	if ((name.kind == CLEX_WORD || name.kind == CLEX_NUMBER) && player_name_valid(n, name.len)) {
		memcpy(at->out->name, n, name.len);
		at->out->name[name.len] = '\0';
	}
}

static void note_first(unsigned *line, bool where, unsigned at)
{
	if (where && !*line)
		*line = at;
}

static void names_word(const struct clex *lx, const struct clex_token *t,
		       const struct cs_names_at *at)
{
	struct cscan_names *out = at->out;
	if (names_word_is(at, t, "PLAYER_NAME")) {
		if (out->count++ == 0) {
			out->line = t->line;
			names_argument(lx, at);
		}
		note_first(&out->in_directive, at->in_directive, t->line);
		note_first(&out->in_group, at->groups > 0, t->line);
		note_first(&out->nested, !at->in_directive && at->nest > 0, t->line);
	} else if (names_word_is(at, t, "player_name")) {
		/* a function may read it; anywhere else it defines or renames it */
		note_first(&out->own, at->in_directive || at->nest == 0, t->line);
	}
}

/* Braces and parentheses, digraphs included; a directive's do not count:
 * they are a macro's, which the file may use anywhere. */
static void names_punctuator(const struct clex_token *t, struct cs_names_at *at)
{
	bool open = is_punct(t, CLEX_P_LBRACE) || is_punct(t, CLEX_P_LPAREN);
	bool close = is_punct(t, CLEX_P_RBRACE) || is_punct(t, CLEX_P_RPAREN);
	if (!at->in_directive)
		at->nest += open ? 1 : close ? -1 : 0;
}

int cscan_player_names(const char *buf, size_t len, struct cscan_names *out)
{
	*out = (struct cscan_names){ 0 };
	struct clex_text text;
	if (clex_splice(buf, len, &text) < 0)
		return -1;
	struct cs_names_at at = { .text = &text, .out = out };
	struct clex lx;
	struct clex_token t;
	clex_init(&lx, &text, 0);
	while (clex_next(&lx, &t)) {
		if (t.flags & CLEX_BOL)
			at.in_directive = false;
		if ((t.flags & CLEX_BOL) && is_punct(&t, CLEX_P_HASH)) {
			at.in_directive = true;
			at.groups += group_change(&lx, &at);
			if (at.groups < 0)
				at.groups = 0; /* an #endif too many: gcc refuses the file */
		} else if (t.kind == CLEX_WORD) {
			names_word(&lx, &t, &at);
		} else {
			names_punctuator(&t, &at);
		}
	}
	clex_text_free(&text);
	return 0;
}

/* ---- the gcc -E output check --------------------------------------------- */

/* Which file the lines after a line marker come from. */
enum cs_part {
	PART_MAIN,    /* the contestant's file: checked */
	PART_TRUSTED, /* the game header, system headers, <built-in>: skipped */
};

struct cs_pp {
	const char *buf;
	const char *name, *header, *shared;
	enum cs_part part;
	unsigned line; /* the presumed line of the current output line */
	struct err *err;
};

/* A file name in a line marker, unescaped (cpp writes \\ and \").  p is at
 * the opening quote; returns the character after the closing one, or NULL. */
static const char *marker_name(const char *p, const char *end, char *out, size_t cap)
{
	size_t n = 0;
	for (p++; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		if (n + 1 >= cap)
			return NULL;
		out[n++] = *p;
	}
	out[n] = '\0';
	return p < end && n ? p + 1 : NULL;
}

static bool system_marker(const char *name, const char *flags, const char *end)
{
	bool sys = false;
	for (const char *p = flags; p < end; p++)
		if (*p == '3' && (p[-1] == ' ') && (p + 1 == end || p[1] == ' '))
			sys = true;
	return sys && strncmp(name, "/usr/", 5) == 0 && !strstr(name, "/..") &&
	       !strstr(name, "/./");
}

/* The game header or the header it shares, as gcc names them: "x.h" or
 * "./x.h". */
static bool header_marker(const struct cs_pp *pp, const char *name)
{
	if (strncmp(name, "./", 2) == 0)
		name += 2;
	return (pp->header && strcmp(name, pp->header) == 0) ||
	       (pp->shared && strcmp(name, pp->shared) == 0);
}

/* "# 12 \"file\" flags": switches the part, or refuses a file the source
 * has no business reading (an #include or #line the first check missed). */
static int pp_marker(struct cs_pp *pp, const char *p, const char *end)
{
	unsigned long n = strtoul(p, NULL, 10);
	const char *q = memchr(p, '"', (size_t)(end - p));
	char file[512];
	const char *flags = q ? marker_name(q, end, file, sizeof file) : NULL;
	if (!flags)
		return cscan_refuse(pp->err, pp->name, 0,
				    "the preprocessor produced an unreadable line marker");
	pp->line = n > UINT32_MAX ? 0 : (unsigned)n;
	if (strcmp(file, pp->name) == 0)
		pp->part = PART_MAIN;
	else if (header_marker(pp, file) || strcmp(file, "<built-in>") == 0 ||
		 strcmp(file, "<command-line>") == 0 || system_marker(file, flags, end))
		pp->part = PART_TRUSTED;
	else
		return cscan_refuse(pp->err, pp->name, 0,
				    "the program made the preprocessor read \"%s\", which is not "
				    "allowed", file);
	return 0;
}

/* Column-1 '#' lines: cpp writes line markers and pragmas there, and never
 * a '#' that macro expansion produced (it puts a space before those). */
static int pp_directive(struct cs_pp *pp, unsigned line, const char *p, const char *end)
{
	struct cs_lex s = { .name = pp->name, .origin = "", .err = pp->err };
	struct clex_token t, w;
	/* after the '#' byte, comments kept: whatever follows it is quoted */
	p++;
	clex_init_line(&s.lx, p, (size_t)(end - p), line, CLEX_KEEP_COMMENTS);
	clex_next(&s.lx, &t);
	if (t.kind == CLEX_NUMBER && is_digit(p[t.start]))
		return pp_marker(pp, p + t.start, end);
	if (tok_is(&s, &t, "pragma")) {
		bool gcc = clex_next(&s.lx, &w) && tok_is(&s, &w, "GCC");
		if (gcc)
			clex_next(&s.lx, &w);
		if (gcc && tok_in(&s, &w, refused_gcc_pragmas))
			return cscan_refuse(pp->err, pp->name, line,
					    "#pragma GCC %.*s is not allowed (it came from "
					    "_Pragma in a macro)", (int)w.len, p + w.start);
		bool message = gcc ? tok_is(&s, &w, "warning") || tok_is(&s, &w, "error")
				   : tok_is(&s, &w, "message");
		const char *text = p + w.start + w.len;
		if (message && pp->part == PART_MAIN)
			return cscan_pragma_message(text, (size_t)(end - text), line, pp->name,
						    pp->err);
		return 0;
	}
	size_t n = (size_t)(end - p) - t.start;
	if (pp->part == PART_MAIN)
		return cscan_refuse(pp->err, pp->name, line,
				    "unexpected directive in the preprocessed program: %.*s",
				    (int)(n > 40 ? 40 : n), p + t.start);
	return 0;
}

/* One output line of the contestant's file: the tokens after macro
 * expansion.  cpp output has no comments and no backslash-newlines, and gcc
 * compiles it without splicing, so a comment or stray backslash here can only
 * be an attempt to make this check and the compiler disagree. */
static int pp_line(const struct cs_pp *pp, unsigned line, size_t start, size_t end)
{
	struct cs_lex s = {
		.name = pp->name, .header = pp->header, .origin = " (it came from a macro)",
		.err = pp->err,
	};
	struct clex_token t;
	clex_init_line(&s.lx, pp->buf + start, end - start, line, CLEX_KEEP_COMMENTS);
	while (clex_next(&s.lx, &t)) {
		int rc = t.kind == CLEX_COMMENT
				 ? cscan_refuse(pp->err, pp->name, line,
						"unexpected comment in the preprocessed program")
				 : check_token(&s, &t);
		if (rc)
			return rc;
	}
	return 0;
}

int cscan_preprocessed(const char *name, const char *buf, size_t len, const char *header,
		       const char *shared, err_t err)
{
	struct cs_pp pp = {
		.buf = buf, .name = name, .header = header, .shared = shared,
		.part = PART_MAIN, .line = 1, .err = err,
	};
	/* every line feeds the attribute scanner, so that brackets opened in
	 * the contestant's file and closed in a header (or the reverse) are
	 * counted as the compiler counts them */
	struct cs_attr attr = { .state = ATTR_IDLE };
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;
		unsigned line = pp.line++; /* a marker sets the next line's */
		bool mine = pp.part == PART_MAIN;
		int rc = 0;
		if (buf[i] == '#')
			rc = pp_directive(&pp, line, buf + i, buf + end);
		else if (mine)
			rc = pp_line(&pp, line, i, end);
		if (rc == 0 && buf[i] != '#')
			rc = cscan_attr_line(&attr, buf + i, end - i, mine, line, name, err);
		if (rc)
			return rc;
		i = end + 1;
	}
	return 0;
}
