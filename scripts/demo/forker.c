/* Tries to start a shell. */
#include <unistd.h>

int main(void)
{
	execl("/bin/sh", "sh", "-c", "cat /etc/passwd", (char *)0);
	return 1;
}
