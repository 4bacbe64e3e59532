/* launch.c - start the child, set it up, and execute the binary once.
 *
 * Like posix_spawn, the child shares our memory (CLONE_VM) on a stack of its
 * own until it executes the binary: no page tables to copy, no copy-on-write
 * faults, which is most of what fork costs.  So between clone and exec the
 * child makes only raw system calls (no errno, no locks, no allocation: they
 * would touch the parent's state) and only reads the plan.  It reports a
 * failed step over a close-on-exec pipe; end of file on that pipe means the
 * exec succeeded.  For players the exec itself goes through the seccomp
 * listener, so the parent holds the listener before any player code runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/internal.h"

enum child_step { STEP_FDS = 1, STEP_VIEW, STEP_DIR, STEP_RLIMIT, STEP_IDENTITY, STEP_PARENT,
		  STEP_SCHED, STEP_NNP, STEP_LAYOUT, STEP_SECCOMP, STEP_EXEC };

static const char *const step_names[] = {
	[STEP_FDS] = "arranging descriptors", [STEP_VIEW] = "confining its view of the files",
	[STEP_DIR] = "changing directory",
	[STEP_RLIMIT] = "setting limits", [STEP_IDENTITY] = "switching user",
	[STEP_PARENT] = "parent-death signal", [STEP_SCHED] = "choosing its scheduling class",
	[STEP_NNP] = "no_new_privs", [STEP_LAYOUT] = "fixing its address layout",
	[STEP_SECCOMP] = "installing the seccomp filter", [STEP_EXEC] = "exec",
};

struct sync_msg {
	int32_t step; /* 0: the listener's descriptor number follows */
	int32_t value; /* errno, or the listener's number */
};

/* Everything the child needs, prepared before clone. */
struct child_plan {
	int src[SBX_CHILD_FDS]; /* become 0, 1, 2, SBX_FD_SHARED (-1: none),
				   SBX_FD_EXEC, SBX_FD_SYNC */
	int nres;
	int res[8];
	struct rlimit rl[8];
	bool switch_id;
	bool batch;
	uid_t uid;
	gid_t gid;
	const struct sock_fprog *prog;
	const char *workdir;
	const struct view_plan *view; /* tools only: confined */
	const char *const *argv;
	const char *const *envp;
	pid_t parent;
};

static void add_rlimit(struct child_plan *c, int res, uint64_t v)
{
	c->res[c->nres] = res;
	c->rl[c->nres++] = (struct rlimit){ v, v };
}

static void plan_rlimits(struct child_plan *c, const struct sbx_policy *pol)
{
	const struct sbx_limits *l = &pol->lim;
	/* CPU is a backstop (the parent enforces the budget to the
	 * millisecond); soft = hard so the kernel sends SIGKILL, which cannot
	 * be caught, rather than SIGXCPU, which can. */
	add_rlimit(c, RLIMIT_CPU, l->cpu_ns ? (l->cpu_ns + 999999999) / 1000000000 + 1
					    : RLIM_INFINITY);
	add_rlimit(c, RLIMIT_AS, l->memory_bytes ? l->memory_bytes : RLIM_INFINITY);
	add_rlimit(c, RLIMIT_STACK, l->stack_bytes ? l->stack_bytes : RLIM_INFINITY);
	add_rlimit(c, RLIMIT_CORE, 0);
	add_rlimit(c, RLIMIT_FSIZE, pol->profile == SBX_PLAYER ? 0 :
		   l->output_bytes ? l->output_bytes : RLIM_INFINITY);
	add_rlimit(c, RLIMIT_NOFILE, l->open_files);
	add_rlimit(c, RLIMIT_MEMLOCK, 0);
}

#define CHILD_STACK (64 * 1024)

static CHILD_FN _Noreturn void child_fail(int fd, enum child_step step, long err)
{
	struct sync_msg m = { step, (int32_t)-err };
	raw(SYS_write, fd, (long)&m, sizeof m, 0, 0);
	raw(SYS_exit_group, 127, 0, 0, 0, 0);
	__builtin_unreachable();
}

/* Moves the descriptors into place and closes every other one (a slot
 * without a source too: the child starts with copies of all of ours).
 * They are first copied above 10, so no source is overwritten by a target. */
static CHILD_FN long child_fds(const struct child_plan *c)
{
	long tmp[SBX_CHILD_FDS], r;
	for (int i = 0; i < SBX_CHILD_FDS; i++)
		if (c->src[i] >= 0 &&
		    (tmp[i] = raw(SYS_fcntl, c->src[i], F_DUPFD_CLOEXEC, 10, 0, 0)) < 0)
			return tmp[i];
	for (int i = 0; i < SBX_CHILD_FDS; i++) {
		r = c->src[i] < 0 ? raw(SYS_close, i, 0, 0, 0, 0)
				  : raw(SYS_dup3, tmp[i], i, i >= SBX_FD_EXEC ? O_CLOEXEC : 0, 0, 0);
		if (r < 0 && c->src[i] >= 0)
			return r;
	}
	return raw(SYS_close_range, SBX_CHILD_FDS, ~0U, 0, 0, 0);
}

/* The parent's handlers must not run here, on our stack, and the player
 * starts with every signal at its default and none blocked. */
static CHILD_FN void child_signals(void)
{
	struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } dfl = { 0 };
	for (long sig = 1; sig <= 64; sig++)
		raw(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0);
	uint64_t none = 0;
	raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, 8, 0);
}

static CHILD_FN long child_identity(const struct child_plan *c)
{
	long r = raw(SYS_setgroups, 0, 0, 0, 0, 0);
	r = r ? r : raw(SYS_setresgid, c->gid, c->gid, c->gid, 0, 0);
	r = r ? r : raw(SYS_setresuid, c->uid, c->uid, c->uid, 0, 0);
	/* Players may not create processes (the filter says so too); tools
	 * such as gcc must, for cc1, as and ld, one at a time, and a few
	 * more are room enough.  The count is per uid: the tool's is its own. */
	struct rlimit procs = { c->prog ? 0 : 16, c->prog ? 0 : 16 };
	if (r)
		return r;
	return raw(SYS_prlimit64, 0, RLIMIT_NPROC, (long)&procs, 0, 0);
}

static CHILD_FN long child_limits(const struct child_plan *c)
{
	long r = 0;
	for (int i = 0; i < c->nres && !r; i++)
		r = raw(SYS_prlimit64, 0, c->res[i], (long)&c->rl[i], 0, 0);
	return r;
}

static CHILD_FN int child_main(void *arg)
{
	const struct child_plan *c = arg;
	long r;
	child_signals();
	if ((r = child_fds(c)) < 0)
		child_fail(c->src[SBX_FD_SYNC], STEP_FDS, r); /* the sync pipe is not in place */
	raw(SYS_setsid, 0, 0, 0, 0, 0);
	if (c->view && (r = sbx_view_enter(c->view)) < 0)
		child_fail(SBX_FD_SYNC, STEP_VIEW, r);
	if ((r = raw(SYS_chdir, (long)(c->workdir ? c->workdir : "/"), 0, 0, 0, 0)) < 0)
		child_fail(SBX_FD_SYNC, STEP_DIR, r);
	if ((r = child_limits(c)) < 0)
		child_fail(SBX_FD_SYNC, STEP_RLIMIT, r);
	if (c->switch_id && (r = child_identity(c)) < 0)
		child_fail(SBX_FD_SYNC, STEP_IDENTITY, r);
	/* After the identity change, which clears it.  In a PID namespace of
	 * its own the child's parent is outside it, and reads as 0. */
	if ((r = raw(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)) < 0 ||
	    raw(SYS_getppid, 0, 0, 0, 0, 0) != c->parent)
		child_fail(SBX_FD_SYNC, STEP_PARENT, r ? r : -ESRCH);
	struct sched_param no_priority = { 0 };
	if (c->batch && (r = raw(SYS_sched_setscheduler, 0, SCHED_BATCH, (long)&no_priority, 0,
				 0)) < 0)
		child_fail(SBX_FD_SYNC, STEP_SCHED, r);
	if ((r = raw(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) < 0)
		child_fail(SBX_FD_SYNC, STEP_NNP, r);
	/* A player's addresses are the same at every run: its heap starts
	 * where the filter expects it (prefix.c), and a program that prints
	 * or hashes its pointers replays alike.  It protects nothing of the
	 * judge's, which lives in another address space. */
	if (c->prog && (r = raw(SYS_personality, ADDR_NO_RANDOMIZE, 0, 0, 0, 0)) < 0)
		child_fail(SBX_FD_SYNC, STEP_LAYOUT, r);
	if (c->prog) {
		long lfd = raw(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			       SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)c->prog, 0, 0);
		if (lfd < 0)
			child_fail(SBX_FD_SYNC, STEP_SECCOMP, lfd);
		struct sync_msg m = { 0, (int32_t)lfd };
		raw(SYS_write, SBX_FD_SYNC, (long)&m, sizeof m, 0, 0);
	}
	r = raw(SYS_execveat, SBX_FD_EXEC, (long)"", (long)c->argv, (long)c->envp, AT_EMPTY_PATH);
	child_fail(SBX_FD_SYNC, STEP_EXEC, r);
}

/* Reads one set-up message; 0 at end of file (the exec succeeded). */
static int read_sync(int fd, struct sync_msg *m)
{
	ssize_t n;
	do
		n = read(fd, m, sizeof *m);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return 0;
	return n == sizeof *m ? 1 : -1;
}

static void setup_failed(struct sbx_proc *p, const struct sync_msg *m)
{
	p->res.verdict = SBX_SETUP;
	const char *step = m->step > 0 && m->step <= STEP_EXEC ? step_names[m->step] : "set-up";
	if (m->step == STEP_EXEC && m->value == ENOMEM) {
		p->res.verdict = SBX_MEMORY;
		snprintf(p->res.message, sizeof p->res.message,
			 "memory limit exceeded: the program does not fit in %llu MiB",
			 (unsigned long long)(p->lim.memory_bytes >> 20));
		return;
	}
	snprintf(p->res.message, sizeof p->res.message,
		 "could not start the program (%s: %s)", step, strerror(m->value));
}

/* After fork: wait for the child's exec, or learn why it failed.  Returns
 * -1 only when the judge itself failed. */
static int parent_handshake(struct sbx_proc *p, int syncfd, bool player,
			    err_t err)
{
	struct sync_msg m;
	int r = read_sync(syncfd, &m);
	if (player && r == 1 && m.step == 0) {
		p->listener = syscall(SYS_pidfd_getfd, p->pidfd, m.value, 0);
		if (p->listener < 0) {
			err_set(err, "sandbox: cannot take the seccomp listener: %s",
				strerror(errno));
			return -1;
		}
		if (sbx_notify_exec(p, err) < 0)
			return -1;
		r = read_sync(syncfd, &m);
	}
	if (r == 0 && (!player || p->listener >= 0))
		return 0;
	if (r != 1 || m.step == 0)
		m = (struct sync_msg){ STEP_EXEC, EPROTO };
	setup_failed(p, &m);
	return 0;
}

static void plan_child(struct child_plan *c, const struct sbx_policy *pol,
		       const struct sbx_spec *spec, const struct view_plan *view,
		       const struct sock_fprog *prog, int execfd, int errw, int syncw)
{
	static const char *const no_env[] = { NULL };
	*c = (struct child_plan){
		.src = { spec->stdin_fd, spec->stdout_fd, errw,
			 spec->shared_fd > 0 ? spec->shared_fd : -1, execfd, syncw },
		.uid = spec->uid,
		.gid = spec->gid,
		.switch_id = spec->uid != 0 && geteuid() == 0,
		.batch = pol->batch,
		.prog = prog,
		.workdir = pol->profile == SBX_TOOL ? spec->workdir : NULL,
		.view = view,
		.argv = spec->argv,
		.envp = pol->profile == SBX_TOOL && spec->envp ? spec->envp : no_env,
		.parent = view ? 0 : getpid(),
	};
	plan_rlimits(c, pol);
}

static int open_binary(struct sbx_proc *p, const struct sbx_policy *pol,
		       const struct sbx_spec *spec, uint64_t *heap_start)
{
	*heap_start = 0;
	int fd = open(spec->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		p->res.verdict = SBX_SETUP;
		snprintf(p->res.message, sizeof p->res.message, "cannot open %s: %s",
			 spec->path, strerror(errno));
		return -1;
	}
	if (pol->profile == SBX_PLAYER && sbx_elf_check(fd, &pol->lim, &p->res, heap_start) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Signals stay blocked in this thread from before clone until the child
 * has reset its handlers, so none of ours runs on the child's stack. */
static int spawn_child(struct sbx_proc *p, struct child_plan *plan, err_t err)
{
	p->stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p->stack == MAP_FAILED) {
		p->stack = NULL;
		err_set(err, "sandbox: cannot map the child's stack: %s", strerror(errno));
		return -1;
	}
	struct rusage self;
	getrusage(RUSAGE_SELF, &self);
	p->inherited_rss = (uint64_t)self.ru_maxrss * 1024;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->start_ns = sbx_now_ns();
	/* The guard counts from here, as the wall time it is compared with. */
	sbx_arm_wall(p, p->lim.wall_ns);
	int flags = CLONE_VM | CLONE_PIDFD | SIGCHLD;
	if (plan->view)
		flags |= CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
			 CLONE_NEWCGROUP | (plan->view->own_user ? CLONE_NEWUSER : 0);
	p->pid = clone(child_main, (char *)p->stack + CHILD_STACK, flags, plan, &p->pidfd);
	int saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (p->pid < 0 && plan->view) {
		err_set(err, "sandbox: cannot confine the tool: the kernel refused "
			"new namespaces (%s)", strerror(saved));
		return -1;
	}
	if (p->pid < 0) {
		err_set(err, "sandbox: clone: %s", strerror(saved));
		return -1;
	}
	if (clock_getcpuclockid(p->pid, &p->cpuclock) != 0) {
		err_set(err, "sandbox: no CPU clock for the child");
		return -1;
	}
	return 0;
}

/* A player's arguments say nothing of the host: argv[0] is "player", not
 * the path of its binary in the compile cache; the caller's further
 * arguments (`judge sandbox run BINARY ARGS...`) follow.  Its environment
 * is empty (plan_child).  NULL when out of memory. */
static const char **player_argv(const struct sbx_spec *spec)
{
	size_t n = 1;
	while (spec->argv && spec->argv[0] && spec->argv[n])
		n++;
	const char **v = calloc(n + 1, sizeof *v);
	if (!v)
		return NULL;
	v[0] = "player";
	for (size_t i = 1; i < n; i++)
		v[i] = spec->argv[i];
	return v;
}

/* A player's filter for this launch (prefix.c). */
static int player_program(struct sbx_proc *p, const struct sbx_policy *pol,
			  const struct sbx_spec *spec, uint64_t heap_start, struct sock_fprog *prog)
{
	struct stat st;
	uint64_t shared = 0;
	if (spec->shared_fd > 0 && fstat(spec->shared_fd, &st) == 0 && st.st_size > 0)
		shared = (uint64_t)st.st_size;
	p->heap_start = sbx_heap_unasked(heap_start, &pol->lim);
	return sbx_launch_program(pol, p->heap_start, shared, prog);
}

struct sbx_proc *sbx_start(const struct sbx_policy *pol, const struct sbx_spec *spec,
			   err_t err)
{
	struct sbx_proc *p = sbx_proc_new(&pol->lim);
	if (!p) {
		err_set(err, "sandbox: out of memory");
		return NULL;
	}
	uint64_t heap_start;
	int execfd = open_binary(p, pol, spec, &heap_start);
	if (execfd < 0) {
		p->reaped = true; /* never started; res holds the verdict */
		return p;
	}
	const char *default_argv[] = { spec->path, NULL };
	struct sbx_spec s = *spec;
	if (!s.argv)
		s.argv = default_argv;

	int errpipe[2] = { -1, -1 }, syncpipe[2] = { -1, -1 };
	struct child_plan plan;
	struct view_plan view = { 0 };
	bool confined = pol->profile == SBX_TOOL && spec->view;
	const char **own_argv = NULL;
	struct sock_fprog prog = { 0, NULL };
	int rc = -1;
	if (confined && sbx_view_plan(spec->view, &view, err) < 0)
		goto out;
	if (pol->profile == SBX_PLAYER &&
	    (!(s.argv = own_argv = player_argv(spec)) ||
	     player_program(p, pol, spec, heap_start, &prog) < 0)) {
		err_set(err, "sandbox: out of memory");
		goto out;
	}
	if (pipe2(errpipe, O_CLOEXEC) < 0 || pipe2(syncpipe, O_CLOEXEC) < 0) {
		err_set(err, "sandbox: pipe: %s", strerror(errno));
		goto out;
	}
	plan_child(&plan, pol, &s, confined ? &view : NULL, prog.filter ? &prog : NULL, execfd,
		   errpipe[1], syncpipe[1]);
	if (spawn_child(p, &plan, err) < 0)
		goto out;
	close(errpipe[1]);
	close(syncpipe[1]);
	errpipe[1] = syncpipe[1] = -1;
	p->errfd = errpipe[0];
	errpipe[0] = -1;
	fcntl(p->errfd, F_SETFL, O_NONBLOCK);
	rc = parent_handshake(p, syncpipe[0], pol->profile == SBX_PLAYER, err);
	if (p->res.verdict != SBX_RUNNING)
		p->killed = true; /* the child has exited or is exiting */
out:
	for (int i = 0; i < 2; i++) {
		if (errpipe[i] >= 0)
			close(errpipe[i]);
		if (syncpipe[i] >= 0)
			close(syncpipe[i]);
	}
	close(execfd);
	sbx_view_plan_free(&view);
	free(own_argv); /* the child has executed the binary or given up */
	free(prog.filter);
	if (rc < 0) {
		sbx_free(p);
		return NULL;
	}
	return p;
}
