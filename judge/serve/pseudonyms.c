/* pseudonyms.c - authors behind pseudonyms on the public's answers
 * (judge/event/pseudonym.h): a match's seats, a player, a leaderboard. */
#include <stdlib.h>
#include <string.h>

#include "judge/event/pseudonym.h"
#include "judge/rating/board.h"
#include "judge/serve/serve_int.h"

/* Entrants change rarely and only by an organiser's hand: the names are
 * read once a second, as a leaderboard is. */
#define PSEUDONYMS_FRESH_MS 1000

static json_t *public_names(struct request *rq, const char *game, err_t err)
{
	char key[64], *text;
	size_t len;
	json_t *names;
	snprintf(key, sizeof key, "pseudonyms:%s", game);
	if ((text = cache_get(rq->cache, key, PSEUDONYMS_FRESH_MS, &len))) {
		names = json_loadb(text, len, 0, NULL);
		free(text);
		if (names)
			return names;
	}
	if (event_pseudonyms(rq->store, game, &names, err) < 0)
		return NULL;
	if ((text = json_dumps(names, JSON_COMPACT))) {
		cache_put(rq->cache, key, text, strlen(text));
		free(text);
	}
	return names;
}

static void hide_one(json_t *item, json_t *names, const char *reader)
{
	const char *author = json_string_value(json_object_get(item, "author"));
	json_t *shown = author ? json_object_get(names, author) : NULL;
	if (shown && strcmp(author, reader) != 0)
		json_object_set(item, "author", shown);
}

int pseudonyms_hide(struct request *rq, const char *game, json_t *items, const char *reader,
		    err_t err)
{
	if (!reader)
		return 0;
	json_t *names = public_names(rq, game, err), *item;
	if (!names)
		return -1;
	size_t i;
	if (json_is_array(items))
		json_array_foreach(items, i, item)
			hide_one(item, names, reader);
	else
		hide_one(items, names, reader);
	json_decref(names);
	return 0;
}

int pseudonyms_board(struct request *rq, struct board *b, err_t err)
{
	json_t *names = public_names(rq, b->game, err);
	if (!names)
		return -1;
	for (size_t i = 0; i < b->n && json_object_size(names); i++) {
		const char *shown = json_string_value(json_object_get(names, b->row[i].author));
		char *copy = shown ? strdup(shown) : NULL;
		if (copy) {
			free(b->row[i].author);
			b->row[i].author = copy;
		}
	}
	json_decref(names);
	return 0;
}
