/* A 32-bit system call through int 0x80: the i386 number on stdin
 * (20 getpid, 4 write).  The arguments suit write(1, msg, len); the
 * message sits in the static image, below 4 GiB. */
#include "attack.h"

static const char msg[] = "int 0x80 got through\n";

int main(void)
{
	long nr = input_long();
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(1L), "c"(msg), "d"(sizeof msg - 1)
			 : "memory");
	survived("int 0x80", ret);
}
