#include "judge/base/json_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/grow.h"
#include "judge/base/safe_text.h"

bool jtext_reserve(struct jtext *t, size_t n)
{
	if (t->failed)
		return false;
	if (!grow_room(&t->s, &t->cap, t->len + n + 1, 1, 4096))
		t->failed = true;
	return !t->failed;
}

void jtext_raw(struct jtext *t, const char *bytes, size_t n)
{
	if (!jtext_reserve(t, n))
		return;
	memcpy(t->s + t->len, bytes, n);
	t->len += n;
	t->s[t->len] = '\0';
}

void jtext_lit(struct jtext *t, const char *text)
{
	jtext_raw(t, text, strlen(text));
}

static void put_u16(struct jtext *t, unsigned v)
{
	char esc[8];
	snprintf(esc, sizeof esc, "\\u%04X", v & 0xffff);
	jtext_raw(t, esc, 6);
}

/* One code point, escaped as ENSURE_ASCII escapes it. */
static void put_char(struct jtext *t, uint32_t cp)
{
	static const char short_esc[] = "\b\f\n\r\t\"\\", short_name[] = "bfnrt\"\\";
	const char *e = cp && cp < 0x80 ? strchr(short_esc, (int)cp) : NULL;
	char two[2] = { '\\', e ? short_name[e - short_esc] : 0 };
	if (e)
		jtext_raw(t, two, 2);
	else if (cp >= 0x20 && cp < 0x80)
		jtext_raw(t, (const char[]){ (char)cp }, 1);
	else if (cp < 0x10000)
		put_u16(t, cp);
	else {
		put_u16(t, 0xd800 + ((cp - 0x10000) >> 10));
		put_u16(t, 0xdc00 + ((cp - 0x10000) & 0x3ff));
	}
}

/* A string of len bytes at p: '"', '\\' and control characters escaped;
 * with ascii, everything past ASCII too, as JSON_ENSURE_ASCII writes it
 * (invalid UTF-8 as U+FFFD), else copied (jansson's strings are valid). */
static void put_string(struct jtext *t, const unsigned char *p, size_t left, bool ascii)
{
	jtext_raw(t, "\"", 1);
	while (left) {
		size_t plain = 0; /* a run that needs no escape goes in one copy */
		while (plain < left && p[plain] >= 0x20 && (!ascii || p[plain] < 0x80) &&
		       p[plain] != '"' && p[plain] != '\\')
			plain++;
		jtext_raw(t, (const char *)p, plain);
		p += plain;
		left -= plain;
		if (!left)
			break;
		uint32_t cp = *p;
		size_t n = ascii ? text_utf8(p, left, &cp) : 1;
		put_char(t, n ? cp : 0xfffd);
		p += n ? n : 1;
		left -= n ? n : 1;
	}
	jtext_raw(t, "\"", 1);
}

void jtext_str(struct jtext *t, const char *s)
{
	if (s)
		put_string(t, (const unsigned char *)s, strlen(s), true);
	else
		jtext_lit(t, "null");
}

/* The decimal digits of v, written backwards ending at end; their start. */
static char *put_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void jtext_int(struct jtext *t, int64_t v)
{
	char num[24], *end = num + sizeof num;
	uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char *start = put_digits(end, magnitude);
	if (v < 0)
		*--start = '-';
	jtext_raw(t, start, (size_t)(end - start));
}

/* ---- reals ---------------------------------------------------------------- */

/* jansson writes a real as printf's %.17g.  glibc's printf computes those
 * digits exactly, with multiple-precision arithmetic: a few hundred ns,
 * most of a leaderboard's time.  For the reals of a leaderboard the exact
 * digits fit 128-bit integers; printf writes the rest. */
#define REAL_DIGITS 17
#define REAL_MAX_P 22 /* m * 10^p < 2^53 * 2^73.1 fits 128 bits */
#define TEN_16 10000000000000000ull

typedef unsigned __int128 u128;

static u128 power_of_ten(int p)
{
	u128 r = 1;
	for (; p >= 8; p -= 8)
		r *= 100000000u;
	static const uint32_t small[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
	return r * small[p];
}

/* m * 2^e * 10^p, p >= 0, rounded to an integer as glibc rounds: to the
 * nearest, a tie to even. */
static uint64_t scaled(uint64_t m, int e, int p)
{
	u128 n = (u128)m * power_of_ten(p);
	if (e >= 0)
		return (uint64_t)(n << e);
	unsigned s = (unsigned)-e;
	u128 q = n >> s, rest = n - (q << s), half = (u128)1 << (s - 1);
	return (uint64_t)(q + (rest > half || (rest == half && (q & 1))));
}

/* |v| as its 17 significant digits (in [10^16, 10^17)) and the power of
 * ten of the first, *x: |v| ~ digits * 10^(x - 16).  False for zero,
 * subnormals, and |v| out of [~1e-6, 1e17), which printf writes. */
static bool real_digits(double v, uint64_t *digits, int *x)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	int biased = (int)(bits >> 52 & 0x7ff);
	if (biased == 0 || biased == 0x7ff)
		return false;
	uint64_t m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
	int e = biased - 1075; /* |v| = m * 2^e */
	/* floor(log10(2^(e + 52))): x itself or one less */
	*x = ((e + 52) * 78913) >> 18;
	for (;;) {
		int p = REAL_DIGITS - 1 - *x;
		if (p < 0 || p > REAL_MAX_P || e < -127)
			return false;
		*digits = scaled(m, e, p);
		if (*digits < TEN_16 * 10)
			return *digits >= TEN_16;
		++*x; /* a digit too many (or rounded up to 10^17) */
	}
}

/* %.17g of the digits, with jansson's changes: ".0" when they read as an
 * integer, the exponent without "+" nor leading zeros. */
static size_t real_text(char *out, bool negative, uint64_t digits, int x)
{
	char d[REAL_DIGITS];
	put_digits(d + REAL_DIGITS, digits);
	int n = REAL_DIGITS; /* printf's %g drops trailing zeros */
	while (n > 1 && d[n - 1] == '0')
		n--;
	char *o = out;
	if (negative)
		*o++ = '-';
	if (x < -4) { /* 1.25e-5 */
		*o++ = d[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)n - 1);
			o += n - 1;
		}
		*o++ = 'e';
		*o++ = '-';
		*o++ = (char)('0' - x); /* x is -5 or -6 here */
	} else if (x < 0) { /* 0.00125 */
		memcpy(o, "0.000", (size_t)(1 - x));
		o += 1 - x;
		memcpy(o, d, (size_t)n);
		o += n;
	} else { /* 125.0, 1.25 */
		memcpy(o, d, (size_t)x + 1);
		o += x + 1;
		*o++ = '.';
		if (n > x + 1) {
			memcpy(o, d + x + 1, (size_t)(n - x - 1));
			o += n - x - 1;
		} else
			*o++ = '0';
	}
	return (size_t)(o - out);
}

/* As printf and jansson write it, for what real_digits leaves. */
static size_t real_printf(char *num, size_t size, double v)
{
	int n = snprintf(num, size, "%.17g", v);
	char *e = strchr(num, 'e');
	if (!e && !strchr(num, '.'))
		n += snprintf(num + n, size - (size_t)n, ".0");
	if (e) {
		char *src = e + 1, *dst = e + 1;
		if (*src == '+')
			src++;
		else if (*src == '-')
			*dst++ = *src++;
		while (*src == '0' && src[1])
			src++;
		memmove(dst, src, strlen(src) + 1);
		n = (int)strlen(num);
	}
	return (size_t)n;
}

void jtext_real(struct jtext *t, double v)
{
	char num[40];
	uint64_t digits;
	int x;
	if (!isfinite(v))
		jtext_lit(t, "null");
	else if (real_digits(v, &digits, &x))
		jtext_raw(t, num, real_text(num, signbit(v), digits, x));
	else
		jtext_raw(t, num, real_printf(num, sizeof num, v));
}

void jtext_bool(struct jtext *t, bool v)
{
	jtext_lit(t, v ? "true" : "false");
}

void jtext_key(struct jtext *t, const char *name)
{
	size_t n = strlen(name);
	if (!jtext_reserve(t, n + 4)) /* one check for ,"name": */
		return;
	char *o = t->s + t->len;
	if (t->len && o[-1] != '{')
		*o++ = ',';
	*o++ = '"';
	memcpy(o, name, n);
	o += n;
	*o++ = '"';
	*o++ = ':';
	*o = '\0';
	t->len = (size_t)(o - t->s);
}

void jtext_int_member(struct jtext *t, const char *name, int64_t v)
{
	jtext_key(t, name);
	jtext_int(t, v);
}

void jtext_real_member(struct jtext *t, const char *name, double v)
{
	jtext_key(t, name);
	jtext_real(t, v);
}

void jtext_str_member(struct jtext *t, const char *name, const char *s)
{
	jtext_key(t, name);
	jtext_str(t, s);
}

void jtext_bool_member(struct jtext *t, const char *name, bool v)
{
	jtext_key(t, name);
	jtext_bool(t, v);
}

void jtext_value(struct jtext *t, const json_t *v)
{
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY) : NULL;
	if (!text) {
		t->failed = true;
		return;
	}
	jtext_lit(t, text);
	free(text);
}

/* ---- whole trees, as json_dumps(JSON_COMPACT) writes them ----------------- */

void jtext_json(struct jtext *t, const json_t *v)
{
	const char *key;
	json_t *member;
	size_t i;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		i = 0;
		jtext_raw(t, "{", 1);
		json_object_foreach((json_t *)v, key, member) {
			if (i++)
				jtext_raw(t, ",", 1);
			put_string(t, (const unsigned char *)key, strlen(key), false);
			jtext_raw(t, ":", 1);
			jtext_json(t, member);
		}
		jtext_raw(t, "}", 1);
		break;
	case JSON_ARRAY:
		jtext_raw(t, "[", 1);
		json_array_foreach(v, i, member) {
			if (i)
				jtext_raw(t, ",", 1);
			jtext_json(t, member);
		}
		jtext_raw(t, "]", 1);
		break;
	case JSON_STRING:
		put_string(t, (const unsigned char *)json_string_value(v), json_string_length(v),
			   false);
		break;
	case JSON_INTEGER:
		jtext_int(t, json_integer_value(v));
		break;
	case JSON_REAL: /* always finite: json_real() refuses the others */
		jtext_real(t, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		jtext_bool(t, json_is_true(v));
		break;
	default:
		jtext_lit(t, "null");
	}
}

char *jtext_finish(struct jtext *t, size_t *len)
{
	char *s = t->failed ? NULL : t->s ? t->s : strdup("");
	if (!s)
		free(t->s);
	if (len)
		*len = s ? t->len : 0;
	*t = (struct jtext){ 0 };
	return s;
}
