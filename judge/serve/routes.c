/* routes.c - which handler answers which method and path, and who may
 * ask (serve_int.h).  Paths are matched whole against a fixed table; the
 * variable segment of a route is a number or a name, nothing else, so no
 * request path is ever used to name a file. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "judge/serve/serve_int.h"

/* In a pattern, '#' stands for a positive number, '*' for a name (letters,
 * digits, '_', '-' and '.'; 1 to 64 of them) and '~' for any text of 1 to
 * 64 printable bytes but '/' (a player's name as the store has it: the
 * handler only ever looks it up).  A route with two variable segments gets
 * them as one argument, joined by '/' ("12/0"). */
struct route {
	const char *method, *pattern;
	enum access access;
	handler_fn *run;
};

static const struct route routes[] = {
	{ "GET", "/api/games", ACCESS_OPEN, api_games },
	{ "GET", "/api/games/*", ACCESS_OPEN, api_game },
	{ "GET", "/api/ping", ACCESS_OPEN, api_ping },
	{ "GET", "/api/me", ACCESS_TOKEN, api_me },
	{ "GET", "/api/leaderboard/*", ACCESS_PUBLIC, api_leaderboard },
	{ "GET", "/api/matches/#", ACCESS_PUBLIC, api_match },
	{ "GET", "/api/matches/#/replay", ACCESS_PUBLIC, api_match_replay },
	{ "GET", "/api/matches/#/page", ACCESS_PUBLIC, api_match_page },
	{ "GET", "/api/matches/#/params", ACCESS_PUBLIC, api_match_params },
	{ "GET", "/api/matches/#/logs/*", ACCESS_TOKEN, api_match_log },
	{ "GET", "/api/matches/#/faults/*", ACCESS_TOKEN, api_match_fault },
	{ "GET", "/api/players/~", ACCESS_PUBLIC, api_player },
	{ "GET", "/api/tournaments", ACCESS_PUBLIC, api_tournaments },
	{ "GET", "/api/tournaments/*", ACCESS_PUBLIC, api_tournament },
	{ "GET", "/api/submissions", ACCESS_TOKEN, api_submissions },
	{ "POST", "/api/submissions", ACCESS_TOKEN, api_submit },
	{ "GET", "/api/submissions/#", ACCESS_TOKEN, api_submission },
	{ "GET", "/api/submissions/#/source", ACCESS_TOKEN, api_submission_source },
	{ "POST", "/api/challenges", ACCESS_TOKEN, api_challenge },
	{ "POST", "/api/comparisons", ACCESS_TOKEN, api_compare },
	{ "GET", "/api/comparisons/#", ACCESS_TOKEN, api_comparison },
	/* a reference player's source: an organiser's; 404 to anybody else */
	{ "GET", "/api/references/*/*", ACCESS_TOKEN, api_reference },
	{ "GET", "/api/organiser/players/*", ACCESS_ORGANISER, org_players },
	{ "POST", "/api/organiser/disqualify", ACCESS_ORGANISER, org_disqualify },
	{ "POST", "/api/organiser/reinstate", ACCESS_ORGANISER, org_reinstate },
	{ "POST", "/api/organiser/rejudge", ACCESS_ORGANISER, org_rejudge },
	{ "GET", "/api/organiser/plagiarism/*", ACCESS_ORGANISER, org_plagiarism },
	{ "GET", "/api/organiser/pair/#", ACCESS_ORGANISER, org_plagiarism_pair },
	{ "GET", "/api/organiser/flags", ACCESS_ORGANISER, org_flags },
	{ "POST", "/api/organiser/flags/seen", ACCESS_ORGANISER, org_flags_seen },
	{ "POST", "/api/organiser/flags/#", ACCESS_ORGANISER, org_flag_review },
	{ "GET", "/api/organiser/tokens", ACCESS_ORGANISER, org_tokens },
	{ "POST", "/api/organiser/tokens/#/revoke", ACCESS_ORGANISER, org_token_revoke },
	/* The pages: shells that ask the API with the token the browser keeps. */
	{ "GET", "/", ACCESS_OPEN, page_static },
	{ "GET", "/leaderboard/*", ACCESS_OPEN, page_static },
	{ "GET", "/players/~", ACCESS_OPEN, page_static },
	{ "GET", "/matches/#", ACCESS_OPEN, page_static },
	{ "GET", "/submissions", ACCESS_OPEN, page_static },
	{ "GET", "/submissions/#", ACCESS_OPEN, page_static },
	{ "GET", "/upload", ACCESS_OPEN, page_static },
	{ "GET", "/games/*", ACCESS_OPEN, page_static },
	{ "GET", "/tournaments", ACCESS_OPEN, page_static },
	{ "GET", "/tournaments/*", ACCESS_OPEN, page_static },
	{ "GET", "/organiser", ACCESS_OPEN, page_static },
	{ "GET", "/plagiarism/*", ACCESS_OPEN, page_static },
	{ "GET", "/static/*", ACCESS_OPEN, page_static },
	{ "GET", "/kits/*", ACCESS_OPEN, page_kit },
	{ 0 },
};

static bool segment_char(char kind, char c)
{
	if (kind == '#')
		return isdigit((unsigned char)c);
	if (kind == '*')
		return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
	return (unsigned char)c >= 0x20 && c != 0x7f && c != '/';
}

/* Does path match pattern?  The variable segments go into arg. */
static bool matches(const char *pattern, const char *path, char *arg, size_t arg_len)
{
	const char *p = pattern, *s = path;
	size_t used = 0;
	while (*p && *s) {
		if (*p == '#' || *p == '*' || *p == '~') {
			const char *start = s;
			while (*s && *s != '/' && segment_char(*p, *s))
				s++;
			size_t n = (size_t)(s - start);
			if (n == 0 || n > 64 || used + n + 1 >= arg_len || (*s && *s != '/') ||
			    (*p == '#' && (*start == '0' || n > 18)))
				return false;
			used += (size_t)snprintf(arg + used, arg_len - used, "%s%.*s", used ? "/" : "",
						 (int)n, start);
			p++;
			continue;
		}
		if (*p++ != *s++)
			return false;
	}
	return *p == 0 && *s == 0;
}

void route_request(struct request *rq, struct reply *rp)
{
	char arg[160], allow[64] = "";
	bool known = false;
	for (const struct route *r = routes; r->method; r++) {
		arg[0] = '\0';
		if (!matches(r->pattern, rq->path, arg, sizeof arg))
			continue;
		known = true;
		if (strcmp(r->method, rq->method) != 0) {
			snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s%s",
				 *allow ? ", " : "", r->method);
			continue;
		}
		if (auth_allow(rq, r->access, rp) == 0)
			r->run(rq, rp, strpbrk(r->pattern, "#*~") ? arg : NULL);
		return;
	}
	if (known) {
		reply_error(rp, 405, "%s is not allowed here; use %s", rq->method, allow);
		snprintf(rp->allow, sizeof rp->allow, "%s", allow);
		return;
	}
	if (strncmp(rq->path, "/api/", 5) == 0 || strcmp(rq->method, "GET") != 0)
		reply_error(rp, 404, "no such API: see the README's \"The service\" for the API");
	else
		page_missing(rq, rp);
}

static bool hex_digit(char c)
{
	return isxdigit((unsigned char)c);
}

const char *route_path_refused(const char *raw)
{
	const char *end = strchr(raw, '?');
	size_t n = end ? (size_t)(end - raw) : strlen(raw);
	if (n == 0 || raw[0] != '/')
		return "the path must start with /";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c < 0x20 || c >= 0x7f || c == '\\')
			return "the path holds a control character, a backslash or a byte that is "
			       "not ASCII";
		if (c == '%') {
			if (i + 2 >= n)
				return "the path holds a cut %-escape";
			if (!hex_digit(raw[i + 1]) || !hex_digit(raw[i + 2]))
				return "the path holds a bad %-escape";
			/* Encoded dots, slashes, backslashes and NUL only ever hide a trick. */
			char esc[3] = { raw[i + 1], raw[i + 2], 0 };
			if (strcasecmp(esc, "2e") == 0 || strcasecmp(esc, "2f") == 0 ||
			    strcasecmp(esc, "5c") == 0 || strcmp(esc, "00") == 0)
				return "the path holds an encoded dot, slash, backslash or NUL";
			if (strtol(esc, NULL, 16) < 0x20)
				return "the path holds an encoded control character";
		}
		if (c == '/' && i + 1 < n && raw[i + 1] == '/')
			return "the path holds an empty segment (//)";
		if (c == '.' && (i == 0 || raw[i - 1] == '/') &&
		    (i + 1 == n || raw[i + 1] == '/' || (raw[i + 1] == '.' &&
		     (i + 2 == n || raw[i + 2] == '/'))))
			return "the path holds a . or .. segment";
	}
	if (end && strstr(end, "%00"))
		return "the query holds an encoded NUL";
	return NULL;
}
