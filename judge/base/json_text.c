#include "judge/base/json_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/safe_text.h"

static bool room(struct jtext *t, size_t n)
{
	if (t->failed)
		return false;
	if (t->len + n + 1 <= t->cap)
		return true;
	size_t cap = t->cap ? t->cap : 4096;
	while (cap < t->len + n + 1)
		cap *= 2;
	char *grown = realloc(t->s, cap);
	if (!grown) {
		t->failed = true;
		return false;
	}
	t->s = grown;
	t->cap = cap;
	return true;
}

void jtext_raw(struct jtext *t, const char *bytes, size_t n)
{
	if (!room(t, n))
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

void jtext_str(struct jtext *t, const char *s)
{
	if (!s) {
		jtext_lit(t, "null");
		return;
	}
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);
	jtext_raw(t, "\"", 1);
	while (left) {
		size_t plain = 0; /* a run that needs no escape goes in one copy */
		while (plain < left && p[plain] >= 0x20 && p[plain] < 0x80 && p[plain] != '"' &&
		       p[plain] != '\\')
			plain++;
		jtext_raw(t, (const char *)p, plain);
		p += plain;
		left -= plain;
		if (!left)
			break;
		uint32_t cp = 0xfffd;
		size_t n = text_utf8(p, left, &cp);
		put_char(t, n ? cp : 0xfffd);
		p += n ? n : 1;
		left -= n ? n : 1;
	}
	jtext_raw(t, "\"", 1);
}

void jtext_int(struct jtext *t, int64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof num, "%" PRId64, v);
	jtext_raw(t, num, (size_t)n);
}

/* As jansson writes a real: 17 significant digits, ".0" when they read
 * as an integer (so that it reads back as a real), an exponent without
 * "+" or leading zeros. */
void jtext_real(struct jtext *t, double v)
{
	char num[40];
	if (!isfinite(v)) {
		jtext_lit(t, "null");
		return;
	}
	int n = snprintf(num, sizeof num, "%.17g", v);
	char *e = strchr(num, 'e');
	if (!e && !strchr(num, '.'))
		n += snprintf(num + n, sizeof num - (size_t)n, ".0");
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
	jtext_raw(t, num, (size_t)n);
}

void jtext_bool(struct jtext *t, bool v)
{
	jtext_lit(t, v ? "true" : "false");
}

void jtext_key(struct jtext *t, const char *name)
{
	if (t->len && t->s[t->len - 1] != '{')
		jtext_raw(t, ",", 1);
	jtext_raw(t, "\"", 1);
	jtext_lit(t, name);
	jtext_raw(t, "\":", 2);
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
