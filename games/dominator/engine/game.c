/* game.c - Dominator as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "games/engine.h"
#include "games/seed.h"
#include "games/dominator/dom.h"

struct dom_state *dom_new(const char *params, uint64_t seed, char err[GAME_ERRLEN])
{
	struct dom_state *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, GAME_ERRLEN, "out of memory for a Dominator match");
		return NULL;
	}
	if (dom_params_parse(params, &d->p, err) < 0) {
		free(d);
		return NULL;
	}
	d->seed = seed;
	d->rng = rng_seeded(seed_derive(seed, SEED_ENGINE, 0));
	if (dom_board_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	dom_begin_log(d);
	return d;
}

void dom_free(struct dom_state *d)
{
	free(d);
}

GAME_ENGINE(dom, dominator_game, "dominator", "Dominator", DOM_PLAYERS, DOM_START_LEN, DOM_VIEW_MAX,
	    DOM_ORDERS_MAX);
