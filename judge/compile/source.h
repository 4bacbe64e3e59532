/* source.h - a contestant's C file as uploaders hand it over.
 *
 * Promises: src_read() reads a regular file whole, refusing (with a message
 * naming the file) anything larger than max bytes, so a hostile path such
 * as /dev/zero or a fifo never blocks or floods the judge.  The buffer is
 * NUL-terminated for convenience; the length is what counts.  (What the
 * file names its player: cscan_player_names() and upload_name_check().)
 */
#ifndef JUDGE_SOURCE_H
#define JUDGE_SOURCE_H

#include <stddef.h>
#include "judge/base/error.h"


int src_read(const char *path, size_t max, char **buf, size_t *len, err_t err);

#endif
