/* Pointer reuse: a filter that trusts a pointer argument it has seen in an
 * allowed call is fooled by writing new contents behind that pointer.  The
 * buffer first receives the order from stdin through read(2), then becomes
 * "/bin/sh" for execve(2) or execveat(2). */
#include <fcntl.h>
#include <sys/syscall.h>

#include "attack.h"

static char buf[64];

int main(void)
{
	char *argv[] = { "sh", "-c", "echo pwned", NULL };
	char *envp[] = { NULL };

	input_line(buf, sizeof buf);
	int use_execveat = strcmp(buf, "execveat") == 0;

	strcpy(buf, "/bin/sh");
	if (use_execveat)
		survived("execveat", syscall(SYS_execveat, AT_FDCWD, buf, argv,
					     envp, 0));
	survived("execve", execve(buf, argv, envp));
}
