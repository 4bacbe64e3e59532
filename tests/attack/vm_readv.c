/* process_vm_readv(2) of the pid on stdin, at the start of its image. */
#include <sys/uio.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();
	char buf[64];
	struct iovec local = { buf, sizeof buf };
	struct iovec remote = { (void *)0x400000, sizeof buf };

	survived("process_vm_readv",
		 process_vm_readv(pid, &local, 1, &remote, 1, 0));
}
