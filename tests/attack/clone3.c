/* The raw clone3(2) call, used like fork. */
#include <linux/sched.h>
#include <signal.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	long pid = syscall(SYS_clone3, &args, sizeof args);

	if (pid == 0)
		_exit(0);
	survived("clone3", pid);
}
