/* cscan.h - checks a contestant's C source, and what gcc makes of it, before
 * anything on the host is read on its behalf.  Every check allows what plain
 * C needs and refuses the rest.
 *
 * Promises.  cscan_source() reads the file's tokens as GCC's preprocessor
 * does in -std=gnu17 (judge/base/clex.h: splices, also with blanks before
 * the newline; comments; literals; pp-numbers; digraphs; no trigraphs),
 * as do the other checks of C text here, and refuses: an #include of
 * anything but a C17 standard header or the game header; an #include after
 * a #define or #undef (but for feature macros such as _GNU_SOURCE or NDEBUG,
 * empty or a number); any directive but #define #undef #include #if #ifdef
 * #ifndef #elif #elifdef #elifndef #else #endif #pragma #error #warning (so
 * #include_next #import #embed #line and line markers), even in skipped
 * groups; a #pragma but once, pack, message, STDC and GCC diagnostic,
 * optimize, target, push/pop/reset_options, unroll, ivdep, novector,
 * warning, error, poison; #error or #warning text that is not printable
 * ASCII; asm __asm __asm__ _Pragma __has_include __has_include_next
 * __has_embed outside comments and literals; raw strings, stray backslashes
 * and non-ASCII bytes outside comments and literals, where its reading and
 * GCC's could part ways.
 *
 * Why the headers' lines can be trusted: the preprocessor reads the file
 * once, top to bottom, and a macro expands only in text read after its
 * #define.  With every #include before the first #define or #undef (in the
 * file's order, skipped groups included, so whatever the conditionals say),
 * every header has been read in full before any macro of the contestant's
 * exists: no token of the contestant's can appear on a header's line of
 * gcc -E output.  A feature macro can only be tested in the headers' #if
 * lines, and its body, empty or a number, changes no line.  Header macros
 * the contestant uses expand on the contestant's lines, which are checked.
 *
 * cscan_preprocessed() re-checks gcc -E output for what macros built
 * (pasted __asm__, _Pragma); refuses line markers naming any file but the
 * source, the game header (and the header it shares) and system headers
 * under /usr/; refuses, in the
 * contestant's lines, attributes that choose a section, change linkage or
 * visibility or write assembler text (section alias weakref weak ifunc
 * symver copy visibility naked target_clones retain noinit persistent
 * patchable_function_entry fentry_* indirect_branch function_return
 * no_sanitize* no_instrument_function no_profile_instrument_function: GNU and C2x syntax, with or without __), and messages gcc
 * prints with escapes interpreted (#pragma message, GCC warning/error, the
 * warning error deprecated unavailable attributes) unless printable ASCII
 * without backslashes.  cscan_assembly() allows only what gcc 12 writes for
 * plain C at -O2 on x86-64: printable ASCII, one statement a line (no ';',
 * no '#' or C comments, no quoted or non-ASCII labels), a list of
 * directives each with the operands it takes, section names and flags from
 * a list, instructions with plain operands.  cscan_object() allows an
 * ELF64 x86-64 relocatable whose sections all have a listed name and type
 * (no .gnu.lto_*).  Each returns 0 (passes), 1 (refused: err says why,
 * "NAME:LINE: ..." or "NAME: ...", for the contestant) or -1 (out of
 * memory).  No global state.
 */
#ifndef JUDGE_CSCAN_H
#define JUDGE_CSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/base/player_name.h"
#include "judge/base/error.h"


/* Refuses text that is not C source: empty, a NUL byte, control characters
 * other than tab, form feed, vertical tab and newline, a CR not followed by
 * LF (GCC would count it as a line break the scanner does not see), a UTF-8
 * byte-order mark (said as such: editors add it unseen). */
int cscan_text(const char *name, const char *buf, size_t len, err_t err);

/* Checks the contestant's file `name` (its base name, used in messages and
 * compared with line markers).  header: the game header's base name, or
 * NULL when the game has none.  Runs cscan_text() first. */
int cscan_source(const char *name, const char *buf, size_t len, const char *header,
		 err_t err);

/* What a file says of its player's name, read as GCC's preprocessor reads
 * the file (splices, comments, literals, directives), with no macro
 * expanded: a name the judge can trust is written PLAYER_NAME(Name) once,
 * outside every directive, conditional group, brace and parenthesis, and
 * player_name is written nowhere but inside a function.  Lines are the
 * first such line, 0 for none. */
struct cscan_names {
	int count;             /* PLAYER_NAME words */
	unsigned line;         /* the first one's */
	char name[PLAYER_NAME_MAX + 1]; /* its Name when valid, else "" */
	unsigned in_directive; /* a PLAYER_NAME on a directive's line */
	unsigned in_group;     /* one between #if/#ifdef/#ifndef and #endif */
	unsigned nested;       /* one inside braces or parentheses */
	unsigned own;          /* player_name outside a function or in a directive */
};

/* 0 with out filled, -1 out of memory.  Checks nothing else. */
int cscan_player_names(const char *buf, size_t len, struct cscan_names *out);

/* Checks the output of gcc -E for the file `name`.  shared: a header the
 * game header includes (its base name), trusted as the game header is; or
 * NULL.  The source check never lets the contestant's file include it. */
int cscan_preprocessed(const char *name, const char *buf, size_t len, const char *header,
		       const char *shared, err_t err);

/* Checks the assembly gcc -S generated from `name`. */
int cscan_assembly(const char *name, const char *buf, size_t len, err_t err);

/* Checks the object file the assembler made from that assembly (len bytes
 * at data, hostile: every offset is checked). */
int cscan_object(const char *name, const void *data, size_t len, err_t err);

/* The object's symbols, for games whose contestant's file is instrumented
 * or whose units must not share memory: refuses a definition of a
 * __sanitizer* name (the instrumentation's hooks are the runtime's), and
 * with no_writable: every writable variable (.data, .bss, thread-local,
 * common; static locals, "name.N" in the object, included), named with
 * the line of its declaration in src (the contestant's source, src_len
 * bytes).  Constants (.rodata, .data.rel.ro) pass. */
int cscan_object_symbols(const char *name, const void *data, size_t len, const char *src,
			 size_t src_len, bool no_writable, err_t err);

/* True for the 29 header names of C17 (7.1.2), e.g. "stdio.h". */
bool cscan_standard_header(const char *h);

#endif
