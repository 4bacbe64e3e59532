/* store_events.c - the events a submission went through (store.h). */
#include "judge/store/db.h"

int store_add_event(struct store *s, const char *kind, int64_t submission, const char *payload,
		    err_t err)
{
	return db_run(s, "recording an event", err,
		      "INSERT INTO events (kind, submission_id, payload, created_at)"
		      " VALUES (?1, ?2, ?3, ?4)", "titi", kind, submission, payload, store_now_ms());
}
