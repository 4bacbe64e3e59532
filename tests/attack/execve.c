/* execve("/bin/sh"). */
#include "attack.h"

int main(void)
{
	char *argv[] = { "sh", "-c", "echo pwned", NULL };
	char *envp[] = { NULL };

	survived("execve", execve("/bin/sh", argv, envp));
}
