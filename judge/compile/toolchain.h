/* toolchain.h - what identifies the compiler the compile step runs, worked
 * out once and kept in the compile cache.
 *
 * Promises.  The identity is gcc's `--version` text and a SHA-256 over it
 * and the bytes of every file that turns a contestant's source into a
 * binary, as gcc itself names them: the driver, cc1, collect2, as, ld, the
 * linker plugin, the C library's and libgcc's archives and start files.
 * It is kept in the cache directory (toolchain.json) with each file's
 * device, inode, size, modification and change times, and read from there
 * while every file still stats the same, so that finding a player in the
 * cache starts no process.  When one differs (an upgrade, a file replaced
 * or touched) gcc is asked again, the files are hashed again and the
 * record is rewritten: a changed compiler changes the digest, and with it
 * every cache key built on it.
 */
#ifndef JUDGE_TOOLCHAIN_H
#define JUDGE_TOOLCHAIN_H

#include "judge/base/hash.h"
#include "judge/base/error.h"

#define TC_VERSION_MAX 1024
#define TC_RECORD "toolchain.json"

struct tc_identity {
	char version[TC_VERSION_MAX]; /* what `gcc --version` printed */
	char digest[HASH_HEXLEN + 1];
};

/* How the caller runs gcc with one argument ("--version",
 * "-print-prog-name=cc1"), as it runs gcc for a compile: 0 with what gcc
 * printed in *out (malloc'd, NUL-terminated), or -1 with the caller's own
 * error set. */
typedef int (*tc_ask_fn)(void *ctx, const char *arg, char **out);

/* The identity of the compiler `gcc` (its path), from cache_dir's record
 * or worked out afresh with ask.  0, or -1 with err set (or, when ask
 * failed, left as ask set it). */
int tc_identity(const char *cache_dir, const char *gcc, tc_ask_fn ask, void *ctx,
		struct tc_identity *id, err_t err);

#endif
