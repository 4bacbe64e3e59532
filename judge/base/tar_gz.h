/* tar_gz.h - a gzip-compressed tar archive (ustar) of one folder, built in
 * memory: what `judge kit` writes and the service hands out.
 *
 * Promises: regular files and folders only (anything else under the folder
 * is refused, never followed); each entry keeps its mode's permission bits
 * (0755 or 0644 after the umask a student's tar applies) and is named
 * under `top/`; paths longer than ustar holds are refused with their name.
 */
#ifndef JUDGE_TAR_GZ_H
#define JUDGE_TAR_GZ_H

#include <stddef.h>
#include "judge/base/error.h"


/* The folder dir as top/..., into *out (malloc'd, *len bytes): 0, or -1
 * with err saying what went wrong. */
int tgz_folder(const char *dir, const char *top, char **out, size_t *len,
	       err_t err);

#endif
