/* api_organiser.c - the organisers' API (serve.h): the players of a
 * game, disqualify and reinstate one (with history), rejudge a submission
 * or a whole game, plagiarism pairs, tokens.  The router lets only organiser tokens here, but for a reference player's
 * source, which any token may ask for and only an organiser's gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/plag/plag_list.h"
#include "judge/serve/serve_int.h"
#include "judge/store/store_reference.h"

#define REASON_MAX 500

static const char *text_field(const json_t *body, const char *key)
{
	const char *v = json_string_value(json_object_get(body, key));
	return v && *v ? v : NULL;
}

/* A decision about one player: disqualify (with a reason) or reinstate. */
static void decide(struct request *rq, struct reply *rp, bool reinstate)
{
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	const char *game = text_field(body, "game"), *name = text_field(body, "name");
	const char *reason = text_field(body, "reason");
	err_t err;
	int rc;
	if (reinstate && (!game || !name))
		reply_error(rp, 400, "send {\"game\", \"name\"}: the player to reinstate");
	else if (!reinstate && (!game || !name || !reason || strlen(reason) > REASON_MAX))
		reply_error(rp, 400, "send {\"game\", \"name\", \"reason\"}: a reason of 1 to %d "
			    "characters the player will read", REASON_MAX);
	else if (!request_game(game, rp)) {
	} else if ((rc = reinstate ? store_reinstate(rq->store, game, name, rq->who.author, err)
		    : store_disqualify(rq->store, game, name, reason, rq->who.author, err)) < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0)
		reply_error(rp, 404, reinstate ? "%s is not disqualified in %s"
			    : "there is no player %s in %s", name, game);
	else
		reply_json(rp, 200, json_pack("{s:s, s:s, s:b}", "game", game, "name", name,
					      "disqualified", !reinstate));
	json_decref(body);
}

void org_disqualify(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	decide(rq, rp, false);
}

void org_reinstate(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	decide(rq, rp, true);
}

/* GET /api/organiser/players/GAME: whom the organiser may pick, and every
 * decision so far: {game, players: [{name, author, disqualified}],
 * history: [{name, reason, decided_by, created_at, reinstated_at,
 * reinstated_by}]}. */
void org_players(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	json_t *players = NULL, *history = NULL;
	if (!request_game(arg, rp))
		return;
	if (store_game_players(rq->store, arg, &players, err) < 0 ||
	    store_disqualification_history(rq->store, arg, &history, err) < 0)
		reply_store_error(rp, err->msg);
	else
		reply_json(rp, 200, json_pack("{s:s, s:O, s:O}", "game", arg, "players", players,
					      "history", history));
	json_decref(players);
	json_decref(history);
}

void org_rejudge(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	json_t *sub = json_object_get(body, "submission");
	const char *game = text_field(body, "game");
	err_t err;
	int64_t n = 0;
	int rc;
	if (json_is_integer(sub) == !!game) {
		reply_error(rp, 400, "send {\"submission\": ID} to rejudge one submission, or "
			    "{\"game\": GAME} to rejudge every match of a game");
	} else if (game && !request_game(game, rp)) {
	} else if (game) {
		if (store_rejudge_game(rq->store, game, rq->who.author, &n, err) < 0)
			reply_store_error(rp, err->msg);
		else
			reply_json(rp, 200, json_pack("{s:s, s:I}", "game", game, "requeued",
						      (json_int_t)n));
	} else if ((rc = store_rejudge_submission(rq->store, json_integer_value(sub), err)) < 0) {
		reply_store_error(rp, err->msg);
	} else if (rc == 0) {
		reply_error(rp, 404, "there is no submission %lld",
			    (long long)json_integer_value(sub));
	} else {
		reply_json(rp, 200, json_pack("{s:O, s:I}", "submission", sub, "requeued",
					      (json_int_t)1));
	}
	json_decref(body);
}

/* The pairs as `judge plagiarism` lists them (plag_list.h): without min,
 * the flagged ones. */
void org_plagiarism(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	double min = -1;
	if (!request_game(arg, rp))
		return;
	if (request_number(rq, "min", true, 0.0, 1.0, &min) < 0) {
		reply_error(rp, 400, "min is a share between 0 and 1, as min=0.5");
		return;
	}
	struct judge_config defaults;
	struct plag_list l;
	if (plag_list_load(rq->store, &request_settings(rq, &defaults)->plag, arg, min, &l,
			   err) < 0) {
		reply_store_error(rp, err->msg);
		return;
	}
	reply_json(rp, 200, plag_list_json(&l));
	plag_list_free(&l);
}

void org_plagiarism_pair(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	double b;
	if (request_number(rq, "b", false, 1, 1e15, &b) <= 0) {
		reply_error(rp, 400, "name the other file: /api/organiser/pair/A?b=B");
		return;
	}
	long long other = (long long)b;
	json_t *pair = NULL;
	int rc = store_plag_pair(rq->store, strtoll(arg, NULL, 10), other, &pair, err);
	if (rc < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0)
		reply_error(rp, 404, "files %s and %lld were not found similar", arg, other);
	else
		reply_json(rp, 200, pair);
}

void org_tokens(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	reply_store_list(rq, rp, store_token_list);
}

void org_token_revoke(struct request *rq, struct reply *rp, const char *arg)
{
	err_t err;
	int rc = store_token_revoke(rq->store, strtoll(arg, NULL, 10), err);
	if (rc < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0)
		reply_error(rp, 404, "there is no working token %s", arg);
	else
		reply_json(rp, 200, json_pack("{s:I, s:b}", "id", (json_int_t)strtoll(arg, NULL, 10),
					      "revoked", 1));
}

/* GET /api/references/GAME/NAME: the organiser's reference player, source
 * and all.  To anybody else it does not exist (404, as for a name nobody
 * uses), so a contestant learns nothing, not even that it is there. */
void api_reference(struct request *rq, struct reply *rp, const char *arg)
{
	char game[65], *src = NULL;
	err_t err;
	const char *name = strchr(arg, '/');
	size_t len = 0;
	snprintf(game, sizeof game, "%.*s", name ? (int)(name - arg) : 0, arg);
	name = name ? name + 1 : "";
	struct store_reference r;
	int rc = rq->who.organiser ? store_reference_get(rq->store, game, name, &r, err) : 0;
	if (rc == 1)
		rc = store_reference_source(rq->store, game, name, &src, &len, err);
	if (rc < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0)
		reply_error(rp, 404, "there is no player %s in %s", name, game);
	else
		reply_json(rp, 200, json_pack("{s:s, s:s, s:s%, s:I, s:I}", "game", game, "name", name,
					      "source", src, len, "created_at",
					      (json_int_t)r.created_at, "updated_at",
					      (json_int_t)r.updated_at));
	free(src);
}
