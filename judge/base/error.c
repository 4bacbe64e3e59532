#include "judge/base/error.h"

#include <stdio.h>
#include <string.h>

void err_set(struct err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

int err_fail(struct err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void err_prefix(struct err *err, const char *fmt, ...)
{
	char context[ERR_LEN], old[ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(context, sizeof context, fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, ERR_LEN);
	old[ERR_LEN - 1] = '\0';
	size_t at = strlen(context);
	if (at > ERR_LEN - 3)
		at = ERR_LEN - 3;
	memcpy(err->msg, context, at);
	memcpy(err->msg + at, ": ", 2);
	at += 2;
	size_t rest = strlen(old);
	if (rest > ERR_LEN - 1 - at)
		rest = ERR_LEN - 1 - at;
	memcpy(err->msg + at, old, rest);
	err->msg[at + rest] = '\0';
}
