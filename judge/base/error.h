/* error.h - the judge's one way to say what went wrong.
 *
 * Promises.  A function of the judge that can fail takes a buffer
 * `char err[ERR_LEN]` as its last argument, returns -1 (or NULL) and
 * fills the buffer with one message for the person who reads it: what
 * went wrong and what to do ("cannot open db/jobs.sqlite: permission
 * denied; run it as the judge user"), never a code to look up.  On
 * success the buffer is left alone.  One size for every part, so that a
 * message passes from one part to the next without being cut or copied
 * into a buffer of another size; a caller adds its own context in front
 * with err_prefix().  Library code never ends the program: it says why
 * and returns, and the command decides.
 */
#ifndef JUDGE_ERROR_H
#define JUDGE_ERROR_H

#include <stdarg.h>

#define ERR_LEN 1024

/* Fills err with the formatted message (cut to fit). */
__attribute__((format(printf, 2, 3)))
void err_set(char err[ERR_LEN], const char *fmt, ...);

/* err_set(), then -1: `return err_fail(err, "no such file %s", path);`. */
__attribute__((format(printf, 2, 3)))
int err_fail(char err[ERR_LEN], const char *fmt, ...);

/* Puts the formatted context and ": " in front of the message err holds. */
__attribute__((format(printf, 2, 3)))
void err_prefix(char err[ERR_LEN], const char *fmt, ...);

#endif
