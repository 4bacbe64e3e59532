/* file_write.h - writing a file whole.
 *
 * Promises.  The data go to a temporary name beside the target, which is
 * then renamed over it: a reader (a web server serving a page, a viewer
 * opening a replay) sees the old file or the new one, never half of it.
 * On failure nothing is left behind but the old file.
 */
#ifndef JUDGE_FILE_WRITE_H
#define JUDGE_FILE_WRITE_H

#include <stddef.h>
#include <sys/types.h>

#define FILE_ERRLEN 256

/* 0, or -1 with err "cannot write PATH: why".  mode as for chmod: 0644 for
 * what others may read (a page), 0600 for the judge's own files. */
int file_write_whole(const char *path, const char *data, size_t len, mode_t mode,
		     char err[FILE_ERRLEN]);

/* All of buf to fd, through short writes and interruptions: 0, or -1 with
 * errno set. */
int file_write_all(int fd, const void *buf, size_t len);

#endif
