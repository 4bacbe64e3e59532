/* source.h - a contestant's C file as uploaders hand it over.
 *
 * Promises: src_read() reads a regular file whole, refusing (with a message
 * naming the file) anything larger than max bytes, so a hostile path such
 * as /dev/zero or a fifo never blocks or floods the judge.  The buffer is
 * NUL-terminated for convenience; the length is what counts.
 * src_player_name() finds PLAYER_NAME(Name) outside comments and literals;
 * src_player_name_count() says how many times the file writes PLAYER_NAME
 * there (the kit's macro defines a symbol: a second one cannot link).
 */
#ifndef JUDGE_SOURCE_H
#define JUDGE_SOURCE_H

#include <stddef.h>

#include "judge/base/player_name.h"

#define SRC_ERRLEN 256

int src_read(const char *path, size_t max, char **buf, size_t *len, char err[SRC_ERRLEN]);

/* 0 with name filled, -1 when the file names no valid player. */
int src_player_name(const char *s, size_t len, char name[PLAYER_NAME_MAX + 1]);

/* How many PLAYER_NAME words the file has outside comments and literals. */
int src_player_name_count(const char *s, size_t len);

#endif
