/* api.c - the JSON API a contestant and the public pages use (serve.h):
 * games, leaderboards, matches and replays, players, submissions, and the
 * upload (the same gate as `judge submit`). */
#include <ctype.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/hash.h"
#include "judge/base/json_text.h"
#include "judge/base/safe_text.h"
#include "judge/compile/upload_check.h"
#include "judge/event/run.h"
#include "judge/kit/student_kit.h"
#include "judge/rating/board.h"
#include "judge/rating/rating.h"
#include "judge/replay/fault.h"
#include "judge/replay/replay_io.h"
#include "judge/replay/viewer.h"
#include "judge/serve/serve_int.h"

/* A number segment the router has checked: digits only. */
static int64_t id_arg(const char *arg)
{
	return strtoll(arg, NULL, 10);
}

/* A view's answer: 1 the value, 0 a 404 saying what, -1 the store. */
static void reply_view(struct reply *rp, int rc, json_t *value, const char *err,
		       const char *what, const char *arg)
{
	if (rc > 0)
		reply_json(rp, 200, value);
	else if (rc == 0)
		reply_error(rp, 404, "there is no %s %s", what, arg);
	else
		reply_store_error(rp, err);
}

/* ---- games and who I am ------------------------------------------------------- */

/* A constant answer through the whole server: a proxy's health check, and
 * the benchmark's yardstick. */
void api_ping(struct request *rq, struct reply *rp, const char *arg)
{
	(void)rq;
	(void)arg;
	rp->status = 200;
	rp->static_body = "{\"ok\": true}";
	rp->len = strlen(rp->static_body);
}

void api_games(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *list = json_array();
	for (const struct game *const *g = game_list(); *g; g++) {
		char kit[96];
		snprintf(kit, sizeof kit, "/kits/%s.tar.gz", (*g)->name);
		json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:b, s:s?}", "name",
						      (*g)->name, "title", (*g)->title, "min_players",
						      game_min_players(*g), "max_players",
						      game_max_players(*g), "uploads",
						      cfg_takes_uploads(&rq->opt->contest, (*g)->name),
						      "kit", student_kit_supported((*g)->name) ? kit
											       : NULL));
	}
	reply_json(rp, 200, list);
}

void api_me(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	reply_json(rp, 200, json_pack("{s:o, s:b}", "author", safe_json_text(rq->who.author),
				      "organiser", rq->who.organiser));
}

/* ---- leaderboard ------------------------------------------------------------------ */

/* A game's board as the service sends it, written as text: {game, title,
 * generated_at, rows, match_sizes, organiser, mixed_sizes}, and for an
 * organiser each row's suspected mark and the disqualified players.  NULL
 * with err. */
static char *board_text(struct request *rq, const struct game *g, bool organiser, size_t *len,
			err_t err)
{
	struct board b = { .game = g->name, .title = g->title, .generated_ms = store_now_ms(),
			   .sizes = game_min_players(g) != game_max_players(g),
			   .organiser = organiser };
	json_t *dq = NULL;
	char *text = NULL;
	int rc = board_load(rq->store, &b, err);
	if (rc == 0 && !organiser)
		rc = pseudonyms_board(rq, &b, err);
	if (rc == 0 && organiser && (rc = store_disqualifications(rq->store, g->name, &dq, err)) > 0)
		reply_safe_strings(dq);
	if (rc >= 0)
		text = board_page_text(rq->store, &b, dq, len, err);
	board_free(&b);
	json_decref(dq);
	return text;
}

#define BOARD_FRESH_MS 1000 /* how long a board's public part is kept */

void api_leaderboard(struct request *rq, struct reply *rp, const char *arg)
{
	const struct game *g = request_game(arg, rp);
	if (!g)
		return;
	bool organiser = rq->authed && rq->who.organiser;
	char key[64];
	err_t err;
	size_t len;
	snprintf(key, sizeof key, "board:%s", g->name);
	char *text = organiser ? NULL : cache_get(rq->cache, key, BOARD_FRESH_MS, &len);
	if (!text && !(text = board_text(rq, g, organiser, &len, err))) {
		reply_store_error(rp, err->msg);
		return;
	}
	if (!organiser)
		cache_put(rq->cache, key, text, len);
	reply_bytes(rp, 200, "application/json; charset=utf-8", text, len);
}

/* ---- matches ------------------------------------------------------------------------ */

/* A word for a POSIX shell: as it is when it holds only letters, digits
 * and "._-" (every name an upload accepts), else single-quoted. */
static int shell_word(char *out, size_t n, const char *prefix, const char *word,
		      const char *suffix)
{
	bool plain = *word != 0;
	for (const char *c = word; *c; c++)
		plain &= isalnum((unsigned char)*c) || strchr("._-", *c) != NULL;
	if (plain)
		return snprintf(out, n, " %s%s%s", prefix, word, suffix);
	int k = snprintf(out, n, " '%s", prefix);
	for (const char *c = word; *c && k > 0 && (size_t)k < n; c++)
		k += *c == '\'' ? snprintf(out + k, n - (size_t)k, "'\\''")
				: snprintf(out + k, n - (size_t)k, "%c", *c);
	if (k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - (size_t)k, "%s'", suffix);
	return k;
}

/* The replay's header: the limits and the parameters the match ran with
 * (NULL when it has no replay; the caller's to free). */
static json_t *replay_settings(struct request *rq, int64_t id)
{
	char key[64], *text;
	err_t err;
	size_t len;
	snprintf(key, sizeof key, "replay:%lld", (long long)id);
	if (!(text = cache_get(rq->cache, key, 0, &len))) {
		if (replay_stored_text(rq->store, id, &text, &len, err) <= 0)
			return NULL;
		cache_put(rq->cache, key, text, len);
	}
	json_t *r = json_loadb(text, len, 0, NULL);
	free(text);
	json_t *out = json_pack("{s:O?, s:O?}", "limits", json_object_get(r, "limits"), "params",
				json_object_get(r, "params_file"));
	json_decref(r);
	return out;
}

/* The `judge play` command that plays the match again on a contestant's
 * machine as the judge played it: seats in order, a shipped player by its
 * name, a submission as its file AIName.c, the seed, the CPU and memory
 * limits that were in force, and the parameters as match-ID.cnf (the
 * page offers it: /api/matches/ID/params). */
static json_t *play_command(const json_t *match, const json_t *settings)
{
	char cmd[2048];
	int n = snprintf(cmd, sizeof cmd, "judge play %s",
			 json_string_value(json_object_get(match, "game")));
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(match, "players"), i, p) {
		const char *name = json_string_value(json_object_get(p, "name"));
		bool shipped = json_is_null(json_object_get(p, "submission"));
		if (n > 0 && (size_t)n < sizeof cmd)
			n += shell_word(cmd + n, sizeof cmd - (size_t)n, shipped ? "" : "AI", name,
					shipped ? "" : ".c");
	}
	if (n > 0 && (size_t)n < sizeof cmd)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -s %s",
			      json_string_value(json_object_get(match, "seed")));
	const json_t *limits = json_object_get(settings, "limits");
	if (limits && n > 0 && (size_t)n < sizeof cmd)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --cpu %lld --memory %lld",
			      (long long)json_integer_value(json_object_get(limits, "cpu_ms")),
			      (long long)json_integer_value(json_object_get(limits, "memory_mb")));
	if (json_is_string(json_object_get(settings, "params")) && n > 0 && (size_t)n < sizeof cmd)
		snprintf(cmd + n, sizeof cmd - (size_t)n, " -i match-%lld.cnf",
			 (long long)json_integer_value(json_object_get(match, "id")));
	return safe_json_text(cmd);
}

void api_match(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	json_t *m = NULL;
	if (match_hidden(rq, rp, id_arg(arg)))
		return;
	int rc = store_match_view(rq->store, id_arg(arg), &m, err);
	if (rc > 0 && pseudonyms_hide(rq, json_string_value(json_object_get(m, "game")),
				      json_object_get(m, "players"), match_viewer(rq), err) < 0)
		rc = -1;
	if (rc > 0) {
		json_t *settings = replay_settings(rq, id_arg(arg));
		json_object_set_new(m, "command", play_command(m, settings));
		json_object_set_new(m, "has_params",
				    json_boolean(json_is_string(json_object_get(settings, "params"))));
		json_decref(settings);
	}
	reply_view(rp, rc, m, err->msg, "match", arg);
}

/* The parameters file a match was played with, for its command's -i. */
void api_match_params(struct request *rq, struct reply *rp, const char *arg)
{
	if (match_hidden(rq, rp, id_arg(arg)))
		return;
	json_t *settings = replay_settings(rq, id_arg(arg));
	const char *params = json_string_value(json_object_get(settings, "params"));
	if (params)
		reply_bytes(rp, 200, "text/plain; charset=utf-8", strdup(params), strlen(params));
	else
		reply_error(rp, 404, "match %s has no stored parameters", arg);
	json_decref(settings);
}

/* The stored replay's JSON text (kept in memory after the first time: a
 * recorded match never changes): 1, or 0/-1 with the reply filled. */
static int stored_replay(struct request *rq, struct reply *rp, const char *arg, char **text,
			 size_t *len)
{
	char key[64];
	err_t err;
	snprintf(key, sizeof key, "replay:%s", arg);
	if ((*text = cache_get(rq->cache, key, 0, len)))
		return 1;
	int found = replay_stored_text(rq->store, id_arg(arg), text, len, err);
	if (found == 0)
		reply_error(rp, 404, "%s", err->msg);
	else if (found < 0)
		reply_error(rp, 500, "%s", err->msg);
	else
		cache_put(rq->cache, key, *text, *len);
	return found;
}

/* Does the client take a gzip body (Accept-Encoding: gzip, not q=0)? */
static bool takes_gzip(const struct request *rq)
{
	const char *accept = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT_ENCODING);
	const char *g = accept ? strstr(accept, "gzip") : NULL;
	return g && strncmp(g + 4, ";q=0", 4) != 0;
}

/* The replay as the store keeps it, gzip, for a client that takes it:
 * about a third of the bytes, nothing to inflate.  1 with *bytes (malloc'd);
 * 0 when it is not kept gzip (an old row) or not there: then the plain
 * path answers. */
static int stored_gzip(struct request *rq, const char *arg, char **bytes, size_t *len)
{
	char key[64];
	err_t err;
	snprintf(key, sizeof key, "gzip:%s", arg);
	if ((*bytes = cache_get(rq->cache, key, 0, len)))
		return 1;
	uint8_t *raw;
	bool exists;
	if (store_match_replay(rq->store, id_arg(arg), &raw, len, &exists, err) <= 0)
		return 0;
	if (*len < 2 || raw[0] != 0x1f || raw[1] != 0x8b) {
		free(raw);
		return 0;
	}
	cache_put(rq->cache, key, (const char *)raw, *len);
	*bytes = (char *)raw;
	return 1;
}

/* The stored replay's text with the debug marks rq may not see taken out
 * (marks.c): 1 with *out (malloc'd), 0/-1 with the reply filled. */
static int visible_replay(struct request *rq, struct reply *rp, const char *arg,
			  const char *text, size_t len, char **out, size_t *out_len)
{
	err_t err;
	json_t *replay = json_loadb(text, len, 0, NULL);
	if (!replay) {
		reply_error(rp, 500, "the stored replay of match %s is not JSON", arg);
		return -1;
	}
	int rc = marks_hide(rq, id_arg(arg), replay, err);
	*out = rc < 0 ? NULL : json_dumps(replay, JSON_COMPACT);
	json_decref(replay);
	if (!*out) {
		reply_error(rp, 500, "%s", rc < 0 ? err->msg : "no memory left for the replay");
		return -1;
	}
	*out_len = strlen(*out);
	return 1;
}

void api_match_replay(struct request *rq, struct reply *rp, const char *arg)
{
	char *text, *shown, *gz, key[64], *mark;
	size_t len, shown_len, gz_len;
	if (match_hidden(rq, rp, id_arg(arg)))
		return;
	/* A replay without debug marks (most) goes out as stored, gzip, with
	 * no plain text read: whether it has marks is known once, kept. */
	snprintf(key, sizeof key, "marks:%s", arg);
	bool unmarked = (mark = cache_get(rq->cache, key, 0, &len)) && mark[0] == '0';
	free(mark);
	if (unmarked && takes_gzip(rq) && stored_gzip(rq, arg, &gz, &gz_len)) {
		reply_bytes(rp, 200, "application/json; charset=utf-8", gz, gz_len);
		rp->encoding = "gzip";
		return;
	}
	if (stored_replay(rq, rp, arg, &text, &len) <= 0)
		return;
	cache_put(rq->cache, key, marks_in_replay(text, len) ? "1" : "0", 1);
	if (marks_in_replay(text, len)) {
		if (visible_replay(rq, rp, arg, text, len, &shown, &shown_len) > 0)
			reply_bytes(rp, 200, "application/json; charset=utf-8", shown, shown_len);
		free(text);
		return;
	}
	if (takes_gzip(rq) && stored_gzip(rq, arg, &gz, &gz_len)) {
		free(text);
		reply_bytes(rp, 200, "application/json; charset=utf-8", gz, gz_len);
		rp->encoding = "gzip";
	} else {
		reply_bytes(rp, 200, "application/json; charset=utf-8", text, len);
	}
}

/* The viewer's page of a stored replay, as rq may see it. */
static int match_page(struct request *rq, struct reply *rp, const char *arg, char **page,
		      size_t *page_len)
{
	char *text;
	err_t err;
	size_t len;
	if (stored_replay(rq, rp, arg, &text, &len) <= 0)
		return -1;
	if (marks_in_replay(text, len)) {
		char *shown;
		int found = visible_replay(rq, rp, arg, text, len, &shown, &len);
		free(text);
		if (found <= 0)
			return -1;
		text = shown;
	}
	int rc = viewer_page_stored(rq->store, id_arg(arg), text, len, page, page_len, err);
	free(text);
	if (rc < 0)
		reply_error(rp, 500, "%s", err->msg);
	return rc;
}

void api_match_page(struct request *rq, struct reply *rp, const char *arg)
{
	char *page, who[80], key[160];
	size_t page_len;
	if (match_hidden(rq, rp, id_arg(arg)))
		return;
	/* a page with debug marks differs with who asks */
	marks_viewer_key(rq, who, sizeof who);
	snprintf(key, sizeof key, "page:%s:%s", arg, who);
	if (!(page = cache_get(rq->cache, key, 0, &page_len))) {
		if (match_page(rq, rp, arg, &page, &page_len) < 0)
			return;
		cache_put(rq->cache, key, page, page_len);
	}
	reply_bytes(rp, 200, "text/html; charset=utf-8", page, page_len);
	rp->policy = rq->viewer_policy;
}

/* "MATCH/SEAT" into its numbers: false when the seat is not a seat number. */
static bool match_seat_arg(const char *arg, int64_t *match, int *seat)
{
	char *end;
	*match = strtoll(arg, &end, 10);
	const char *s = end + 1;
	if (*end != '/' || !*s || strspn(s, "0123456789") != strlen(s) || (s[0] == '0' && s[1]) ||
	    strlen(s) > 2)
		return false;
	*seat = atoi(s);
	return true;
}

/* What one seat wrote to stderr in a match, as plain text: for the seat's
 * author and organisers only (a log may show how a player thinks). */
/* The seat an address names, and a store's message about it. */
struct seat_asked {
	int64_t match;
	int seat;
	err_t err;
};

/* "MATCH/SEAT" into its numbers, or false with a 404 said. */
static bool seat_asked(const char *arg, struct reply *rp, struct seat_asked *a)
{
	if (match_seat_arg(arg, &a->match, &a->seat))
		return true;
	reply_error(rp, 404, "'%s' is not a seat: seats are numbered from 0", strchr(arg, '/') + 1);
	return false;
}

/* The seat was read (found: 1, 0 no such seat, -1 failed as a->err says),
 * and rq may read what is private to it: else said. */
static bool seat_readable(struct request *rq, struct reply *rp, int found,
			  const struct seat_asked *a, const char *author, const char *what)
{
	if (found < 0)
		reply_store_error(rp, a->err->msg);
	else if (found == 0)
		reply_error(rp, 404, "match %lld has no seat %d", (long long)a->match, a->seat);
	else if (!auth_owns(rq, author))
		reply_error(rp, 403, "seat %d of match %lld is not yours: you may read only your "
			    "own players' %s", a->seat, (long long)a->match, what);
	return found > 0 && auth_owns(rq, author);
}

/* The seat's log as text, or why there is none. */
static void reply_log(struct reply *rp, const struct store_seat_log *log, int64_t match, int seat)
{
	char *text;
	err_t err;
	size_t len;
	if (!log->bytes)
		reply_error(rp, 404, "seat %d of match %lld wrote nothing to stderr, or its log "
			    "was not kept (worker.keep_logs)", seat, (long long)match);
	else if (replay_log_text(log, &text, &len, err) < 0)
		reply_error(rp, 500, "%s", err->msg);
	else
		reply_bytes(rp, 200, "text/plain; charset=utf-8", text, len);
}

void api_match_log(struct request *rq, struct reply *rp, const char *arg)
{
	struct seat_asked a;
	if (!seat_asked(arg, rp, &a))
		return;
	struct store_seat_log log;
	int rc = store_match_log(rq->store, a.match, a.seat, &log, a.err);
	if (seat_readable(rq, rp, rc, &a, log.author, "logs"))
		reply_log(rp, &log, a.match, a.seat);
	free(log.bytes);
}

/* A frozen seat's record (judge/replay/fault.h), its last input in base64,
 * for `judge repro --record`: the seat's author and organisers only (the
 * input is what the player saw of the game). */
void api_match_fault(struct request *rq, struct reply *rp, const char *arg)
{
	struct seat_asked a;
	if (!seat_asked(arg, rp, &a))
		return;
	struct store_fault sf;
	int rc = store_match_fault(rq->store, a.match, a.seat, &sf, a.err);
	struct fault f = { 0 };
	if (seat_readable(rq, rp, rc, &a, sf.author, "records")) {
		rc = fault_from_store(a.match, a.seat, &sf, &f, a.err);
		json_t *j = rc > 0 ? fault_json(&f) : NULL;
		if (j)
			reply_json(rp, 200, j);
		else
			reply_error(rp, rc == 0 ? 404 : 500, "%s",
				    rc > 0 ? "out of memory" : a.err->msg);
	}
	fault_free(&f);
	free(sf.input);
}

/* ---- players ------------------------------------------------------------------------- */

void api_player(struct request *rq, struct reply *rp, const char *arg)
{
	char game[32];
	err_t err;
	const char *g = request_arg(rq, "game");
	int rc = 1;
	if (g && !request_game(g, rp))
		return;
	if (!g) {
		rc = store_player_game(rq->store, arg, game, err);
		g = game;
	}
	json_t *p = NULL;
	if (rc > 0)
		rc = store_player_view(rq->store, g, arg, match_viewer(rq), &p, err);
	if (rc > 0 && pseudonyms_hide(rq, g, p, match_viewer(rq), err) < 0)
		rc = -1;
	size_t i;
	json_t *h;
	/* Each point of the plot at the leaderboard's score, mu - 3 sigma. */
	json_array_foreach(rc > 0 ? json_object_get(p, "history") : NULL, i, h) {
		struct rating r = { json_real_value(json_object_get(h, "mu")),
				    json_real_value(json_object_get(h, "sigma")) };
		json_object_set_new(h, "score", json_real(rating_score(r)));
	}
	reply_view(rp, rc, p, err->msg, "player", arg);
}

/* ---- submissions ---------------------------------------------------------------------- */

void api_submission(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	json_t *v = NULL;
	int rc = store_submission_view(rq->store, id_arg(arg), &v, err);
	if (rc > 0 && !auth_owns(rq, json_string_value(json_object_get(v, "author")))) {
		json_decref(v);
		reply_error(rp, 403, "submission %s is another author's: you may see only yours",
			    arg);
		return;
	}
	reply_view(rp, rc, v, err->msg, "submission", arg);
}

/* The submission's own file, as it was uploaded: for its author and the
 * organisers only (a file is a contestant's secret).  Downloaded as
 * AIName.c, the name `judge play` and an upload expect. */
void api_submission_source(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	struct store_submission sub;
	int rc = store_get_submission(rq->store, id_arg(arg), &sub, err);
	if (rc <= 0) {
		reply_view(rp, rc, NULL, err->msg, "submission", arg);
		return;
	}
	if (!auth_owns(rq, sub.author)) {
		reply_error(rp, 403, "submission %s is another author's: you may download only "
			    "your own files", arg);
		return;
	}
	char *src;
	size_t len;
	if (store_get_source(rq->store, sub.id, &src, &len, err) < 0) {
		reply_store_error(rp, err->msg);
		return;
	}
	reply_bytes(rp, 200, "text/plain; charset=utf-8", src, len);
	/* a player name is letters and digits only (upload_name_check) */
	snprintf(rp->filename, sizeof rp->filename, "AI%s.c", sub.name);
}

void api_submissions(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	const char *author = request_arg(rq, "author");
	if (author && !auth_owns(rq, author)) {
		reply_error(rp, 403, "only organisers may list another author's submissions");
		return;
	}
	err_t err;
	json_t *list = NULL;
	int rc = store_submissions_of(rq->store, author ? author : rq->who.author, &list, err);
	reply_stored(rp, rc, list, err->msg);
}

/* {"game", "source"} from the body: 0, or -1 with a 400. */
static int upload_fields(const json_t *body, struct reply *rp, const char **game,
			 const char **src, size_t *len)
{
	json_t *g = json_object_get(body, "game"), *s = json_object_get(body, "source");
	if (!json_is_string(g) || !json_is_string(s)) {
		reply_error(rp, 400, "send {\"game\": \"GAME\", \"source\": \"the text of your "
			    "AIName.c\"}");
		return -1;
	}
	*game = json_string_value(g);
	*src = json_string_value(s);
	*len = json_string_length(s);
	return 0;
}

void api_submit(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	const char *game, *src;
	size_t len;
	char name[PLAYER_NAME_MAX + 1], sha[HASH_HEXLEN + 1];
	err_t cerr;
	err_t err;
	err_t why;
	int64_t id;
	int closed;
	if (upload_fields(body, rp, &game, &src, &len) < 0 || !request_game(game, rp)) {
	} else if (!cfg_takes_uploads(&rq->opt->contest, game)) {
		char games[160];
		cfg_upload_games(&rq->opt->contest, games, sizeof games);
		reply_error(rp, 403, "this judge takes no uploads of %s: it runs %s", game, games);
	} else if (upload_check(game, rq->who.author, "your file", src, len, name, cerr) < 0) {
		reply_error(rp, 400, "%s", cerr->msg);
	} else if (hash_hex(src, len, sha) < 0) {
		reply_error(rp, 500, "cannot hash the source");
	} else if ((closed = event_uploads_closed(rq->store, game, rq->who.author, store_now_ms(),
						  why)) != 0) {
		reply_error(rp, closed < 0 ? 500 : 403, "%s", why->msg);
	} else {
		struct store_new_submission sub = { .game = game, .author = rq->who.author,
			.name = name, .source = src, .source_len = len, .source_sha256 = sha };
		int rc = store_submit(rq->store, &sub, &id, err);
		if (rc >= 0) /* 200: the same source is the current submission already */
			reply_json(rp, rc == 1 ? 200 : 201, json_pack("{s:I, s:s, s:s, s:b}", "id",
				   (json_int_t)id, "player", name, "game", game, "unchanged", rc == 1));
		else if (strstr(err->msg, "is taken"))
			reply_error(rp, 400, "%s", err->msg);
		else
			reply_store_error(rp, err->msg);
	}
	json_decref(body);
}
