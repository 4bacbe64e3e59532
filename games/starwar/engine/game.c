/* game.c - Star War as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "games/engine.h"
#include "games/seed.h"
#include "games/starwar/sw.h"

struct sw_state *sw_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct sw_state *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, GAME_ERRLEN, "out of memory for a Star War match");
		return NULL;
	}
	if (sw_params_parse(params, &d->p, err) < 0) {
		free(d);
		return NULL;
	}
	d->seed = seed;
	d->rng = rng_seeded(seed_derive(seed, SEED_ENGINE, 0));
	if (sw_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	sw_begin_log(d);
	return d;
}

void sw_free(struct sw_state *d)
{
	free(d);
}

GAME_ENGINE(sw, starwar_game, "starwar", "Star War", SW_PLAYERS, SW_START_LEN, SW_VIEW_MAX,
	    SW_ORDERS_MAX);
