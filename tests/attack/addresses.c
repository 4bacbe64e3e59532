/* Prints where its heap starts, where malloc puts a block and where its
 * stack is: the same at every run when the sandbox does not randomize a
 * player's addresses. */
#include <stdint.h>

#include "attack.h"

int main(void)
{
	int on_stack = 0;
	char *block = malloc(100);
	printf("heap %p block %p stack %p\n", sbrk(0), (void *)block, (void *)&on_stack);
	free(block);
	return on_stack;
}
