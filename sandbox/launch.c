/* launch.c - fork the child, set it up, and execute the binary once.
 *
 * The child runs only system calls between fork and exec (the parent may
 * have threads, so nothing that allocates or takes a lock).  It reports a
 * failed step over a close-on-exec pipe; end of file on that pipe means the
 * exec succeeded.  For players the exec itself goes through the seccomp
 * listener, so the parent holds the listener before any player code runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/internal.h"

enum child_step { STEP_FDS = 1, STEP_DIR, STEP_RLIMIT, STEP_IDENTITY, STEP_PARENT,
		  STEP_NNP, STEP_SECCOMP, STEP_EXEC };

static const char *const step_names[] = {
	[STEP_FDS] = "arranging descriptors", [STEP_DIR] = "changing directory",
	[STEP_RLIMIT] = "setting limits", [STEP_IDENTITY] = "switching user",
	[STEP_PARENT] = "parent-death signal", [STEP_NNP] = "no_new_privs",
	[STEP_SECCOMP] = "installing the seccomp filter", [STEP_EXEC] = "exec",
};

struct sync_msg {
	int32_t step; /* 0: the listener's descriptor number follows */
	int32_t value; /* errno, or the listener's number */
};

/* Everything the child needs, prepared before fork. */
struct child_plan {
	int src[5]; /* become 0, 1, 2, SBX_FD_EXEC, SBX_FD_SYNC */
	int nres;
	int res[8];
	struct rlimit rl[8];
	bool switch_id;
	uid_t uid;
	gid_t gid;
	const struct sock_fprog *prog;
	const char *workdir;
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

static _Noreturn void child_fail(enum child_step step, int err)
{
	struct sync_msg m = { step, err };
	(void)!write(SBX_FD_SYNC, &m, sizeof m);
	_exit(127);
}

/* Moves the five descriptors into place and closes every other one.  They
 * are first copied above 10, so no source is overwritten by a target. */
static int child_fds(const struct child_plan *c)
{
	int tmp[5];
	for (int i = 0; i < 5; i++)
		if ((tmp[i] = fcntl(c->src[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -1;
	for (int i = 0; i < 5; i++)
		if (dup3(tmp[i], i, i >= SBX_FD_EXEC ? O_CLOEXEC : 0) < 0)
			return -1;
	return syscall(SYS_close_range, 5, ~0U, 0);
}

static int child_identity(const struct child_plan *c)
{
	/* Raw calls: they change only this thread, which is all there is. */
	if (syscall(SYS_setgroups, 0, NULL) || syscall(SYS_setresgid, c->gid, c->gid, c->gid) ||
	    syscall(SYS_setresuid, c->uid, c->uid, c->uid))
		return -1;
	struct rlimit none = { 0, 0 };
	return setrlimit(RLIMIT_NPROC, &none);
}

static _Noreturn void child_main(const struct child_plan *c)
{
	if (child_fds(c) < 0) {
		/* The sync pipe may not be in place yet; write where it was. */
		struct sync_msg m = { STEP_FDS, errno };
		(void)!write(c->src[4], &m, sizeof m);
		_exit(127);
	}
	setsid();
	if (chdir(c->workdir ? c->workdir : "/") < 0)
		child_fail(STEP_DIR, errno);
	for (int i = 0; i < c->nres; i++)
		if (setrlimit(c->res[i], &c->rl[i]) < 0)
			child_fail(STEP_RLIMIT, errno);
	if (c->switch_id && child_identity(c) < 0)
		child_fail(STEP_IDENTITY, errno);
	/* After the identity change, which clears it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != c->parent)
		child_fail(STEP_PARENT, errno);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(STEP_NNP, errno);
	if (c->prog) {
		int lfd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER, c->prog);
		if (lfd < 0)
			child_fail(STEP_SECCOMP, errno);
		struct sync_msg m = { 0, lfd };
		if (write(SBX_FD_SYNC, &m, sizeof m) != sizeof m)
			_exit(127);
	}
	syscall(SYS_execveat, SBX_FD_EXEC, "", c->argv, c->envp, AT_EMPTY_PATH);
	child_fail(STEP_EXEC, errno);
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
			    char err[SBX_ERRLEN])
{
	struct sync_msg m;
	int r = read_sync(syncfd, &m);
	if (player && r == 1 && m.step == 0) {
		p->listener = syscall(SYS_pidfd_getfd, p->pidfd, m.value, 0);
		if (p->listener < 0) {
			snprintf(err, SBX_ERRLEN, "sandbox: cannot take the seccomp listener: %s",
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
		       const struct sbx_spec *spec, int execfd, int errw, int syncw)
{
	static const char *const no_env[] = { NULL };
	*c = (struct child_plan){
		.src = { spec->stdin_fd, spec->stdout_fd, errw, execfd, syncw },
		.uid = spec->uid,
		.gid = spec->gid,
		.switch_id = spec->uid != 0 && geteuid() == 0,
		.prog = pol->profile == SBX_PLAYER ? &pol->prog : NULL,
		.workdir = pol->profile == SBX_TOOL ? spec->workdir : NULL,
		.argv = spec->argv,
		.envp = pol->profile == SBX_TOOL && spec->envp ? spec->envp : no_env,
		.parent = getpid(),
	};
	plan_rlimits(c, pol);
}

static int open_binary(struct sbx_proc *p, const struct sbx_policy *pol,
		       const struct sbx_spec *spec)
{
	int fd = open(spec->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		p->res.verdict = SBX_SETUP;
		snprintf(p->res.message, sizeof p->res.message, "cannot open %s: %s",
			 spec->path, strerror(errno));
		return -1;
	}
	if (pol->profile == SBX_PLAYER && sbx_elf_check(fd, &pol->lim, &p->res) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int fork_child(struct sbx_proc *p, const struct child_plan *plan, char err[SBX_ERRLEN])
{
	p->start_ns = sbx_now_ns();
	p->pid = fork();
	if (p->pid == 0)
		child_main(plan);
	if (p->pid < 0) {
		snprintf(err, SBX_ERRLEN, "sandbox: fork: %s", strerror(errno));
		return -1;
	}
	p->pidfd = syscall(SYS_pidfd_open, p->pid, 0);
	if (p->pidfd < 0 || clock_getcpuclockid(p->pid, &p->cpuclock) != 0) {
		snprintf(err, SBX_ERRLEN, "sandbox: pidfd_open: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct sbx_proc *sbx_start(const struct sbx_policy *pol, const struct sbx_spec *spec,
			   char err[SBX_ERRLEN])
{
	struct sbx_proc *p = sbx_proc_new(&pol->lim);
	if (!p) {
		snprintf(err, SBX_ERRLEN, "sandbox: out of memory");
		return NULL;
	}
	int execfd = open_binary(p, pol, spec);
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
	int rc = -1;
	if (pipe2(errpipe, O_CLOEXEC) < 0 || pipe2(syncpipe, O_CLOEXEC) < 0) {
		snprintf(err, SBX_ERRLEN, "sandbox: pipe: %s", strerror(errno));
		goto out;
	}
	plan_child(&plan, pol, &s, execfd, errpipe[1], syncpipe[1]);
	if (fork_child(p, &plan, err) < 0)
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
	if (rc < 0) {
		sbx_free(p);
		return NULL;
	}
	return p;
}
