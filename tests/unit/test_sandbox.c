/* test_sandbox.c - the sandbox against hostile players.
 *
 * Each test runs programs from tests/attack as players (memory 64 MiB, CPU
 * 300 ms, wall guard 1 s unless said) and checks the exact verdict and its
 * details, that bystanders (a victim player, this process) are unharmed,
 * and that no process is left behind.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/wait.h>

#include "tests/unit/sbx_testlib.h"

#define SUITE(name)                                                   \
	TestSuite(name, .init = tl_setup, .fini = tl_teardown,        \
		  .timeout = 30)

/* Criterion ignores failures in .fini, so the check that nothing was left
 * behind ends each test body instead. */
#define SBX_TEST(suite, name)                                         \
	static void suite##_##name##_body(void);                      \
	Test(suite, name)                                             \
	{                                                             \
		suite##_##name##_body();                              \
		tl_expect_clean();                                    \
	}                                                             \
	static void suite##_##name##_body(void)

SUITE(sbx_open);
SUITE(sbx_spawn);
SUITE(sbx_exec);
SUITE(sbx_misc);
SUITE(sbx_signal);
SUITE(sbx_victim);
SUITE(sbx_rlimit);
SUITE(sbx_abi);
SUITE(sbx_wall);
SUITE(sbx_cpu);
SUITE(sbx_memory);
SUITE(sbx_output);
SUITE(sbx_life);

/* Results live in static storage: they are large, and each test runs in
 * a process of its own. */
static struct tl_run run, victim_run;

static void expect_forbidden(const char *attack, const char *input,
			     const char *call)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack(attack, &lim, input, &run);
	tl_expect_forbidden(&run, call);
}

/* ---- files ---- */

SBX_TEST(sbx_open, open_passwd)
{
	expect_forbidden("open", "/etc/passwd\n", "open");
}

SBX_TEST(sbx_open, open_maps)
{
	expect_forbidden("open", "/proc/self/maps\n", "open");
}

SBX_TEST(sbx_open, openat_passwd)
{
	expect_forbidden("openat", "/etc/passwd\n", "openat");
}

SBX_TEST(sbx_open, openat_maps)
{
	expect_forbidden("openat", "/proc/self/maps\n", "openat");
}

SBX_TEST(sbx_open, openat2_passwd)
{
	expect_forbidden("openat2", "/etc/passwd\n", "openat2");
}

SBX_TEST(sbx_open, openat2_maps)
{
	expect_forbidden("openat2", "/proc/self/maps\n", "openat2");
}

SBX_TEST(sbx_open, creat_maps)
{
	expect_forbidden("creat", "/proc/self/maps\n", "creat");
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	fchmod(fd, mode);
	close(fd);
}

static void expect_file(const char *path, const char *text)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	cr_expect_str_eq(buf, text, "%s now holds '%s'", path, buf);
}

/* Not /etc/passwd: should the filter fail, creat would truncate it.  A
 * decoy anyone may write shows the same attack, and whether it did harm. */
SBX_TEST(sbx_open, creat_decoy)
{
	char dir[] = "/tmp/sbx-creat-XXXXXX", path[64], input[80];

	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	chmod(dir, 0755);
	snprintf(path, sizeof path, "%s/precious", dir);
	write_file(path, "precious\n", 0666);
	snprintf(input, sizeof input, "%s\n", path);
	expect_forbidden("creat", input, "creat");
	expect_file(path, "precious\n");
	unlink(path);
	rmdir(dir);
}

/* ---- new processes ---- */

SBX_TEST(sbx_spawn, fork)
{
	expect_forbidden("fork", NULL, "clone");
}

SBX_TEST(sbx_spawn, vfork)
{
	expect_forbidden("vfork", NULL, "vfork");
}

SBX_TEST(sbx_spawn, clone)
{
	expect_forbidden("clone", NULL, "clone");
}

SBX_TEST(sbx_spawn, clone3)
{
	expect_forbidden("clone3", NULL, "clone3");
}

/* glibc sizes a thread's stack by RLIMIT_STACK; with an 8 MiB stack limit
 * its mmap fits and clone3 is the call that fails. */
SBX_TEST(sbx_spawn, pthread_create)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.stack_bytes = 8 * TL_MIB;
	tl_run_attack("thread", &lim, NULL, &run);
	tl_expect_forbidden(&run, "clone3");
}

/* The default stack limit (15/16 of the memory) leaves room for the
 * thread's stack, so the thread itself is what is refused. */
SBX_TEST(sbx_spawn, pthread_create_default_stack)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("thread", &lim, NULL, &run);
	tl_expect_forbidden(&run, "clone3");
}

/* ---- exec ---- */

SBX_TEST(sbx_exec, execve_sh)
{
	expect_forbidden("execve", NULL, "execve");
}

SBX_TEST(sbx_exec, execveat_launcher_fd)
{
	expect_forbidden("execveat_fd3", NULL, "execveat");
}

SBX_TEST(sbx_exec, execveat_sh)
{
	expect_forbidden("execveat_sh", NULL, "execveat");
}

SBX_TEST(sbx_exec, reused_pointer_execve)
{
	expect_forbidden("exec_reuse", "execve\n", "execve");
}

SBX_TEST(sbx_exec, reused_pointer_execveat)
{
	expect_forbidden("exec_reuse", "execveat\n", "execveat");
}

/* ---- other kernel interfaces ---- */

SBX_TEST(sbx_misc, socket)
{
	expect_forbidden("socket", NULL, "socket");
}

SBX_TEST(sbx_misc, io_uring_setup)
{
	expect_forbidden("io_uring", NULL, "io_uring_setup");
}

SBX_TEST(sbx_misc, memfd_create)
{
	expect_forbidden("memfd", NULL, "memfd_create");
}

SBX_TEST(sbx_misc, personality)
{
	expect_forbidden("personality", NULL, "personality");
}

SBX_TEST(sbx_misc, prctl_set_tsc)
{
	expect_forbidden("prctl_tsc", NULL, "prctl");
}

/* ---- other processes ---- */

/* Starts the victim and waits for its first line, printed by its own code:
 * "ready cpu=N as=N". */
static struct tl_player *start_victim(const struct sbx_limits *lim,
				      char ready[64])
{
	struct tl_player *v = tl_start("victim", lim);

	cr_assert(tl_read_line(v, ready, 64, 1000 * TL_MS),
		  "victim did not start, said '%s'", ready);
	cr_assert_eq(strncmp(ready, "ready ", 6), 0, "victim said '%s'", ready);
	return v;
}

/* Lets the victim go on: it must end normally, limits unchanged. */
static void expect_victim_unharmed(struct tl_player *v, const char *ready)
{
	char want[80];

	sbx_arm_wall(v->proc, 1000 * TL_MS);
	tl_send(v, "go\n");
	tl_close_stdin(v);
	tl_finish(v, &victim_run);
	tl_expect_exited(&victim_run, 0);
	snprintf(want, sizeof want, "ok%s", ready + strlen("ready"));
	cr_expect_str_eq(victim_run.out, want,
			 "victim said '%s', expected '%s'", victim_run.out,
			 want);
}

/* Runs attack with the victim's pid on its stdin, through input_format. */
static void attack_victim(const char *attack, const char *input_format,
			  const char *call)
{
	struct sbx_limits lim;
	char ready[64], input[64];

	tl_limits(&lim);
	struct tl_player *v = start_victim(&lim, ready);
	snprintf(input, sizeof input, input_format, (int)sbx_pid(v->proc));
	tl_run_attack(attack, &lim, input, &run);
	tl_expect_forbidden(&run, call);
	expect_victim_unharmed(v, ready);
}

/* Aims at the player's parent, this process, whose pid it gets on stdin
 * (a player may not even ask for getppid).  We survive if the test gets
 * to report at all. */
static void attack_parent(const char *attack, const char *call)
{
	char input[32];

	snprintf(input, sizeof input, "%d\n", (int)getpid());
	expect_forbidden(attack, input, call);
}

SBX_TEST(sbx_signal, kill_parent)
{
	attack_parent("kill", "kill");
}

SBX_TEST(sbx_signal, tkill_parent)
{
	attack_parent("tkill", "tkill");
}

SBX_TEST(sbx_signal, tgkill_parent)
{
	attack_parent("tgkill", "tgkill");
}

SBX_TEST(sbx_signal, kill_victim)
{
	attack_victim("kill", "%d\n", "kill");
}

SBX_TEST(sbx_signal, tkill_victim)
{
	attack_victim("tkill", "%d\n", "tkill");
}

SBX_TEST(sbx_signal, tgkill_victim)
{
	attack_victim("tgkill", "%d\n", "tgkill");
}

SBX_TEST(sbx_victim, ptrace_attach)
{
	attack_victim("ptrace", "%d\n", "ptrace");
}

SBX_TEST(sbx_victim, process_vm_readv)
{
	attack_victim("vm_readv", "%d\n", "process_vm_readv");
}

SBX_TEST(sbx_victim, proc_mem_openat)
{
	attack_victim("openat", "/proc/%d/mem\n", "openat");
}

SBX_TEST(sbx_victim, proc_mem_open)
{
	attack_victim("open", "/proc/%d/mem\n", "open");
}

SBX_TEST(sbx_victim, prlimit_victim)
{
	attack_victim("prlimit_other", "%d\n", "prlimit64");
}

/* ---- its own limits ---- */

SBX_TEST(sbx_rlimit, raise_with_glibc_setrlimit)
{
	expect_forbidden("setrlimit", NULL, "prlimit64");
}

SBX_TEST(sbx_rlimit, raise_with_raw_setrlimit)
{
	expect_forbidden("setrlimit_raw", NULL, "setrlimit");
}

/* The soft limit on the line "NAME soft hard" of the limits program. */
static long long soft_limit(const char *out, const char *name)
{
	size_t len = strlen(name);
	const char *line = out;

	while (line && !(strncmp(line, name, len) == 0 && line[len] == ' ')) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	cr_assert_not_null(line, "no %s limit in '%s'", name, out);
	return strtoll(line + len + 1, NULL, 10);
}

/* Reading its own limits is allowed, and they are the promised ones. */
SBX_TEST(sbx_rlimit, limits_readable_and_set)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("limits", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_eq(soft_limit(run.out, "as"), 64 << 20, "%s", run.out);
	cr_expect_eq(soft_limit(run.out, "stack"), 60 << 20, "%s", run.out);
	cr_expect_eq(soft_limit(run.out, "core"), 0, "%s", run.out);
	cr_expect_eq(soft_limit(run.out, "fsize"), 0, "%s", run.out);
	cr_expect_eq(soft_limit(run.out, "nofile"), 16, "%s", run.out);
	long long cpu = soft_limit(run.out, "cpu");
	cr_expect(cpu >= 1 && cpu < 3600, "CPU backstop %lld s", cpu);
}

/* ---- other ABIs ---- */

SBX_TEST(sbx_abi, int80_getpid)
{
	expect_forbidden("int80", "20\n", "getpid (i386 ABI)");
}

SBX_TEST(sbx_abi, int80_write)
{
	expect_forbidden("int80", "4\n", "write (i386 ABI)");
	cr_expect_eq(run.out_len, 0, "int 0x80 wrote '%s'", run.out);
}

SBX_TEST(sbx_abi, x32_getpid)
{
	expect_forbidden("x32", NULL, "getpid (x32 ABI)");
}

/* ---- the wall-clock guard ---- */

static void expect_wall(const struct tl_run *r)
{
	tl_expect_verdict(r, SBX_WALL);
	cr_expect_lt(r->res.cpu_ns, 30 * TL_MS, "%s: cpu %llu ns", r->name,
		     (unsigned long long)r->res.cpu_ns);
	cr_expect(r->res.wall_ns >= 300 * TL_MS && r->res.wall_ns < 800 * TL_MS,
		  "%s: wall %llu ns, guard 300 ms", r->name,
		  (unsigned long long)r->res.wall_ns);
}

static void run_wall_attack(const char *attack)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.wall_ns = 300 * TL_MS;
	tl_run_attack(attack, &lim, NULL, &run);
	expect_wall(&run);
}

SBX_TEST(sbx_wall, nanosleep)
{
	run_wall_attack("sleep");
}

SBX_TEST(sbx_wall, pause)
{
	run_wall_attack("pause");
}

/* The state letter of /proc/pid/stat: 'T' once stopped. */
static char process_state(pid_t pid)
{
	char path[64], stat[512] = "";

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (!fgets(stat, sizeof stat, f))
			stat[0] = '\0';
		fclose(f);
	}
	const char *end = strrchr(stat, ')');
	return end && end[1] == ' ' ? end[2] : '?';
}

/* Stopped, it uses no CPU: only the wall guard ends it. */
SBX_TEST(sbx_wall, sigstop_self)
{
	struct sbx_limits lim;
	char state = '?';

	tl_limits(&lim);
	lim.wall_ns = 300 * TL_MS;
	struct tl_player *pl = tl_start("stop_self", &lim);
	for (int i = 0; i < 40 && state != 'T'; i++) {
		sbx_wait_fd(pl->proc, pl->out_fd, POLLIN, 5 * TL_MS);
		state = process_state(sbx_pid(pl->proc));
	}
	cr_expect_eq(state, 'T', "state '%c', expected stopped", state);
	tl_close_stdin(pl);
	tl_finish(pl, &run);
	expect_wall(&run);
}

SBX_TEST(sbx_wall, blocking_read)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.wall_ns = 300 * TL_MS;
	struct tl_player *pl = tl_start("read_block", &lim);
	tl_finish(pl, &run);
	expect_wall(&run);
}

/* The wall budget sums the armed waits only: the start and two waits of
 * 200 ms, each within the 300 ms guard, with 300 ms between them while
 * disarmed (the judge waits for somebody else), leave less than 100 ms of a
 * 500 ms budget, and the third wait is cut there with the budget's own
 * message. */
SBX_TEST(sbx_wall, budget_sums_the_waits)
{
	struct sbx_limits lim;
	char ready[64];

	tl_limits(&lim);
	lim.wall_ns = 300 * TL_MS;
	lim.wall_budget_ns = 500 * TL_MS;
	/* The guard is armed from the start: the start counts too. */
	int64_t armed = tl_now_ns(); /* as we measure it: at least what it counts */
	struct tl_player *v = start_victim(&lim, ready);
	sbx_arm_wall(v->proc, 0);
	armed = tl_now_ns() - armed;
	for (int i = 0; i < 2; i++) {
		int64_t t0 = tl_now_ns();
		sbx_arm_wall(v->proc, lim.wall_ns);
		cr_assert_eq(sbx_wait_fd(v->proc, v->out_fd, POLLIN, 200 * TL_MS), 0);
		sbx_arm_wall(v->proc, 0);
		armed += tl_now_ns() - t0;
		poll(NULL, 0, 300);
		cr_assert(sbx_service(v->proc), "frozen while nobody waited for it");
	}
	cr_assert_lt(armed, (int64_t)(450 * TL_MS), "the machine is too slow for this test");
	int64_t t0 = tl_now_ns();
	sbx_arm_wall(v->proc, lim.wall_ns);
	/* Its end closes its stdout: "ready" (1) or "ended" (-1), no timeout. */
	cr_expect_neq(sbx_wait_fd(v->proc, v->out_fd, POLLIN, 1000 * TL_MS), 0);
	uint64_t total = (uint64_t)(armed + tl_now_ns() - t0);
	tl_finish(v, &run);
	tl_expect_verdict(&run, SBX_WALL);
	/* The pauses (600 ms) did not count: the waits add up to the budget. */
	cr_expect(total >= 495 * TL_MS && total < 650 * TL_MS,
		  "frozen after %llu ms of waits, the budget is 500 ms",
		  (unsigned long long)(total / TL_MS));
	cr_expect(strstr(run.res.message, "wall-clock budget exceeded: waited for 0.5 s of 0.5 s"),
		  "message '%s'", run.res.message);
}

/* A busy machine: `n` processes spinning on one CPU (the first this
 * process may use), which the players under test are pinned to as well,
 * so that they get about 1 / (n + 1) of it. */
struct crowd {
	pid_t pid[16];
	int n;
	cpu_set_t cpu;
};

static void crowd_start(struct crowd *c, int n)
{
	cpu_set_t mine;
	cr_assert_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
	int cpu = 0;
	while (!CPU_ISSET(cpu, &mine))
		cpu++;
	CPU_ZERO(&c->cpu);
	CPU_SET(cpu, &c->cpu);
	for (c->n = 0; c->n < n; c->n++) {
		pid_t pid = fork();
		cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
		if (pid == 0) {
			setsid(); /* a scheduling group of its own, like the player's */
			sched_setaffinity(0, sizeof c->cpu, &c->cpu);
			for (volatile unsigned long i = 0;; i++)
				;
		}
		c->pid[c->n] = pid;
	}
}

static void crowd_stop(struct crowd *c)
{
	for (int i = 0; i < c->n; i++) {
		kill(c->pid[i], SIGKILL);
		waitpid(c->pid[i], NULL, 0);
	}
	c->n = 0;
}

/* Runs build/attack/NAME to its end on one CPU with `busy` spinners,
 * under a wall guard of wall_ns and the CPU budget cpu_ns (0: the usual
 * one), and logs what came of it. */
static void run_in_crowd(const char *attack, uint64_t wall_ns, uint64_t cpu_ns, int busy)
{
	struct sbx_limits lim;
	struct crowd crowd;
	tl_limits(&lim);
	lim.wall_ns = wall_ns;
	lim.cpu_ns = cpu_ns ? cpu_ns : lim.cpu_ns;
	crowd_start(&crowd, busy);
	struct tl_player *pl = tl_start(attack, &lim);
	cr_assert_not_null(pl);
	int pinned = sched_setaffinity(sbx_pid(pl->proc), sizeof crowd.cpu, &crowd.cpu);
	int saved = errno;
	tl_finish(pl, &run);
	crowd_stop(&crowd);
	cr_assert_eq(pinned, 0, "cannot pin the player: %s", strerror(saved));
	cr_log_info("%s behind %d busy loops: %s after %.3f s of wall time, %.3f s of CPU: %s",
		    attack, busy, sbx_verdict_name(run.res.verdict), run.res.wall_ns / 1e9,
		    run.res.cpu_ns / 1e9, run.res.message);
}

/* Stopped by the wall guard between `from` and `to` ns, with `message`. */
static void expect_wall_within(uint64_t from, uint64_t to, const char *message)
{
	tl_expect_verdict(&run, SBX_WALL);
	cr_expect(run.res.wall_ns >= from && run.res.wall_ns < to,
		  "stopped after %.3f s, expected %.3f to %.3f s", run.res.wall_ns / 1e9,
		  from / 1e9, to / 1e9);
	cr_expect(strstr(run.res.message, message), "message '%s'", run.res.message);
}

/* Three spinners share its CPU: it runs a quarter of the time, so its
 * 500 ms of CPU take about 2 s.  The time it waited for the CPU does not
 * count against its 1 s wall guard: the verdict is the CPU budget's. */
SBX_TEST(sbx_wall, waiting_for_a_busy_cpu_does_not_count)
{
	run_in_crowd("spin", 1000 * TL_MS, 500 * TL_MS, 3);
	tl_expect_verdict(&run, SBX_CPU);
	cr_expect_gt(run.res.wall_ns, 1000 * TL_MS, "it ran %.3f s: the CPU was not busy",
		     run.res.wall_ns / 1e9);
}

/* Behind fifteen spinners it runs a sixteenth of the time, 30 ms in the
 * 500 ms of ten 50 ms guards: there the guard stops stretching, and the
 * message blames the machine. */
SBX_TEST(sbx_wall, stretches_to_ten_guards_at_most)
{
	run_in_crowd("spin", 50 * TL_MS, 0, 15);
	expect_wall_within(500 * TL_MS, 700 * TL_MS,
			   "the machine is overloaded: stopped after 0.5 s");
}

/* A sleeper waits for no CPU: the guard stops it on time, busy CPU or not. */
SBX_TEST(sbx_wall, a_sleeper_meets_the_guard_on_a_busy_cpu)
{
	run_in_crowd("sleep", 1000 * TL_MS, 0, 3);
	expect_wall_within(1000 * TL_MS, 1500 * TL_MS,
			   "blocked or slept past the wall-clock guard of 1.000 s");
}

/* ---- the CPU budget ---- */

/* The budget is 300 ms; the overshoot must stay within milliseconds.  The
 * wall guard is far away: on a loaded machine a spinner gets a fraction of
 * a core, and CPU time, not wall time, is what is measured. */
static void run_cpu_attack(const char *attack)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.wall_ns = 30000 * TL_MS;
	tl_run_attack(attack, &lim, NULL, &run);
	tl_expect_verdict(&run, SBX_CPU);
	uint64_t cpu = run.res.cpu_ns;
	cr_expect(cpu >= 300 * TL_MS && cpu <= 350 * TL_MS,
		  "%s: cpu %llu ns, budget 300 ms", attack,
		  (unsigned long long)cpu);
}

SBX_TEST(sbx_cpu, busy_loop)
{
	run_cpu_attack("spin");
}

SBX_TEST(sbx_cpu, system_time_getpid)
{
	run_cpu_attack("spin_getpid");
}

SBX_TEST(sbx_cpu, system_time_stderr)
{
	run_cpu_attack("spin_stderr");
	cr_expect_leq(run.res.log_len, 64 << 10, "log_len %zu",
		      run.res.log_len);
	cr_expect_eq(strspn(run.log, "x"), run.res.log_len,
		     "log holds more than the x's written");
}

/* A budget for one step (a game's turn), armed by the caller, stops the
 * spinner after that step's CPU, far below the whole budget, with a
 * message naming the step. */
SBX_TEST(sbx_cpu, step_budget_stops_within_the_step)
{
	struct sbx_limits lim;
	tl_limits(&lim);
	lim.cpu_ns = 5000 * TL_MS;
	lim.wall_ns = 30000 * TL_MS;
	struct tl_player *pl = tl_start("spin", &lim);
	cr_assert_not_null(pl);
	sbx_arm_cpu(pl->proc, 100 * TL_MS, "one turn", SBX_CPU_NOW);
	tl_finish(pl, &run);
	tl_expect_verdict(&run, SBX_CPU);
	uint64_t cpu = run.res.cpu_ns;
	cr_expect(cpu >= 100 * TL_MS && cpu <= 150 * TL_MS, "cpu %llu ms, the step allows 100 ms",
		  (unsigned long long)(cpu / TL_MS));
	cr_expect(strstr(run.res.message, "of CPU for one turn; the limit is 0.100 s"),
		  "message '%s'", run.res.message);
}

SBX_TEST(sbx_cpu, catches_sigxcpu)
{
	run_cpu_attack("sigxcpu");
}

SBX_TEST(sbx_cpu, computing_counts)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("compute", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect(run.res.cpu_ns >= 10 * TL_MS && run.res.cpu_ns < 300 * TL_MS,
		  "cpu %llu ns for ~50 ms of work",
		  (unsigned long long)run.res.cpu_ns);
}

/* ---- memory ---- */

static void run_memory_attack(const char *attack)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack(attack, &lim, NULL, &run);
	tl_expect_verdict(&run, SBX_MEMORY);
	cr_expect_leq(run.res.peak_memory, 64 * TL_MIB,
		      "%s: peak %llu bytes, limit 64 MiB", attack,
		      (unsigned long long)run.res.peak_memory);
}

SBX_TEST(sbx_memory, malloc_bomb)
{
	run_memory_attack("malloc_bomb");
}

SBX_TEST(sbx_memory, stack_bomb)
{
	run_memory_attack("stack_bomb");
}

SBX_TEST(sbx_memory, mmap_64g_noreserve)
{
	run_memory_attack("mmap_bomb");
}

SBX_TEST(sbx_memory, mmap_1g_chunks)
{
	run_memory_attack("mmap_chunks");
}

SBX_TEST(sbx_memory, bss_16g)
{
	run_memory_attack("bss_16g");
}

/* An allocation refused at the limit freezes the player at that call, with
 * memory-limit: it does not get to carry on and exit 0 as if it had not
 * happened (alloc_fail would say so on stderr).  Each way to ask for
 * memory: malloc until NULL, one large request smaller than the limit but
 * larger than what is left, mmap until it fails, sbrk, mremap. */
static void expect_refused_allocation(const char *mode, const char *asked)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("alloc_fail", &lim, mode, &run);
	tl_expect_verdict(&run, SBX_MEMORY);
	cr_expect(strstr(run.res.message, asked) && strstr(run.res.message, "the limit is 64 MiB"),
		  "%s: message '%s'", mode, run.res.message);
	cr_expect_str_eq(run.log, "", "%s: it carried on: '%s'", mode, run.log);
}

SBX_TEST(sbx_memory, malloc_until_null_then_exit_0)
{
	expect_refused_allocation("malloc\n", "memory limit exceeded: asked for 1.0 MiB more");
}

SBX_TEST(sbx_memory, one_large_malloc_fails_then_exit_0)
{
	expect_refused_allocation("huge\n", "memory limit exceeded: asked for 40.0 MiB more");
}

SBX_TEST(sbx_memory, mmap_until_failure_then_return)
{
	expect_refused_allocation("mmap\n", "memory limit exceeded: asked for 4.0 MiB more");
}

SBX_TEST(sbx_memory, sbrk_until_failure_then_exit_0)
{
	expect_refused_allocation("sbrk\n", "memory limit exceeded: asked for 1.0 MiB more");
}

/* The break brought back down into the heap's first MiB, where the filter
 * lets it move without asking (sandbox/prefix.c), then pushed up again
 * with less than a MiB left: the judge, which did not see it come down,
 * still stops it at the limit, with the growth it really asked for. */
SBX_TEST(sbx_memory, sbrk_down_unseen_then_up_to_the_limit)
{
	expect_refused_allocation("trim\n", "memory limit exceeded: asked for 1.0 MiB more");
}

SBX_TEST(sbx_memory, mremap_until_failure_then_exit_0)
{
	expect_refused_allocation("mremap\n", "memory limit exceeded: asked for 4.0 MiB more");
}

/* A player's addresses are the same at every run (it runs without
 * address randomization), so a program that prints or hashes its pointers
 * replays alike; and its start, its first allocations and its exit are
 * the only calls the judge is asked about: the heap's first MiB is let
 * through by the filter. */
SBX_TEST(sbx_memory, addresses_repeat_and_the_heaps_start_asks_nothing)
{
	struct sbx_limits lim;
	char first[256];

	tl_limits(&lim);
	tl_run_attack("addresses", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_assert(strncmp(run.out, "heap 0x", 7) == 0, "it printed '%s'", run.out);
	snprintf(first, sizeof first, "%.200s", run.out);
	tl_run_attack("addresses", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, first, "the second run printed '%s', the first '%s'", run.out,
			 first);
	cr_expect_eq(run.res.asked, 2, "asked about %u calls, not only its exec and its exit",
		     run.res.asked);
}

/* Under a limit below 16 MiB a MiB grown unasked would be too large a
 * share of it: glibc's heap growth at start is asked about again. */
SBX_TEST(sbx_memory, under_a_small_limit_the_heaps_start_is_asked_about)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.memory_bytes = 8 * TL_MIB;
	tl_run_attack("addresses", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_gt(run.res.asked, 2, "asked about %u calls: its heap grew unasked",
		     run.res.asked);
}

/* 90% of the limit (57 of 64 MiB) allocated, touched and freed: a plain
 * exit, not a memory verdict. */
SBX_TEST(sbx_memory, ninety_percent_is_a_plain_exit)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("alloc_fail", &lim, "use 57\n", &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, "used 57 MiB\n");
	cr_expect_geq(run.res.peak_memory, 57 * TL_MIB, "peak %llu bytes",
		      (unsigned long long)run.res.peak_memory);
}

/* sysinfo tells the sandbox's figures, none of the host's: total memory
 * the limit, free memory what is left of it, one process, nothing else. */
SBX_TEST(sbx_memory, sysinfo_tells_the_limit_only)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("sysinfo_qsort", &lim, "sysinfo\n", &run);
	tl_expect_exited(&run, 0);
	const char *head = "uptime 0 loads 0 0 0 totalram 67108864 freeram ";
	const char *tail = " sharedram 0 bufferram 0 totalswap 0 freeswap 0 procs 1 totalhigh 0 "
			   "freehigh 0 mem_unit 1\n";
	cr_expect(strncmp(run.out, head, strlen(head)) == 0 && strstr(run.out, tail),
		  "sysinfo said '%s'", run.out);
	unsigned long long freeram = strtoull(run.out + strlen(head), NULL, 10);
	cr_expect(freeram > 60 * TL_MIB && freeram < 64 * TL_MIB, "freeram %llu", freeram);
}

/* qsort of an array more than half the limit (18 of 32 MiB): told the
 * machine's memory is the limit, the C library sorts it in place instead
 * of asking for a buffer of its size, which would pass the limit. */
SBX_TEST(sbx_memory, qsort_of_a_large_array_fits)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	lim.memory_bytes = 32 * TL_MIB;
	lim.cpu_ns = 5000 * TL_MS;
	tl_run_attack("sysinfo_qsort", &lim, "qsort 18\n", &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, "sorted 18 MiB\n");
}

SBX_TEST(sbx_memory, peak_reflects_20mib)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("touch20", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, "touched 1\n");
	cr_expect(run.res.peak_memory >= 20 * TL_MIB &&
			  run.res.peak_memory < 64 * TL_MIB,
		  "peak %llu bytes after touching 20 MiB",
		  (unsigned long long)run.res.peak_memory);
}

/* ---- output ---- */

SBX_TEST(sbx_output, stderr_flood)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("stderr_flood", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, "done\n");
	cr_expect_eq(run.res.log_len, 64 << 10, "log_len %zu", run.res.log_len);
	cr_expect_eq(run.res.log_len + run.res.log_dropped, 100000000,
		     "kept %zu + dropped %zu, written 100000000",
		     run.res.log_len, run.res.log_dropped);
	cr_expect_eq(strlen(run.log), run.res.log_len);
	cr_expect_eq(strspn(run.log, "e"), run.res.log_len);
}

/* It closes stdin and stdout while it still computes: our writes fail
 * with EPIPE (not SIGPIPE), our reads see end of file. */
SBX_TEST(sbx_output, closes_its_pipes)
{
	struct sbx_limits lim;
	char c;

	tl_limits(&lim);
	struct tl_player *pl = tl_start("close_pipes", &lim);
	sbx_wait_fd(pl->proc, pl->out_fd, POLLIN, 1000 * TL_MS);
	cr_expect_eq(read(pl->out_fd, &c, 1), 0, "stdout not at EOF: %s",
		     strerror(errno));
	errno = 0;
	cr_expect_eq(write(pl->in_fd, "x", 1), -1);
	cr_expect_eq(errno, EPIPE, "write to its stdin: %s", strerror(errno));
	tl_finish(pl, &run);
	tl_expect_exited(&run, 0);
}

SBX_TEST(sbx_output, benign_player)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("benign", &lim, "6\n5 -3 12 0 7 -8\n", &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.out, "-8 -3 0 5 7 12\nsum 13\nnorm 17.059\n",
			 "output '%s'", run.out);
	cr_expect_str_eq(run.log, "debug: sorted 6 numbers\n", "log '%s'",
			 run.log);
	cr_expect_eq(run.res.log_dropped, 0);
}

/* ---- life cycle ---- */

static void expect_setup(const char *path)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_finish(tl_start_path(path, &lim), &run);
	tl_expect_verdict(&run, SBX_SETUP);
	cr_expect_neq(run.res.message[0], '\0', "%s: no message", path);
}

SBX_TEST(sbx_life, dynamic_binary)
{
	const char *path = "/bin/true";

	if (access(path, X_OK) != 0)
		cr_skip_test("%s: %s", path, strerror(errno));
	expect_setup(path);
	cr_expect(strcasestr(run.res.message, "static"),
		  "message '%s' does not say it must be static",
		  run.res.message);
}

SBX_TEST(sbx_life, not_elf)
{
	char dir[] = "/tmp/sbx-notelf-XXXXXX", path[64];

	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof path, "%s/player", dir);
	write_file(path, "#!/bin/sh\necho pwned\n", 0755);
	expect_setup(path);
	cr_expect_eq(run.out_len, 0, "the script ran: '%s'", run.out);
	unlink(path);
	rmdir(dir);
}

SBX_TEST(sbx_life, missing_binary)
{
	expect_setup("/nonexistent/player");
}

SBX_TEST(sbx_life, stop_protocol_error)
{
	struct sbx_limits lim;
	char ready[64];
	const char *why = "protocol error: move 3 is off the board";

	tl_limits(&lim);
	struct tl_player *v = start_victim(&lim, ready);
	sbx_stop(v->proc, SBX_STOPPED, why);
	tl_finish(v, &run);
	tl_expect_verdict(&run, SBX_STOPPED);
	cr_expect_str_eq(run.res.message, why);
}

SBX_TEST(sbx_life, stop_first_verdict_wins)
{
	struct sbx_limits lim;
	char ready[64];

	tl_limits(&lim);
	struct tl_player *v = start_victim(&lim, ready);
	sbx_stop(v->proc, SBX_STOPPED, "protocol error: first");
	sbx_stop(v->proc, SBX_CPU, "second");
	tl_finish(v, &run);
	tl_expect_verdict(&run, SBX_STOPPED);
	cr_expect_str_eq(run.res.message, "protocol error: first");
}

/* Waiting 200 ms twice, re-arming a 300 ms guard in between, does not
 * trip it. */
SBX_TEST(sbx_life, arm_wall_extends_guard)
{
	struct sbx_limits lim;
	char ready[64];

	tl_limits(&lim);
	lim.wall_ns = 300 * TL_MS;
	struct tl_player *v = start_victim(&lim, ready);
	cr_expect_eq(sbx_wait_fd(v->proc, v->out_fd, POLLIN, 200 * TL_MS), 0);
	sbx_arm_wall(v->proc, 300 * TL_MS);
	cr_expect_eq(sbx_wait_fd(v->proc, v->out_fd, POLLIN, 200 * TL_MS), 0);
	cr_expect(sbx_running(v->proc), "the re-armed guard fired early");
	expect_victim_unharmed(v, ready);
}

/* Nothing the kernel hands a player at its start names the host: argv[0]
 * is "player" (not the binary's path), the environment is empty, and
 * AT_EXECFN is the descriptor the judge executed it from. */
SBX_TEST(sbx_life, no_host_in_argv_env_auxv)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("host_info", &lim, NULL, &run);
	tl_expect_exited(&run, 0);
	cr_expect_str_eq(run.log, "argv[0]=player\nexecfn=/dev/fd/4\nend\n",
			 "it learnt '%s'", run.log);
}

/* A process that already ended keeps its own verdict. */
SBX_TEST(sbx_life, stop_after_exit)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	struct tl_player *pl = tl_start("crash", &lim);
	tl_send(pl, "5\n");
	for (int i = 0; i < 200 && sbx_service(pl->proc); i++)
		poll(NULL, 0, 5);
	cr_expect_not(sbx_running(pl->proc), "exit(5) still runs after 1 s");
	sbx_stop(pl->proc, SBX_STOPPED, "protocol error: too late");
	tl_finish(pl, &run);
	tl_expect_exited(&run, 5);
}

SBX_TEST(sbx_life, segfault)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("crash", &lim, "segv\n", &run);
	tl_expect_verdict(&run, SBX_SIGNALED);
	cr_expect_eq(run.res.signal, SIGSEGV);
	cr_expect_str_eq(run.res.detail, "SIGSEGV");
}

SBX_TEST(sbx_life, abort)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("crash", &lim, "abort\n", &run);
	tl_expect_verdict(&run, SBX_SIGNALED);
	cr_expect_eq(run.res.signal, SIGABRT);
	cr_expect_str_eq(run.res.detail, "SIGABRT");
}

SBX_TEST(sbx_life, exit_status)
{
	struct sbx_limits lim;

	tl_limits(&lim);
	tl_run_attack("crash", &lim, "7\n", &run);
	tl_expect_exited(&run, 7);
}

/* The value of the line "key:\tvalue" of /proc/pid/status. */
static void status_field(pid_t pid, const char *key, char *value, size_t size)
{
	char path[64], line[256];

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	snprintf(value, size, "(no %s)", key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, strlen(key)) == 0 &&
		    line[strlen(key)] == ':') {
			const char *v = line + strlen(key) + 1;
			v += strspn(v, " \t");
			snprintf(value, size, "%.*s", (int)strcspn(v, "\n"), v);
		}
	fclose(f);
}

static void expect_status(pid_t pid, const char *key, const char *want)
{
	char value[128];

	status_field(pid, key, value, sizeof value);
	cr_expect_str_eq(value, want, "%s: '%s', expected '%s'", key, value,
			 want);
}

/* Its open descriptors, as "0 1 2". */
static void open_fds(pid_t pid, char *list, size_t size)
{
	char path[64];
	size_t len = 0;
	struct dirent *de;

	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	cr_assert_not_null(dir, "%s: %s", path, strerror(errno));
	list[0] = '\0';
	while ((de = readdir(dir)) && len < size)
		if (de->d_name[0] != '.')
			len += (size_t)snprintf(list + len, size - len, "%s%s",
						len ? " " : "", de->d_name);
	closedir(dir);
}

/* What the header promises about a running player, seen from outside. */
SBX_TEST(sbx_life, privileges_descriptors_cwd)
{
	struct sbx_limits lim;
	char ready[64], fds[128], cwd[256] = "";

	tl_limits(&lim);
	struct tl_player *v = start_victim(&lim, ready);
	pid_t pid = sbx_pid(v->proc);
	expect_status(pid, "NoNewPrivs", "1");
	expect_status(pid, "Seccomp", "2");
	open_fds(pid, fds, sizeof fds);
	cr_expect_str_eq(fds, "0 1 2", "open descriptors: %s", fds);
	snprintf(fds, sizeof fds, "/proc/%d/cwd", (int)pid);
	cr_expect_gt(readlink(fds, cwd, sizeof cwd - 1), 0);
	cr_expect_str_eq(cwd, "/", "working directory %s", cwd);
	expect_victim_unharmed(v, ready);
}

SBX_TEST(sbx_life, own_uid_gid)
{
	struct sbx_limits lim;
	char ready[64], ids[64];

	if (!tl_is_root())
		cr_skip_test("only root can give a player a uid of its own");
	tl_limits(&lim);
	struct tl_player *v = start_victim(&lim, ready);
	pid_t pid = sbx_pid(v->proc);
	snprintf(ids, sizeof ids, "%u\t%u\t%u\t%u", v->uid, v->uid, v->uid,
		 v->uid);
	expect_status(pid, "Uid", ids);
	expect_status(pid, "Gid", ids);
	status_field(pid, "Groups", ids, sizeof ids);
	cr_expect(ids[0] == '\0' || (unsigned)atoi(ids) == v->uid,
		  "supplementary groups kept: %s", ids);
	expect_victim_unharmed(v, ready);
}

SBX_TEST(sbx_life, names)
{
	char buf[16];

	cr_expect_str_eq(sbx_signal_name(SIGSEGV, buf), "SIGSEGV");
	cr_expect_str_eq(sbx_signal_name(SIGKILL, buf), "SIGKILL");
	cr_expect_str_eq(sbx_signal_name(200, buf), "signal 200");
	cr_expect_not_null(sbx_verdict_name(SBX_FORBIDDEN));
	cr_expect_str_neq(sbx_verdict_name(SBX_CPU),
			  sbx_verdict_name(SBX_WALL));
}

/* The judge dies (SIGKILL, no chance to clean up): its players die with it
 * instead of spinning on as orphans.  This test process adopts the orphans
 * (a subreaper), so it can tell a dead player from a live one and reap it:
 * a zombie left to a container's init could hold a player uid forever. */
SBX_TEST(sbx_life, dies_with_the_judge)
{
	int report[2];
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	cr_assert_eq(pipe(report), 0);
	pid_t judge = fork();
	if (judge == 0) {
		struct sbx_limits lim;
		tl_limits(&lim);
		lim.cpu_ns = 20000 * TL_MS;
		lim.wall_ns = 20000 * TL_MS;
		struct tl_player *pl = tl_start("spin", &lim);
		/* Serviced until it spins in its own code: at start-up it
		 * waits for the judge to allow its brk calls, and one still
		 * waiting when the judge dies gets ENOSYS and may crash
		 * before its parent-death signal lands. */
		sbx_wait_end(pl->proc, 100 * TL_MS);
		pid_t pid = sbx_pid(pl->proc);
		if (write(report[1], &pid, sizeof pid) != sizeof pid)
			_exit(1);
		pause();
		_exit(0);
	}
	pid_t player = 0;
	cr_assert_eq(read(report[0], &player, sizeof player), (ssize_t)sizeof player);
	cr_assert_eq(kill(player, 0), 0, "the player should be running");
	kill(judge, SIGKILL);
	waitpid(judge, NULL, 0);
	/* Orphaned, the player is ours now; its parent-death signal ends it. */
	int status = 0;
	pid_t reaped = 0;
	for (int i = 0; i < 200 && reaped != player; i++) {
		reaped = waitpid(player, &status, WNOHANG);
		if (reaped != player)
			usleep(10000);
	}
	cr_assert_eq(reaped, player, "player %d outlived the judge", (int)player);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(report[0]);
	close(report[1]);
}
