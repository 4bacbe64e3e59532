/* gen_testlib.h - what the unit tests build their generated inputs with: a
 * growing text, and a seeded random sequence (splitmix64) so that every
 * random case is the same on every run. */
#ifndef GEN_TESTLIB_H
#define GEN_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

struct gen_text {
	char *s; /* NUL-terminated once anything is added; free() it */
	size_t n, cap;
};

/* Appends to t as printf would (the test fails if memory runs out). */
__attribute__((format(printf, 2, 3)))
void gen_printf(struct gen_text *t, const char *fmt, ...);

/* The next number of the sequence *state seeds. */
uint64_t gen_rand(uint64_t *state);

#endif
