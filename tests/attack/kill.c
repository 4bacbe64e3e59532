/* kill(2) of the pid on stdin. */
#include <signal.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();

	survived("kill", kill(pid, SIGKILL));
}
