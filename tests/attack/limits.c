/* Prints the limits it runs under; reading them is allowed. */
#include <stdio.h>
#include <sys/resource.h>

static void show(const char *name, int resource)
{
	struct rlimit r;

	if (getrlimit(resource, &r) != 0) {
		printf("%s error\n", name);
		return;
	}
	printf("%s %lld %lld\n", name, (long long)r.rlim_cur,
	       (long long)r.rlim_max);
}

int main(void)
{
	show("as", RLIMIT_AS);
	show("stack", RLIMIT_STACK);
	show("core", RLIMIT_CORE);
	show("fsize", RLIMIT_FSIZE);
	show("nofile", RLIMIT_NOFILE);
	show("cpu", RLIMIT_CPU);
	return 0;
}
