/* proc.c - watch a running child: CPU, memory, stderr, limits, its end. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/internal.h"

#define NS 1000000000ULL
/* /proc/PID/schedstat is read at most this often (ns) for one process. */
#define QUEUE_REREAD_NS (5 * 1000000ULL)
/* Waiting for a CPU stretches a guard to at most this many times its
 * length: a process the machine never runs must not hold the judge. */
#define WALL_STRETCH_MAX 10
/* The kernel adds a wait for a CPU to the figure as the wait ends: one
 * still going on is missing.  A runnable process past its deadline gets
 * this long (ns) for it to show up. */
#define RUNNABLE_GRACE_NS (100 * 1000000ULL)

uint64_t sbx_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + ts.tv_nsec;
}

struct sbx_proc *sbx_proc_new(const struct sbx_limits *lim)
{
	struct sbx_proc *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->lim = *lim;
	p->pid = -1;
	p->pidfd = p->listener = p->errfd = p->statm_fd = p->schedstat_fd = -1;
	p->log_cap = lim->stderr_bytes;
	p->log = calloc(1, p->log_cap + 1);
	if (!p->log) {
		free(p);
		return NULL;
	}
	p->res.log = p->log;
	p->wall_deadline_ns = UINT64_MAX; /* armed as the child starts (launch.c) */
	p->check_at_ns = 0;
	p->step_cpu_end_ns = UINT64_MAX;
	return p;
}

pid_t sbx_pid(const struct sbx_proc *p)
{
	return p->pid;
}

bool sbx_running(const struct sbx_proc *p)
{
	return !p->reaped;
}

uint64_t sbx_cpu_ns(const struct sbx_proc *p)
{
	struct timespec ts;
	if (p->reaped || p->pid < 0 || clock_gettime(p->cpuclock, &ts) != 0)
		return p->res.cpu_ns;
	return (uint64_t)ts.tv_sec * NS + ts.tv_nsec;
}

/* The time the guard has been armed in all, until now. */
static uint64_t guarded_total(const struct sbx_proc *p, uint64_t now)
{
	return p->guarded_ns + (p->guarded ? now - p->guarded_since_ns : 0);
}

/* What the guard counts of that: the time it was not kept waiting for a
 * CPU (as far as read). */
static uint64_t counted_total(const struct sbx_proc *p, uint64_t now)
{
	return guarded_total(p, now) - p->queued_ns;
}

void sbx_arm_wall_at(struct sbx_proc *p, uint64_t wall_ns, uint64_t now)
{
	/* A caller's reading older than this guard's arming counts nothing. */
	if (p->guarded && now < p->guarded_since_ns)
		now = p->guarded_since_ns;
	p->guarded_ns = guarded_total(p, now);
	p->guarded = wall_ns != 0;
	p->guarded_since_ns = now;
	p->armed_wall_ns = wall_ns;
	p->queued_arming_ns = 0;
	p->wall_deadline_ns = wall_ns ? now + wall_ns : UINT64_MAX;
	uint64_t budget = p->lim.wall_budget_ns, counted = counted_total(p, now);
	if (wall_ns && budget) {
		uint64_t left = budget > counted ? budget - counted : 0;
		if (left < wall_ns)
			p->wall_deadline_ns = now + left;
	}
	if (p->wall_deadline_ns < p->check_at_ns)
		p->check_at_ns = p->wall_deadline_ns;
}

void sbx_arm_wall(struct sbx_proc *p, uint64_t wall_ns)
{
	/* Disarming a guard that is not armed changes nothing: no clock to
	 * read (a runner disarms each seat as it takes its orders). */
	if (!wall_ns && !p->guarded && p->wall_deadline_ns == UINT64_MAX)
		return;
	sbx_arm_wall_at(p, wall_ns, sbx_now_ns());
}

/* The CPU clock value at which a budget runs out: the whole one's or the
 * step's, whichever comes first. */
static uint64_t cpu_end(const struct sbx_proc *p)
{
	uint64_t whole = p->lim.cpu_ns ? p->lim.cpu_ns : UINT64_MAX;
	return whole < p->step_cpu_end_ns ? whole : p->step_cpu_end_ns;
}

/* When the wall guard is looked at next: its deadline, or later when
 * the run-queue wait was read a moment ago. */
static uint64_t wall_check_at(const struct sbx_proc *p)
{
	return p->wall_deadline_ns > p->queue_reread_ns ? p->wall_deadline_ns : p->queue_reread_ns;
}

/* When to read the CPU clock next, given its value cpu at time now: when
 * a budget could run out at the earliest (one CPU's worth of time), or at
 * the wall guard's deadline. */
static void schedule_check(struct sbx_proc *p, uint64_t now, uint64_t cpu)
{
	uint64_t end = cpu_end(p);
	if (cpu >= end) {
		p->check_at_ns = 0; /* already out: the next service says so */
		return;
	}
	uint64_t cpu_left = end == UINT64_MAX ? UINT64_MAX : end - cpu;
	uint64_t next = cpu_left < UINT64_MAX - now ? now + cpu_left : UINT64_MAX;
	uint64_t wall = wall_check_at(p);
	p->check_at_ns = next < wall ? next : wall;
}

uint64_t sbx_arm_cpu(struct sbx_proc *p, uint64_t step_ns, const char *step, uint64_t from_cpu)
{
	uint64_t now = sbx_now_ns(), cpu = from_cpu == SBX_CPU_NOW ? sbx_cpu_ns(p) : from_cpu;
	p->step_cpu_end_ns = step_ns ? cpu + step_ns : UINT64_MAX;
	p->step_cpu_ns = step_ns;
	p->step_name = step ? step : "this step";
	/* From that clock value, not a read at the next service: a runner
	 * arms each player every turn, and each read is a system call. */
	schedule_check(p, now, cpu);
	return cpu;
}

static void step_exceeded(struct sbx_proc *p, uint64_t cpu)
{
	char msg[sizeof p->res.message];
	uint64_t used = cpu - (p->step_cpu_end_ns - p->step_cpu_ns);
	snprintf(msg, sizeof msg, SBX_STEP_CPU_MESSAGE, used / 1e9, p->step_name,
		 p->step_cpu_ns / 1e9);
	sbx_kill(p, SBX_CPU, "", msg);
}

/* The time it has spent runnable but waiting for a CPU, in ns: the
 * second field of /proc/PID/schedstat, which the kernel keeps and the
 * process cannot change.  False where the kernel keeps none (no
 * CONFIG_SCHED_INFO: no file, or zeros). */
static bool run_queue_wait(struct sbx_proc *p, uint64_t *ns)
{
	char buf[128];
	unsigned long long on_cpu, waited;
	if (p->schedstat_fd < 0)
		p->schedstat_fd = sbx_open_proc(p, "schedstat");
	if (sbx_read_text(p->schedstat_fd, buf, sizeof buf) <= 0 ||
	    sscanf(buf, "%llu %llu", &on_cpu, &waited) != 2)
		return false;
	*ns = waited;
	return true;
}

/* Running or waiting for a CPU: state R of /proc/PID/stat. */
static bool runnable(const struct sbx_proc *p)
{
	char buf[SBX_STAT_LEN];
	const char *state = sbx_stat_field(p, 3, buf);
	return state && *state == 'R';
}

/* The guard's deadline has passed: pushes it by the time the process
 * waited for a CPU since the last read (it could not run then), and says
 * whether to wait on: the deadline is ahead again, or the process is
 * runnable and the grace for its current wait has not run out.  Wait from
 * before this arming (a player that computed between turns) cannot be
 * told apart; it is credited at most up to the arming's own time, which
 * it can at most double. */
static bool push_wall_deadline(struct sbx_proc *p, uint64_t now)
{
	uint64_t queued;
	p->queue_reread_ns = now + QUEUE_REREAD_NS;
	if (!run_queue_wait(p, &queued))
		return false;
	uint64_t fresh = queued > p->queued_seen_ns ? queued - p->queued_seen_ns : 0;
	uint64_t room = now - p->guarded_since_ns - p->queued_arming_ns;
	p->queued_seen_ns = queued;
	fresh = fresh < room ? fresh : room;
	p->queued_arming_ns += fresh;
	p->queued_ns += fresh;
	p->wall_deadline_ns += fresh;
	uint64_t ceiling = p->guarded_since_ns + WALL_STRETCH_MAX * p->armed_wall_ns;
	if (p->wall_deadline_ns > ceiling)
		p->wall_deadline_ns = ceiling;
	return now < p->wall_deadline_ns ||
	       (now < p->wall_deadline_ns + RUNNABLE_GRACE_NS && now < ceiling && runnable(p));
}

/* The guard fired: for this wait alone, for the budget of them all, or
 * because the machine left it no CPU for WALL_STRETCH_MAX guards. */
static void wall_exceeded(struct sbx_proc *p, uint64_t now, uint64_t cpu)
{
	char msg[sizeof p->res.message], queued[64] = "";
	uint64_t waited = counted_total(p, now), armed = now - p->guarded_since_ns;
	if (p->queued_arming_ns)
		snprintf(queued, sizeof queued, "; %.3f s waiting for a busy CPU did not count",
			 p->queued_arming_ns / 1e9);
	if (armed >= WALL_STRETCH_MAX * p->armed_wall_ns && p->queued_arming_ns)
		snprintf(msg, sizeof msg,
			 "the machine is overloaded: stopped after %.1f s, %.1f s of it waiting "
			 "for a CPU (wall-clock guard %.3f s)",
			 armed / 1e9, p->queued_arming_ns / 1e9, p->armed_wall_ns / 1e9);
	else if (p->lim.wall_budget_ns && waited >= p->lim.wall_budget_ns)
		snprintf(msg, sizeof msg,
			 "wall-clock budget exceeded: waited for %.1f s of %.1f s in all, while it "
			 "used %.3f s of CPU (the rest blocked or asleep)",
			 waited / 1e9, p->lim.wall_budget_ns / 1e9, cpu / 1e9);
	else
		snprintf(msg, sizeof msg,
			 "blocked or slept past the wall-clock guard of %.3f s, using %.3f s of CPU%s",
			 p->armed_wall_ns / 1e9, cpu / 1e9, queued);
	sbx_kill(p, SBX_WALL, "", msg);
}

/* Keeps the first log_cap bytes of stderr and counts the rest: the child
 * never blocks on a full pipe, and a flood costs us no memory. */
static void drain_stderr(struct sbx_proc *p)
{
	char sink[65536];
	while (p->errfd >= 0) {
		size_t room = p->log_cap - p->res.log_len;
		char *dst = room ? p->log + p->res.log_len : sink;
		ssize_t n = read(p->errfd, dst, room ? room : sizeof sink);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0) {
				close(p->errfd);
				p->errfd = -1;
			}
			return;
		}
		if (room)
			p->res.log_len += n;
		else
			p->res.log_dropped += n;
	}
}

/* Reads the CPU clock (a system call) only when a limit may have fired
 * by `now`, and says when to look next. */
static void check_limits_at(struct sbx_proc *p, uint64_t now)
{
	if (p->killed || now < p->check_at_ns)
		return;
	uint64_t cpu = sbx_cpu_ns(p);
	char msg[sizeof p->res.message];
	if (p->lim.cpu_ns && cpu >= p->lim.cpu_ns) {
		snprintf(msg, sizeof msg, "CPU budget exceeded: used %.3f s of %.3f s",
			 cpu / 1e9, p->lim.cpu_ns / 1e9);
		sbx_kill(p, SBX_CPU, "", msg);
	} else if (cpu >= p->step_cpu_end_ns) {
		step_exceeded(p, cpu);
	} else if (now >= wall_check_at(p) && !push_wall_deadline(p, now)) {
		wall_exceeded(p, now, cpu);
	} else {
		schedule_check(p, now, cpu);
	}
}

static void check_limits(struct sbx_proc *p)
{
	if (!p->killed)
		check_limits_at(p, sbx_now_ns());
}

/* A crash or a failed exit while the program held nearly all its memory
 * is the memory limit at work (malloc returned NULL, the stack could not
 * grow). */
static bool near_memory_limit(const struct sbx_proc *p)
{
	return p->lim.memory_bytes && p->res.peak_memory >= p->lim.memory_bytes / 10 * 9;
}

static void verdict_from_status(struct sbx_proc *p, int status)
{
	struct sbx_result *r = &p->res;
	char sig[16];
	if (WIFEXITED(status)) {
		r->exit_status = WEXITSTATUS(status);
		r->verdict = r->exit_status && near_memory_limit(p) ? SBX_MEMORY : SBX_EXITED;
		snprintf(r->message, sizeof r->message, "exited with status %d", r->exit_status);
	} else {
		r->signal = WTERMSIG(status);
		sbx_signal_name(r->signal, sig);
		snprintf(r->detail, sizeof r->detail, "%s", sig);
		r->verdict = near_memory_limit(p) ? SBX_MEMORY : SBX_SIGNALED;
		if (r->signal == SIGKILL && p->lim.cpu_ns && r->cpu_ns >= p->lim.cpu_ns)
			r->verdict = SBX_CPU;
		if (r->signal == SIGXFSZ)
			r->verdict = SBX_OUTPUT;
		snprintf(r->message, sizeof r->message, "crashed: killed by signal %d (%s)",
			 r->signal, sig);
	}
	if (r->verdict == SBX_MEMORY)
		snprintf(r->message, sizeof r->message,
			 "memory limit exceeded (%llu MiB): it %s after using %llu MiB",
			 (unsigned long long)(p->lim.memory_bytes >> 20),
			 WIFEXITED(status) ? "gave up" : "crashed",
			 (unsigned long long)(r->peak_memory >> 20));
	if (r->verdict == SBX_CPU)
		snprintf(r->message, sizeof r->message, "CPU budget exceeded: used %.3f s of %.3f s",
			 r->cpu_ns / 1e9, p->lim.cpu_ns / 1e9);
	if (r->verdict == SBX_OUTPUT)
		snprintf(r->message, sizeof r->message, "output limit exceeded (%llu bytes)",
			 (unsigned long long)p->lim.output_bytes);
}

/* A sample taken as it exited or was killed is exact.  After a crash only
 * the kernel's maxrss is left, and it also counts the memory the child
 * shared with us before exec (our own peak, which may still have grown a
 * little while it started): above that, with a margin, it is the player's. */
static uint64_t peak_after_death(const struct sbx_proc *p, uint64_t maxrss)
{
	if (p->peak_final || maxrss <= p->inherited_rss + (1 << 20))
		return p->sampled_peak;
	return maxrss;
}

/* The child has exited (the pidfd said so): read its CPU clock while it is
 * a zombie, for nanoseconds, then reap it for the status and rusage. */
static void reap(struct sbx_proc *p, int flags)
{
	siginfo_t si = { 0 };
	if (waitid(P_PIDFD, p->pidfd, &si, WEXITED | WNOWAIT | flags) < 0 || si.si_pid == 0)
		return;
	uint64_t cpu = sbx_cpu_ns(p);
	sbx_kill_group(p);
	int status;
	struct rusage ru;
	if (wait4(p->pid, &status, 0, &ru) < 0)
		return;
	p->reaped = true;
	struct sbx_result *r = &p->res;
	uint64_t ru_cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * NS +
			  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	r->cpu_ns = cpu ? cpu : ru_cpu;
	r->tree_cpu_ns = ru_cpu > r->cpu_ns ? ru_cpu : r->cpu_ns;
	r->wall_ns = sbx_now_ns() - p->start_ns;
	r->peak_memory = peak_after_death(p, (uint64_t)ru.ru_maxrss * 1024);
	if (r->verdict == SBX_RUNNING)
		verdict_from_status(p, status);
	else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		r->signal = WTERMSIG(status);
	else if (WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	if (p->listener >= 0)
		close(p->listener);
	p->listener = -1;
}

bool sbx_service(struct sbx_proc *p)
{
	if (p->reaped)
		return false;
	drain_stderr(p);
	sbx_notify_service(p);
	check_limits(p);
	reap(p, WNOHANG);
	return !p->reaped;
}

/* answered_at: 0, or when the caller had read the process's answer. */
static bool service_polled(struct sbx_proc *p, const struct pollfd *fds, int n,
			   uint64_t answered_at)
{
	if (p->reaped)
		return false;
	bool ended = p->killed;
	for (int i = 0; i < n; i++) {
		if (!fds[i].revents)
			continue;
		if (fds[i].fd == p->errfd)
			drain_stderr(p);
		else if (fds[i].fd == p->listener)
			sbx_notify_service(p);
		else if (fds[i].fd == p->pidfd)
			ended = true;
	}
	if (answered_at) {
		check_limits_at(p, answered_at);
		if (!p->killed)
			sbx_arm_wall_at(p, 0, answered_at);
	} else {
		check_limits(p);
	}
	if (ended || p->killed)
		reap(p, WNOHANG);
	return !p->reaped;
}

bool sbx_service_polled(struct sbx_proc *p, const struct pollfd *fds, int n)
{
	return service_polled(p, fds, n, 0);
}

bool sbx_service_answered(struct sbx_proc *p, const struct pollfd *fds, int n, uint64_t now)
{
	return service_polled(p, fds, n, now ? now : sbx_now_ns());
}

static int pollfds(const struct sbx_proc *p, struct pollfd *fds, bool pidfd)
{
	int n = 0;
	if (!p->reaped && pidfd)
		fds[n++] = (struct pollfd){ p->pidfd, POLLIN, 0 };
	if (!p->reaped && !p->killed && p->listener >= 0)
		fds[n++] = (struct pollfd){ p->listener, POLLIN, 0 };
	if (p->errfd >= 0)
		fds[n++] = (struct pollfd){ p->errfd, POLLIN, 0 };
	return n;
}

int sbx_pollfds(const struct sbx_proc *p, struct pollfd *fds)
{
	return pollfds(p, fds, true);
}

int sbx_pollfds_with_output(const struct sbx_proc *p, struct pollfd *fds)
{
	/* once killed, the end is awaited by the pidfd: the pipe may close
	 * before the process is reaped */
	return pollfds(p, fds, p->killed);
}

int64_t sbx_timeout_ns(const struct sbx_proc *p)
{
	if (p->reaped)
		return -1;
	if (p->killed)
		return NS; /* SIGKILL is on its way; the pidfd will say when */
	uint64_t now = sbx_now_ns();
	uint64_t t = p->check_at_ns > now ? p->check_at_ns - now : 0;
	return t > INT64_MAX ? INT64_MAX : (int64_t)t;
}

static int poll_ns(struct pollfd *fds, int n, int64_t timeout_ns)
{
	struct timespec ts = { timeout_ns / NS, timeout_ns % NS };
	int r = ppoll(fds, n, timeout_ns < 0 ? NULL : &ts, NULL);
	return r < 0 && errno != EINTR ? -1 : r;
}

int sbx_wait_fd(struct sbx_proc *p, int fd, short events, int64_t timeout_ns)
{
	uint64_t deadline = timeout_ns < 0 ? UINT64_MAX : sbx_now_ns() + timeout_ns;
	for (;;) {
		struct pollfd fds[SBX_POLLFDS + 1];
		fds[0] = (struct pollfd){ fd, events, 0 };
		int n = 1 + sbx_pollfds(p, fds + 1);
		int64_t t = sbx_timeout_ns(p);
		uint64_t now = sbx_now_ns();
		if (deadline != UINT64_MAX) {
			int64_t left = deadline > now ? (int64_t)(deadline - now) : 0;
			if (t < 0 || left < t)
				t = left;
		}
		if (poll_ns(fds, n, t) < 0)
			return -1;
		bool ready = fds[0].revents != 0;
		bool running = sbx_service(p);
		if (ready)
			return 1;
		if (!running)
			return -1;
		if (sbx_now_ns() >= deadline)
			return 0;
	}
}

bool sbx_wait_end(struct sbx_proc *p, uint64_t timeout_ns)
{
	uint64_t deadline = sbx_now_ns() + timeout_ns;
	while (!p->reaped) {
		struct pollfd fds[SBX_POLLFDS];
		int n = sbx_pollfds(p, fds);
		uint64_t now = sbx_now_ns();
		if (now >= deadline)
			return false;
		int64_t t = sbx_timeout_ns(p);
		if (t < 0 || (uint64_t)t > deadline - now)
			t = (int64_t)(deadline - now);
		if (poll_ns(fds, n, t) < 0)
			return false;
		sbx_service_polled(p, fds, n);
	}
	return true;
}

const struct sbx_result *sbx_finish(struct sbx_proc *p)
{
	while (!p->reaped) {
		struct pollfd fds[SBX_POLLFDS];
		int n = sbx_pollfds(p, fds);
		if (poll_ns(fds, n, sbx_timeout_ns(p)) < 0)
			break;
		/* Only what is ready: a player's brk or mmap wakes us for
		 * its notification alone (grow.c). */
		sbx_service_polled(p, fds, n);
	}
	/* What the child wrote is in the pipe; what it started is dead. */
	drain_stderr(p);
	p->log[p->res.log_len] = '\0';
	return &p->res;
}

void sbx_free(struct sbx_proc *p)
{
	if (!p)
		return;
	if (!p->reaped && p->pid > 0) {
		if (p->pidfd >= 0)
			syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0);
		else
			kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	int fds[] = { p->pidfd, p->listener, p->errfd, p->statm_fd, p->schedstat_fd };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(p->log);
	free(p);
}
