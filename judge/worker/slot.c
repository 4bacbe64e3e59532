#include "judge/worker/slot.h"

#include "judge/base/log.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void worker_log(const struct worker_opts *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_vline(o->log, o->name, fmt, ap);
	va_end(ap);
}
