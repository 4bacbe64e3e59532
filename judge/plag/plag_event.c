#include "judge/plag/plag_event.h"

static json_t *match_json(const struct plag_match *m)
{
	json_t *j = json_pack("{s:s, s:s, s:f, s:f, s:f, s:I, s:[I, I], s:[I, I]}",
			      "author", m->author, "player", m->name, "similarity", m->similarity,
			      "a_in_b", m->pair.a_in_b, "b_in_a", m->pair.b_in_a,
			      "longest_tokens", (json_int_t)plag_longest_tokens(&m->pair),
			      "lines", (json_int_t)m->pair.longest_a.first_line,
			      (json_int_t)m->pair.longest_a.last_line,
			      "their_lines", (json_int_t)m->pair.longest_b.first_line,
			      (json_int_t)m->pair.longest_b.last_line);
	json_object_set_new(j, "fragment", json_boolean(m->fragment));
	if (m->submission)
		json_object_set_new(j, "submission", json_integer(m->submission));
	else
		json_object_set_new(j, "archive", json_string(m->label));
	return j;
}

json_t *plag_event_data(const char *player, const char *author, const struct plag_match *v,
			size_t n)
{
	json_t *list = json_array();
	double top = 0;
	for (size_t i = 0; i < n && json_array_size(list) < PLAG_EVENT_MAX; i++) {
		if (!v[i].flagged)
			continue;
		if (json_array_size(list) == 0)
			top = v[i].similarity;
		json_array_append_new(list, match_json(&v[i]));
	}
	if (json_array_size(list) == 0) {
		json_decref(list);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:f, s:o}", "player", player, "author", author,
			 "similarity", top, "similar", list);
}
