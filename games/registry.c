/* registry.c - the games the judge knows: games/LIST, which the build
 * turns into game_registry[] and game_entries[] (Makefile: games/list.c). */
#include <string.h>

#include "games/game.h"

extern const struct game *const game_registry[];
extern const struct game_entry game_entries[];

const struct game *const *game_list(void)
{
	return game_registry;
}

const struct game_entry *game_entry(const char *name)
{
	for (const struct game_entry *e = game_entries; e->game; e++)
		if (strcmp(e->game->name, name) == 0)
			return e;
	return NULL;
}

const struct game *game_find(const char *name)
{
	const struct game_entry *e = game_entry(name);
	return e ? e->game : NULL;
}
