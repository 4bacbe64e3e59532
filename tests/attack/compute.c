/* Computes for some tens of milliseconds, prints the result, exits 0. */
#include <stdio.h>

int main(void)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < 50000000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	printf("%lu\n", x);
	return 0;
}
