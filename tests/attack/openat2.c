/* Opens the path named on stdin with openat2(2). */
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char path[256];
	struct open_how how = { .flags = O_RDONLY };

	input_line(path, sizeof path);
	survived("openat2",
		 syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how));
}
