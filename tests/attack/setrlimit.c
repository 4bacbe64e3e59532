/* Raises its own CPU limit with glibc's setrlimit (a prlimit64(2) call),
 * after reading it, which is allowed. */
#include <sys/resource.h>

#include "attack.h"

int main(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_CPU, &r) != 0)
		return 3;
	r.rlim_cur = r.rlim_max;
	survived("setrlimit", setrlimit(RLIMIT_CPU, &r));
}
