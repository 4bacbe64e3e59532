/* cscan_util.c - what every check of the compile step shares (cscan_int.h):
 * the refusal message and word lists; under all of them. */
#include <stdarg.h>
#include <stdio.h>

#include "judge/compile/cscan_int.h"

bool cscan_in_list(const char *const *list, const char *w, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && memcmp(*list, w, n) == 0)
			return true;
	return false;
}

int cscan_refuse(err_t err, const char *name, unsigned line, const char *fmt, ...)
{
	char what[ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line)
		err_set(err, "%s:%u: %s", name, line, what);
	else
		err_set(err, "%s: %s", name, what);
	return 1;
}
