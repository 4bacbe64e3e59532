/* A well-behaved player the attacks aim at.  It reports its limits, waits
 * for a line on stdin, works a little, allocates 16 MiB and reports its
 * limits again: any change, or a failed allocation, shows in its output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static void report(const char *tag)
{
	struct rlimit cpu, as;

	getrlimit(RLIMIT_CPU, &cpu);
	getrlimit(RLIMIT_AS, &as);
	printf("%s cpu=%llu as=%llu\n", tag, (unsigned long long)cpu.rlim_cur,
	       (unsigned long long)as.rlim_cur);
	fflush(stdout);
}

int main(void)
{
	char line[64];
	volatile unsigned long sum = 0;

	report("ready");
	if (!fgets(line, sizeof line, stdin))
		return 2;
	for (unsigned long i = 0; i < 5000000; i++)
		sum += i;
	char *volatile mem = malloc(16 << 20);
	if (!mem)
		return 3;
	memset(mem, 1, 16 << 20);
	report("ok");
	return 0;
}
