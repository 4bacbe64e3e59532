/* sandbox_launch.c - the cost of the sandbox at launch: start and reap a
 * trivial static binary through libsandbox and through plain fork + exec +
 * wait, interleaved so both see the same machine, and print the ratio of
 * the medians (goal <= 1.15).  The same launch under the tool profile
 * (limits and user, no filter) sets apart what the player's seccomp filter
 * costs a launch: the kernel compiles it and runs it ahead once for every
 * call number, the judge answers the exec, and the exit frees it. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "sandbox/sandbox.h"

#define ROUNDS_MAX 400
#define ROUNDS ((int)bench_size(ROUNDS_MAX, 3))

static uint64_t plain_launch(const char *path, int in, int out)
{
	uint64_t t0 = bench_now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in, 0);
		dup2(out, 1);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	return bench_now_ns() - t0;
}

static uint64_t sandbox_launch(const struct sbx_policy *pol, const char *path, int in, int out)
{
	err_t err;
	struct sbx_spec spec = { .path = path, .stdin_fd = in, .stdout_fd = out,
				 .uid = geteuid() == 0 ? 61000 : 0, .gid = geteuid() == 0 ? 61000 : 0 };
	uint64_t t0 = bench_now_ns();
	struct sbx_proc *p = sbx_start(pol, &spec, err);
	if (!p) {
		fprintf(stderr, "bench: %s\n", err->msg);
		exit(1);
	}
	const struct sbx_result *r = sbx_finish(p);
	uint64_t t = bench_now_ns() - t0;
	if (r->verdict != SBX_EXITED || r->exit_status != 0) {
		fprintf(stderr, "bench: the trivial player ended badly: %s\n", r->message);
		exit(1);
	}
	sbx_free(p);
	return t;
}

int main(void)
{
	const char *path = "build/bench/noop";
	struct sbx_limits lim = { .cpu_ns = 1000000000, .wall_ns = 5000000000ULL,
				  .memory_bytes = 256 << 20, .stderr_bytes = 4096 };
	err_t err;
	signal(SIGPIPE, SIG_IGN);
	struct sbx_policy *pol = sbx_policy_new(SBX_PLAYER, &lim, err);
	int in[2], out[2];
	if (!pol || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		fprintf(stderr, "bench: set-up failed: %s\n", pol ? "pipe" : err->msg);
		return 1;
	}
	struct sbx_policy *tool = sbx_policy_new(SBX_TOOL, &lim, err);
	if (!tool) {
		fprintf(stderr, "bench: set-up failed: %s\n", err->msg);
		return 1;
	}
	static uint64_t sbx[ROUNDS_MAX], plain[ROUNDS_MAX], unfiltered[ROUNDS_MAX];
	static int64_t filter[ROUNDS_MAX];
	for (int i = 0; i < ROUNDS; i++) {
		sbx[i] = sandbox_launch(pol, path, in[0], out[1]);
		plain[i] = plain_launch(path, in[0], out[1]);
		unfiltered[i] = sandbox_launch(tool, path, in[0], out[1]);
		filter[i] = (int64_t)sbx[i] - (int64_t)unfiltered[i];
	}
	/* the difference of each pair, so that both halves see one machine */
	bench_sort_i64(filter, ROUNDS);
	int64_t mf = filter[ROUNDS / 2];
	uint64_t ms = bench_median(sbx, ROUNDS), mp = bench_median(plain, ROUNDS);
	printf("sandbox launch+reap of a trivial static binary (median of %d):\n", ROUNDS);
	printf("  libsandbox          %8.1f us\n", ms / 1e3);
	printf("  fork+exec+wait      %8.1f us\n", mp / 1e3);
	printf("  ratio               %8.3f   (goal <= 1.15)\n", (double)ms / mp);
	printf("  no filter (tool)    %8.1f us\n", bench_median(unfiltered, ROUNDS) / 1e3);
	printf("  the player's filter %+8.1f us a launch (its install, the exec's answer, its "
	       "release)\n", mf / 1e3);
	sbx_policy_free(tool);
	sbx_policy_free(pol);
	return 0;
}
