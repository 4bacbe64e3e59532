/* runtime.c - the Dominator kit's side of the game: it talks to the judge
 * and answers the functions of dominator.h from the last view received.
 * Linked into every player binary; one player per process, so its state
 * lives in this file's statics. */
#include <stdio.h>

#include "games/dominator/kit/dominator.h"
#include "games/dominator/proto.h"
#include "games/kit/course_runtime.h"


static struct dom_msg_start start;
static struct dom_msg_view view;
static struct dom_msg_order orders[DOM_MAX_ORDERS + 1];
static int norders;

KIT_UNIT_LOOKUPS(DOM_PLAYERS, DOM_TYPES, DOM_MAX_UNITS, DOM_MAX_CELLS, DOM_MAX_UNITS)

/* dominator.h's parameters: each function, then its field of the start. */
#define DOM_API_PARAMS(X)                                                                   \
	X(cols, cols) X(nb_farmers, farmers) X(nb_knights, knights) X(nb_witches, witches)  \
	X(farmers_health, farmer_health) X(knights_health, knight_health)                   \
	X(farmers_regen, farmer_regen) X(knights_regen, knight_regen)                       \
	X(damage_min, damage_min) X(damage_max, damage_max)
DOM_API_PARAMS(KIT_PARAM)

int me(void) { return 0; }

bool pos_ok(Pos p)
{
	return p.i >= 0 && p.j >= 0 && p.i < view.rows && p.j < view.cols;
}

bool pos_eq(Pos a, Pos b)
{
	return a.i == b.i && a.j == b.j;
}

Pos pos_move(Pos p, Dir d)
{
	static const int di[9] = { 1, 1, 0, -1, -1, -1, 0, 1, 0 };
	static const int dj[9] = { 0, 1, 1, 1, 0, -1, -1, -1, 0 };
	if ((unsigned)d > None)
		return p;
	return (Pos){ p.i + di[d], p.j + dj[d] };
}

Cell cell(Pos p)
{
	if (!pos_ok(p))
		return (Cell){ Wall, -1, -1, false };
	uint8_t c = view.cell[p.i * view.cols + p.j];
	return (Cell){ dom_cell_wall(c) ? Wall : Empty, dom_cell_owner(c),
		       kit_unit_at(p.i * view.cols + p.j), dom_cell_haunted(c) };
}

Unit unit(int id)
{
	int place = kit_unit_index(id);
	if (place < 0)
		return (Unit){ Farmer, -1, -1, 0, { -1, -1 } };
	const struct dom_msg_unit *u = &view.unit[place];
	return (Unit){ (UnitType)u->type, u->id, u->owner, u->health, { u->row, u->col } };
}

Ids farmers(int player) { return kit_units(player, DOM_FARMER); }
Ids knights(int player) { return kit_units(player, DOM_KNIGHT); }
Ids witches(int player) { return kit_units(player, DOM_WITCH); }

int land(int player)
{
	return player >= 0 && player < DOM_PLAYERS ? view.player[player].land : 0;
}

KIT_COURSE_API(DOM_PLAYERS, start.params.rounds, start.params.rows, view.round, view.player)

void command(int id, Dir d)
{
	/* One past the limit is kept, so the judge sees the player broke it. */
	if (norders <= DOM_MAX_ORDERS)
		orders[norders++] = (struct dom_msg_order){ (uint16_t)id, (uint8_t)d };
}

/* The lookups the API needs, rebuilt from each view. */
static void index_view(void)
{
	kit_units_clear();
	for (int k = 0; k < view.nunits; k++) {
		const struct dom_msg_unit *u = &view.unit[k];
		kit_unit_add(k, u->id, u->row * view.cols + u->col, u->owner, u->type);
	}
}

/* The two steps of the game as the kit sees them, apart from how the bytes
 * travel: through the sandbox's pipes in main() below, or by direct calls
 * in the in-process benchmark build (KIT_NO_MAIN). */
KIT_START(dom_kit_start, dom_start_decode)
KIT_TURN(dom_kit_turn, dom_view_decode, index_view, &dom_orders)

KIT_MAIN("dominator", dom_kit_start, dom_kit_turn, DOM_VIEW_MAX, DOM_ORDERS_MAX)
