/* ptrace(PTRACE_ATTACH) to the pid on stdin. */
#include <sys/ptrace.h>

#include "attack.h"

int main(void)
{
	pid_t pid = (pid_t)input_long();

	survived("ptrace", ptrace(PTRACE_ATTACH, pid, NULL, NULL));
}
