/* game.c - Ants as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "games/engine.h"
#include "games/seed.h"
#include "games/ants/ants.h"

struct ant_state *ant_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct ant_state *g = calloc(1, sizeof *g);
	if (!g) {
		snprintf(err, GAME_ERRLEN, "out of memory for an Ants match");
		return NULL;
	}
	if (ant_params_parse(params, &g->p, err) < 0) {
		free(g);
		return NULL;
	}
	g->seed = seed;
	g->rng = rng_seeded(seed_derive(seed, SEED_ENGINE, 0));
	if (ant_board_setup(g, err) < 0) {
		free(g);
		return NULL;
	}
	ant_begin_log(g);
	return g;
}

void ant_free(struct ant_state *g)
{
	free(g);
}

GAME_ENGINE(ant, ants_game, "ants", "Ants", ANT_PLAYERS, ANT_START_LEN, ANT_VIEW_MAX,
	    ANT_ORDERS_MAX);
