/* work_notify.c - events, and the webhook deliveries they cause. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/work.h"

int work_event(struct work *w, const char *kind, int64_t submission, json_t *data,
	       char err[WORKER_ERRLEN])
{
	char *text = json_dumps(data, JSON_COMPACT);
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;
	if (text && sqlite3_prepare_v2(store_db(w->store),
				       "INSERT INTO events (kind, submission_id, payload, created_at)"
				       " VALUES (?, ?, ?, ?)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, submission);
		sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, store_now_ms());
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(text);
	if (rc != SQLITE_DONE) {
		snprintf(err, WORKER_ERRLEN, "recording an event: %s", sqlite3_errmsg(store_db(w->store)));
		return -1;
	}
	return 0;
}

int work_notify(struct work *w, char err[WORKER_ERRLEN])
{
	(void)w;
	snprintf(err, WORKER_ERRLEN, "webhook delivery is not configured in this judge");
	return -1;
}

