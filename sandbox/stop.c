/* stop.c - ending a child and reading its memory peak: what the watch
 * loop (proc.c), the seccomp listener (notify.c) and the memory check
 * (grow.c) all do to a child, under all three. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/internal.h"

/* Reads VmHWM; false when it could not (the process is already gone).
 * One read of the whole file: it is some 1.5 KB. */
static bool sample_peak(struct sbx_proc *p)
{
	char buf[4096];
	int fd = sbx_open_proc(p, "status");
	ssize_t n = sbx_read_text(fd, buf, sizeof buf);
	if (fd >= 0)
		close(fd);
	const char *line = n > 0 ? strstr(buf, "\nVmHWM:") : NULL;
	unsigned long long kb = 0;
	bool found = line && sscanf(line + 7, "%llu kB", &kb) == 1;
	if (kb * 1024 > p->sampled_peak)
		p->sampled_peak = kb * 1024;
	return found;
}

uint64_t sbx_peak_memory(struct sbx_proc *p)
{
	if (!p->reaped)
		sample_peak(p);
	return p->reaped ? p->res.peak_memory : p->sampled_peak;
}

void sbx_sample_final_peak(struct sbx_proc *p)
{
	if (!p->reaped && sample_peak(p))
		p->peak_final = true;
}

/* The child leads its own process group (setsid), and a tool's helpers
 * (gcc's cc1, as, ld) are in it: they end with it.  The group id cannot
 * be reused while its leader is unreaped, which is whenever we call this. */
void sbx_kill_group(const struct sbx_proc *p)
{
	if (p->pid > 0)
		kill(-p->pid, SIGKILL);
}

void sbx_kill(struct sbx_proc *p, enum sbx_verdict v, const char *detail, const char *message)
{
	if (p->reaped || p->killed)
		return;
	sbx_sample_final_peak(p); /* the last chance to see it */
	p->killed = true;
	p->res.verdict = v;
	snprintf(p->res.detail, sizeof p->res.detail, "%s", detail);
	snprintf(p->res.message, sizeof p->res.message, "%s", message);
	syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0);
	sbx_kill_group(p);
}

void sbx_stop(struct sbx_proc *p, enum sbx_verdict v, const char *message)
{
	sbx_kill(p, v, "", message);
}
