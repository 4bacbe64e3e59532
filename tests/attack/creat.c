/* Truncates the path named on stdin with creat(2). */
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	char path[256];

	input_line(path, sizeof path);
	survived("creat", syscall(SYS_creat, path, 0644));
}
