/* fuzz_check.h - how the fuzz targets report a broken invariant: the
 * message, then abort(), which libFuzzer treats as a crash (it prints the
 * stack and saves the input under the artifact prefix). */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FUZZ_NAME
#error "define FUZZ_NAME before including fuzz_check.h"
#endif

__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "\n" FUZZ_NAME ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	abort();
}

#define check(cond, ...)                  \
	do {                              \
		if (!(cond))              \
			fail(__VA_ARGS__); \
	} while (0)

#endif
