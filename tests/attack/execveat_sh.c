/* execveat(AT_FDCWD, "/bin/sh"). */
#include <fcntl.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char *argv[] = { "sh", "-c", "echo pwned", NULL };
	char *envp[] = { NULL };

	survived("execveat",
		 syscall(SYS_execveat, AT_FDCWD, "/bin/sh", argv, envp, 0));
}
