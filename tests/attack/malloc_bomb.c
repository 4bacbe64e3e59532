/* Allocates and touches 1 MiB chunks forever, unchecked like a careless
 * player would. */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	/* volatile: else gcc drops the memset of memory nobody reads. */
	char *volatile p;

	for (;;) {
		p = malloc(1 << 20);
		memset(p, 1, 1 << 20);
	}
}
