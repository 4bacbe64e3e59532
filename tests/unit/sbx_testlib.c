/* sbx_testlib.c - see sbx_testlib.h. */
#include "tests/unit/sbx_testlib.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PLAYERS 4
#define MAX_POLICIES 4
#define MAX_UIDS 16
#define UID_BASE 61000
#define UID_RANGE 1000

struct cached_policy {
	struct sbx_limits lim;
	struct sbx_policy *pol;
};

/* Each test runs in its own process, so this state is per test. */
static struct tl_player players[MAX_PLAYERS];
static struct cached_policy policies[MAX_POLICIES];
static uid_t uids[MAX_UIDS];
static int uid_locks[MAX_UIDS];
static int nuids;

bool tl_is_root(void)
{
	return geteuid() == 0;
}

void tl_limits(struct sbx_limits *lim)
{
	memset(lim, 0, sizeof *lim);
	lim->cpu_ns = 300 * TL_MS;
	/* Far beyond what any attack needs, even on a loaded machine; the
	 * wall guard's own tests set theirs. */
	lim->wall_ns = 10000 * TL_MS;
	lim->memory_bytes = 64 * TL_MIB;
	lim->stderr_bytes = 64 << 10;
}

static bool same_limits(const struct sbx_limits *a, const struct sbx_limits *b)
{
	return a->cpu_ns == b->cpu_ns && a->wall_ns == b->wall_ns &&
	       a->memory_bytes == b->memory_bytes &&
	       a->stack_bytes == b->stack_bytes &&
	       a->output_bytes == b->output_bytes &&
	       a->stderr_bytes == b->stderr_bytes &&
	       a->open_files == b->open_files;
}

static const struct sbx_policy *policy_for(const struct sbx_limits *lim)
{
	int i;
	err_t err = {0};

	for (i = 0; i < MAX_POLICIES && policies[i].pol; i++)
		if (same_limits(&policies[i].lim, lim))
			return policies[i].pol;
	cr_assert_lt(i, MAX_POLICIES, "too many distinct limits in one test");
	policies[i].pol = sbx_policy_new(SBX_PLAYER, lim, err);
	cr_assert_not_null(policies[i].pol, "sbx_policy_new: %s", err);
	policies[i].lim = *lim;
	return policies[i].pol;
}

/* Claimed through the sandbox's machine-wide locks, like every player of
 * the judge, so a parallel test process (or a `judge play` one) never runs
 * a player under the same uid. */
static uid_t claim_uid(void)
{
	err_t err;
	struct sbx_uid u;

	cr_assert_lt(nuids, MAX_UIDS, "too many players in one test");
	cr_assert_eq(sbx_uid_claim(UID_BASE, UID_RANGE, &u, err), 0, "%s", err);
	uids[nuids] = u.uid;
	uid_locks[nuids++] = u.fd;
	return u.uid;
}

static void release_uids(void)
{
	for (int i = 0; i < nuids; i++)
		close(uid_locks[i]);
	nuids = 0;
}

static struct tl_player *free_slot(void)
{
	int i = 0;

	while (i < MAX_PLAYERS && players[i].proc)
		i++;
	cr_assert_lt(i, MAX_PLAYERS, "too many players in one test");
	return &players[i];
}

/* Our ends are close-on-exec, so no other player inherits them, and
 * non-blocking, so a stray writer cannot hang the test. */
static void make_pipe(int fds[2], int our_end)
{
	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe2: %s", strerror(errno));
	fcntl(fds[our_end], F_SETFL, O_NONBLOCK);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

struct tl_player *tl_start_path(const char *path, const struct sbx_limits *lim)
{
	const struct sbx_policy *pol = policy_for(lim);
	struct tl_player *pl = free_slot();
	int in[2], out[2];
	err_t err = {0};

	make_pipe(in, 1);
	make_pipe(out, 0);
	struct sbx_spec spec = { .path = path, .stdin_fd = in[0],
				 .stdout_fd = out[1] };
	if (tl_is_root())
		spec.uid = spec.gid = claim_uid();
	struct sbx_proc *proc = sbx_start(pol, &spec, err);
	close(in[0]);
	close(out[1]);
	if (!proc) {
		close(in[1]);
		close(out[0]);
		cr_assert_fail("sbx_start(%s): %s", path, err);
	}
	*pl = (struct tl_player){ .proc = proc, .in_fd = in[1],
				  .out_fd = out[0], .uid = spec.uid };
	const char *base = strrchr(path, '/');
	snprintf(pl->name, sizeof pl->name, "%s", base ? base + 1 : path);
	return pl;
}

struct tl_player *tl_start(const char *name, const struct sbx_limits *lim)
{
	const char *dir = getenv("ATTACK_DIR");
	char path[512];

	snprintf(path, sizeof path, "%s/%s", dir ? dir : "build/attack", name);
	cr_assert_eq(access(path, X_OK), 0, "attack program %s: %s", path,
		     strerror(errno));
	return tl_start_path(path, lim);
}

bool tl_send(struct tl_player *pl, const char *text)
{
	size_t len = strlen(text);

	while (len > 0) {
		ssize_t n = write(pl->in_fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		text += n;
		len -= (size_t)n;
	}
	return true;
}

void tl_close_stdin(struct tl_player *pl)
{
	close_fd(&pl->in_fd);
}

int64_t tl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool tl_read_line(struct tl_player *pl, char *buf, size_t size,
		  int64_t timeout_ns)
{
	int64_t deadline = tl_now_ns() + timeout_ns;
	size_t n = 0;

	while (n + 1 < size && (n == 0 || buf[n - 1] != '\n')) {
		int64_t left = deadline - tl_now_ns();
		if (left <= 0 ||
		    sbx_wait_fd(pl->proc, pl->out_fd, POLLIN, left) != 1)
			break;
		ssize_t got = read(pl->out_fd, buf + n, 1);
		if (got < 0 && errno == EAGAIN)
			continue;
		if (got <= 0)
			break;
		n++;
	}
	buf[n] = '\0';
	return n > 0 && buf[n - 1] == '\n';
}

/* 1: read something, 0: end of file, -1: nothing there now. */
static int read_stdout(struct tl_player *pl, struct tl_run *run)
{
	char scratch[4096];
	size_t room = TL_OUT_MAX - run->out_len;
	char *dst = room ? run->out + run->out_len : scratch;
	ssize_t n = read(pl->out_fd, dst, room ? room : sizeof scratch);

	if (n == 0)
		return 0;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : 0;
	if (room)
		run->out_len += (size_t)n;
	return 1;
}

static void collect_stdout(struct tl_player *pl, struct tl_run *run)
{
	while (sbx_wait_fd(pl->proc, pl->out_fd, POLLIN, -1) == 1)
		if (read_stdout(pl, run) == 0)
			return;
	while (read_stdout(pl, run) == 1)
		;
}

static void copy_result(const struct sbx_result *res, struct tl_run *run)
{
	size_t len = res->log ? res->log_len : 0;

	run->res = *res;
	if (len > TL_LOG_MAX)
		len = TL_LOG_MAX;
	if (len)
		memcpy(run->log, res->log, len);
	run->log[len] = '\0';
	run->res.log = run->log;
	run->out[run->out_len] = '\0';
}

static void release(struct tl_player *pl)
{
	sbx_free(pl->proc);
	pl->proc = NULL;
	close_fd(&pl->in_fd);
	close_fd(&pl->out_fd);
}

void tl_finish(struct tl_player *pl, struct tl_run *run)
{
	snprintf(run->name, sizeof run->name, "%s", pl->name);
	run->out_len = 0;
	collect_stdout(pl, run);
	copy_result(sbx_finish(pl->proc), run);
	release(pl);
}

void tl_run_attack(const char *name, const struct sbx_limits *lim,
		   const char *input, struct tl_run *run)
{
	struct tl_player *pl = tl_start(name, lim);

	if (input)
		tl_send(pl, input);
	tl_close_stdin(pl);
	tl_finish(pl, run);
}

void tl_expect_verdict(const struct tl_run *run, enum sbx_verdict v)
{
	const struct sbx_result *r = &run->res;

	cr_expect_eq(r->verdict, v,
		     "%s: verdict %s, expected %s (status %d, signal %d, "
		     "detail '%s', message '%s', log '%.200s')",
		     run->name, sbx_verdict_name(r->verdict),
		     sbx_verdict_name(v), r->exit_status, r->signal, r->detail,
		     r->message, run->log);
}

void tl_expect_exited(const struct tl_run *run, int status)
{
	tl_expect_verdict(run, SBX_EXITED);
	if (run->res.verdict == SBX_EXITED)
		cr_expect_eq(run->res.exit_status, status,
			     "%s: exit status %d, expected %d (log '%.200s')",
			     run->name, run->res.exit_status, status,
			     run->log);
}

void tl_expect_forbidden(const struct tl_run *run, const char *detail)
{
	char call[64], want[128];

	/* For another ABI the message names the call, the detail adds the
	 * ABI: "getpid (i386 ABI)". */
	snprintf(call, sizeof call, "%s", detail);
	call[strcspn(call, " ")] = '\0';
	snprintf(want, sizeof want, "forbidden system call: %s", call);
	tl_expect_verdict(run, SBX_FORBIDDEN);
	cr_expect_str_eq(run->res.detail, detail,
			 "%s: detail '%s', expected '%s'", run->name,
			 run->res.detail, detail);
	cr_expect(strstr(run->res.message, want),
		  "%s: message '%s' lacks '%s'", run->name, run->res.message,
		  want);
}

/* The first process found running as uid, or 0. */
static pid_t process_with_uid(uid_t uid)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	cr_assert_not_null(dir, "/proc: %s", strerror(errno));
	while (!found && (de = readdir(dir))) {
		char path[300], line[256];
		unsigned ruid, euid, suid, fsuid;
		snprintf(path, sizeof path, "/proc/%s/status", de->d_name);
		FILE *f = de->d_name[0] >= '1' && de->d_name[0] <= '9' ?
				  fopen(path, "re") : NULL;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "Uid: %u %u %u %u", &ruid, &euid,
				   &suid, &fsuid) == 4 &&
			    (ruid == uid || euid == uid || suid == uid))
				found = (pid_t)atoi(de->d_name);
		if (f)
			fclose(f);
	}
	closedir(dir);
	return found;
}

/* Only our own uids: the range as a whole may hold the players of a test
 * running in parallel. */
void tl_expect_clean(void)
{
	errno = 0;
	pid_t pid = waitpid(-1, NULL, WNOHANG);
	int err = errno;

	cr_expect(pid == -1 && err == ECHILD,
		  "a child of the test remains: waitpid gave %d (%s)", pid,
		  strerror(err));
	for (int i = 0; i < nuids; i++) {
		pid_t stray = process_with_uid(uids[i]);
		cr_expect_eq(stray, 0, "process %d still runs as player uid %u",
			     stray, (unsigned)uids[i]);
	}
}

void tl_setup(void)
{
	/* A player may close its pipes: writing to them must fail, not kill
	 * the test. */
	signal(SIGPIPE, SIG_IGN);
}

void tl_teardown(void)
{
	for (int i = 0; i < MAX_PLAYERS; i++)
		if (players[i].proc)
			release(&players[i]);
	for (int i = 0; i < MAX_POLICIES && policies[i].pol; i++) {
		sbx_policy_free(policies[i].pol);
		policies[i].pol = NULL;
	}
	release_uids();
}
