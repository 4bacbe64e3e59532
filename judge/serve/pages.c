/* pages.c - the service's pages (serve.h): HTML shells, a style sheet and
 * a script compiled in from web/serve/ (web_files, web_page.h).  A request
 * path picks one of a fixed list of them, never a file by its name.  A
 * page of a game that does not exist is a 404 (the shell still comes, and
 * says so when it asks the API). */
#include <string.h>

#include "games/game.h"
#include "judge/replay/web_page.h"
#include "judge/serve/serve_int.h"

struct page {
	const char *prefix; /* the request path, or its start up to the variable part */
	const char *file;   /* under web/ */
	const char *type;
	bool viewer;        /* shows the replay viewer in a frame */
};

static const struct page pages[] = {
	{ "/leaderboard/", "serve/leaderboard.html", "text/html; charset=utf-8", false },
	{ "/players/", "serve/player.html", "text/html; charset=utf-8", false },
	{ "/matches/", "serve/match.html", "text/html; charset=utf-8", true },
	{ "/submissions", "serve/submissions.html", "text/html; charset=utf-8", false },
	{ "/upload", "serve/upload.html", "text/html; charset=utf-8", false },
	{ "/games/", "serve/game.html", "text/html; charset=utf-8", false },
	{ "/tournaments/", "serve/tournament.html", "text/html; charset=utf-8", false },
	{ "/tournaments", "serve/tournaments.html", "text/html; charset=utf-8", false },
	{ "/organiser", "serve/organiser.html", "text/html; charset=utf-8", false },
	{ "/plagiarism/", "serve/plagiarism.html", "text/html; charset=utf-8", false },
	{ "/static/serve.css", "serve/serve.css", "text/css; charset=utf-8", false },
	{ "/static/serve.js", "serve/serve.js", "text/javascript; charset=utf-8", false },
	{ "/static/tournament.js", "serve/tournament.js", "text/javascript; charset=utf-8", false },
	{ "/static/people.js", "serve/people.js", "text/javascript; charset=utf-8", false },
	{ "/static/game.js", "serve/game.js", "text/javascript; charset=utf-8", false },
	{ "/static/plag.js", "serve/plag.js", "text/javascript; charset=utf-8", false },
	{ "/", "serve/index.html", "text/html; charset=utf-8", false },
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

/* The game a page names (a leaderboard's path, or ?game=) exists, or the
 * page names none. */
static bool page_game_known(const struct request *rq, const struct page *p)
{
	bool in_path = strcmp(p->prefix, "/leaderboard/") == 0 || strcmp(p->prefix, "/games/") == 0 ||
		       strcmp(p->prefix, "/plagiarism/") == 0;
	const char *game = in_path ? rq->path + strlen(p->prefix)
				   : request_arg(rq, "game");
	return !game || game_find(game);
}

void page_static(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	for (const struct page *p = pages; p->prefix; p++) {
		const char *text = page_matches(p, rq->path) ? web_file(p->file) : NULL;
		if (!text)
			continue;
		bool html = strncmp(p->type, "text/html", 9) == 0;
		rp->status = !html || page_game_known(rq, p) ? 200 : 404;
		rp->type = p->type;
		rp->static_body = text;
		rp->len = strlen(text);
		if (html)
			rp->policy = p->viewer ? rq->viewer_policy : csp_page;
		return;
	}
	page_missing(rq, rp);
}

void page_missing(struct request *rq, struct reply *rp)
{
	(void)rq;
	const char *text = web_file("serve/missing.html");
	rp->status = 404;
	rp->type = "text/html; charset=utf-8";
	rp->static_body = text;
	rp->len = text ? strlen(text) : 0;
	rp->policy = csp_page;
}
