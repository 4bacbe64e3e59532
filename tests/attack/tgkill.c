/* tgkill(2) of the pid on stdin. */
#include <signal.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();

	survived("tgkill", syscall(SYS_tgkill, pid, pid, SIGKILL));
}
