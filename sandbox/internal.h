/* internal.h - what the sandbox's files share; not part of the API. */
#ifndef SANDBOX_INTERNAL_H
#define SANDBOX_INTERNAL_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/seccomp.h>
#include <sys/types.h>
#include <time.h>

#include "sandbox/sandbox.h"

/* The child's descriptors after set-up: 0, 1 and 2, SBX_FD_SHARED (when
 * the caller gives one), the binary it will execute and the set-up channel
 * to the parent (both close-on-exec). */
#define SBX_FD_EXEC 4
#define SBX_FD_SYNC 5
#define SBX_CHILD_FDS 6

struct sbx_policy {
	enum sbx_profile profile;
	struct sbx_limits lim;
	struct sock_fprog prog; /* player profile only */
	bool batch; /* players run as SCHED_BATCH (sbx_policy_set_batch) */
};

struct sbx_proc {
	struct sbx_limits lim;
	pid_t pid;
	int pidfd;
	int listener; /* seccomp notifications, -1 for tools */
	int errfd;    /* read end of the child's stderr */
	void *stack;  /* the child's until it executes the binary */
	/* The kernel's maxrss for the child includes the memory it shared
	 * with us before exec; below this it tells nothing of the player. */
	uint64_t inherited_rss;
	uint64_t sampled_peak; /* highest VmHWM read while it ran */
	bool peak_final;       /* sampled at its exit or as we killed it */
	clockid_t cpuclock;
	uint64_t start_ns;
	uint64_t wall_deadline_ns;
	bool guarded;          /* the guard is armed, since guarded_since_ns */
	uint64_t guarded_since_ns;
	uint64_t guarded_ns;   /* guarded time of the armings before */
	uint64_t armed_wall_ns; /* this arming's guard, for the message */
	/* Run-queue wait (runnable, but no CPU free) the guard does not
	 * count: in all, and of it during this arming.  Read from
	 * /proc/PID/schedstat only when the deadline has passed. */
	uint64_t queued_ns;
	uint64_t queued_arming_ns;
	uint64_t queued_seen_ns; /* the wait the last read showed */
	uint64_t queue_reread_ns; /* no read before this time */
	int schedstat_fd;
	/* No limit can fire before this: the CPU budget cannot run out
	 * faster than the wall clock runs (one thread). */
	uint64_t check_at_ns;
	uint64_t step_cpu_end_ns; /* CPU clock value ending the step; UINT64_MAX: none */
	uint64_t step_cpu_ns;     /* the step's budget, for the message */
	const char *step_name;    /* the caller's, kept while armed (sbx_arm_cpu) */
	uint64_t brk_now;      /* a lower bound of the program break (grow.c) */
	/* Where its heap starts, when the filter lets brk through unasked in
	 * its first SBX_HEAP_UNASKED bytes (prefix.c); 0 when it does not. */
	uint64_t heap_start;
	int statm_fd;          /* its /proc/PID/statm, once grow.c needs it */
	bool killed;  /* we sent SIGKILL; res already holds why */
	bool reaped;
	size_t log_cap;
	char *log;
	struct sbx_result res;
};

/* Code that runs in the child between clone and exec, on the parent's
 * memory (CLONE_VM): not instrumented, raw system calls only. */
#define CHILD_FN __attribute__((no_sanitize("address", "undefined")))

/* A system call that leaves errno alone: errno lives in the parent's
 * thread-local storage, which the child shares until exec.  Returns -errno
 * on failure. */
static inline __attribute__((always_inline)) long raw(long n, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

/* view.c: the filesystem a confined tool sees, planned by the parent
 * (which may allocate) and built by the child (which may not). */
enum view_op_kind { VIEW_DIR, VIEW_BIND, VIEW_FILE_BIND, VIEW_LINK };
struct view_op {
	enum view_op_kind kind;
	char *path;          /* inside the new root, as seen from the old one */
	char *source;        /* the host path bound, or the link's target */
	unsigned long flags; /* of the bind's remount */
};
struct view_plan {
	char *root;
	struct view_op *op;
	size_t nop;
	bool own_user; /* not root: a user namespace maps us to its root */
	char uid_map[32], gid_map[32];
};
int sbx_view_plan(const struct sbx_view *v, struct view_plan *plan, err_t err);
void sbx_view_plan_free(struct view_plan *plan);
/* In the child, in its new namespaces: builds the view and makes it the
 * root.  0, or -errno. */
long sbx_view_enter(const struct view_plan *plan);

/* elf.c: checks that path is a static x86-64 ELF whose loadable segments
 * fit in the memory limit.  0 if it may run, with *heap_start where its
 * heap starts when not randomized (0: not known, the program is position
 * independent); otherwise fills res with an SBX_SETUP or SBX_MEMORY
 * verdict and returns -1. */
int sbx_elf_check(int fd, const struct sbx_limits *lim, struct sbx_result *res,
		  uint64_t *heap_start);

/* prefix.c: the filter of one player's launch: rules that let through
 * unasked brk within its heap's first SBX_HEAP_UNASKED bytes (heap_start,
 * 0: none) and the kit's mapping of its shared region (shared_size bytes,
 * 0: none), then the policy's program.  0, or -1 when out of memory;
 * prog->filter is the caller's to free. */
#define SBX_HEAP_UNASKED (1ULL << 20)
int sbx_launch_program(const struct sbx_policy *pol, uint64_t heap_start, uint64_t shared_size,
		       struct sock_fprog *prog);
/* heap_start (elf.c) if brk may grow its first bytes unasked under these
 * limits, else 0. */
uint64_t sbx_heap_unasked(uint64_t heap_start, const struct sbx_limits *lim);

/* notify.c: the parent's side of the seccomp listener. */
int sbx_notify_exec(struct sbx_proc *p, err_t err);
void sbx_notify_service(struct sbx_proc *p);

/* grow.c: calls that may grow the address space (brk, mmap, mremap), and
 * the judgement on one: true if it may go on, false when it would pass the
 * memory limit and the process was killed with SBX_MEMORY. */
bool sbx_grow_call(const struct seccomp_data *d);
bool sbx_grow_check(struct sbx_proc *p, const struct seccomp_data *d);
/* Bytes it has mapped now (VmSize); false once it is gone. */
bool sbx_mapped_now(struct sbx_proc *p, uint64_t *bytes);

/* proc.c */
struct sbx_proc *sbx_proc_new(const struct sbx_limits *lim);

/* procfs.c */
/* /proc/PID/name of the child, opened read-only; -1 on failure. */
int sbx_open_proc(const struct sbx_proc *p, const char *name);
/* Reads fd from its start into buf, NUL-terminated; its length, or -1. */
ssize_t sbx_read_text(int fd, char *buf, size_t size);
/* Field `field` (numbered as in proc(5), 3 or more) of /proc/PID/stat,
 * read into buf; a pointer to its start there, or NULL. */
#define SBX_STAT_LEN 1024
const char *sbx_stat_field(const struct sbx_proc *p, int field, char buf[SBX_STAT_LEN]);

/* stop.c: kills the child (and its process group) once, recording why;
 * the first verdict wins. */
void sbx_kill(struct sbx_proc *p, enum sbx_verdict v, const char *detail,
	      const char *message);
/* SIGKILL to the child's process group (a tool's helpers are in it). */
void sbx_kill_group(const struct sbx_proc *p);

/* Samples VmHWM as the process ends; exact if it can still be read. */
void sbx_sample_final_peak(struct sbx_proc *p);

/* names.c */
void sbx_syscall_name(uint32_t arch, int nr, char out[48]);

#endif
