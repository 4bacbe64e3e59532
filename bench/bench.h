/* bench.h - shared helpers for the benchmarks `make bench` runs. */
#ifndef BENCH_H
#define BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* BENCH_QUICK=1 in the environment (`make bench-smoke`, part of `make
 * test`): every benchmark runs once, at a small size, so that one that no
 * longer runs is seen at once.  Its figures mean nothing then, and no goal
 * is checked (none fails a benchmark anyway: a busy machine misses them). */
static inline bool bench_quick(void)
{
	/* read once: sizes are asked for inside timed loops */
	static int quick = -1;
	if (quick < 0) {
		const char *q = getenv("BENCH_QUICK");
		quick = q && *q && strcmp(q, "0") != 0;
	}
	return quick;
}

/* full when measuring, quick under BENCH_QUICK. */
static inline long bench_size(long full, long quick)
{
	return bench_quick() ? quick : full;
}

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts v in place and returns its median. */
static inline uint64_t bench_median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, bench_cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline int bench_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts in place differences of paired timings, which may be negative. */
static inline void bench_sort_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, bench_cmp_i64);
}

/* Stops the program *pid started, if any (SIGTERM, then waits for it). */
static inline void bench_stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

/* Removes a benchmark's folder, if it made one; says so when it cannot. */
static inline void bench_remove_dir(const char *prog, const char *dir)
{
	if (!dir[0])
		return;
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%.4096s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "%s: could not remove %s\n", prog, dir);
}

/* "prog: what: why" on stderr, cleanup(), exit 1. */
static inline _Noreturn void bench_fail(const char *prog, void (*cleanup)(void), const char *what,
					const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, why);
	cleanup();
	exit(1);
}

#endif
