/* A runtime for the units fixtures: the count's hook and a main. */
#include <stdio.h>

int run(int i);
static long blocks;

void __sanitizer_cov_trace_pc(void)
{
	blocks++;
}

int main(void)
{
	int r = run(1);
	printf("%d %s\n", r, blocks > 0 ? "counted" : "not counted");
	return 0;
}
