/* Opens the path named on stdin with openat(2), what glibc's open() uses. */
#include <fcntl.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char path[256];

	input_line(path, sizeof path);
	survived("openat", syscall(SYS_openat, AT_FDCWD, path, O_RDONLY));
}
