/* Deep recursion, each frame touching a 64 KiB local array; the bottom
 * (one frame per 64 KiB of a terabyte) is never reached. */
#include <string.h>

static volatile unsigned long bottom = 1UL << 24;

static unsigned long dive(unsigned long depth)
{
	volatile char frame[64 << 10];

	if (depth == bottom)
		return 0;
	memset((char *)frame, (int)depth, sizeof frame);
	return dive(depth + 1) + frame[depth % sizeof frame];
}

int main(void)
{
	return (int)dive(0);
}
