/* cscan.h - checks a contestant's C source, and what gcc makes of it, before
 * anything on the host is read on its behalf.
 *
 * Promises.  cscan_source() lexes the file the way GCC's preprocessor does in
 * -std=gnu17 (backslash-newline splices, also with blanks before the newline;
 * block and line comments; string and character literals; pp-numbers; the %:
 * digraph; no trigraphs) and refuses, with "NAME:LINE: ..." in err:
 *   - an #include of anything but a standard C17 header or the game header
 *     (a path, "..", a computed #include MACRO, an unknown name);
 *   - any directive outside #define #undef #include #if #ifdef #ifndef #elif
 *     #elifdef #elifndef #else #endif #pragma #error #warning and the null
 *     directive (so #include_next, #import, #embed, #line, # 12 "file");
 *   - #pragma GCC dependency / system_header / pch_preprocess;
 *   - the identifiers asm __asm __asm__ _Pragma __has_include
 *     __has_include_next __has_embed anywhere outside comments and literals;
 *   - raw string literals, stray backslashes and non-ASCII bytes outside
 *     comments and literals, where its reading and GCC's could part ways.
 * Directives are checked whether or not a conditional would skip them.
 * cscan_preprocessed() re-checks gcc -E output, whose tokens come from macro
 * expansion (pasted __asm__, _Pragma), and refuses line markers naming any
 * file but the source, the game header and system headers under /usr/.
 * cscan_assembly() refuses assembler directives that read files or build
 * them (.incbin .include .macro .irp .irpc .rept .altmacro .purgem) at any
 * statement start.  Each returns 0 when the text passes, 1 when it is refused
 * (err says why, in words for the contestant), -1 when the judge failed
 * (out of memory; err says so).  No global state.
 */
#ifndef JUDGE_CSCAN_H
#define JUDGE_CSCAN_H

#include <stdbool.h>
#include <stddef.h>

#define CSCAN_ERRLEN 256

/* Refuses text that is not C source: empty, a NUL byte, control characters
 * other than tab, form feed, vertical tab and newline, a CR not followed by
 * LF (GCC would count it as a line break the scanner does not see). */
int cscan_text(const char *name, const char *buf, size_t len, char err[CSCAN_ERRLEN]);

/* Checks the contestant's file `name` (its base name, used in messages and
 * compared with line markers).  header: the game header's base name, or
 * NULL when the game has none.  Runs cscan_text() first. */
int cscan_source(const char *name, const char *buf, size_t len, const char *header,
		 char err[CSCAN_ERRLEN]);

/* Checks the output of gcc -E for the file `name`. */
int cscan_preprocessed(const char *name, const char *buf, size_t len, const char *header,
		       char err[CSCAN_ERRLEN]);

/* Checks the assembly gcc -S generated from `name`. */
int cscan_assembly(const char *name, const char *buf, size_t len, char err[CSCAN_ERRLEN]);

/* True for the 29 header names of C17 (7.1.2), e.g. "stdio.h". */
bool cscan_standard_header(const char *h);

#endif
