/* game.c - Dominator as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle, and the table GAME_ENGINE (games/engine.h) makes.
 */
#include "games/engine.h"
#include "games/dominator/dom.h"

GAME_ENGINE_NEW(dom, "Dominator", dom_board_setup);

GAME_ENGINE(dom, dominator_game, "dominator", "Dominator", DOM_PLAYERS, DOM_START_LEN, DOM_VIEW_MAX,
	    DOM_ORDERS_MAX);
