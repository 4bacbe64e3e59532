/* board_html.c - the leaderboard page (the service's, its data embedded),
 * and safe text for the read-side commands. */
#include "judge/cli/board_html.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"
#include "judge/replay/web_page.h"

/* The next character of s (NUL-terminated: at most 4 bytes are read). */
static size_t next_char(const char *s, bool *printable)
{
	return text_char((const unsigned char *)s, strnlen(s, 4), printable);
}

/* ---- terminal ------------------------------------------------------------ */

/* The next character of s: how many bytes it takes, and what to print
 * instead of them (NULL: the bytes themselves). */
static size_t term_char(const char *s, bool lines, const char **subst)
{
	bool printable;
	size_t n = next_char(s, &printable);
	*subst = NULL;
	if (*s == '\n' || *s == '\t')
		*subst = lines ? NULL : " ";
	else if (!printable)
		*subst = "?";
	return n;
}

int board_cols(const char *s)
{
	int cols = 0;
	const char *subst;
	for (; *s; cols++)
		s += term_char(s, false, &subst);
	return cols;
}

void board_cell(FILE *f, const char *s, int width)
{
	int cols = 0;
	for (const char *subst; *s; cols++) {
		size_t n = term_char(s, false, &subst);
		if (subst)
			fputs(subst, f);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	for (; cols < width; cols++)
		fputc(' ', f);
}

void board_lines(FILE *f, const char *s, const char *indent)
{
	bool line_start = true;
	for (const char *subst; *s;) {
		if (line_start)
			fputs(indent, f);
		size_t n = term_char(s, true, &subst);
		if (subst)
			fputs(subst, f);
		else
			fwrite(s, 1, n, f);
		line_start = *s == '\n';
		s += n;
	}
	if (!line_start)
		fputc('\n', f);
}

/* ---- JSON, times, numbers ------------------------------------------------ */

void board_time(int64_t ms, char buf[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, 32, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, 32, "%lld ms", (long long)ms);
}

const char *board_num(double v, char buf[32])
{
	/* A new player's score, 25 - 3 * 25/3, can come out a hair below 0. */
	snprintf(buf, 32, "%.2f", v > -0.005 && v < 0.005 ? 0.0 : v);
	return buf;
}

/* ---- the page ------------------------------------------------------------ */

int board_html_write(const char *path, struct store *s, const struct board *b,
		     err_t err)
{
	err_t serr;
	json_t *data = board_page_json(s, b, serr);
	if (!data) {
		err_set(err, "cannot build the page: %.200s", serr->msg);
		return -1;
	}
	int rc = web_page_write(path, "serve/leaderboard.html", data, err);
	json_decref(data);
	return rc;
}
