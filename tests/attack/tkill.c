/* tkill(2) of the pid on stdin; a pid is also its main
 * thread's tid. */
#include <signal.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();

	survived("tkill", syscall(SYS_tkill, pid, SIGKILL));
}
