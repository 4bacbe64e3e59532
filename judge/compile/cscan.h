/* cscan.h - checks a contestant's C source, and what gcc makes of it, before
 * anything on the host is read on its behalf.
 *
 * Promises.  cscan_source() lexes the file as GCC's preprocessor does in
 * -std=gnu17 (splices, also with blanks before the newline; comments;
 * literals; pp-numbers; %:; no trigraphs) and refuses: an #include of
 * anything but a C17 standard header or the game header; any directive but
 * #define #undef #include #if #ifdef #ifndef #elif #elifdef #elifndef #else
 * #endif #pragma #error #warning (so #include_next #import #embed #line and
 * line markers), even in skipped groups; #pragma GCC dependency,
 * system_header and pch_preprocess; asm __asm __asm__ _Pragma __has_include
 * __has_include_next __has_embed outside comments and literals; raw strings,
 * stray backslashes and non-ASCII bytes outside comments and literals, where
 * its reading and GCC's could part ways.  cscan_preprocessed() re-checks gcc
 * -E output for what macros built (pasted __asm__, _Pragma) and refuses line
 * markers naming any file but the source, the game header and system headers
 * under /usr/.  cscan_assembly() refuses .incbin .include .macro .irp .irpc
 * .rept .altmacro .purgem at any statement start.  Each returns 0 (passes),
 * 1 (refused: err says why, "NAME:LINE: ...", for the contestant) or -1 (out
 * of memory).  No global state.
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
