/* api_plag.c - the organisers' plagiarism news and decisions (serve.h):
 *   GET  /api/organiser/flags[?game=G]  {news: [{game, unseen}], flags: [...]}
 *   POST /api/organiser/flags/seen      {game} (or {} for every game)
 *   POST /api/organiser/flags/ID        {action: confirm|dismiss|clear, note}
 * The router lets only organiser tokens here; a decision is recorded in
 * the organiser's name, with the note kept in the flag's history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/serve/serve_int.h"
#include "judge/store/store_plag_review.h"

#define NOTE_MAX 1000

void org_flags(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	const char *game = request_arg(rq, "game");
	err_t err;
	json_t *news = NULL, *flags = NULL;
	if (game && !request_game(game, rp))
		return;
	if (store_plag_news(rq->store, &news, err) < 0 ||
	    store_plag_flags(rq->store, game, &flags, err) < 0) {
		json_decref(news);
		reply_store_error(rp, err->msg);
		return;
	}
	reply_json(rp, 200, json_pack("{s:o, s:o}", "news", news, "flags", flags));
}

void org_flags_seen(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	const char *game = json_string_value(json_object_get(body, "game"));
	err_t err;
	int64_t n;
	if (game && !request_game(game, rp)) {
	} else if (store_plag_flags_seen(rq->store, game, &n, err) < 0)
		reply_store_error(rp, err->msg);
	else
		reply_json(rp, 200, json_pack("{s:I}", "seen", (json_int_t)n));
	json_decref(body);
}

/* The decision and its note from body, or NULL after a 400 reply. */
static const char *decision(json_t *body, struct reply *rp, const char **note)
{
	const char *action = json_string_value(json_object_get(body, "action"));
	*note = json_string_value(json_object_get(body, "note"));
	bool known = action && (strcmp(action, "confirm") == 0 || strcmp(action, "dismiss") == 0 ||
				strcmp(action, "clear") == 0);
	if (!known || (*note && strlen(*note) > NOTE_MAX)) {
		reply_error(rp, 400, "send {\"action\": \"confirm\", \"dismiss\" or \"clear\", "
			    "\"note\": why (at most %d characters, may be left out)}", NOTE_MAX);
		return NULL;
	}
	if (*note && !**note)
		*note = NULL;
	return action;
}

void org_flag_review(struct request *rq, struct reply *rp, const char *arg)
{
	json_t *body, *flag = NULL, *history = NULL;
	if (request_json(rq, rp, &body) < 0)
		return;
	const char *note, *action = decision(body, rp, &note);
	long long id = strtoll(arg, NULL, 10);
	err_t err;
	int rc = action ? store_plag_review(rq->store, id, action, rq->who.author, note, &flag,
					    err) : 1;
	if (action && rc == 1)
		rc = store_plag_history(rq->store, id, &history, err) < 0 ? -1 : 1;
	if (!action) {
	} else if (rc < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0)
		reply_error(rp, 404, "there is no flag %lld", id);
	else {
		json_object_set_new(flag, "history", history);
		reply_json(rp, 200, flag);
		flag = NULL;
	}
	json_decref(flag);
	json_decref(body);
}
