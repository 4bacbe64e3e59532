/* A well-behaved player: reads numbers, answers with their sum. */
#include <stdio.h>

int main(void)
{
	long long x, sum = 0;
	while (scanf("%lld", &x) == 1)
		sum += x;
	printf("sum %lld\n", sum);
	fprintf(stderr, "debug: done\n");
	return 0;
}
