/* board_html.c - the leaderboard page, and safe text for the read-side
 * commands. */
#include "judge/cli/board_html.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"

static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */

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

/* s as HTML text, valid in an element and in a quoted attribute. */
void board_html_text(FILE *f, const char *s)
{
	while (*s) {
		bool printable;
		size_t n = next_char(s, &printable);
		switch (printable ? *s : 0) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (printable)
				fwrite(s, 1, n, f);
			else
				fputs(replacement, f);
		}
		s += n;
	}
}

static const char page_style[] =
	"body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;"
	"color:#222;background:#fafafa}\n"
	"h1{font-weight:600;margin-bottom:.2em}\n"
	".when,.note{color:#666}\n"
	"table{border-collapse:collapse;width:100%}\n"
	"th,td{padding:.35em .7em;border-bottom:1px solid #ddd;text-align:left}\n"
	"th{background:#eee}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tr.top td{font-weight:600}\n"
	"tbody tr:hover{background:#f0f4ff}\n"
	"td.recent a{margin-right:.4em}\n";

void board_html_head(FILE *f, const char *title, const char *when)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	/* Even were a name to slip through unescaped, no script would run and
	 * nothing would be fetched. */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n", f);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", f);
	fputs("<title>", f);
	board_html_text(f, title);
	fprintf(f, ", %s</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", when, page_style);
	board_html_text(f, title);
	fputs("</h1>\n", f);
}

static void page_head(FILE *f, const struct board *b, const char *when)
{
	char title[128];
	snprintf(title, sizeof title, "%s leaderboard", b->title);
	board_html_head(f, title, when);
	fputs("<p class=\"when\">", f);
	board_html_text(f, b->game);
	fprintf(f, ": %zu ranked player%s, as of %s</p>\n", b->n, b->n == 1 ? "" : "s", when);
}

static void page_recent(FILE *f, const struct board_row *r)
{
	fputs("<td class=\"recent\">", f);
	for (int i = 0; i < r->nrecent; i++)
		fprintf(f, "%s<a href=\"replay-%lld.html\" title=\"watch match %lld\">#%lld</a>",
			i ? " " : "", (long long)r->recent[i], (long long)r->recent[i],
			(long long)r->recent[i]);
	fputs("</td>", f);
}

static void page_row(FILE *f, const struct board_row *r, bool sizes)
{
	char score[32], mu[32], sigma[32];
	fprintf(f, "<tr%s><td class=\"n\">%d</td><td>", r->rank <= 3 ? " class=\"top\"" : "",
		r->rank);
	board_html_text(f, r->player);
	fputs("</td><td>", f);
	board_html_text(f, r->author);
	fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		"<td class=\"n\">%d</td><td class=\"n\">%d</td>",
		board_num(r->score, score), board_num(r->mu, mu), board_num(r->sigma, sigma),
		r->games, r->wins);
	if (sizes) {
		char text[BOARD_SIZES_LEN];
		board_sizes_text(r, text);
		fprintf(f, "<td>%s</td>", text);
	}
	page_recent(f, r);
	fputs("</tr>\n", f);
}

static void page_table(FILE *f, const struct board *b)
{
	if (b->n == 0) {
		fputs("<p>No ranked players yet.</p>\n", f);
		return;
	}
	fputs("<table>\n<thead><tr><th class=\"n\">Rank</th><th>Player</th><th>Author</th>"
	      "<th class=\"n\">Score</th><th class=\"n\">&mu;</th><th class=\"n\">&sigma;</th>"
	      "<th class=\"n\">Games</th><th class=\"n\">Wins</th>", f);
	if (b->sizes)
		fputs("<th title=\"players in the match: matches\">By size</th>", f);
	fputs("<th>Watch</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < b->n; i++)
		page_row(f, &b->row[i], b->sizes);
	fputs("</tbody>\n</table>\n", f);
}

int board_html_write(const char *path, const struct board *b, char err[BOARD_ERRLEN])
{
	char *page = NULL, when[32];
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);
	if (!f) {
		snprintf(err, BOARD_ERRLEN, "cannot build the page: %s", strerror(errno));
		return -1;
	}
	board_time(b->generated_ms, when);
	page_head(f, b, when);
	page_table(f, b);
	fputs("<p class=\"note\">Score = &mu; &minus; 3&sigma;: a skill the player very likely "
	      "has; it rises with games played and won. Equal scores share a rank. Watch: "
	      "the player's latest matches, each a page to open in a browser.</p>\n"
	      "</body>\n</html>\n", f);
	if (fclose(f) != 0) {
		free(page);
		snprintf(err, BOARD_ERRLEN, "cannot build the page: out of memory");
		return -1;
	}
	int rc = file_write_whole(path, page, len, 0644, err);
	free(page);
	return rc;
}
