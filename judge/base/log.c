#include "judge/base/log.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void log_vline(FILE *f, const char *who, const char *fmt, va_list ap)
{
	char line[PIPE_BUF];
	struct tm tm;
	time_t now = time(NULL);
	size_t at = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ ", gmtime_r(&now, &tm));
	int n = snprintf(line + at, sizeof line - at, "%s: ", who);
	at += n > 0 ? (size_t)n : 0;
	n = at < sizeof line ? vsnprintf(line + at, sizeof line - at, fmt, ap) : 0;
	at += n > 0 ? (size_t)n : 0;
	if (at > sizeof line - 1) {
		static const char cut[] = "...";
		at = sizeof line - 1;
		memcpy(line + at - strlen(cut), cut, strlen(cut));
	}
	line[at++] = '\n';
	fflush(f); /* whatever the stream holds goes first */
	ssize_t w;
	do
		w = write(fileno(f), line, at);
	while (w < 0 && errno == EINTR);
}

void log_line(FILE *f, const char *who, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vline(f, who, fmt, ap);
	va_end(ap);
}
