/* sandbox.h - run one untrusted binary in a forked child, and watch it.
 *
 * Promises.  Before the first instruction of the binary runs, the child has
 * its limits (address space = the memory limit, CPU backstop, stack, no core
 * files, no file writes, a few descriptors), no new privileges, only the
 * descriptors the caller gave it as 0, 1 and 2 (2 is a capped pipe the library
 * drains), its own unprivileged uid/gid when the caller is root and names one,
 * a parent-death signal, and, for the player profile, the seccomp allow-list
 * compiled once by sbx_policy_new().  A call outside the list stops the child
 * and the verdict names the call; a call that would grow its address space
 * past the memory limit stops it with SBX_MEMORY before it can fail.  Its
 * argv[0] is "player" and its environment empty.  The binary is executed exactly once,
 * through a descriptor the parent opened: any later execve/execveat is a
 * forbidden call, whatever its arguments.  CPU time (user + system) comes
 * from the kernel in nanoseconds; the CPU budget and the wall-clock guard are
 * enforced by the caller's process while it services the child, so the
 * overshoot is bounded by how often it does (sbx_wait* service continuously).
 * The wall-clock guard, a backstop for a child that sleeps or blocks,
 * counts the wall time the child could have run: the time it spent
 * runnable but waiting for a busy CPU (the kernel's run-queue wait,
 * /proc/PID/schedstat) does not count, so a loaded machine does not make a
 * spinner's verdict "wall" instead of "CPU".  That wait is read only once
 * the plain deadline has passed, and stretches a guard to at most 10 times
 * its length; a kernel without the figure gets the plain wall time.  The
 * kernel adds a wait as it ends, so a runnable child past its deadline
 * gets up to 0.1 s more for a wait still going on.  A tool's guard sees
 * the wait of its first process only.
 *
 * A tool's children (gcc's cc1, as, ld) share its process group and are
 * killed with it when it ends or is stopped; a confined tool (spec->view)
 * is the first process of its own PID namespace, which the kernel empties
 * when it ends.  The parent-death signal
 * follows the thread that called sbx_start(): a child outlives no judge,
 * but a program that starts children from a thread must keep that thread
 * until they end.
 *
 * The library keeps no global state and installs no signal handlers.  Callers
 * must ignore SIGPIPE: a child may close its pipes at any time.
 */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "judge/base/error.h"

enum sbx_profile {
	SBX_PLAYER, /* seccomp allow-list: compute, allocate, talk over pipes */
	SBX_TOOL,   /* trusted tool (the compiler): limits and uid, no filter */
};

enum sbx_verdict {
	SBX_RUNNING,
	SBX_EXITED,    /* exited by itself; see exit_status */
	SBX_SIGNALED,  /* killed by a signal it got or raised (a crash) */
	SBX_FORBIDDEN, /* made a system call outside the allow-list */
	SBX_CPU,       /* CPU budget exceeded */
	SBX_MEMORY,    /* memory limit exceeded */
	SBX_WALL,      /* blocked or slept past the wall-clock guard */
	SBX_OUTPUT,    /* wrote more than its output limit */
	SBX_STOPPED,   /* stopped by the caller (sbx_stop), e.g. protocol error */
	SBX_SETUP,     /* could not be started; see message */
};

struct sbx_limits {
	uint64_t cpu_ns;       /* CPU budget, user + system */
	uint64_t wall_ns;      /* wall-clock guard, re-armed by sbx_arm_wall */
	uint64_t wall_budget_ns; /* the time the guard counted, summed over
				    every arming (what a caller waited for it
				    in all, but the waits for a CPU);
				    0: no budget */
	uint64_t memory_bytes; /* address space */
	uint64_t stack_bytes;  /* 0: 15/16 of memory_bytes */
	uint64_t output_bytes; /* RLIMIT_FSIZE for tools; players get 0 */
	uint64_t stderr_bytes; /* stderr kept; the rest is read and dropped */
	unsigned open_files;   /* RLIMIT_NOFILE; 0: 16 */
};

/* What a confined tool sees of the filesystem: nothing but these paths,
 * at the same places as on the host; no /etc, /home, /var, /proc, /tmp.
 * The child gets its own mount, PID, network (no interface but a down
 * loopback), IPC and UTS namespaces, and a user namespace when the caller
 * is not root.  `root` is an empty directory of the caller's on which the
 * view is built (a small read-only tmpfs is mounted there, in the child's
 * namespace only).  Read-only paths that are symbolic links on the host
 * (/lib -> usr/lib) are the same links in the view; missing ones are left
 * out.  /dev/null is there too. */
struct sbx_view {
	const char *root;
	const char *const *readonly; /* NULL-terminated absolute paths */
	const char *writable;        /* one directory, read-write, no exec; or NULL */
};

/* The descriptor a child gets sbx_spec.shared_fd as: a memory region its
 * caller shares with it (a player's messages, judge/play/seat.c). */
#define SBX_FD_SHARED 3

struct sbx_spec {
	const char *path;         /* the binary (static, for players) */
	const char *const *argv;  /* NULL: { path }; a player's argv[0] is
				     always "player" */
	const char *const *envp;  /* tools only; players get none */
	const char *workdir;      /* tools only; players run in "/" */
	int stdin_fd, stdout_fd;  /* become the child's 0 and 1; the caller
				   keeps (and closes) its own copies */
	int shared_fd;            /* > 0: becomes the child's SBX_FD_SHARED,
				   open across its exec (the caller keeps its
				   copy); 0: none */
	uid_t uid;                /* 0: keep the caller's identity */
	gid_t gid;
	const struct sbx_view *view; /* tools only; NULL: the host's view */
};

struct sbx_result {
	enum sbx_verdict verdict;
	int exit_status;      /* valid for SBX_EXITED */
	int signal;           /* the signal that ended it, or 0 */
	char detail[48];      /* the forbidden call, the signal's name */
	char message[200];    /* one sentence a contestant understands */
	uint64_t cpu_ns;
	uint64_t tree_cpu_ns; /* with the descendants it waited for (a tool's) */
	uint64_t wall_ns;
	uint64_t peak_memory; /* bytes, resident high-water mark */
	const char *log;      /* captured stderr, NUL-terminated; owned by
				 the process, gone after sbx_free */
	size_t log_len;
	size_t log_dropped;   /* stderr bytes read beyond the cap */
	unsigned asked;       /* system calls the judge was asked about (its
				 exec, growth past what the filter lets
				 through, its exit...): each a round trip */
};

struct sbx_policy;
struct sbx_proc;

/* Compiles the filter for `profile` and `lim` once; reuse it for every
 * launch with the same memory limit.  NULL on error, with err filled. */
struct sbx_policy *sbx_policy_new(enum sbx_profile profile,
				  const struct sbx_limits *lim,
				  err_t err);
void sbx_policy_free(struct sbx_policy *pol);

/* Players started under pol run as SCHED_BATCH: waking one (sending it a
 * message) does not take the CPU from the judge, which sends every seat
 * its message first and then gives up the CPU once, and the players run
 * one after the other: on one CPU, five switches a round of four instead
 * of up to eight.  Their CPU time and weight are those of any process.
 * For a judge that waits for one player at a time it only delays each
 * answer; tools are never started so. */
void sbx_policy_set_batch(struct sbx_policy *pol);

/* Starts spec->path under pol.  Returns the running process, or NULL with
 * err filled when the judge itself failed (fork, pipes).  A binary that
 * cannot run (not static, too big, exec failed) yields a process already
 * ended with verdict SBX_SETUP or SBX_MEMORY. */
struct sbx_proc *sbx_start(const struct sbx_policy *pol,
			   const struct sbx_spec *spec, err_t err);

pid_t sbx_pid(const struct sbx_proc *p);
bool sbx_running(const struct sbx_proc *p);

/* The library acts only when called: a child that stops itself, blocks or
 * overruns is noticed by the next sbx_service() (or sbx_wait_fd, or
 * sbx_finish), so a caller waiting on a child services it.
 *
 * For callers that run their own poll loop: the descriptors to watch
 * (at most SBX_POLLFDS), and how long (ns) until a limit may fire, or -1
 * once the process has ended.  Call sbx_service() after each wakeup. */
#define SBX_POLLFDS 3
int sbx_pollfds(const struct sbx_proc *p, struct pollfd *fds);
/* The same for a caller that polls the process's only copy of a pipe's
 * write end (its stdout) and reads it to the end: the process's end
 * closes that pipe, so its pidfd is left out (one wait fewer per poll;
 * the caller then learns of the end from the pipe and waits for it, e.g.
 * with sbx_wait_end). */
int sbx_pollfds_with_output(const struct sbx_proc *p, struct pollfd *fds);
int64_t sbx_timeout_ns(const struct sbx_proc *p);

/* Handles what is pending: a system call waiting for a decision, stderr,
 * the end of the process, the CPU budget and wall guard.  Never blocks.
 * Returns true while the process runs. */
bool sbx_service(struct sbx_proc *p);

/* The same, cheaper: acts only on the descriptors that poll() marked in
 * fds (as filled by sbx_pollfds) and on limits whose time has come, so a
 * child with nothing pending costs no system call. */
bool sbx_service_polled(struct sbx_proc *p, const struct pollfd *fds, int n);
/* The same for a process whose answer the caller has read whole, by `now`
 * (sbx_now_ns(); 0: read it here): its limits are checked and its wall
 * guard disarmed (sbx_arm_wall(p, 0)) as of that one reading, which a
 * runner serving several seats at once takes once for them all. */
bool sbx_service_answered(struct sbx_proc *p, const struct pollfd *fds, int n, uint64_t now);

/* The monotonic clock the guards count with, in ns. */
uint64_t sbx_now_ns(void);

/* Waits until fd has `events`, the process ends, or timeout_ns passes
 * (negative: no timeout), servicing the process meanwhile.
 * Returns 1 when fd is ready, 0 on timeout, -1 when the process has ended. */
int sbx_wait_fd(struct sbx_proc *p, int fd, short events, int64_t timeout_ns);

/* Waits at most timeout_ns for the process to end by itself, servicing
 * it; true when it has ended. */
bool sbx_wait_end(struct sbx_proc *p, uint64_t timeout_ns);

uint64_t sbx_cpu_ns(const struct sbx_proc *p);
/* Resident high-water mark in bytes; reads /proc while it runs. */
uint64_t sbx_peak_memory(struct sbx_proc *p);

/* The wall-clock guard expires when wall_ns from now have been counted
 * (the runner re-arms it each turn; time waiting for a CPU does not count),
 * or sooner when the wall budget runs out first; the time counted until
 * the next arming counts against the budget.  0 disarms the guard: the
 * caller no longer waits for the process, and the budget stops running. */
void sbx_arm_wall(struct sbx_proc *p, uint64_t wall_ns);
/* The same as of `now` (sbx_now_ns()), read once by a caller that arms
 * several processes at one instant. */
void sbx_arm_wall_at(struct sbx_proc *p, uint64_t wall_ns, uint64_t now);

/* A CPU budget for one step of the caller's (a game's turn): from now on
 * the process may use step_ns of CPU, then it is stopped with SBX_CPU and
 * the message SBX_STEP_CPU_MESSAGE (`step` names the step: "one turn"; it
 * is kept, not copied, so it must last until the next arming: a literal).
 * It holds, besides the whole budget, until the next arming; 0 disarms.
 * Enforced while the caller services the process, like the whole budget.
 * The step starts at CPU clock from_cpu, a value sbx_cpu_ns() returned
 * (the caller's last read, so that a runner reads each clock once a turn),
 * or SBX_CPU_NOW to read it now; returns where the step starts. */
#define SBX_CPU_NOW UINT64_MAX
uint64_t sbx_arm_cpu(struct sbx_proc *p, uint64_t step_ns, const char *step, uint64_t from_cpu);
/* printf format of that message: CPU used (s), the step, the budget (s). */
#define SBX_STEP_CPU_MESSAGE "used %.3f s of CPU for %s; the limit is %.3f s"

/* Freezes the process for good: kills it and records the verdict (the
 * first verdict wins) with a message for the contestant. */
void sbx_stop(struct sbx_proc *p, enum sbx_verdict v, const char *message);

/* Waits for the end (killing it if the wall guard fires), reaps it and
 * returns the result, owned by p. */
const struct sbx_result *sbx_finish(struct sbx_proc *p);

/* Kills the process if it still runs, reaps it, frees everything. */
void sbx_free(struct sbx_proc *p);

/* A uid (and gid of the same number) for one running player, held by a
 * lock file under SBX_UID_LOCK_DIR so that concurrent players, even of
 * different judge processes on this machine, never share one.  The claim
 * ends with sbx_uid_release() or with the process that holds it. */
#define SBX_UID_LOCK_DIR "/run/lock/judge-sandbox"
struct sbx_uid {
	uid_t uid;
	int fd;
};
/* Claims the first free uid of [base, base + count).  Returns 0, or -1
 * with err filled when every one is taken or the lock directory fails. */
int sbx_uid_claim(uid_t base, unsigned count, struct sbx_uid *out, err_t err);
void sbx_uid_release(struct sbx_uid *u);

const char *sbx_verdict_name(enum sbx_verdict v);

/* "SIGSEGV" for 11; "signal N" for unknown ones.  buf has room for 16. */
const char *sbx_signal_name(int sig, char buf[16]);

#endif
