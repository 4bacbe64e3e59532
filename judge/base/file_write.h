/* file_write.h - writing a file the user named, whole, and safely.
 *
 * Promises.  Every file the judge writes on request (-o, --html, --logs'
 * files, a copied binary) goes through here, and what happens depends on
 * what the name already is:
 *  - "-": standard output (after what stdio holds for it);
 *  - nothing yet, or a regular file (also through a symbolic link): the
 *    data go to a temporary name beside it, then renamed over it, so a
 *    reader (a web server serving a page, a viewer opening a replay) sees
 *    the old file or the new one, never half of it; on failure nothing is
 *    left behind but the old file.  A link stays a link: the file it names
 *    is the one replaced;
 *  - a character device (/dev/null, a terminal) or a FIFO (also through a
 *    link, such as /dev/stdout or /dev/fd/N): written in place, never
 *    created, truncated nor replaced, so it stays what it was for every
 *    other program of the machine;
 *  - anything else (a directory, a block device, a socket, a link to one
 *    of those or to nothing): refused with a message saying what it is.
 * Errors read "cannot write PATH: why".
 */
#ifndef JUDGE_FILE_WRITE_H
#define JUDGE_FILE_WRITE_H

#include <stddef.h>
#include <sys/types.h>
#include "judge/base/error.h"


/* 0 when path can be written as above, -1 with err saying why not: for a
 * command to check its outputs before it does the work that fills them. */
int file_check_target(const char *path, err_t err);

/* 0 when dir is a directory (or a link to one) or does not exist yet, -1
 * with err naming what it is instead; `option` (e.g. "--logs") names the
 * option in the message. */
int file_check_dir(const char *dir, const char *option, err_t err);

/* 0, or -1 with err set.  mode as for chmod, for a file made or replaced:
 * 0644 for what others may read (a page), 0600 for the judge's own files. */
int file_write_whole(const char *path, const char *data, size_t len, mode_t mode,
		     err_t err);

/* The same with the bytes of the regular file `from` (never followed if it
 * is a link): 0, or -1 with err set. */
int file_copy(const char *from, const char *path, mode_t mode, err_t err);

/* All of buf to fd, through short writes and interruptions: 0, or -1 with
 * errno set. */
int file_write_all(int fd, const void *buf, size_t len);

#endif
