/* sbx_testlib.h - runs the attack programs (build/attack/NAME, found through
 * ATTACK_DIR) as players under the sandbox, for the unit tests.
 *
 * A player gets pipes for stdin and stdout, a policy compiled for its
 * limits, and, when the tests run as root, a uid/gid of its own from 61000
 * up, distinct from every other player running at the same time, even in a
 * parallel test process.  Everything a test leaves running is freed by
 * tl_teardown(), the suites' .fini.
 */
#ifndef SBX_TESTLIB_H
#define SBX_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/sandbox.h"

#define TL_MS 1000000ULL
#define TL_MIB (1ULL << 20)
#define TL_OUT_MAX (64 << 10)
#define TL_LOG_MAX (64 << 10)

struct tl_player {
	struct sbx_proc *proc; /* NULL: free slot */
	int in_fd;             /* our end of its stdin, -1 once closed */
	int out_fd;            /* our end of its stdout */
	uid_t uid;
	char name[64];
};

/* A finished player: its result, with copies of its log and stdout. */
struct tl_run {
	char name[64];
	struct sbx_result res; /* res.log points at log */
	char log[TL_LOG_MAX + 1];
	char out[TL_OUT_MAX + 1];
	size_t out_len;
};

void tl_setup(void);
void tl_teardown(void);

/* Expects that nothing the test started still exists: no child of this
 * process, no process running as one of the uids it handed out. */
void tl_expect_clean(void);

bool tl_is_root(void);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t tl_now_ns(void);

/* Memory 64 MiB, CPU 300 ms, wall guard 10 s, stderr 64 KiB. */
void tl_limits(struct sbx_limits *lim);

struct tl_player *tl_start(const char *name, const struct sbx_limits *lim);
struct tl_player *tl_start_path(const char *path,
				const struct sbx_limits *lim);

/* Writes all of text to the player's stdin; false if it could not. */
bool tl_send(struct tl_player *pl, const char *text);
void tl_close_stdin(struct tl_player *pl);

/* Reads one line of its stdout (with the newline) within timeout_ns. */
bool tl_read_line(struct tl_player *pl, char *buf, size_t size,
		  int64_t timeout_ns);

/* Collects its stdout while it runs, then its result; frees the slot. */
void tl_finish(struct tl_player *pl, struct tl_run *run);

/* Starts build/attack/NAME, sends input (may be NULL), closes its stdin
 * and finishes it. */
void tl_run_attack(const char *name, const struct sbx_limits *lim,
		   const char *input, struct tl_run *run);

void tl_expect_verdict(const struct tl_run *run, enum sbx_verdict v);
void tl_expect_exited(const struct tl_run *run, int status);

/* FORBIDDEN, detail exactly `detail`, and a message naming the call. */
void tl_expect_forbidden(const struct tl_run *run, const char *detail);

#endif
