/* Reads each of the judge's messages from the region it shares (fd 3), as
 * the kits do, and tries to change the region: mapped writable, made
 * writable, written through its descriptor.  Its answer is the payload it
 * read, then one letter per try: 'y' when the kernel refused it. */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "games/kit/frame.h"

static char refused(int failed, int want_errno)
{
	return failed && errno == want_errno ? 'y' : 'n';
}

int main(void)
{
	uint8_t h[FRAME_HEADER], out[FRAME_HEADER + 4096];
	off_t size = lseek(FRAME_SHARED_FD, 0, SEEK_END);
	if (size <= 0)
		return 1;
	uint8_t *at = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, FRAME_SHARED_FD, 0);
	if (at == MAP_FAILED)
		return 1;
	while (read(0, h, sizeof h) == sizeof h) {
		size_t n = frame_get_len(h);
		if (!frame_is_shared(h) || n > 4093 || n > (size_t)size)
			return 2;
		for (size_t i = 0; i < n; i++)
			out[FRAME_HEADER + i] = at[i];
		uint8_t *w = out + FRAME_HEADER + n;
		w[0] = refused(mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
				    FRAME_SHARED_FD, 0) == MAP_FAILED, EACCES);
		w[1] = refused(mprotect(at, (size_t)size, PROT_READ | PROT_WRITE) < 0, EACCES);
		w[2] = refused(write(FRAME_SHARED_FD, "x", 1) < 0, EBADF);
		frame_put_len(out, n + 3);
		if (write(1, out, FRAME_HEADER + n + 3) < 0)
			return 3;
	}
	return 0;
}
