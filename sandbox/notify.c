/* notify.c - the parent's answers to the player's seccomp notifications.
 *
 * A notified call waits in the kernel until the parent answers, so the
 * parent can decide with state the filter lacks.  Integer arguments cannot
 * change under us: the player has one thread and nobody traces it.  We
 * never look at memory the player points to, so there is nothing to race.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sandbox/internal.h"

/* The kernel may know a larger notification than our headers. */
union notif_buf {
	struct seccomp_notif n;
	char room[512];
};

static int receive(int listener, union notif_buf *buf)
{
	memset(buf, 0, sizeof *buf);
	while (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &buf->n) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static void let_continue(int listener, uint64_t id)
{
	struct seccomp_notif_resp r = { .id = id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE };
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &r);
}

/* The first call the child asks about is the exec of the player that our
 * own set-up code makes.  Every later exec is forbidden, whatever its
 * arguments: nothing compares pointers, so nothing can be fooled by a path
 * rewritten at the same address. */
int sbx_notify_exec(struct sbx_proc *p, err_t err)
{
	struct pollfd pfd = { p->listener, POLLIN, 0 };
	int r;
	do
		r = poll(&pfd, 1, 10000);
	while (r < 0 && errno == EINTR);
	union notif_buf buf;
	if (r <= 0 || receive(p->listener, &buf) < 0) {
		err_set(err, "sandbox: the child never reached its exec");
		return -1;
	}
	const struct seccomp_data *d = &buf.n.data;
	if (d->arch != AUDIT_ARCH_X86_64 || d->nr != SYS_execveat ||
	    d->args[0] != SBX_FD_EXEC || d->args[4] != AT_EMPTY_PATH) {
		err_set(err, "sandbox: unexpected first call %d in the child", d->nr);
		return -1;
	}
	p->res.asked++;
	let_continue(p->listener, buf.n.id);
	return 0;
}

/* kill, tkill and tgkill aimed at the player itself (abort() raises
 * SIGABRT) are let through; aimed at anybody else they are forbidden. */
static bool signals_itself(const struct sbx_proc *p, const struct seccomp_data *d)
{
	uint64_t me = (uint64_t)p->pid;
	switch (d->nr) {
	case SYS_kill:
	case SYS_tkill:
		return d->args[0] == me;
	case SYS_tgkill:
		return d->args[0] == me && d->args[1] == me;
	}
	return false;
}

/* sysinfo, which the C library's qsort asks to size its buffer, is
 * answered with the sandbox's own figures: total memory the limit, free
 * memory what is left of it, one process, no uptime, load, swap or buffers.
 * Nothing of the host.  qsort then sorts an array larger than a quarter of
 * the limit in place, with no buffer that could pass the limit (grow.c). */
static void answer_sysinfo(struct sbx_proc *p, const struct seccomp_notif *n)
{
	struct sysinfo si = { .totalram = p->lim.memory_bytes, .procs = 1, .mem_unit = 1 };
	uint64_t used;
	if (sbx_mapped_now(p, &used) && used < p->lim.memory_bytes)
		si.freeram = p->lim.memory_bytes - used;
	/* The caller is blocked in the call and has one thread; its pid is
	 * its own until we reap it. */
	struct iovec local = { &si, sizeof si };
	struct iovec remote = { (void *)(uintptr_t)n->data.args[0], sizeof si };
	int err = 0;
	if (process_vm_writev(p->pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof si)
		err = errno == EFAULT ? EFAULT : ENOSYS;
	struct seccomp_notif_resp r = { .id = n->id, .error = -err };
	ioctl(p->listener, SECCOMP_IOCTL_NOTIF_SEND, &r);
}

static void judge_call(struct sbx_proc *p, const struct seccomp_notif *n)
{
	const struct seccomp_data *d = &n->data;
	bool native = d->arch == AUDIT_ARCH_X86_64 && d->nr < 0x40000000;
	char name[48], msg[sizeof p->res.message];
	if (native && (d->nr == SYS_exit_group || d->nr == SYS_exit)) {
		sbx_sample_final_peak(p);
		let_continue(p->listener, n->id);
		return;
	}
	if (native && signals_itself(p, d)) {
		sbx_sample_final_peak(p); /* the signal may end it */
		let_continue(p->listener, n->id);
		return;
	}
	if (native && d->nr == SYS_sysinfo) {
		answer_sysinfo(p, n);
		return;
	}
	if (native && sbx_grow_call(d)) {
		if (sbx_grow_check(p, d))
			let_continue(p->listener, n->id);
		return;
	}
	sbx_syscall_name(d->arch, d->nr, name);
	snprintf(msg, sizeof msg, "forbidden system call: %s", name);
	sbx_kill(p, SBX_FORBIDDEN, name, msg);
}

void sbx_notify_service(struct sbx_proc *p)
{
	struct pollfd pfd = { p->listener, POLLIN, 0 };
	while (p->listener >= 0 && !p->killed && poll(&pfd, 1, 0) == 1) {
		if (!(pfd.revents & POLLIN)) {
			/* Hung up: the process is exiting and can ask nothing
			 * more; polling a hung-up descriptor would spin. */
			close(p->listener);
			p->listener = -1;
			return;
		}
		union notif_buf buf;
		if (receive(p->listener, &buf) < 0)
			return; /* the caller died meanwhile (ENOENT) */
		p->res.asked++;
		judge_call(p, &buf.n);
	}
}
