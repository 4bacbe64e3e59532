/* pseudonym.c - the public names of a game's authors (pseudonym.h). */
#include <stdio.h>
#include <string.h>

#include "judge/event/pseudonym.h"
#include "judge/store/store_tournament.h"

const char *event_public_name(json_t *entrant, char fallback[40])
{
	const char *pseudonym = json_string_value(json_object_get(entrant, "pseudonym"));
	if (pseudonym && *pseudonym)
		return pseudonym;
	snprintf(fallback, 40, "entrant %lld",
		 (long long)json_integer_value(json_object_get(entrant, "id")));
	return fallback;
}

/* Does the tournament (a row of store_tournament_list) hide its authors? */
static int hides_authors(struct store *s, json_t *row, bool *hide, err_t err)
{
	struct store_tournament t;
	int rc = store_tournament_get(s, json_integer_value(json_object_get(row, "id")), NULL, &t,
				      err);
	*hide = rc > 0 && json_is_true(json_object_get(t.spec, "pseudonyms"));
	if (rc > 0)
		store_tournament_clear(&t);
	return rc < 0 ? -1 : 0;
}

static int add_entrants(struct store *s, int64_t tournament, json_t *names, err_t err)
{
	json_t *entrants, *e;
	size_t i;
	char fallback[40];
	if (store_entrants(s, tournament, &entrants, err) < 0)
		return -1;
	json_array_foreach(entrants, i, e) {
		const char *author = json_string_value(json_object_get(e, "author"));
		if (author && !json_object_get(names, author))
			json_object_set_new(names, author,
					    json_string(event_public_name(e, fallback)));
	}
	json_decref(entrants);
	return 0;
}

/* Adds the entrants of every tournament of the game that hides authors. */
static int add_hidden(struct store *s, const char *game, json_t *list, json_t *names,
		      err_t err)
{
	json_t *row;
	size_t i;
	json_array_foreach(list, i, row) {
		bool hide = false;
		if (strcmp(json_string_value(json_object_get(row, "game")), game) != 0)
			continue;
		if (hides_authors(s, row, &hide, err) < 0 ||
		    (hide && add_entrants(s, json_integer_value(json_object_get(row, "id")), names,
					  err) < 0))
			return -1;
	}
	return 0;
}

int event_pseudonyms(struct store *s, const char *game, json_t **out, err_t err)
{
	err_t serr;
	json_t *list = NULL;
	*out = json_object();
	int rc = store_tournament_list(s, &list, serr);
	if (rc == 0)
		rc = add_hidden(s, game, list, *out, serr);
	json_decref(list);
	if (rc < 0) {
		err_set(err, "reading the pseudonyms: %.200s", serr->msg);
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}
