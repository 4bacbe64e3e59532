/* What sysinfo tells a player, and the C library's qsort, which asks it how
 * much memory there is before it sizes its buffer (mode on stdin):
 *
 *   sysinfo   prints every field sysinfo returns (or the error)
 *   qsort N   sorts N MiB of ints with qsort, checks the order, prints
 *             "sorted N MiB"
 */
#include <stdint.h>
#include <sys/sysinfo.h>

#include "attack.h"

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int show_sysinfo(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0) {
		perror("sysinfo");
		return 1;
	}
	printf("uptime %ld loads %lu %lu %lu totalram %lu freeram %lu sharedram %lu "
	       "bufferram %lu totalswap %lu freeswap %lu procs %u totalhigh %lu freehigh %lu "
	       "mem_unit %u\n",
	       si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram, si.freeram,
	       si.sharedram, si.bufferram, si.totalswap, si.freeswap, (unsigned)si.procs,
	       si.totalhigh, si.freehigh, si.mem_unit);
	return 0;
}

static int sort(unsigned long mib)
{
	size_t n = mib * (1UL << 20) / sizeof(int);
	int *v = malloc(n * sizeof *v);
	if (!v)
		return 3;
	uint32_t x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (int)(x >> 1);
	}
	qsort(v, n, sizeof *v, by_value);
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 4;
	printf("sorted %lu MiB\n", mib);
	return 0;
}

int main(void)
{
	char mode[32];
	input_line(mode, sizeof mode);
	if (strcmp(mode, "sysinfo") == 0)
		return show_sysinfo();
	if (strncmp(mode, "qsort ", 6) == 0)
		return sort(strtoul(mode + 6, NULL, 10));
	return 2;
}
