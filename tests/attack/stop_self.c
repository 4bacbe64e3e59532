/* Stops itself: it uses no CPU and never blocks in a call the judge sees. */
#include <signal.h>

#include "attack.h"

int main(void)
{
	survived("raise(SIGSTOP)", raise(SIGSTOP));
}
