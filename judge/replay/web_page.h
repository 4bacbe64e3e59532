/* web_page.h - one renderer per page: a page of the service (web/serve/)
 * written as one self-contained file with its data embedded, so that the
 * command line's --html output (`judge leaderboard`, `judge plagiarism`)
 * is drawn by the same script as the service's page, and C only writes
 * the data, with the same writer as the service's answer (board_page_text,
 * plag_list_json).  No page is drawn in C.
 *
 * Promises.  The file needs nothing but itself: the page's stylesheets and
 * scripts (href="/static/NAME", src="/static/NAME") are inlined, and a
 * Content-Security-Policy lets nothing be fetched.  The data is carried as
 * <script type="application/json" id="page-data">, '<', '>' and '&'
 * written as JSON escapes: no text in it can end the element.  The page's
 * scripts (serve.js, and its own such as plag.js) read it instead of
 * asking the API.
 */
#ifndef JUDGE_WEB_PAGE_H
#define JUDGE_WEB_PAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "judge/base/error.h"


/* One file of web/, by its path under web/ ("viewer/core.js"): the build
 * compiles them all in (Makefile: web/files.c). */
struct web_file {
	const char *name;
	const char *text;
};
extern const struct web_file web_files[]; /* ends with { NULL, NULL } */

/* A file of web/, or NULL when there is none by that name. */
const char *web_file(const char *name);

/* Compact JSON text with '<', '>' and '&' as \u escapes (the same text to
 * a JSON reader, harmless inside an HTML script element). */
void web_json_escaped(FILE *f, const char *json);

/* A script of our own can be inlined: it holds no "</script". */
bool web_script_safe(const char *text);

/* A page built in memory: put(f, arg, err) writes it; what it wrote is
 * handed over in *page (free it).  0, or -1 with err filled. */
int web_page_build(int (*put)(FILE *f, const void *arg, struct err *err), const void *arg,
		   char **page, size_t *len, struct err *err);

/* web/NAME (e.g. "serve/leaderboard.html") with its files inlined and data
 * embedded, in a new buffer (free it).  0, or -1 with err filled. */
int web_page_embed(const char *name, const json_t *data, char **page, size_t *len,
		   err_t err);

/* The same, written to path as file_write.h writes. */
int web_page_write(const char *path, const char *name, const json_t *data,
		   err_t err);

#endif
