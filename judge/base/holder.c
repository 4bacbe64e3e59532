#include "judge/base/holder.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void this_host(char host[64])
{
	if (gethostname(host, 63) < 0)
		strcpy(host, "host");
	host[63] = '\0';
}

/* Field 22 of /proc/PID/stat, after the command's closing parenthesis
 * (a command may hold spaces and parentheses). 0: no such process, or one
 * that has ended and waits to be reaped (a zombie). */
static unsigned long long start_ticks(pid_t pid)
{
	char path[64], line[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = '\0';
	char *p = strrchr(line, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;
	unsigned long long start = 0;
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%llu", &start);
	return start;
}

void holder_self(char out[HOLDER_LEN])
{
	char host[64];
	this_host(host);
	pid_t pid = getpid();
	snprintf(out, HOLDER_LEN, "%s:%d:%llu", host, (int)pid, start_ticks(pid));
}

bool holder_gone(const char *name)
{
	char host[64];
	this_host(host);
	size_t len = strlen(host);
	if (strncmp(name, host, len) != 0 || name[len] != ':')
		return false;
	char *end;
	long pid = strtol(name + len + 1, &end, 10);
	if (end == name + len + 1 || pid <= 0 || pid > INT_MAX)
		return false;
	unsigned long long now = start_ticks((pid_t)pid);
	if (now == 0)
		return true;
	if (*end != ':') /* a name without its start time: the pid alone */
		return false;
	return strtoull(end + 1, NULL, 10) != now;
}
