/* policy.c - the player's seccomp allow-list, compiled once.
 *
 * The filter's default is to ask the parent (SECCOMP_RET_USER_NOTIF): the
 * child blocks in the kernel, the parent learns which call it was and ends
 * it with a verdict that names the call.  The parent also decides the few
 * calls whose answer depends on state a filter cannot see: the one exec of
 * the player (see notify.c), signals a process sends to itself, calls that
 * grow its address space (the memory limit, grow.c), and its exit, where
 * the parent reads its memory high-water mark one last time.
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandbox/internal.h"

/* What a static glibc program needs to start, allocate memory, read the
 * clock and talk over its pipes.  Nothing here names a file, a process
 * other than the caller, or a descriptor it could not already use. */
static const int allowed[] = {
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev),
	SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(lseek),
	SCMP_SYS(munmap), SCMP_SYS(mprotect), SCMP_SYS(madvise),
	SCMP_SYS(set_tid_address), SCMP_SYS(set_robust_list), SCMP_SYS(rseq),
	SCMP_SYS(getrlimit), SCMP_SYS(getrandom),
	SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
	SCMP_SYS(sigaltstack),
	SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday),
	SCMP_SYS(time), SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep),
	SCMP_SYS(pause), SCMP_SYS(sched_yield),
	SCMP_SYS(getpid), SCMP_SYS(gettid),
};

/* Calls glibc makes on its own that we answer with an error instead of
 * running, the same error whatever the arguments, so that the answer says
 * nothing of the host: looking up the executable's path at start-up
 * (readlink of /proc/self/exe), fstat, which glibc makes as newfstatat of
 * "" (stdio then uses a default buffer), and isatty (ioctl TCGETS).  The
 * README lists them.  sysinfo is answered by the parent (notify.c). */
static const struct { int nr; int err; } refused[] = {
	{ SCMP_SYS(readlink), ENOENT },
	{ SCMP_SYS(newfstatat), EACCES },
	{ SCMP_SYS(ioctl), ENOTTY },
};

static int add_rules(scmp_filter_ctx ctx)
{
	int rc = 0;
	for (size_t i = 0; i < sizeof allowed / sizeof *allowed && !rc; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, allowed[i], 0);
	for (size_t i = 0; i < sizeof refused / sizeof *refused && !rc; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(refused[i].err), refused[i].nr, 0);
	if (rc)
		return rc;
	/* brk(0) asks where the break is; every call that may grow the address
	 * space (brk, mmap, mremap) goes to the parent, which freezes the
	 * player if it would pass the memory limit (grow.c). */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(brk), 1, SCMP_A0(SCMP_CMP_EQ, 0));
	/* Thread-local storage set-up; nothing else arch_prctl offers. */
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(arch_prctl), 1,
					SCMP_A0(SCMP_CMP_EQ, 0x1002 /* ARCH_SET_FS */));
	/* Reading its own limits; changing any limit is forbidden. */
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2,
					SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
	return rc;
}

/* libseccomp 2.5 exports only to a descriptor; read the program back. */
static int export_program(scmp_filter_ctx ctx, struct sock_fprog *prog)
{
	int fd = memfd_create("sbx-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = seccomp_export_bpf(ctx, fd);
	off_t size = rc ? 0 : lseek(fd, 0, SEEK_CUR);
	if (!rc && (size <= 0 || size % sizeof(struct sock_filter) ||
		    size / sizeof(struct sock_filter) > BPF_MAXINSNS))
		rc = -EINVAL;
	struct sock_filter *insns = rc ? NULL : malloc(size);
	if (!rc && (!insns || pread(fd, insns, size, 0) != size))
		rc = -EIO;
	close(fd);
	if (rc) {
		free(insns);
		return rc;
	}
	prog->filter = insns;
	prog->len = size / sizeof(struct sock_filter);
	return 0;
}

static int build_player_filter(struct sbx_policy *pol)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
	if (!ctx)
		return -ENOMEM;
	/* i386 (int 0x80) and x32 calls never match a native rule; the parent
	 * hears of them and names them. */
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_NOTIFY);
	rc = rc ? rc : seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	rc = rc ? rc : add_rules(ctx);
	rc = rc ? rc : export_program(ctx, &pol->prog);
	seccomp_release(ctx);
	return rc;
}

struct sbx_policy *sbx_policy_new(enum sbx_profile profile,
				  const struct sbx_limits *lim, err_t err)
{
	struct sbx_policy *pol = calloc(1, sizeof *pol);
	if (!pol) {
		err_set(err, "sandbox: out of memory");
		return NULL;
	}
	pol->profile = profile;
	pol->lim = *lim;
	/* The stack may use nearly all the memory (deep recursion is common in
	 * contest code) but not all: glibc sizes a thread's stack from this
	 * limit, and a thread stack that still fits lets pthread_create reach
	 * clone3 and be refused as a thread, not as a memory overrun. */
	if (!pol->lim.stack_bytes)
		pol->lim.stack_bytes = (pol->lim.memory_bytes - pol->lim.memory_bytes / 16) & ~4095ULL;
	if (!pol->lim.open_files)
		pol->lim.open_files = 16;
	if (profile == SBX_PLAYER) {
		int rc = build_player_filter(pol);
		if (rc) {
			err_set(err, "sandbox: cannot build the seccomp filter: %s",
				strerror(-rc));
			free(pol);
			return NULL;
		}
	}
	return pol;
}

void sbx_policy_set_batch(struct sbx_policy *pol)
{
	pol->batch = pol->profile == SBX_PLAYER;
}

void sbx_policy_free(struct sbx_policy *pol)
{
	if (!pol)
		return;
	free(pol->prog.filter);
	free(pol);
}
