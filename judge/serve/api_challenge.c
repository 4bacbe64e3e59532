/* api_challenge.c - a contestant's challenges (judge/event/challenge.h),
 * and who may see the unrated matches they make. */
#include <stdio.h>
#include <string.h>

#include "judge/base/paths.h"
#include "judge/base/safe_text.h"
#include "judge/event/challenge.h"
#include "judge/serve/serve_int.h"
#include "judge/store/store_challenge.h"

bool match_hidden(struct request *rq, struct reply *rp, int64_t match)
{
	if (rq->authed && rq->who.organiser)
		return false;
	/* A match anybody may see stays so (its kind never changes): known
	 * once, no query per request. */
	char key[48], *known;
	size_t len;
	snprintf(key, sizeof key, "public:%lld", (long long)match);
	if ((known = cache_get(rq->cache, key, 0, &len))) {
		free(known);
		return false;
	}
	err_t err;
	int rc = store_match_visible(rq->store, match, rq->authed ? rq->who.author : "", err);
	if (rc == 1 && !rq->authed)
		cache_put(rq->cache, key, "1", 1);
	if (rc < 0)
		reply_store_error(rp, err->msg);
	else if (rc == 0) /* the same words as for a match that is not there */
		reply_error(rp, 404, "there is no match %lld", (long long)match);
	return rc <= 0;
}

const char *match_viewer(const struct request *rq)
{
	return !rq->authed ? "" : rq->who.organiser ? NULL : rq->who.author;
}

static unsigned challenge_status(enum challenge_outcome rc)
{
	switch (rc) {
	case CHALLENGE_QUEUED: return 201;
	case CHALLENGE_INVALID: return 400;
	case CHALLENGE_FORBIDDEN: return 403;
	case CHALLENGE_LIMITED: return 429;
	default: return 503;
	}
}

/* POST /api/challenges {"game", "player", "seats", "seeds"}: 201 with the
 * queued jobs; 429 with "retry_at" (ms) over the limit. */
void api_challenge(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	struct challenge_request c;
	struct challenge_queued q;
	char data_dir[PATH_MAX];
	err_t err;
	if (challenge_from_json(body, rq->who.author, &c, err) < 0) {
		reply_error(rp, 400, "%s", err->msg);
		json_decref(body);
		return;
	}
	if (rq->opt->data_dir)
		snprintf(data_dir, sizeof data_dir, "%s", rq->opt->data_dir);
	else
		paths_data_dir(data_dir);
	enum challenge_outcome rc = challenge_queue(rq->store, &rq->opt->contest, data_dir, &c,
						    store_now_ms(), &q, err);
	json_decref(body);
	if (rc == CHALLENGE_LIMITED) {
		reply_json(rp, 429, json_pack("{s:o, s:I}", "error", safe_json_text(err->msg),
					      "retry_at", (json_int_t)q.next_allowed_ms));
		return;
	}
	if (rc != CHALLENGE_QUEUED) {
		reply_error(rp, challenge_status(rc), "%s", err->msg);
		return;
	}
	json_t *jobs = json_array();
	for (int i = 0; i < q.n; i++)
		json_array_append_new(jobs, json_integer(q.jobs[i]));
	reply_json(rp, 201, json_pack("{s:o, s:i, s:s}", "jobs", jobs, "queued", q.n, "message",
				      err->msg));
}
