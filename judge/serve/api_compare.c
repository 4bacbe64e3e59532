/* api_compare.c - version comparisons on the service (judge/event/
 * compare.h): asked for, and read, by their author (and organisers). */
#include <stdio.h>
#include <stdlib.h>

#include "judge/event/compare.h"
#include "judge/serve/serve_int.h"

/* POST /api/comparisons {"new": A, "old": B, "pairs": N}: 201 {"id"}. */
void api_compare(struct request *rq, struct reply *rp, const char *arg)
{
	(void)arg;
	json_t *body;
	if (request_json(rq, rp, &body) < 0)
		return;
	json_t *a = json_object_get(body, "new"), *b = json_object_get(body, "old"),
	       *pairs = json_object_get(body, "pairs");
	err_t err;
	int64_t id;
	if (!json_is_integer(a) || !json_is_integer(b) || (pairs && !json_is_integer(pairs))) {
		reply_error(rp, 400, "send {\"new\": SUBMISSION, \"old\": SUBMISSION, \"pairs\": N}");
	} else {
		int rc = compare_queue(rq->store, rq->who.author, json_integer_value(a),
				       json_integer_value(b),
				       pairs ? (int)json_integer_value(pairs) : 20, &id, err);
		if (rc == 0)
			reply_json(rp, 201, json_pack("{s:I}", "id", (json_int_t)id));
		else if (rc > 0)
			reply_error(rp, 400, "%s", err->msg);
		else
			reply_store_error(rp, err->msg);
	}
	json_decref(body);
}

/* GET /api/comparisons/ID: what its played pairs show so far. */
void api_comparison(struct request *rq, struct reply *rp, const char *arg)
{
	struct compare_summary c;
	err_t err;
	int found = compare_read(rq->store, strtoll(arg, NULL, 10), &c, err);
	if (found < 0)
		reply_store_error(rp, err->msg);
	else if (found == 0 || !auth_owns(rq, c.author))
		reply_error(rp, 404, "there is no comparison %s of yours", arg);
	else
		reply_json(rp, 200, compare_json(&c));
}
