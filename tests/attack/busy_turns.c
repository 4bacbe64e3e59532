/* Before each answer it writes more to stderr than a pipe holds and grows
 * its memory by 4 MiB (calls the judge answers); after the second answer
 * it closes stderr.  Each frame it gets is answered with the frame "ok". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHATTER (96 * 1024)
#define GROWTH (4 << 20)

static void chatter(void)
{
	static char block[CHATTER];
	memset(block, 'e', sizeof block);
	for (size_t done = 0; done < sizeof block;) {
		ssize_t n = write(2, block + done, sizeof block - done);
		if (n <= 0)
			return; /* closed: nothing to say any more */
		done += (size_t)n;
	}
}

static void grow(void)
{
	char *p = mmap(NULL, GROWTH, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(3);
	for (size_t off = 0; off < GROWTH; off += 4096)
		p[off] = 1;
}

int main(void)
{
	static const uint8_t ok[] = { 2, 0, 0, 0, 'o', 'k' };
	uint8_t buf[4096];
	for (int turn = 0; read(0, buf, sizeof buf) > 0; turn++) {
		chatter();
		grow();
		if (turn == 1)
			close(2);
		if (write(1, ok, sizeof ok) != sizeof ok)
			return 1;
	}
	return 0;
}
