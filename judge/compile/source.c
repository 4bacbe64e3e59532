#include "judge/compile/source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int src_read(const char *path, size_t max, char **buf, size_t *len, char err[SRC_ERRLEN])
{
	struct stat st;
	FILE *f = fopen(path, "re");
	if (!f || fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, SRC_ERRLEN, "cannot read %.200s: %s", path,
			 f ? "not a regular file" : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if ((uintmax_t)st.st_size > max) {
		fclose(f);
		snprintf(err, SRC_ERRLEN, "%.200s is larger than %zu KiB", path, max / 1024);
		return -1;
	}
	*buf = malloc((size_t)st.st_size + 1);
	*len = *buf ? fread(*buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!*buf) {
		snprintf(err, SRC_ERRLEN, "out of memory reading %.200s", path);
		return -1;
	}
	(*buf)[*len] = '\0';
	return 0;
}

/* Skips a comment or a literal starting at s[i]; returns the index after
 * it, or i when there is none. */
static size_t skip_noise(const char *s, size_t len, size_t i)
{
	if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
		while (i < len && s[i] != '\n')
			i++;
	} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
		const char *end = strstr(s + i + 2, "*/");
		i = end ? (size_t)(end - s) + 2 : len;
	} else if (s[i] == '"' || s[i] == '\'') {
		char q = s[i++];
		while (i < len && s[i] != q && s[i] != '\n')
			i += s[i] == '\\' ? 2 : 1;
		i++;
	}
	return i;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* The name in PLAYER_NAME(Name), outside comments and literals. */
int src_player_name(const char *s, size_t len, char name[PLAYER_NAME_MAX + 1])
{
	static const char key[] = "PLAYER_NAME";
	for (size_t i = 0; i < len;) {
		size_t next = skip_noise(s, len, i);
		if (next != i) {
			i = next;
			continue;
		}
		bool at_word = i == 0 || !ident_char(s[i - 1]);
		if (!at_word || strncmp(s + i, key, sizeof key - 1) != 0) {
			i++;
			continue;
		}
		const char *p = s + i + sizeof key - 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '(')
			return -1;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t)");
		if (!player_name_valid(p, n) || p[n + strspn(p + n, " \t")] != ')')
			return -1;
		memcpy(name, p, n);
		name[n] = '\0';
		return 0;
	}
	return -1;
}

