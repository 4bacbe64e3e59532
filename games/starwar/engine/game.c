/* game.c - Star War as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include "games/engine.h"
#include "games/starwar/sw.h"

GAME_ENGINE_NEW(sw, "Star War", sw_setup);

GAME_ENGINE(sw, starwar_game, "starwar", "Star War", SW_PLAYERS, SW_START_LEN, SW_VIEW_MAX,
	    SW_ORDERS_MAX);
