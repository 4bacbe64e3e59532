/* The legacy setrlimit(2) call, raising its own address space. */
#include <sys/resource.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	survived("setrlimit", syscall(SYS_setrlimit, RLIMIT_AS, &r));
}
