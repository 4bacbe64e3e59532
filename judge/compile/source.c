#include "judge/compile/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why a path that is not a regular file cannot be a submission. */
static const char *not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return "it is a directory, not a file";
	if (S_ISFIFO(mode))
		return "it is a pipe (FIFO), not a file";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "it is a device, not a file";
	return "it is not a regular file";
}

/* Opens path for reading without ever blocking (O_NONBLOCK: a FIFO with no
 * writer would otherwise wait forever) and keeps it only if it is a regular
 * file; -1 with err set otherwise. */
static int open_regular(const char *path, struct stat *st, err_t err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err_set(err, "cannot read %.200s: %s", path, strerror(errno));
		return -1;
	}
	const char *why = fstat(fd, st) < 0	   ? strerror(errno)
			  : !S_ISREG(st->st_mode) ? not_regular(st->st_mode)
						  : NULL;
	if (why) {
		err_set(err, "cannot read %.150s: %s; give the path of your .c file",
			 path, why);
		close(fd);
		return -1;
	}
	return fd;
}

int src_read(const char *path, size_t max, char **buf, size_t *len, err_t err)
{
	struct stat st;
	int fd = open_regular(path, &st, err);
	if (fd < 0)
		return -1;
	if ((uintmax_t)st.st_size > max) {
		close(fd);
		err_set(err, "%.200s is larger than %zu KiB", path, max / 1024);
		return -1;
	}
	*buf = malloc((size_t)st.st_size + 1);
	*len = 0;
	while (*buf && *len < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + *len, (size_t)st.st_size - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the file shrank (or failed): what was read counts */
		*len += (size_t)n;
	}
	close(fd);
	if (!*buf) {
		err_set(err, "out of memory reading %.200s", path);
		return -1;
	}
	(*buf)[*len] = '\0';
	return 0;
}
