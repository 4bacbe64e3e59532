/* marks.c - who sees a replay's debug marks: the author of the seat's
 * player and the organisers (or everybody, serve.public_debug_marks).  A
 * seat's marks that the asker may not see are emptied and the seat listed
 * in debug.hidden, so that the viewer can say why they are missing. */
#include <stdio.h>
#include <string.h>

#include "judge/serve/serve_int.h"

bool marks_in_replay(const char *text, size_t len)
{
	static const char key[] = "\"debug\":";
	return memmem(text, len, key, sizeof key - 1) != NULL;
}

/* The author of each seat, as the store has the match: "" for a shipped
 * player. */
static const char *seat_author(const json_t *view, size_t seat)
{
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(view, "players"), i, p)
		if ((size_t)json_integer_value(json_object_get(p, "seat")) == seat)
			return json_string_value(json_object_get(p, "author"));
	return NULL;
}

int marks_hide(struct request *rq, int64_t match, json_t *replay, err_t err)
{
	json_t *debug = json_object_get(replay, "debug");
	json_t *marks = json_object_get(debug, "marks");
	if (!json_is_array(marks) || rq->opt->limits.public_marks)
		return 0;
	json_t *view = NULL;
	if (store_match_view(rq->store, match, &view, err) < 0)
		return -1;
	json_t *hidden = json_array();
	for (size_t seat = 0; seat < json_array_size(marks); seat++) {
		const char *author = view ? seat_author(view, seat) : NULL;
		if (author && auth_owns(rq, author))
			continue;
		json_array_set_new(marks, seat, json_array());
		json_array_append_new(hidden, json_integer((json_int_t)seat));
	}
	json_object_set_new(debug, "hidden", hidden);
	json_decref(view);
	return 0;
}

void marks_viewer_key(const struct request *rq, char *key, size_t n)
{
	if (rq->opt->limits.public_marks || (rq->authed && rq->who.organiser))
		snprintf(key, n, "*");
	else
		snprintf(key, n, "%s", rq->authed ? rq->who.author : "");
}
