#include "judge/compile/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why a path that is not a regular file cannot be a submission. */
static const char *not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return "it is a directory, not a file";
	if (S_ISFIFO(mode))
		return "it is a pipe (FIFO), not a file";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "it is a device, not a file";
	return "it is not a regular file";
}

/* Opens path for reading without ever blocking (O_NONBLOCK: a FIFO with no
 * writer would otherwise wait forever) and keeps it only if it is a regular
 * file; -1 with err set otherwise. */
static int open_regular(const char *path, struct stat *st, char err[SRC_ERRLEN])
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, SRC_ERRLEN, "cannot read %.200s: %s", path, strerror(errno));
		return -1;
	}
	const char *why = fstat(fd, st) < 0	   ? strerror(errno)
			  : !S_ISREG(st->st_mode) ? not_regular(st->st_mode)
						  : NULL;
	if (why) {
		snprintf(err, SRC_ERRLEN, "cannot read %.150s: %s; give the path of your .c file",
			 path, why);
		close(fd);
		return -1;
	}
	return fd;
}

int src_read(const char *path, size_t max, char **buf, size_t *len, char err[SRC_ERRLEN])
{
	struct stat st;
	int fd = open_regular(path, &st, err);
	if (fd < 0)
		return -1;
	if ((uintmax_t)st.st_size > max) {
		close(fd);
		snprintf(err, SRC_ERRLEN, "%.200s is larger than %zu KiB", path, max / 1024);
		return -1;
	}
	*buf = malloc((size_t)st.st_size + 1);
	*len = 0;
	while (*buf && *len < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + *len, (size_t)st.st_size - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the file shrank (or failed): what was read counts */
		*len += (size_t)n;
	}
	close(fd);
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

static const char player_key[] = "PLAYER_NAME";

/* The index of the next PLAYER_NAME word at or after i, outside comments
 * and literals; len when there is none. */
static size_t next_player_key(const char *s, size_t len, size_t i)
{
	while (i < len) {
		size_t next = skip_noise(s, len, i);
		if (next != i) {
			i = next;
			continue;
		}
		bool at_word = i == 0 || !ident_char(s[i - 1]);
		size_t end = i + sizeof player_key - 1;
		if (at_word && end <= len && memcmp(s + i, player_key, sizeof player_key - 1) == 0 &&
		    (end == len || !ident_char(s[end])))
			return i;
		i++;
	}
	return len;
}

int src_player_name(const char *s, size_t len, char name[PLAYER_NAME_MAX + 1])
{
	size_t i = next_player_key(s, len, 0);
	if (i == len)
		return -1;
	const char *p = s + i + sizeof player_key - 1;
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

int src_player_name_count(const char *s, size_t len)
{
	int count = 0;
	for (size_t i = next_player_key(s, len, 0); i < len;
	     i = next_player_key(s, len, i + sizeof player_key - 1))
		count++;
	return count;
}
