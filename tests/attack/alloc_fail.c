/* Meets its memory limit and carries on as if nothing happened: whatever
 * the way (mode on stdin), once an allocation fails it says so on stderr
 * and ends normally, hoping to be reported as a plain exit.
 *
 *   malloc   1 MiB blocks, touched, until malloc returns NULL; exit(0)
 *   huge     40 MiB, touched, then another 40 MiB (less than the limit, more
 *            than is left), which fails; exit(0)
 *   mmap     4 MiB mappings until one fails; return from main
 *   sbrk     the break moved up 1 MiB at a time until it fails; exit(0)
 *   trim     the break moved up 40 MiB and back down to where it was, all
 *            but half a MiB of what is left mapped, then as sbrk
 *   mremap   one mapping grown 4 MiB at a time until it fails; exit(0)
 *   use N    N MiB allocated, touched and freed; exit(0), nothing failed
 */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

#include "attack.h"

#define MIB (1UL << 20)

static void say(const char *what, unsigned long mib)
{
	fprintf(stderr, "%s after %lu MiB\n", what, mib);
}

static int by_malloc(void)
{
	unsigned long n = 0;
	char *volatile p; /* volatile: else gcc drops the memset */
	while ((p = malloc(MIB)) != NULL) {
		memset(p, 1, MIB);
		n++;
	}
	say("malloc returned NULL", n);
	exit(0);
}

static int huge(void)
{
	char *volatile a = malloc(40 * MIB);
	if (a)
		memset(a, 1, 40 * MIB);
	char *volatile b = malloc(40 * MIB);
	say(b ? "the second 40 MiB fitted" : "the second 40 MiB failed", a ? 40 : 0);
	exit(0);
}

static int by_mmap(void)
{
	unsigned long n = 0;
	while (mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
	       MAP_FAILED)
		n += 4;
	say("mmap failed", n);
	return 0;
}

static int by_sbrk(void)
{
	unsigned long n = 0;
	while (sbrk((intptr_t)MIB) != (void *)-1)
		n++;
	say("sbrk failed", n);
	exit(0);
}

/* Down into the heap's first MiB, the break moves without the judge
 * seeing it (the sandbox's filter lets it): the judge's last word on the
 * break is the top, 40 MiB up.  Then all but half a MiB of what the limit
 * leaves (sysinfo says how much) is mapped, and the first MiB asked for on
 * the way up again, far below that top, is more than is left. */
static int trim(void)
{
	char *start = sbrk(0);
	struct sysinfo si;
	for (unsigned long n = 0; n < 40; n++)
		if (sbrk((intptr_t)MIB) == (void *)-1) {
			say("sbrk failed on the way up", n);
			exit(0);
		}
	if (brk(start) != 0 || sysinfo(&si) != 0 || si.freeram < 2 * MIB ||
	    mmap(NULL, (si.freeram - MIB / 2) & ~4095UL, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) {
		say("could not come down and fill the rest", 40);
		exit(0);
	}
	return by_sbrk();
}

static int by_mremap(void)
{
	size_t size = 4 * MIB;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *q;
	while (p != MAP_FAILED &&
	       (q = mremap(p, size, size + 4 * MIB, MREMAP_MAYMOVE)) != MAP_FAILED) {
		p = q;
		size += 4 * MIB;
	}
	say("mremap failed", size / MIB);
	exit(0);
}

static int use(unsigned long mib)
{
	char *p = malloc(mib * MIB);
	if (!p) {
		say("could not get what it needed", mib);
		return 3;
	}
	memset(p, 1, mib * MIB);
	printf("used %lu MiB\n", p[mib * MIB - 1] * mib); /* read: the memset stays */
	free(p);
	return 0;
}

int main(void)
{
	char mode[32];
	input_line(mode, sizeof mode);
	if (strcmp(mode, "malloc") == 0)
		return by_malloc();
	if (strcmp(mode, "huge") == 0)
		return huge();
	if (strcmp(mode, "mmap") == 0)
		return by_mmap();
	if (strcmp(mode, "sbrk") == 0)
		return by_sbrk();
	if (strcmp(mode, "trim") == 0)
		return trim();
	if (strcmp(mode, "mremap") == 0)
		return by_mremap();
	if (strncmp(mode, "use ", 4) == 0)
		return use(strtoul(mode + 4, NULL, 10));
	return 2;
}
