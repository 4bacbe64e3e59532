/* json_text.h - JSON written as text, straight into a growing buffer, for
 * the few large answers (a leaderboard of thousands of rows) where a tree
 * of jansson values per row costs more than the data.
 *
 * Promises.  What is written is what json_dumps(JSON_COMPACT |
 * JSON_ENSURE_ASCII) writes for the same values, read back equal: strings
 * of any bytes (invalid UTF-8 becomes U+FFFD, as safe_json_text() does),
 * ASCII only; reals that read back as reals, bit for bit.  A write that
 * runs out of memory marks the buffer failed; jtext_finish() then gives
 * NULL, so callers check once at the end.
 */
#ifndef JUDGE_JSON_TEXT_H
#define JUDGE_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jtext {
	char *s;
	size_t len, cap;
	bool failed;
};

/* Room for n more bytes, so that a large text grows once; false when
 * out of memory (the buffer then failed). */
bool jtext_reserve(struct jtext *t, size_t n);
/* Bytes as they are (punctuation, keys the judge spells). */
void jtext_raw(struct jtext *t, const char *bytes, size_t n);
void jtext_lit(struct jtext *t, const char *text);
/* A JSON string of any bytes; NULL: null. */
void jtext_str(struct jtext *t, const char *s);
void jtext_int(struct jtext *t, int64_t v);
void jtext_real(struct jtext *t, double v);
void jtext_bool(struct jtext *t, bool v);
/* A member's name, "name": (after a comma unless it opens its object). */
void jtext_key(struct jtext *t, const char *name);
/* A member: its name, then its value. */
void jtext_int_member(struct jtext *t, const char *name, int64_t v);
void jtext_real_member(struct jtext *t, const char *name, double v);
void jtext_str_member(struct jtext *t, const char *name, const char *s);
void jtext_bool_member(struct jtext *t, const char *name, bool v);
/* A whole jansson tree, written as json_dumps(v, JSON_COMPACT |
 * JSON_ENCODE_ANY) writes it, byte for byte (UTF-8 kept, members in their
 * order): a replay's 100 KB in a tenth of jansson's time, which formats
 * each number with printf and writes each token through a callback. */
void jtext_json(struct jtext *t, const json_t *v);
/* A jansson value, dumped compact and ASCII (for small parts). */
void jtext_value(struct jtext *t, const json_t *v);
/* The text (malloc'd, NUL-terminated, its length in *len), or NULL when a
 * write failed; the buffer is emptied either way. */
char *jtext_finish(struct jtext *t, size_t *len);

#endif
