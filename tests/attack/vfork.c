/* The raw vfork(2) call. */
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	long pid = syscall(SYS_vfork);

	if (pid == 0)
		_exit(0);
	survived("vfork", pid);
}
