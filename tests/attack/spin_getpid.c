/* Burns system time forever, in getpid(2). */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	for (;;)
		syscall(SYS_getpid);
}
