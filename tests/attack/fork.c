/* fork(): glibc makes it a clone(2) call. */
#include "attack.h"

int main(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	survived("fork", pid);
}
