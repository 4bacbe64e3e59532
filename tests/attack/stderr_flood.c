/* Writes 100 MB to stderr, then "done" to stdout, and exits 0. */
#include <string.h>
#include <unistd.h>

#define TOTAL 100000000L

int main(void)
{
	static char block[1 << 16];
	long left = TOTAL;

	memset(block, 'e', sizeof block);
	while (left > 0) {
		ssize_t n = write(2, block, left < (long)sizeof block ?
					    (size_t)left : sizeof block);
		if (n <= 0)
			return 3;
		left -= n;
	}
	return write(1, "done\n", 5) == 5 ? 0 : 4;
}
