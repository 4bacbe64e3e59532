/* compile.h - turns one contestant's C file into a static binary, once.
 *
 * Promises.  The source is checked (cscan) before gcc reads it, gcc -E output
 * before it is compiled, the generated assembly before it is assembled and
 * the object file before it is linked; every gcc command has -fno-lto.
 * gcc runs under the sandbox's tool profile with the limits of cfg_compile,
 * a clean environment (PATH, LC_ALL=C, TMPDIR), in a private temporary
 * directory removed afterwards, as req->uid:gid when those are set; what
 * gcc starts is killed with it.  Flags are fixed: -std=gnu17 -O2 -fno-lto, -static,
 * -lm (and, for gcc -E, _Pragma and __has_include undefined, so macros
 * cannot paste them together).  Messages are capped at cfg->log_bytes and
 * never contain the temporary directory's path.
 * With req->instrument, gcc -S gets that one flag more (and the object
 * check refuses symbols named __sanitizer*, the instrumentation's, which
 * the runtime alone defines); with req->no_writable_globals, the object's
 * writable variables (.data, .bss, thread-local, common; static locals
 * too) are refused, each named with its line in the source.  With
 * req->asm_pass, the checked assembly is replaced by what it returns, or
 * refused with its message.
 * Identical inputs (source and its name, headers, runtime library, flags,
 * the toolchain's identity: toolchain.h) compile once: binaries and
 * compile errors are cached in cfg->cache_dir under the SHA-256 of all of
 * them, written to a temporary name and renamed into place, so concurrent
 * compiles of one source are safe.  An answer found in the cache costs no
 * process, no temporary directory and no copy.  Refused input (empty, too
 * big, not text) stores nothing.
 */
#ifndef JUDGE_COMPILE_H
#define JUDGE_COMPILE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "judge/base/config.h"
#include "judge/base/hash.h"
#include "judge/base/error.h"

#define CMP_SOURCE_MAX (256 * 1024) /* bytes of contestant source */
#define CMP_GCC "/usr/bin/gcc"

/* The flags of every gcc command that decide the code it writes (the
 * others only shape its messages), NULL-terminated: a build here that
 * must run the code the judge runs (judge repro, AIC2018) uses them. */
extern const char *const cmp_code_flags[];

struct cmp_request {
	const char *source;  /* the contestant's file: letters, digits, _ - . ending in .c */
	const char *header;  /* the game header, included by its base name; or NULL */
	/* A header the game header includes by its base name (the course
	 * games' games/kit/course.h), copied beside it; or NULL.  The
	 * contestant's file may not include it itself. */
	const char *shared_header;
	const char *runtime; /* the game's runtime library, a .a or .o; or NULL */
	uid_t uid;           /* the compiler's identity when the judge runs as */
	gid_t gid;           /* root (the sandbox switches to it); 0: the judge's */
	/* The game's rules for the contestant's file alone (struct game): an
	 * extra flag for gcc -S (e.g. the energy count's instrumentation), and
	 * whether writable globals and statics are refused (units that must
	 * not share memory).  The runtime library is never compiled here. */
	const char *instrument;
	bool no_writable_globals;
	/* The game's rewrite of the assembly once checked, before it is
	 * assembled (AIC2018's energy count; struct game's asm_pass), and its
	 * version, part of the cache key; NULL: none. */
	int (*asm_pass)(const char *in, size_t len, char **out, size_t *out_len, err_t err);
	const char *asm_pass_version;
};

struct cmp_result {
	bool ok;                    /* the binary exists */
	bool cached;                /* the answer came from the cache */
	char binary[PATH_MAX];      /* when ok: the binary in the cache directory */
	char binary_sha256[HASH_HEXLEN + 1]; /* when ok: of the binary's bytes */
	char key[HASH_HEXLEN + 1];  /* the cache key; "" if refused before hashing */
	char source_sha256[HASH_HEXLEN + 1]; /* of the source's bytes, once read */
	char compiler[128];         /* the first line of `gcc --version` */
	/* when ok: the checked object file, before the link (what an organiser
	 * hands out for local play); "" for a binary cached before objects were */
	char object[PATH_MAX];
	char *log;                  /* warnings when ok, why not otherwise; never NULL */
};

/* Compiles req into out.  Returns 0 when out says what happened (ok or a
 * compile error the contestant can read in out->log), -1 when the judge
 * itself failed (a missing header or runtime, fork, disk), with err set. */
int cmp_compile(const struct cfg_compile *cfg, const struct cmp_request *req,
		struct cmp_result *out, err_t err);

/* Whether gcc can run in its confinement on this machine (it cannot where
 * the kernel refuses namespaces): 0, or -1 with err saying why and what
 * the organiser can do.  Always 0 when cfg->unconfined is set. */
int cmp_check_confinement(const struct cfg_compile *cfg, uid_t uid, gid_t gid,
			  err_t err);

/* Tests only, never called by the judge: the same without the source,
 * preprocessor and assembly checks, so that a test can show what the
 * confinement alone holds when a check is bypassed.  Its cache keys differ
 * from cmp_compile's. */
int cmp_compile_unchecked(const struct cfg_compile *cfg, const struct cmp_request *req,
			  struct cmp_result *out, err_t err);

void cmp_result_free(struct cmp_result *r);

#endif
