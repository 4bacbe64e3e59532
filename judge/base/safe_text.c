#include "judge/base/safe_text.h"

#include <stdlib.h>
#include <string.h>

size_t text_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	unsigned c = s[0];
	uint32_t v, min;
	size_t len;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0)
		len = 2, v = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, v = c & 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		len = 4, v = c & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* The marks and overrides of bidirectional text: shown as themselves they
 * reorder what follows them, so that a name or a line of a compile log
 * reads as something it is not. */
static bool bidi_control(uint32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t text_char(const unsigned char *s, size_t n, bool *printable)
{
	uint32_t cp = 0;
	size_t k = text_utf8(s, n, &cp);
	*printable = k > 0 && cp >= 0x20 && !(cp >= 0x7f && cp <= 0x9f) && !bidi_control(cp);
	return k ? k : 1;
}

char *safe_utf8(const char *s, size_t left, size_t *out_len)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	/* Each invalid byte grows to the three bytes of U+FFFD. */
	char *clean = malloc(3 * left + 1), *o = clean;
	if (!clean)
		return NULL;
	while (left) {
		uint32_t cp;
		size_t n = text_utf8((const unsigned char *)s, left, &cp);
		memcpy(o, n ? s : replacement, n ? n : 3);
		o += n ? n : 3;
		s += n ? n : 1;
		left -= n ? n : 1;
	}
	*o = '\0';
	if (out_len)
		*out_len = (size_t)(o - clean);
	return clean;
}

json_t *safe_json_text(const char *s)
{
	if (!s)
		return json_null();
	char *clean = safe_utf8(s, strlen(s), NULL);
	if (!clean)
		return NULL;
	json_t *j = json_string(clean);
	free(clean);
	return j;
}
