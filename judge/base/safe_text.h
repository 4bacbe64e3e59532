/* safe_text.h - contestants' bytes made safe to show: UTF-8 read one way
 * for every part (compile logs, leaderboards, replays, reports).
 *
 * Promises.  text_utf8() accepts only well-formed UTF-8: no overlong form,
 * no surrogate, nothing past U+10FFFF, never reading past n bytes.
 * safe_json_text() always gives a valid JSON string, whatever the bytes.
 */
#ifndef JUDGE_SAFE_TEXT_H
#define JUDGE_SAFE_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence s[0..n) starts
 * with, its code point in *cp; 0 when it starts with none. */
size_t text_utf8(const unsigned char *s, size_t n, uint32_t *cp);

/* The next character of s[0..n), n > 0 (it always steps 1 byte at
 * least): its length (1 to 4; 1 for a byte that starts no well-formed
 * sequence), and in *printable whether it may reach a terminal or a page
 * as itself: well-formed, no C0 or C1 control nor DEL (terminal escape
 * sequences start with those), and no bidirectional mark or override
 * (they make text read as something it is not). */
size_t text_char(const unsigned char *s, size_t n, bool *printable);

/* The n bytes of s as valid UTF-8, each invalid byte U+FFFD: malloc'd,
 * NUL-terminated, its length in *out_len (unless NULL); NULL out of memory. */
char *safe_utf8(const char *s, size_t n, size_t *out_len);

/* A JSON string of any bytes (NULL: JSON null); invalid UTF-8 becomes
 * U+FFFD.  A new reference. */
json_t *safe_json_text(const char *s);

#endif
