/* Allocates and touches memory until something stops it. */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	for (;;) {
		char *p = malloc(1 << 20);
		memset(p, 1, 1 << 20);
	}
}
