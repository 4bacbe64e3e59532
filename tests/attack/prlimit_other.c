/* prlimit64(2) on the pid on stdin: squeezes its CPU budget, then its
 * address space. */
#include <sys/resource.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();
	struct rlimit cpu = { 1, 1 };
	struct rlimit as = { 1 << 20, 1 << 20 };

	long ret = syscall(SYS_prlimit64, pid, RLIMIT_CPU, &cpu, NULL);
	ret |= syscall(SYS_prlimit64, pid, RLIMIT_AS, &as, NULL);
	survived("prlimit64", ret);
}
