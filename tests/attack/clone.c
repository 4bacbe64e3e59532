/* The raw clone(2) call, used like fork. */
#include <signal.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	long pid = syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);

	if (pid == 0)
		_exit(0);
	survived("clone", pid);
}
