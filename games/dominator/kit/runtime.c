/* runtime.c - the Dominator kit's side of the game: it talks to the judge
 * and answers the functions of dominator.h from the last view received.
 * Linked into every player binary; one player per process, so its state
 * lives in this file's statics. */
#include <stdio.h>
#include <string.h>

#include "games/dominator/kit/dominator.h"
#include "games/dominator/proto.h"
#include "games/kit/runtime.h"


static struct dom_msg_start start;
static struct dom_msg_view view;
static int unit_index[DOM_MAX_UNITS];   /* id -> index in view.unit, or -1 */
static int unit_at[DOM_MAX_CELLS];      /* cell -> unit id, or -1 */
static int lists[DOM_PLAYERS][DOM_TYPES][DOM_MAX_UNITS];
static int list_len[DOM_PLAYERS][DOM_TYPES];
static struct dom_msg_order orders[DOM_MAX_ORDERS + 1];
static int norders;

int nb_players(void) { return DOM_PLAYERS; }
int nb_rounds(void) { return start.params.rounds; }
int rows(void) { return start.params.rows; }
int cols(void) { return start.params.cols; }
int nb_farmers(void) { return start.params.farmers; }
int nb_knights(void) { return start.params.knights; }
int nb_witches(void) { return start.params.witches; }
int farmers_health(void) { return start.params.farmer_health; }
int knights_health(void) { return start.params.knight_health; }
int farmers_regen(void) { return start.params.farmer_regen; }
int knights_regen(void) { return start.params.knight_regen; }
int damage_min(void) { return start.params.damage_min; }
int damage_max(void) { return start.params.damage_max; }

int me(void) { return 0; }
int current_round(void) { return view.round; }

Pos pos(int i, int j)
{
	return (Pos){ i, j };
}

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
		       unit_at[p.i * view.cols + p.j], dom_cell_haunted(c) };
}

Unit unit(int id)
{
	if (id < 0 || id >= DOM_MAX_UNITS || unit_index[id] < 0)
		return (Unit){ Farmer, -1, -1, 0, { -1, -1 } };
	const struct dom_msg_unit *u = &view.unit[unit_index[id]];
	return (Unit){ (UnitType)u->type, u->id, u->owner, u->health, { u->row, u->col } };
}

static Ids list(int player, int type)
{
	if (player < 0 || player >= DOM_PLAYERS)
		return (Ids){ 0, lists[0][0] };
	return (Ids){ list_len[player][type], lists[player][type] };
}

Ids farmers(int player) { return list(player, DOM_FARMER); }
Ids knights(int player) { return list(player, DOM_KNIGHT); }
Ids witches(int player) { return list(player, DOM_WITCH); }

int land(int player)
{
	return player >= 0 && player < DOM_PLAYERS ? view.player[player].land : 0;
}

KIT_SCORE_AND_STATUS(DOM_PLAYERS, view.player)

void command(int id, Dir d)
{
	/* One past the limit is kept, so the judge sees the player broke it. */
	if (norders <= DOM_MAX_ORDERS)
		orders[norders++] = (struct dom_msg_order){ (uint16_t)id, (uint8_t)d };
}

/* The lookups the API needs, rebuilt from each view. */
static void index_view(void)
{
	memset(unit_index, -1, sizeof unit_index);
	memset(unit_at, -1, sizeof unit_at);
	memset(list_len, 0, sizeof list_len);
	for (int k = 0; k < view.nunits; k++) {
		const struct dom_msg_unit *u = &view.unit[k];
		if (u->id >= DOM_MAX_UNITS)
			continue;
		unit_index[u->id] = k;
		unit_at[u->row * view.cols + u->col] = u->id;
		lists[u->owner][u->type][list_len[u->owner][u->type]++] = u->id;
	}
}

/* The two steps of the game as the kit sees them, apart from how the bytes
 * travel: through the sandbox's pipes in main() below, or by direct calls
 * in the in-process benchmark build (KIT_NO_MAIN). */
KIT_START(dom_kit_start, dom_start_decode)
KIT_TURN(dom_kit_turn, dom_view_decode, index_view, &dom_orders)

KIT_MAIN("dominator", dom_kit_start, dom_kit_turn, DOM_VIEW_MAX, DOM_ORDERS_MAX)
