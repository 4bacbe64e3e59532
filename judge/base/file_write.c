#include "judge/base/file_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_fail(const char *path, char *tmp, int fd, char err[FILE_ERRLEN])
{
	snprintf(err, FILE_ERRLEN, "cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	return -1;
}

int file_write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

int file_write_whole(const char *path, const char *data, size_t len, mode_t mode,
		     char err[FILE_ERRLEN])
{
	char *tmp = NULL;
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return write_fail(path, NULL, -1, err);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return write_fail(path, NULL, -1, err);
	}
	if (fchmod(fd, mode) < 0 || file_write_all(fd, data, len) < 0)
		return write_fail(path, tmp, fd, err);
	if (close(fd) < 0)
		return write_fail(path, tmp, -1, err);
	if (rename(tmp, path) < 0)
		return write_fail(path, tmp, -1, err);
	free(tmp);
	return 0;
}
