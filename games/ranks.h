/* ranks.h - final ranks from what players achieved, for every game.
 *
 * A player's standing is a short list of keys compared in order, higher
 * better (a score; or Blitz's elimination turn, territory, territory over
 * all turns).  Promises: rank 1 is best; players whose keys are all equal
 * share a rank and the next rank skips (1, 2, 2, 4), whatever the seats'
 * order; nothing is allocated.
 */
#ifndef GAMES_RANKS_H
#define GAMES_RANKS_H

#include <stdint.h>

#include "games/game.h"

#define RANK_MAX_KEYS 4

struct rank_keys {
	int64_t key[RANK_MAX_KEYS];
};

/* Ranks of n players from nkeys keys each. */
void ranks_from_keys(const struct rank_keys *k, int n, int nkeys, int *rank);

#endif
