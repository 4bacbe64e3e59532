/* api_tournament.c - tournaments for their watchers (serve.h): the list,
 * and one tournament with every phase as it stands (judge/event/view.h).
 * The public's answer is kept for a second (cache.h), as a leaderboard's,
 * so a crowd refreshing a live round costs the store one reading a second;
 * an organiser's (authors, not pseudonyms) is read afresh. */
#include <stdlib.h>
#include <string.h>

#include "judge/event/view.h"
#include "judge/serve/serve_int.h"
#include "judge/store/store_tournament.h"

#define TOURNAMENT_FRESH_MS 1000

void api_tournaments(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	reply_store_list(rq, rp, store_tournament_list);
}

void api_tournament(struct request *rq, struct reply *rp, const char *arg)
{
	bool organiser = rq->authed && rq->who.organiser;
	char key[96];
	err_t err;
	size_t len;
	snprintf(key, sizeof key, "tournament:%s", arg);
	char *text = organiser ? NULL : cache_get(rq->cache, key, TOURNAMENT_FRESH_MS, &len);
	if (text) {
		reply_bytes(rp, 200, "application/json; charset=utf-8", text, len);
		return;
	}
	json_t *view;
	int rc = event_view(rq->store, arg, organiser, &view, err);
	if (rc == 0) {
		reply_error(rp, 404, "there is no tournament %s: /api/tournaments lists them", arg);
		return;
	}
	if (rc < 0) {
		reply_store_error(rp, err->msg);
		return;
	}
	if (!organiser && (text = json_dumps(view, JSON_COMPACT | JSON_ENSURE_ASCII))) {
		cache_put(rq->cache, key, text, strlen(text));
		free(text);
	}
	reply_json(rp, 200, view);
}
