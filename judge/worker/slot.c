#include "judge/worker/slot.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A line longer than a pipe takes at once is cut: a pipe writes up to
 * PIPE_BUF bytes whole, so no other slot's line gets into it. */
#define LOG_LINE_MAX PIPE_BUF

void worker_log(const struct worker_opts *o, const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	struct tm tm;
	time_t now = time(NULL);
	size_t at = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ ", gmtime_r(&now, &tm));
	int n = snprintf(line + at, sizeof line - at, "%s: ", o->name);
	at += n > 0 ? (size_t)n : 0;
	va_list ap;
	va_start(ap, fmt);
	n = at < sizeof line ? vsnprintf(line + at, sizeof line - at, fmt, ap) : 0;
	va_end(ap);
	at += n > 0 ? (size_t)n : 0;
	if (at > sizeof line - 1) {
		static const char cut[] = "...";
		at = sizeof line - 1;
		memcpy(line + at - strlen(cut), cut, strlen(cut));
	}
	line[at++] = '\n';
	fflush(o->log); /* whatever the stream holds goes first */
	ssize_t w;
	do
		w = write(fileno(o->log), line, at);
	while (w < 0 && errno == EINTR);
}
