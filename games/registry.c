/* registry.c - the games the judge knows: one line per game. */
#include <string.h>

#include "games/game.h"

extern const struct game dominator_game;
extern const struct game starwar_game;
extern const struct game ants_game;
extern const struct game blitz_game;
extern const struct game aic2018_game;

static const struct game *const games[] = {
	&dominator_game,
	&starwar_game,
	&ants_game,
	&blitz_game,
	&aic2018_game,
	NULL,
};

const struct game *const *game_list(void)
{
	return games;
}

const struct game *game_find(const char *name)
{
	for (const struct game *const *g = games; *g; g++)
		if (strcmp((*g)->name, name) == 0)
			return *g;
	return NULL;
}
