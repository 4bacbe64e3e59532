/* procfs.c - what the sandbox reads of a child in /proc (internal.h):
 * opened read-only, read from the start, never past the buffer. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/internal.h"

int sbx_open_proc(const struct sbx_proc *p, const char *name)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)p->pid, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

ssize_t sbx_read_text(int fd, char *buf, size_t size)
{
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, size - 1, 0);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

const char *sbx_stat_field(const struct sbx_proc *p, int field, char buf[SBX_STAT_LEN])
{
	int fd = sbx_open_proc(p, "stat");
	ssize_t n = sbx_read_text(fd, buf, SBX_STAT_LEN);
	if (fd >= 0)
		close(fd);
	/* Fields 3 on follow the command name's closing parenthesis, which
	 * the name itself may contain. */
	char *s = n > 0 ? strrchr(buf, ')') : NULL;
	for (int f = 2; s && f < field; f++)
		s = strchr(s + 1, ' ');
	return s ? s + 1 : NULL;
}
