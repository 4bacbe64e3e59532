/* frames.c - unit bodies with frames larger than a unit's stack, compiled
 * as a contestant's file is (the rewrite probes their stack), for
 * tests/kit/test_aic_isolation.c.  Each fills its array and stores one of
 * its bytes in *(volatile char *)arg, which it never reaches. */
#include <string.h>

#include "tests/kit/player/frames.h"

void frames_big_local(void *arg)
{
	char a[1 << 20];
	memset(a, 7, sizeof a);
	char *volatile p = a; /* the array escapes: gcc keeps it */
	*(volatile char *)arg = p[12345];
}

void frames_big_vla(void *arg)
{
	volatile int n = 1 << 20;
	char a[n];
	memset(a, 7, (size_t)n);
	char *volatile p = a; /* the array escapes: gcc keeps it */
	*(volatile char *)arg = p[12345];
}

/* A frame that fits (100 KiB of a 256 KiB stack): runs to the end. */
void frames_fitting_local(void *arg)
{
	char a[100 * 1024];
	memset(a, 7, sizeof a);
	char *volatile p = a; /* the array escapes: gcc keeps it */
	*(volatile char *)arg = p[12345];
}
