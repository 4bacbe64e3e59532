/* names.c - words for verdicts, signals and system calls. */
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/internal.h"

const char *sbx_verdict_name(enum sbx_verdict v)
{
	static const char *const names[] = {
		[SBX_RUNNING] = "running",
		[SBX_EXITED] = "exited",
		[SBX_SIGNALED] = "signaled",
		[SBX_FORBIDDEN] = "forbidden-syscall",
		[SBX_CPU] = "cpu-limit",
		[SBX_MEMORY] = "memory-limit",
		[SBX_WALL] = "wall-limit",
		[SBX_OUTPUT] = "output-limit",
		[SBX_STOPPED] = "stopped",
		[SBX_SETUP] = "setup-failed",
	};
	return (unsigned)v < sizeof names / sizeof *names ? names[v] : "unknown";
}

const char *sbx_signal_name(int sig, char buf[16])
{
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, 16, "SIG%s", abbrev);
	else
		snprintf(buf, 16, "signal %d", sig);
	return buf;
}

/* "openat"; "getpid (i386 ABI)" for the other ABIs a 64-bit kernel runs. */
void sbx_syscall_name(uint32_t arch, int nr, char out[48])
{
	uint32_t token = arch;
	const char *abi = "";
	if (arch == AUDIT_ARCH_I386) {
		token = SCMP_ARCH_X86;
		abi = " (i386 ABI)";
	} else if (arch == AUDIT_ARCH_X86_64 && nr >= 0x40000000) {
		token = SCMP_ARCH_X32;
		abi = " (x32 ABI)";
	}
	char *name = seccomp_syscall_resolve_num_arch(token, nr);
	if (name)
		snprintf(out, 48, "%s%s", name, abi);
	else
		snprintf(out, 48, "#%d%s", nr, abi);
	free(name);
}
