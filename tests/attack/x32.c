/* An x32 system call: getpid (39) with the x32 bit, through `syscall`. */
#include "attack.h"

int main(void)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(0x40000000L | 39)
			 : "rcx", "r11", "memory");
	survived("x32 getpid", ret);
}
