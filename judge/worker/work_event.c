/* work_event.c - tournaments whose next step waits for a time (a phase's
 * start, a qualification's deadline, the gap between rounds) are moved on
 * by the worker, at most once a second, whatever else it is doing. */
#include <stdio.h>
#include <string.h>

#include "judge/event/run.h"
#include "judge/store/store_tournament.h"
#include "judge/worker/work.h"

#define TICK_MS 1000

static void advance_one(struct work *w, int64_t id, int64_t now)
{
	char note[256] = "";
	err_t serr;
	err_t err;
	if (store_begin(w->store, serr) < 0) {
		worker_log(w->o, "tournament %lld: %s", (long long)id, serr->msg);
		return;
	}
	if (event_advance(w->store, id, now, note, sizeof note, err) < 0 ||
	    store_commit(w->store, serr) < 0) {
		store_rollback(w->store);
		worker_log(w->o, "tournament %lld: %s", (long long)id,
			   note[0] ? serr->msg : err->msg);
		return;
	}
	if (note[0])
		worker_log(w->o, "%s", note);
}

void work_tick_events(struct work *w, int64_t *last_ms)
{
	int64_t now = store_now_ms();
	if (now - *last_ms < TICK_MS)
		return;
	*last_ms = now;
	err_t serr;
	json_t *list, *t;
	size_t i;
	if (store_tournament_list(w->store, &list, serr) < 0) {
		worker_log(w->o, "reading the tournaments: %s", serr->msg);
		return;
	}
	json_array_foreach(list, i, t)
		if (!json_is_true(json_object_get(t, "over")))
			advance_one(w, json_integer_value(json_object_get(t, "id")), now);
	json_decref(list);
}
