#include "judge/base/error.h"

#include <stdio.h>
#include <string.h>

void err_set(char err[ERR_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, ERR_LEN, fmt, ap);
	va_end(ap);
}

void err_prefix(char err[ERR_LEN], const char *fmt, ...)
{
	char context[ERR_LEN], old[ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(context, sizeof context, fmt, ap);
	va_end(ap);
	memcpy(old, err, ERR_LEN);
	old[ERR_LEN - 1] = '\0';
	snprintf(err, ERR_LEN, "%s: %s", context, old);
}
