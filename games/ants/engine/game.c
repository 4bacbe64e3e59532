/* game.c - Ants as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include "games/engine.h"
#include "games/ants/ants.h"

GAME_ENGINE_NEW(ant, "Ants", ant_board_setup);

GAME_ENGINE(ant, ants_game, "ants", "Ants", ANT_PLAYERS, ANT_START_LEN, ANT_VIEW_MAX,
	    ANT_ORDERS_MAX);
