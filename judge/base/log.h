/* log.h - the judge's one form of a log line.
 *
 * Promises.  log_line() writes "2026-05-01T12:00:00Z WHO: text\n" (UTC, so
 * that the logs of several machines sort) with one write(2) to the
 * stream's file, after whatever the stream itself held: processes and
 * threads sharing a file or pipe never mix their lines, and O_APPEND
 * keeps each line whole at the file's end.  A line longer than PIPE_BUF
 * is cut, ending in "...".  The worker's slots and the service log this
 * way; nothing is kept between calls.
 */
#ifndef JUDGE_LOG_H
#define JUDGE_LOG_H

#include <stdarg.h>
#include <stdio.h>

__attribute__((format(printf, 3, 4)))
void log_line(FILE *f, const char *who, const char *fmt, ...);
void log_vline(FILE *f, const char *who, const char *fmt, va_list ap);

#endif
