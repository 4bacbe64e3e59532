/* One 64 GiB MAP_NORESERVE mapping, touched page by page if granted. */
#include <sys/mman.h>

#include "attack.h"

#define SIZE (64UL << 30)

int main(void)
{
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return 3;
	for (unsigned long off = 0; off < SIZE; off += 4096)
		p[off] = 1;
	survived("mmap 64 GiB", 0);
}
