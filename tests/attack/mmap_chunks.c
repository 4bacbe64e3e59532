/* 1 GiB MAP_NORESERVE mappings in a loop, each touched page by page. */
#include <sys/mman.h>

#include "attack.h"

#define CHUNK (1UL << 30)

int main(void)
{
	for (;;) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
		if (p == MAP_FAILED)
			return 3;
		for (unsigned long off = 0; off < CHUNK; off += 4096)
			p[off] = 1;
	}
}
