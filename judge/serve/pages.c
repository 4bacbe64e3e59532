/* pages.c - the service's pages (serve.h): HTML shells, a style sheet and
 * a script compiled in from web/serve/ (web_files, viewer.h).  A request
 * path picks one of a fixed list of them, never a file by its name. */
#include <string.h>

#include "judge/replay/viewer.h"
#include "judge/serve/serve_int.h"

struct page {
	const char *prefix; /* the request path, or its start up to the variable part */
	const char *file;   /* under web/ */
	const char *type;
};

static const struct page pages[] = {
	{ "/leaderboard/", "serve/leaderboard.html", "text/html; charset=utf-8" },
	{ "/players/", "serve/player.html", "text/html; charset=utf-8" },
	{ "/matches/", "serve/match.html", "text/html; charset=utf-8" },
	{ "/submissions", "serve/submissions.html", "text/html; charset=utf-8" },
	{ "/upload", "serve/upload.html", "text/html; charset=utf-8" },
	{ "/organiser", "serve/organiser.html", "text/html; charset=utf-8" },
	{ "/static/serve.css", "serve/serve.css", "text/css; charset=utf-8" },
	{ "/static/serve.js", "serve/serve.js", "text/javascript; charset=utf-8" },
	{ "/", "serve/index.html", "text/html; charset=utf-8" },
	{ 0 },
};

/* "/static/" names must match whole; the other pages by their start. */
static bool page_matches(const struct page *p, const char *path)
{
	size_t n = strlen(p->prefix);
	if (strncmp(p->prefix, "/static/", 8) == 0 || strcmp(p->prefix, "/") == 0)
		return strcmp(path, p->prefix) == 0;
	return strncmp(path, p->prefix, n) == 0;
}

void page_static(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	for (const struct page *p = pages; p->prefix; p++) {
		const char *text = page_matches(p, rq->path) ? web_file(p->file) : NULL;
		if (!text)
			continue;
		rp->status = 200;
		rp->type = p->type;
		rp->static_body = text;
		rp->len = strlen(text);
		rp->page = strncmp(p->type, "text/html", 9) == 0;
		return;
	}
	reply_error(rp, 404, "no such page: start at /");
}
