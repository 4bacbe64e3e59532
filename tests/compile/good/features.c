/* Plain C that makes gcc write most of what the assembly check allows:
 * floats and long doubles, switch tables, big initialised and zeroed
 * arrays, thread-local data, variadic and nested functions (a trampoline:
 * an executable stack), a constructor with a priority, a computed goto,
 * string literals of every width, 128-bit integers, a cold path. */
#include "dominator.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

static _Thread_local int calls;
static int table[4096] = { 1, 2, 3 };
static char zeros[1 << 16];
static const double weights[] = { 0.5, 1.25, -3.0, 1e300 };
static long double scale = 1.5L;
static const char *const names[] = { "a\tb", "caf\xc3\xa9", "q\"uote" };
static const wchar_t *wide = L"wide";
static const char16_t *narrow16 = u"sixteen";
static unsigned __int128 big = (unsigned __int128)1 << 100;
static int started;

__attribute__((constructor(101))) static void start(void)
{
	started = 1;
}

static int sum(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	int s = 0;
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

static int pick(int x)
{
	switch (x & 7) {
	case 0: return 3;
	case 1: return 7;
	case 2: return 9;
	case 3: return 11;
	case 4: return 2;
	case 5: return 99;
	case 6: return 5;
	default: return 17;
	}
}

static int apply(int (*f)(int), int v)
{
	return f(v);
}

static int nested(int k)
{
	int add(int x) { return x + k; }
	return apply(add, 1);
}

static int jump(int i)
{
	static void *const where[] = { &&zero, &&one };
	goto *where[i & 1];
zero:
	return 0;
one:
	return 1;
}

__attribute__((cold, noinline)) static void rare(void)
{
	abort();
}

int ai_move(int turn)
{
	if (turn < 0)
		rare();
	calls++;
	zeros[turn] = (char)turn;
	double w = weights[turn & 3] * (double)scale;
	int r = sum(3, turn, pick(turn), nested(turn)) + jump(turn) + table[turn] + zeros[turn];
	r += (int)(w > 100.0) + (int)strlen(names[turn % 3]) + (int)wcslen(wide);
	r += narrow16[0] == u's' ? started : 0;
	return r + (int)(big >> 100) + calls * 0;
}
