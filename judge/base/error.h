/* error.h - the one way to say what went wrong: the judge's, and the
 * sandbox and the games use it too.  The lowest layer of everything, it
 * includes nothing of the judge.  The kits, compiled into contestants'
 * programs, never include it.
 *
 * Promises.  A function that can fail takes an `err_t err` as its last
 * argument, returns -1 (or NULL) and fills it with one message for the
 * person who reads it: what went wrong and what to do ("cannot open
 * db/jobs.sqlite: permission denied; run it as the judge user"), never a
 * code to look up.  On success err is left alone.
 *
 * One type and one size for every part: `err_t err;` declares the
 * storage, and passed to a function it becomes a `struct err *`, so a
 * message passes from one part to the next without being cut or copied
 * into a buffer of another size.  A plain char buffer is refused by the
 * compiler.  The message is err->msg; err_set() and err_fail() write it,
 * err_prefix() puts a caller's context in front.  Library code never
 * ends the program: it says why and returns, and the command decides.
 */
#ifndef JUDGE_ERROR_H
#define JUDGE_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

#define ERR_LEN 1024

struct err {
	char msg[ERR_LEN];
};
/* An array of one, as GMP's types: the declaration is the storage and an
 * argument passes by reference with no `&`. */
typedef struct err err_t[1];

/* Fills err with the formatted message (cut to fit). */
__attribute__((format(printf, 2, 3)))
void err_set(struct err *err, const char *fmt, ...);

/* err_set(), then -1: `return err_fail(err, "no such file %s", path);`. */
__attribute__((format(printf, 2, 3)))
int err_fail(struct err *err, const char *fmt, ...);

/* Puts the formatted context and ": " in front of the message err holds. */
__attribute__((format(printf, 2, 3)))
void err_prefix(struct err *err, const char *fmt, ...);

#endif
