/* A 16 GiB zero-filled static array: the image alone exceeds any limit.
 *
 * Placed in .lbss, which the linker puts after .bss, so the default small
 * code model still reaches glibc's own data.  Only _end then lies out of
 * reach, and glibc's minimal allocator (pulled in for static dlopen) is its
 * one user: these definitions keep that object out of the link. */
#include <stdio.h>
#include <stdlib.h>

#define BIG (16UL << 30)

static char big[BIG] __attribute__((section(".lbss")));

void *__minimal_malloc(size_t n);
void *__minimal_calloc(size_t n, size_t size);
void *__minimal_realloc(void *p, size_t n);
void __minimal_free(void *p);

void *__minimal_malloc(size_t n)
{
	return malloc(n);
}

void *__minimal_calloc(size_t n, size_t size)
{
	return calloc(n, size);
}

void *__minimal_realloc(void *p, size_t n)
{
	return realloc(p, n);
}

void __minimal_free(void *p)
{
	free(p);
}

int main(void)
{
	char *volatile p = big;

	p[BIG - 1] = 1;
	printf("touched %p\n", (void *)p);
	return 42;
}
