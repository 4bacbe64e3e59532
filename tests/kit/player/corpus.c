/* corpus.c - the programs of corpus.h.  Buffers live on the unit's stack
 * (256 KiB), as a unit's must. */
#include "tests/kit/player/corpus.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void uc_yield(void);

#define FOREVER(rounds) for (volatile long *r_ = (rounds);; (*r_)++)
#define KB 1024

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 1);
}

static void empty_loop(void *rounds)
{
	(void)rounds;
	for (;;) {
	}
}

static void one_block_loop(void *rounds)
{
	volatile long *r = rounds;
	for (;;)
		(*r)++;
}

static void copy_64k(void *rounds)
{
	unsigned char a[64 * KB], b[64 * KB];
	fill(a, sizeof a);
	FOREVER(rounds) memcpy(b, a, sizeof a), a[b[5]]++;
}

/* Reads what the caller wrote, out of the optimiser's sight. */
__attribute__((noipa)) static void consume(const void *p, size_t n)
{
	volatile unsigned char sink = ((const unsigned char *)p)[n / 2];
	(void)sink;
}

static void set_64k(void *rounds)
{
	unsigned char a[64 * KB];
	FOREVER(rounds) memset(a, (int)*(volatile long *)rounds, sizeof a), consume(a, sizeof a);
}

static void move_64k(void *rounds)
{
	unsigned char a[96 * KB];
	fill(a, sizeof a);
	FOREVER(rounds) memmove(a + 1, a, 64 * KB);
}

static void compare_64k(void *rounds)
{
	unsigned char a[64 * KB], b[64 * KB];
	fill(a, sizeof a);
	fill(b, sizeof b);
	volatile int sink;
	FOREVER(rounds) sink = memcmp(a, b, sizeof a);
	(void)sink;
}

static void length_64k(void *rounds)
{
	char a[64 * KB];
	memset(a, 'x', sizeof a - 1);
	a[sizeof a - 1] = 0;
	volatile size_t sink;
	FOREVER(rounds) sink = strlen(a);
	(void)sink;
}

static void strcmp_64k(void *rounds)
{
	char a[64 * KB], b[64 * KB];
	memset(a, 'x', sizeof a - 1);
	memset(b, 'x', sizeof b - 1);
	a[sizeof a - 1] = b[sizeof b - 1] = 0;
	volatile int sink;
	FOREVER(rounds) sink = strcmp(a, b);
	(void)sink;
}

static void strncmp_64k(void *rounds)
{
	char a[64 * KB], b[64 * KB];
	memset(a, 'y', sizeof a - 1);
	memset(b, 'y', sizeof b - 1);
	a[sizeof a - 1] = b[sizeof b - 1] = 0;
	volatile int sink;
	FOREVER(rounds) sink = strncmp(a, b, sizeof a);
	(void)sink;
}

static void strcpy_64k(void *rounds)
{
	char a[64 * KB], b[64 * KB];
	memset(a, 'z', sizeof a - 1);
	a[sizeof a - 1] = 0;
	FOREVER(rounds) strcpy(b, a), a[0] = b[1];
}

static void memchr_64k(void *rounds)
{
	unsigned char a[64 * KB];
	memset(a, 1, sizeof a);
	void *volatile sink;
	FOREVER(rounds) sink = memchr(a, 2, sizeof a);
	(void)sink;
}

static void snprintf_huge_precision(void *rounds)
{
	char buf[32];
	volatile double x = 1.0 / 3;
	volatile int precision = 20000;
	FOREVER(rounds) snprintf(buf, sizeof buf, "%.*f", precision, x);
}

static int ints_ascending(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int any_answer(const void *a, const void *b)
{
	return (int)(((unsigned long)a ^ (unsigned long)b) % 3) - 1;
}

static void scramble(int *v, int n, unsigned *seed)
{
	for (int i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		v[i] = (int)(*seed >> 8);
	}
}

static void qsort_ints(void *rounds)
{
	int v[2000];
	unsigned seed = 1;
	FOREVER(rounds) scramble(v, 2000, &seed), qsort(v, 2000, sizeof *v, ints_ascending);
}

static void qsort_any_comparator(void *rounds)
{
	int v[2000];
	unsigned seed = 2;
	FOREVER(rounds) scramble(v, 2000, &seed), qsort(v, 2000, sizeof *v, any_answer);
}

static void qsort_big_records(void *rounds)
{
	struct { int key; char pad[4092]; } v[40];
	unsigned seed = 3;
	FOREVER(rounds) {
		for (int i = 0; i < 40; i++)
			scramble(&v[i].key, 1, &seed);
		qsort(v, 40, sizeof *v, ints_ascending);
	}
}

static void bsearch_ints(void *rounds)
{
	int v[4096];
	for (int i = 0; i < 4096; i++)
		v[i] = 2 * i;
	volatile int key = 0;
	FOREVER(rounds) key = bsearch((const void *)&key, v, 4096, sizeof *v, ints_ascending) ? key + 2 : 0;
}

struct big {
	long cell[12 * KB];
};

static void struct_copy_96k(void *rounds)
{
	struct big a, b;
	memset(&a, 1, sizeof a);
	FOREVER(rounds) b = a, consume(&b, sizeof b);
}

#define STEP(k) x = x * 6364136223846793005ul + (k); y ^= x >> 29;
#define STEP10(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3) STEP(k + 4) STEP(k + 5) STEP(k + 6) STEP(k + 7) STEP(k + 8) STEP(k + 9)
#define STEP100(k) STEP10(k) STEP10(k + 10) STEP10(k + 20) STEP10(k + 30) STEP10(k + 40) STEP10(k + 50) STEP10(k + 60) STEP10(k + 70) STEP10(k + 80) STEP10(k + 90)

static void straight_line(void *rounds)
{
	volatile unsigned long seed = 5;
	volatile unsigned long sink;
	FOREVER(rounds) {
		unsigned long x = seed, y = 0;
		STEP100(1) STEP100(101) STEP100(201) STEP100(301) STEP100(401)
		STEP100(501) STEP100(601) STEP100(701) STEP100(801) STEP100(901)
		sink = y;
	}
	(void)sink;
}

static long fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void recursion(void *rounds)
{
	volatile long n = 18, sink;
	FOREVER(rounds) sink = fib(n);
	(void)sink;
}

static void vectorised_sum(void *rounds)
{
	int v[8192];
	for (int i = 0; i < 8192; i++)
		v[i] = i;
	volatile int sink;
	FOREVER(rounds) {
		int s = 0;
		for (int i = 0; i < 8192; i++)
			s += v[i] * 3;
		sink = s;
	}
	(void)sink;
}

static void integer_division(void *rounds)
{
	volatile long d = 7;
	volatile long sink;
	FOREVER(rounds) {
		long s = 0, k = d;
		for (long i = 1000; i < 2000; i++)
			s += i / k + i % (k + 2);
		sink = s;
	}
	(void)sink;
}

static void float_division_sqrt(void *rounds)
{
	volatile double sink;
	FOREVER(rounds) {
		double s = 0;
		for (int i = 1; i < 1000; i++)
			s += __builtin_sqrt((double)i) / (double)(i + 1);
		sink = s;
	}
	(void)sink;
}

static void trigonometry(void *rounds)
{
	volatile double sink;
	FOREVER(rounds) {
		double s = 0;
		for (int i = 0; i < 100; i++)
			s += sin(i * 0.1) * cos(i * 0.2);
		sink = s;
	}
	(void)sink;
}

static void powers(void *rounds)
{
	volatile double sink;
	FOREVER(rounds) {
		double s = 0;
		for (int i = 1; i < 100; i++)
			s += pow(1.0001, i * 0.7) + log((double)i) + exp(i * 0.01);
		sink = s;
	}
	(void)sink;
}

static void jump_table(void *rounds)
{
	volatile int sink;
	FOREVER(rounds) {
		int s = 0;
		for (int i = 0; i < 1000; i++) {
			switch ((i * 7) % 9) {
			case 0: s += 3; break;
			case 1: s ^= i; break;
			case 2: s -= 5; break;
			case 3: s *= 3; break;
			case 4: s >>= 1; break;
			case 5: s += i * i; break;
			case 6: s |= 16; break;
			case 7: s &= 0xffff; break;
			default: s = -s; break;
			}
		}
		sink = s;
	}
	(void)sink;
}

static void pointer_chase(void *rounds)
{
	int next[4096];
	for (int i = 0; i < 4096; i++)
		next[i] = (i * 1237 + 1) % 4096;
	volatile int sink;
	FOREVER(rounds) {
		int p = 0;
		for (int i = 0; i < 1000; i++)
			p = next[p];
		sink = p;
	}
	(void)sink;
}

static void matrix_multiply(void *rounds)
{
	double a[24][24], b[24][24], c[24][24];
	for (int i = 0; i < 24; i++)
		for (int j = 0; j < 24; j++)
			a[i][j] = b[j][i] = i + j;
	FOREVER(rounds) {
		for (int i = 0; i < 24; i++)
			for (int j = 0; j < 24; j++) {
				double s = 0;
				for (int k = 0; k < 24; k++)
					s += a[i][k] * b[k][j];
				c[i][j] = s;
			}
		consume(c, sizeof c);
	}
}

static void bubble_sort(void *rounds)
{
	int v[200];
	unsigned seed = 9;
	FOREVER(rounds) {
		scramble(v, 200, &seed);
		for (int i = 0; i < 200; i++)
			for (int j = 0; j + 1 < 200 - i; j++)
				if (v[j] > v[j + 1]) {
					int t = v[j];
					v[j] = v[j + 1];
					v[j + 1] = t;
				}
	}
}

static void sieve(void *rounds)
{
	char composite[20000];
	volatile int sink;
	FOREVER(rounds) {
		int n = 0;
		for (int i = 0; i < 20000; i++)
			composite[i] = 0;
		for (int i = 2; i < 20000; i++) {
			if (composite[i])
				continue;
			n++;
			for (int j = 2 * i; j < 20000; j += i)
				composite[j] = 1;
		}
		sink = n;
	}
	(void)sink;
}

static void string_building(void *rounds)
{
	char s[4096];
	volatile char sink;
	FOREVER(rounds) {
		for (int i = 0; i < 4095; i++)
			s[i] = (char)('a' + i % 26);
		s[4095] = 0;
		sink = s[(int)strlen(s) - 1];
	}
	(void)sink;
}

static void small_struct_copies(void *rounds)
{
	struct { long a, b, c, d; } x = { 1, 2, 3, 4 }, y[64];
	FOREVER(rounds) {
		for (int i = 0; i < 64; i++) {
			y[i] = x;
			x.a += y[i].d;
		}
	}
}

static void wide_division(void *rounds)
{
	volatile unsigned __int128 d = 12345;
	volatile unsigned long sink;
	FOREVER(rounds) {
		unsigned __int128 s = 0;
		for (unsigned i = 1; i < 200; i++)
			s += ((unsigned __int128)i << 70) / d;
		sink = (unsigned long)s;
	}
	(void)sink;
}

static void rounding(void *rounds)
{
	volatile double sink;
	FOREVER(rounds) {
		double s = 0;
		for (int i = 0; i < 500; i++)
			s += floor(i * 0.3) + ceil(i * 0.7) + fabs(s - i);
		sink = s;
	}
	(void)sink;
}

static void hashing(void *rounds)
{
	volatile unsigned long sink;
	FOREVER(rounds) {
		unsigned long h = 1469598103934665603ul;
		for (int i = 0; i < 2000; i++)
			h = (h ^ (unsigned long)i) * 1099511628211ul;
		sink = h;
	}
	(void)sink;
}

void corpus_yield_each_round(void *rounds)
{
	volatile long *r = rounds;
	for (;;) {
		(*r)++;
		uc_yield();
	}
}

const struct corpus_program corpus[] = {
	{ "empty loop", empty_loop, 0 },
	{ "one-block loop", one_block_loop, 0 },
	{ "memcpy 64 KiB", copy_64k, 8 * KB },
	{ "memset 64 KiB", set_64k, 8 * KB },
	{ "memmove 64 KiB", move_64k, 8 * KB },
	{ "memcmp 64 KiB", compare_64k, 8 * KB },
	{ "strlen 64 KiB", length_64k, 8 * KB },
	{ "strcmp 64 KiB", strcmp_64k, 16 * KB },
	{ "strncmp 64 KiB", strncmp_64k, 16 * KB },
	{ "strcpy 64 KiB", strcpy_64k, 8 * KB },
	{ "memchr 64 KiB", memchr_64k, 8 * KB },
	{ "snprintf %.20000f", snprintf_huge_precision, 20000 },
	{ "qsort 2000 ints", qsort_ints, 20000 },
	{ "qsort, any comparator", qsort_any_comparator, 10000 },
	{ "qsort 4 KiB records", qsort_big_records, 40 * KB },
	{ "bsearch 4096 ints", bsearch_ints, 12 },
	{ "struct copy 96 KiB", struct_copy_96k, 12 * KB },
	{ "straight line 1000 steps", straight_line, 2500 },
	{ "recursion fib(18)", recursion, 8000 },
	{ "vectorised sum 8192", vectorised_sum, 2000 },
	{ "integer division", integer_division, 50000 },
	{ "float division, sqrt", float_division_sqrt, 5000 },
	{ "sin, cos", trigonometry, 12000 },
	{ "pow, log, exp", powers, 17000 },
	{ "switch jump table", jump_table, 4000 },
	{ "pointer chase", pointer_chase, 2000 },
	{ "matrix multiply 24", matrix_multiply, 6000 },
	{ "bubble sort 200", bubble_sort, 40000 },
	{ "sieve 20000", sieve, 40000 },
	{ "string building", string_building, 8000 },
	{ "small struct copies", small_struct_copies, 128 },
	{ "128-bit division", wide_division, 12000 },
	{ "floor, ceil, fabs", rounding, 15000 },
	{ "hashing", hashing, 6000 },
};
const int corpus_size = sizeof corpus / sizeof *corpus;
