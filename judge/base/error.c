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

int err_fail(char err[ERR_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, ERR_LEN, fmt, ap);
	va_end(ap);
	return -1;
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
	size_t at = strlen(context);
	if (at > ERR_LEN - 3)
		at = ERR_LEN - 3;
	memcpy(err, context, at);
	memcpy(err + at, ": ", 2);
	at += 2;
	size_t rest = strlen(old);
	if (rest > ERR_LEN - 1 - at)
		rest = ERR_LEN - 1 - at;
	memcpy(err + at, old, rest);
	err[at + rest] = '\0';
}
