/* libc.c - the C library a unit may call, counted (energy_asm.h renames a
 * unit's memcpy to __aic_memcpy, and so on).  Each takes its price off the
 * unit's energy by a formula of the work it did, in the unit of the rest:
 * about one instruction.  qsort and bsearch are the kit's own (heapsort,
 * any comparator is safe): they call the unit's comparator, which counts
 * itself, and they reserve r15 as every counted code does.  The prices are
 * in docs/games/aic2018.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/aic2018/kit/energy.h"

#define CALL_PRICE 8      /* any call: arguments, the jump, the return */
#define BYTES_PER_ENERGY 8
#define SNPRINTF_PRICE 200 /* parsing the format, the call itself */
#define SNPRINTF_PER_CHAR 25 /* digits of a long precision are slow */
#define MATH_CHEAP 10          /* a rounding or a square root */
#define MATH_TRANSCENDENTAL 60 /* sin, exp, pow...: a series each */
#define WIDE_DIVISION_PRICE 25 /* 128-bit division, done in software */

static size_t charge_bytes(size_t n)
{
	energy_charge(CALL_PRICE + (int64_t)(n / BYTES_PER_ENERGY));
	return n;
}


void *__aic_memcpy(void *d, const void *s, size_t n)
{
	return memcpy(d, s, charge_bytes(n));
}

void *__aic_memmove(void *d, const void *s, size_t n)
{
	return memmove(d, s, charge_bytes(n));
}

void *__aic_memset(void *d, int c, size_t n)
{
	return memset(d, c, charge_bytes(n));
}

int __aic_memcmp(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, charge_bytes(n));
}

void *__aic_memchr(const void *s, int c, size_t n)
{
	void *p = memchr(s, c, n);
	charge_bytes(p ? (size_t)((const char *)p - (const char *)s) : n);
	return p;
}

size_t __aic_strlen(const char *s)
{
	return charge_bytes(strlen(s));
}

char *__aic_strchr(const char *s, int c)
{
	charge_bytes(strlen(s));
	return strchr(s, c);
}

/* Compares at most max bytes: the work is both strings' length up to the
 * first difference, which is what is charged. */
static int compare_counted(const char *a, const char *b, size_t max)
{
	size_t la = strnlen(a, max), lb = strnlen(b, la < max ? la + 1 : max);
	size_t n = la < lb ? la : lb;
	charge_bytes(la + lb);
	int r = memcmp(a, b, n);
	if (r || n == max)
		return r;
	return (unsigned char)a[n] - (unsigned char)b[n];
}

int __aic_strcmp(const char *a, const char *b)
{
	return compare_counted(a, b, SIZE_MAX);
}

int __aic_strncmp(const char *a, const char *b, size_t n)
{
	return compare_counted(a, b, n);
}

char *__aic_strcpy(char *d, const char *s)
{
	return memcpy(d, s, charge_bytes(strlen(s) + 1));
}

char *__aic_strncpy(char *d, const char *s, size_t n)
{
	return strncpy(d, s, charge_bytes(n));
}

/* The text's length is the work, whatever fits in the buffer. */
int __aic_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	energy_charge(SNPRINTF_PRICE + (r > 0 ? (int64_t)r * SNPRINTF_PER_CHAR : 0));
	return r;
}

/* A unit's debug log (the kit's stdout goes to it). */
int __aic_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vprintf(fmt, ap);
	va_end(ap);
	energy_charge(SNPRINTF_PRICE + (r > 0 ? (int64_t)r * SNPRINTF_PER_CHAR : 0));
	return r;
}

int __aic_puts(const char *s)
{
	energy_charge(SNPRINTF_PRICE + (int64_t)strlen(s));
	return puts(s);
}

int __aic_putchar(int c)
{
	energy_charge(CALL_PRICE);
	return putchar(c);
}

int __aic_abs(int x)
{
	energy_charge(CALL_PRICE);
	return abs(x);
}

long __aic_labs(long x)
{
	energy_charge(CALL_PRICE);
	return labs(x);
}

long long __aic_llabs(long long x)
{
	energy_charge(CALL_PRICE);
	return llabs(x);
}

/* ---- sorting and searching ------------------------------------------------------ */

/* Three copies of size bytes through a small buffer. */
static void swap_counted(char *a, char *b, size_t size)
{
	charge_bytes(4 * size);
	char tmp[256];
	while (size) {
		size_t k = size < sizeof tmp ? size : sizeof tmp;
		memcpy(tmp, a, k);
		memcpy(a, b, k);
		memcpy(b, tmp, k);
		a += k;
		b += k;
		size -= k;
	}
}

typedef int compare_fn(const void *, const void *);

static void sift_down(char *base, size_t root, size_t n, size_t size, compare_fn *cmp)
{
	for (;;) {
		size_t child = 2 * root + 1;
		energy_charge(CALL_PRICE);
		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap_counted(base + root * size, base + child * size, size);
		root = child;
	}
}

void __aic_qsort(void *base, size_t n, size_t size, compare_fn *cmp)
{
	char *b = base;
	energy_charge(CALL_PRICE);
	if (n < 2 || size == 0)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n - 1; end > 0; end--) {
		swap_counted(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}

void *__aic_bsearch(const void *key, const void *base, size_t n, size_t size,
			    compare_fn *cmp)
{
	const char *lo = base;
	while (n > 0) {
		energy_charge(CALL_PRICE);
		const char *mid = lo + (n / 2) * size;
		int r = cmp(key, mid);
		if (r == 0)
			return (void *)mid;
		if (r > 0) {
			lo = mid + size;
			n -= n / 2 + 1;
		} else {
			n /= 2;
		}
	}
	return NULL;
}

/* ---- mathematics: a price for each function, measured against plain code ---- */

#define MATH_1(name, price)                                 \
	double __aic_##name(double x)               \
	{                                                   \
		energy_charge(price);                       \
		return name(x);                             \
	}                                                   \
	float __aic_##name##f(float x)              \
	{                                                   \
		energy_charge(price);                       \
		return name##f(x);                          \
	}
#define MATH_2(name, price)                                 \
	double __aic_##name(double x, double y)     \
	{                                                   \
		energy_charge(price);                       \
		return name(x, y);                          \
	}                                                   \
	float __aic_##name##f(float x, float y)     \
	{                                                   \
		energy_charge(price);                       \
		return name##f(x, y);                       \
	}

MATH_1(sqrt, MATH_CHEAP)
MATH_1(floor, MATH_CHEAP)
MATH_1(ceil, MATH_CHEAP)
MATH_1(round, MATH_CHEAP)
MATH_1(trunc, MATH_CHEAP)
MATH_1(fabs, MATH_CHEAP)
MATH_2(fmin, MATH_CHEAP)
MATH_2(fmax, MATH_CHEAP)
MATH_1(cbrt, MATH_TRANSCENDENTAL)
MATH_1(sin, MATH_TRANSCENDENTAL)
MATH_1(cos, MATH_TRANSCENDENTAL)
MATH_1(tan, MATH_TRANSCENDENTAL)
MATH_1(asin, MATH_TRANSCENDENTAL)
MATH_1(acos, MATH_TRANSCENDENTAL)
MATH_1(atan, MATH_TRANSCENDENTAL)
MATH_1(sinh, MATH_TRANSCENDENTAL)
MATH_1(cosh, MATH_TRANSCENDENTAL)
MATH_1(tanh, MATH_TRANSCENDENTAL)
MATH_1(exp, MATH_TRANSCENDENTAL)
MATH_1(exp2, MATH_TRANSCENDENTAL)
MATH_1(log, MATH_TRANSCENDENTAL)
MATH_1(log2, MATH_TRANSCENDENTAL)
MATH_1(log10, MATH_TRANSCENDENTAL)
MATH_2(atan2, MATH_TRANSCENDENTAL)
MATH_2(hypot, MATH_TRANSCENDENTAL)
MATH_2(pow, MATH_TRANSCENDENTAL)
MATH_2(fmod, MATH_TRANSCENDENTAL)

long __aic_lround(double x)
{
	energy_charge(MATH_CHEAP);
	return lround(x);
}

long __aic_lroundf(float x)
{
	energy_charge(MATH_CHEAP);
	return lroundf(x);
}

/* ---- gcc's helpers for what the processor has no instruction for ---------------- */

int __popcountdi2(long);
__int128 __divti3(__int128, __int128);
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
__int128 __modti3(__int128, __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);

int __aic___popcountdi2(long x)
{
	energy_charge(CALL_PRICE);
	return __popcountdi2(x);
}

#define WIDE_DIVISION(name, type)                        \
	type __aic_##name(type a, type b)        \
	{                                                \
		energy_charge(WIDE_DIVISION_PRICE);      \
		return name(a, b);                       \
	}
WIDE_DIVISION(__divti3, __int128)
WIDE_DIVISION(__udivti3, unsigned __int128)
WIDE_DIVISION(__modti3, __int128)
WIDE_DIVISION(__umodti3, unsigned __int128)
