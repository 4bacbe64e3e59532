/* Ignores the CPU-limit signal and keeps spinning. */
#include <signal.h>

static volatile sig_atomic_t warned;

static void on_xcpu(int sig)
{
	warned = sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_xcpu };

	if (sigaction(SIGXCPU, &sa, NULL) != 0)
		return 3;
	for (volatile unsigned long i = 0;; i++)
		;
}
