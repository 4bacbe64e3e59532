#include "tests/unit/gen_testlib.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void gen_printf(struct gen_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert_geq(n, 0);
	if (t->n + (size_t)n + 1 > t->cap) {
		t->cap = 2 * (t->n + (size_t)n + 1);
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->n += (size_t)n;
}

uint64_t gen_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
