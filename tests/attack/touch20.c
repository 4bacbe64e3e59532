/* Touches 20 MiB, then exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (20 << 20)

int main(void)
{
	/* volatile: else gcc drops the memset of memory nobody reads. */
	char *volatile p = malloc(SIZE);

	if (!p)
		return 3;
	memset(p, 1, SIZE);
	printf("touched %d\n", p[SIZE - 1]);
	return 0;
}
