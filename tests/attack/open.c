/* Opens the path named on stdin with the legacy open(2) call. */
#include <fcntl.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char path[256];

	input_line(path, sizeof path);
	survived("open", syscall(SYS_open, path, O_RDONLY));
}
