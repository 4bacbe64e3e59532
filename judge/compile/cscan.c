#include "judge/compile/cscan_int.h"

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

/* ASCII only, and '$', which GCC accepts in identifiers; bytes >= 0x80 are
 * refused outside comments and literals, so UTF-8 identifiers never arise. */
static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* ---- the text check ------------------------------------------------------ */

int cscan_text(const char *name, const char *buf, size_t len, char err[CSCAN_ERRLEN])
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

/* ---- the logical source -------------------------------------------------- */

/* The text after translation phase 2, as GCC's _cpp_clean_line makes it:
 * backslash, optional blanks, newline are removed; CRLF becomes LF.  Two NUL
 * bytes end it (the text has none), so a lexer may look two ahead. */
struct cs_src {
	char *c;
	unsigned *line; /* the physical line each character came from */
	size_t n;
};

static size_t splice_len(const char *buf, size_t len, size_t i)
{
	if (buf[i] != '\\')
		return 0;
	size_t j = i + 1;
	while (j < len && is_blank(buf[j]))
		j++;
	if (j < len && buf[j] == '\n')
		return j + 1 - i;
	if (j + 1 < len && buf[j] == '\r' && buf[j + 1] == '\n')
		return j + 2 - i;
	return 0;
}

static int src_build(struct cs_src *s, const char *buf, size_t len)
{
	s->c = malloc(len + 2);
	s->line = malloc((len + 2) * sizeof *s->line);
	if (!s->c || !s->line)
		return -1;
	unsigned line = 1;
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		size_t k = splice_len(buf, len, i);
		if (k) {
			i += k;
			line++;
			continue;
		}
		if (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')
			i++;
		s->c[n] = buf[i];
		s->line[n++] = line;
		if (buf[i++] == '\n')
			line++;
	}
	s->c[n] = s->c[n + 1] = '\0';
	s->line[n] = s->line[n + 1] = line;
	s->n = n;
	return 0;
}

static void src_free(struct cs_src *s)
{
	free(s->c);
	free(s->line);
}

/* ---- tokens shared by the source and the gcc -E checks -------------------- */

/* A lexer over c[0..end).  lines gives each character's line (the source), or
 * is NULL and `line` holds for every character (one line of gcc -E output). */
struct cs_lex {
	const char *c;
	size_t i, end;
	const unsigned *lines;
	unsigned line;
	const char *name;   /* the contestant's file, for messages */
	const char *header; /* the game header, or NULL */
	const char *origin; /* "" or a note that the text came from a macro */
	char *err;
	unsigned define_line; /* the first #define or #undef that is not a
				 feature macro (see feature_macros), or 0 */
	bool in_directive;    /* lx->i is in a directive's line */
};

static char lx_at(const struct cs_lex *lx, size_t i)
{
	return i < lx->end ? lx->c[i] : '\0';
}

static unsigned lx_line(const struct cs_lex *lx, size_t i)
{
	return lx->lines ? lx->lines[i < lx->end ? i : lx->end] : lx->line;
}

static size_t ident_end(const struct cs_lex *lx, size_t i)
{
	while (is_ident_char(lx_at(lx, i)))
		i++;
	return i;
}

/* A pp-number: digits, letters, '_', '$', '.', and a sign after e E p P.
 * It matters: in 1R"x( the R belongs to the number, so no raw string starts,
 * and in 0xe+1 the + belongs to it too. */
static size_t ppnumber_end(const struct cs_lex *lx, size_t i)
{
	i++;
	for (;;) {
		char c = lx_at(lx, i);
		if (is_ident_char(c) || c == '.')
			i++;
		else if ((c == '+' || c == '-') && strchr("eEpP", lx->c[i - 1]))
			i++;
		else
			return i;
	}
}

/* From an opening quote to just past the closing one; an unterminated
 * literal ends before the newline, as GCC ends it.  A backslash escapes the
 * next character unless that is the newline. */
static size_t literal_end(const struct cs_lex *lx, size_t i, char quote)
{
	for (i++;; i++) {
		char c = lx_at(lx, i);
		if (c == '\0' || c == '\n')
			return i;
		if (c == quote)
			return i + 1;
		if (c == '\\' && lx_at(lx, i + 1) != '\n' && lx_at(lx, i + 1) != '\0')
			i++;
	}
}

static bool is_string_prefix(const char *w, size_t n)
{
	static const char *const prefixes[] = { "L", "u", "U", "u8", NULL };
	return cscan_in_list(prefixes, w, n);
}

static bool is_raw_prefix(const char *w, size_t n)
{
	static const char *const prefixes[] = { "R", "LR", "uR", "UR", "u8R", NULL };
	return cscan_in_list(prefixes, w, n);
}

static int lex_word(struct cs_lex *lx)
{
	size_t start = lx->i, end = ident_end(lx, start);
	const char *w = lx->c + start;
	size_t n = end - start;
	char next = lx_at(lx, end);
	/* A raw string keeps backslash-newlines and may span lines; refusing it
	 * spares the scanner a second, rarely used way of ending a literal. */
	if (next == '"' && is_raw_prefix(w, n))
		return cscan_refuse(lx->err, lx->name, lx_line(lx, start),
				    "raw string literals (%.*s\"...\") are not allowed%s",
				    (int)n, w, lx->origin);
	if ((next == '"' || next == '\'') && is_string_prefix(w, n)) {
		lx->i = literal_end(lx, end, next);
		return 0;
	}
	const struct banned_word *b = banned(w, n);
	if (b)
		return cscan_refuse(lx->err, lx->name, lx_line(lx, start), "%s is not allowed: %s%s",
				    b->word, b->why, lx->origin);
	lx->i = end;
	return 0;
}

/* One token that is not a comment, blank, newline or directive. */
static int lex_token(struct cs_lex *lx)
{
	char c = lx->c[lx->i];
	if (is_ident_start(c))
		return lex_word(lx);
	if (is_digit(c) || (c == '.' && is_digit(lx_at(lx, lx->i + 1))))
		lx->i = ppnumber_end(lx, lx->i);
	else if (c == '"' || c == '\'')
		lx->i = literal_end(lx, lx->i, c);
	else if (c == '\\')
		return cscan_refuse(lx->err, lx->name, lx_line(lx, lx->i),
				    "a backslash outside a string or character literal is not "
				    "allowed (universal character names cannot be used here)%s",
				    lx->origin);
	else if ((unsigned char)c >= 0x80)
		return cscan_refuse(lx->err, lx->name, lx_line(lx, lx->i),
				    "non-ASCII characters may only appear in comments and "
				    "string literals%s", lx->origin);
	else
		lx->i++;
	return 0;
}

/* ---- the source check ---------------------------------------------------- */

/* Skips one comment at lx->i; false if there is none.  An unterminated block
 * comment runs to the end of the file, as in GCC (which then fails). */
static bool skip_comment(struct cs_lex *lx)
{
	const char *c = lx->c;
	size_t i = lx->i;
	if (c[i] != '/' || (c[i + 1] != '*' && c[i + 1] != '/'))
		return false;
	if (c[i + 1] == '/') {
		const char *nl = strchr(c + i, '\n');
		lx->i = nl ? (size_t)(nl - c) : lx->end;
		return true;
	}
	const char *close = strstr(c + i + 2, "*/");
	lx->i = close ? (size_t)(close - c) + 2 : lx->end;
	return true;
}

/* Blanks and comments; never a newline outside a comment. */
static void skip_blank(struct cs_lex *lx)
{
	for (;;) {
		if (is_blank(lx->c[lx->i]))
			lx->i++;
		else if (!skip_comment(lx))
			return;
	}
}

static bool allowed_header(const struct cs_lex *lx, const char *h, size_t n)
{
	return cscan_in_list(standard_headers, h, n) ||
	       (lx->header && strlen(lx->header) == n && memcmp(lx->header, h, n) == 0);
}

/* The rest of the logical line, for quoting a refused directive. */
static int rest_of_line(const struct cs_lex *lx, size_t i)
{
	const char *nl = strchr(lx->c + i, '\n');
	size_t n = nl ? (size_t)(nl - (lx->c + i)) : lx->end - i;
	while (n && is_blank(lx->c[i + n - 1]))
		n--;
	return n > 60 ? 60 : (int)n;
}

static int check_include(struct cs_lex *lx, unsigned line)
{
	skip_blank(lx);
	size_t i = lx->i;
	char open = lx->c[i];
	const char *others = lx->header ? " and " : "";
	const char *hdr = lx->header ? lx->header : "";
	if (rest_of_line(lx, i) == 0)
		return cscan_refuse(lx->err, lx->name, line, "#include without a header name");
	if (open != '"' && open != '<')
		return cscan_refuse(lx->err, lx->name, line,
				    "#include %.*s is not allowed: name the header directly, "
				    "e.g. #include <stdio.h>", rest_of_line(lx, i), lx->c + i);
	/* GCC reads a header name up to the closing character on the same line,
	 * with no escapes and no comments inside. */
	char close = open == '"' ? '"' : '>';
	size_t j = i + 1;
	while (lx->c[j] && lx->c[j] != '\n' && lx->c[j] != close)
		j++;
	if (lx->c[j] != close)
		return cscan_refuse(lx->err, lx->name, line, "#include %.*s has no closing %c",
				    rest_of_line(lx, i), lx->c + i, close);
	if (!allowed_header(lx, lx->c + i + 1, j - i - 1))
		return cscan_refuse(lx->err, lx->name, line,
				    "#include %.*s is not allowed: only the standard C headers%s%s "
				    "may be included", (int)(j - i + 1 > 64 ? 64 : j - i + 1),
				    lx->c + i, others, hdr);
	lx->i = j + 1;
	return 0;
}

static int check_pragma(struct cs_lex *lx, unsigned line)
{
	skip_blank(lx);
	size_t ns = lx->i, ns_end = ident_end(lx, ns), w = ns, w_end = ns_end;
	bool gcc = ns_end - ns == 3 && memcmp(lx->c + ns, "GCC", 3) == 0;
	bool stdc = ns_end - ns == 4 && memcmp(lx->c + ns, "STDC", 4) == 0;
	if (gcc) {
		lx->i = ns_end;
		skip_blank(lx);
		w = lx->i;
		w_end = ident_end(lx, w);
	}
	if (stdc || (gcc && cscan_in_list(allowed_gcc_pragmas, lx->c + w, w_end - w)) ||
	    (!gcc && cscan_in_list(allowed_pragmas, lx->c + ns, ns_end - ns)))
		return 0;
	int wn = (int)(w_end - w > 40 ? 40 : w_end - w);
	return cscan_refuse(lx->err, lx->name, line,
			    "#pragma %s%.*s is not allowed: use only #pragma once, pack, "
			    "message, STDC ..., GCC diagnostic, optimize, target, push_options, "
			    "pop_options, unroll, ivdep, warning, error or poison",
			    gcc ? "GCC " : "", wn ? wn : rest_of_line(lx, w) > 40 ? 40 :
			    rest_of_line(lx, w), lx->c + w);
}

/* #error and #warning text goes to the compile log as it is written:
 * printable ASCII only, so it cannot pass for anything but the contestant's
 * own message. */
static int check_message(struct cs_lex *lx, const char *directive)
{
	for (size_t i = lx->i; i < lx->end && lx->c[i] != '\n'; i++) {
		unsigned char c = (unsigned char)lx->c[i];
		if (c >= 0x7f || (c < 0x20 && c != '\t'))
			return cscan_refuse(lx->err, lx->name, lx_line(lx, i),
					    "#%s text may only use printable ASCII characters",
					    directive);
	}
	return 0;
}

/* A #define or #undef: the first one that could change a header's text is
 * remembered, so that no #include may follow it. */
static void note_define(struct cs_lex *lx, unsigned line, bool is_define)
{
	size_t save = lx->i;
	skip_blank(lx);
	size_t n = lx->i, n_end = ident_end(lx, n);
	lx->i = n_end;
	bool feature = cscan_in_list(feature_macros, lx->c + n, n_end - n);
	if (feature && is_define) {
		/* the body: nothing, or one pp-number */
		skip_blank(lx);
		if (is_digit(lx->c[lx->i]))
			lx->i = ppnumber_end(lx, lx->i);
		skip_blank(lx);
		feature = lx->c[lx->i] == '\n' || lx->c[lx->i] == '\0';
	}
	if (!feature && !lx->define_line)
		lx->define_line = line;
	lx->i = save;
}

/* lx->i is at a '#' or "%:" that starts a logical line. */
static int check_directive(struct cs_lex *lx)
{
	unsigned line = lx_line(lx, lx->i);
	lx->i += lx->c[lx->i] == '#' ? 1 : 2;
	skip_blank(lx);
	size_t i = lx->i;
	char c = lx->c[i];
	if (c == '\n' || c == '\0')
		return 0; /* the null directive */
	if (is_digit(c))
		return cscan_refuse(lx->err, lx->name, line,
				    "line markers (# %.*s) are not allowed", rest_of_line(lx, i),
				    lx->c + i);
	size_t end = ident_end(lx, i);
	if (end == i || !cscan_in_list(allowed_directives, lx->c + i, end - i))
		return cscan_refuse(lx->err, lx->name, line,
				    "#%.*s is not allowed: use #include, #define, #undef, #if, "
				    "#ifdef, #ifndef, #elif, #else, #endif, #pragma, #error or "
				    "#warning", end > i ? (int)(end - i) : rest_of_line(lx, i),
				    lx->c + i);
	lx->i = end;
	const char *d = lx->c + i;
	size_t n = end - i;
	if (n == 7 && memcmp(d, "include", 7) == 0) {
		if (lx->define_line)
			return cscan_refuse(lx->err, lx->name, line,
					    "#include after the #define or #undef on line %u: put "
					    "every #include before your first macro, so that no "
					    "macro of yours can change the headers' text",
					    lx->define_line);
		return check_include(lx, line);
	}
	if (n == 6 && memcmp(d, "pragma", 6) == 0)
		return check_pragma(lx, line);
	if ((n == 6 && memcmp(d, "define", 6) == 0) || (n == 5 && memcmp(d, "undef", 5) == 0))
		note_define(lx, line, n == 6);
	if ((n == 5 && memcmp(d, "error", 5) == 0) || (n == 7 && memcmp(d, "warning", 7) == 0))
		return check_message(lx, n == 5 ? "error" : "warning");
	return 0;
}

/* A '#' or "%:" that is not the first half of "##" or "%:%:", which GCC lexes
 * as the paste operator even at the start of a line. */
static bool at_hash(const struct cs_lex *lx)
{
	const char *c = lx->c + lx->i;
	if (c[0] == '#')
		return c[1] != '#';
	return c[0] == '%' && c[1] == ':' && !(c[2] == '%' && c[3] == ':');
}

/* What a walk over the source does with each directive (lx->i at its '#'
 * or "%:") and each other token; a non-zero return ends the walk. */
struct cs_walk {
	int (*directive)(struct cs_lex *lx, void *ctx);
	int (*token)(struct cs_lex *lx, void *ctx);
	void *ctx;
};

static int walk_source(struct cs_lex *lx, const struct cs_walk *w)
{
	/* A line starts a directive when '#' is its first token; comments,
	 * even ones spanning lines, are blanks and leave that unchanged. */
	bool bol = true;
	while (lx->i < lx->end) {
		char c = lx->c[lx->i];
		int rc = 0;
		if (c == '\n') {
			bol = true;
			lx->in_directive = false;
			lx->i++;
		} else if (is_blank(c)) {
			lx->i++;
		} else if (skip_comment(lx)) {
			continue;
		} else if (bol && at_hash(lx)) {
			bol = false;
			lx->in_directive = true;
			rc = w->directive(lx, w->ctx);
		} else {
			bol = false;
			rc = w->token(lx, w->ctx);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int source_directive(struct cs_lex *lx, void *ctx)
{
	(void)ctx;
	return check_directive(lx);
}

static int source_token(struct cs_lex *lx, void *ctx)
{
	(void)ctx;
	return lex_token(lx);
}

static int scan_source(struct cs_lex *lx)
{
	return walk_source(lx, &(struct cs_walk){ source_directive, source_token, NULL });
}

int cscan_source(const char *name, const char *buf, size_t len, const char *header,
		 char err[CSCAN_ERRLEN])
{
	int rc = cscan_text(name, buf, len, err);
	if (rc)
		return rc;
	struct cs_src s = { 0 };
	if (src_build(&s, buf, len) < 0) {
		src_free(&s);
		snprintf(err, CSCAN_ERRLEN, "out of memory scanning %s", name);
		return -1;
	}
	struct cs_lex lx = {
		.c = s.c, .end = s.n, .lines = s.line, .name = name,
		.header = header, .origin = "", .err = err,
	};
	rc = scan_source(&lx);
	src_free(&s);
	return rc;
}

/* ---- the player's name ---------------------------------------------------- */

/* Where the names scan stands (besides lx->in_directive): inside how many
 * conditional groups, inside how many braces and parentheses. */
struct cs_names_at {
	int groups, nest;
	struct cscan_names *out;
};

/* The directive at lx->i ('#' or "%:" starting a line): +1 when it opens
 * a conditional group, -1 when it closes one, else 0.  Leaves lx->i after
 * its name, so that the rest of the line is read as the directive's. */
static int group_change(struct cs_lex *lx)
{
	lx->i += lx->c[lx->i] == '#' ? 1 : 2;
	skip_blank(lx);
	size_t i = lx->i, end = ident_end(lx, i);
	static const char *const opens[] = { "if", "ifdef", "ifndef", NULL };
	static const char *const closes[] = { "endif", NULL };
	lx->i = end;
	return cscan_in_list(opens, lx->c + i, end - i)    ? 1
	       : cscan_in_list(closes, lx->c + i, end - i) ? -1
							   : 0;
}

/* PLAYER_NAME's argument, from i just after the word: "( Name )" with
 * blanks, comments or newlines between, Name a valid player name. */
static void names_argument(struct cs_lex *lx, size_t i, struct cscan_names *out)
{
	size_t save = lx->i;
	lx->i = i;
	for (skip_blank(lx); lx->c[lx->i] == '\n'; skip_blank(lx))
		lx->i++;
	if (lx->c[lx->i] == '(') {
		lx->i++;
		skip_blank(lx);
		size_t n = lx->i, n_end = ident_end(lx, n);
		lx->i = n_end;
		skip_blank(lx);
		if (lx->c[lx->i] == ')' && player_name_valid(lx->c + n, n_end - n)) {
			memcpy(out->name, lx->c + n, n_end - n);
			out->name[n_end - n] = '\0';
		}
	}
	lx->i = save;
}

static void note_first(unsigned *line, bool where, unsigned at)
{
	if (where && !*line)
		*line = at;
}

static void names_word(struct cs_lex *lx, const struct cs_names_at *at)
{
	struct cscan_names *out = at->out;
	size_t start = lx->i, end = ident_end(lx, start);
	unsigned line = lx_line(lx, start);
	lx->i = end;
	if (end - start == 11 && memcmp(lx->c + start, "PLAYER_NAME", 11) == 0) {
		if (out->count++ == 0) {
			out->line = line;
			names_argument(lx, end, out);
		}
		note_first(&out->in_directive, lx->in_directive, line);
		note_first(&out->in_group, at->groups > 0, line);
		note_first(&out->nested, !lx->in_directive && at->nest > 0, line);
	} else if (end - start == 11 && memcmp(lx->c + start, "player_name", 11) == 0) {
		/* a function may read it; anywhere else it defines or renames it */
		note_first(&out->own, lx->in_directive || at->nest == 0, line);
	}
}

/* Braces and parentheses, digraphs included; a directive's do not count:
 * they are a macro's, which the file may use anywhere. */
static void names_punctuator(struct cs_lex *lx, struct cs_names_at *at)
{
	const char *c = lx->c + lx->i;
	bool open = *c == '{' || *c == '(' || (c[0] == '<' && c[1] == '%');
	bool close = *c == '}' || *c == ')' || (c[0] == '%' && c[1] == '>');
	if (!lx->in_directive)
		at->nest += open ? 1 : close ? -1 : 0;
	lx->i += (c[0] == '<' && c[1] == '%') || (c[0] == '%' && c[1] == '>') ? 2 : 1;
}

static int names_token(struct cs_lex *lx, void *ctx)
{
	struct cs_names_at *at = ctx;
	char c = lx->c[lx->i];
	if (is_ident_start(c))
		names_word(lx, at);
	else if (is_digit(c) || (c == '.' && is_digit(lx_at(lx, lx->i + 1))))
		lx->i = ppnumber_end(lx, lx->i);
	else if (c == '"' || c == '\'')
		lx->i = literal_end(lx, lx->i, c);
	else
		names_punctuator(lx, at);
	return 0;
}

static int names_directive(struct cs_lex *lx, void *ctx)
{
	struct cs_names_at *at = ctx;
	at->groups += group_change(lx);
	if (at->groups < 0)
		at->groups = 0; /* an #endif too many: gcc refuses the file */
	return 0;
}

int cscan_player_names(const char *buf, size_t len, struct cscan_names *out)
{
	*out = (struct cscan_names){ 0 };
	struct cs_src s = { 0 };
	if (src_build(&s, buf, len) < 0) {
		src_free(&s);
		return -1;
	}
	struct cs_lex lx = { .c = s.c, .end = s.n, .lines = s.line, .origin = "" };
	struct cs_names_at at = { .out = out };
	walk_source(&lx, &(struct cs_walk){ names_directive, names_token, &at });
	src_free(&s);
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
	char *err;
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
	const char *q = p + 1;
	while (q < end && is_blank(*q))
		q++;
	if (q < end && is_digit(*q))
		return pp_marker(pp, q, end);
	size_t n = (size_t)(end - q);
	if (n >= 6 && memcmp(q, "pragma", 6) == 0) {
		q += 6;
		while (q < end && is_blank(*q))
			q++;
		const char *w = q, *e;
		bool gcc = end - q > 3 && memcmp(q, "GCC", 3) == 0 && is_blank(q[3]);
		if (gcc)
			for (w = q + 3; w < end && is_blank(*w);)
				w++;
		for (e = w; e < end && is_ident_char(*e);)
			e++;
		size_t wn = (size_t)(e - w);
		if (gcc && cscan_in_list(refused_gcc_pragmas, w, wn))
			return cscan_refuse(pp->err, pp->name, line,
					    "#pragma GCC %.*s is not allowed (it came from "
					    "_Pragma in a macro)", (int)wn, w);
		bool message = gcc ? (wn == 7 && memcmp(w, "warning", 7) == 0) ||
					     (wn == 5 && memcmp(w, "error", 5) == 0)
				   : wn == 7 && memcmp(w, "message", 7) == 0;
		if (message && pp->part == PART_MAIN)
			return cscan_pragma_message(e, (size_t)(end - e), line, pp->name, pp->err);
		return 0;
	}
	if (pp->part == PART_MAIN)
		return cscan_refuse(pp->err, pp->name, line,
				    "unexpected directive in the preprocessed program: %.*s",
				    (int)(n > 40 ? 40 : n), q);
	return 0;
}

/* One output line of the contestant's file: the tokens after macro
 * expansion.  cpp output has no comments and no backslash-newlines, and gcc
 * compiles it without splicing, so a comment or stray backslash here can only
 * be an attempt to make this check and the compiler disagree. */
static int pp_line(const struct cs_pp *pp, unsigned line, size_t start, size_t end)
{
	struct cs_lex lx = {
		.c = pp->buf, .i = start, .end = end, .line = line,
		.name = pp->name, .header = pp->header,
		.origin = " (it came from a macro)", .err = pp->err,
	};
	while (lx.i < lx.end) {
		char c = lx.c[lx.i];
		if (is_blank(c)) {
			lx.i++;
			continue;
		}
		if (c == '/' && (lx_at(&lx, lx.i + 1) == '*' || lx_at(&lx, lx.i + 1) == '/'))
			return cscan_refuse(pp->err, pp->name, line,
					    "unexpected comment in the preprocessed program");
		int rc = lex_token(&lx);
		if (rc)
			return rc;
	}
	return 0;
}

int cscan_preprocessed(const char *name, const char *buf, size_t len, const char *header,
		       const char *shared, char err[CSCAN_ERRLEN])
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
