/* Replays the launcher's own call, execveat(3, "", ..., AT_EMPTY_PATH);
 * descriptor 3 was close-on-exec, so it is closed now. */
#include <fcntl.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char *argv[] = { "player", NULL };
	char *envp[] = { NULL };

	survived("execveat",
		 syscall(SYS_execveat, 3, "", argv, envp, AT_EMPTY_PATH));
}
