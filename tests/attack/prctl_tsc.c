/* prctl(PR_SET_TSC): makes rdtsc fault, a side channel game. */
#include <sys/prctl.h>

#include "attack.h"

int main(void)
{
	survived("prctl", prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0));
}
