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

/* The units of the last view, by id, by cell and by player and type. */
static int unit_index[DOM_MAX_UNITS], unit_at[DOM_MAX_CELLS];
static int unit_lists[DOM_PLAYERS][DOM_TYPES][DOM_MAX_UNITS], unit_list_len[DOM_PLAYERS][DOM_TYPES];
static const struct kit_units units = {
	.players = DOM_PLAYERS, .types = DOM_TYPES, .max_ids = DOM_MAX_UNITS,
	.cells = DOM_MAX_CELLS, .per_list = DOM_MAX_UNITS, .index = unit_index, .at = unit_at,
	.lists = &unit_lists[0][0][0], .list_len = &unit_list_len[0][0],
};

/* What course.h's shared answers read (course_runtime.h). */
static int start_rounds(void) { return start.params.rounds; }
static int start_rows(void) { return start.params.rows; }
static int view_round(void) { return view.round; }
static long long view_score(int player) { return view.player[player].score; }
static int view_cpu(int player) { return view.player[player].cpu; }
const struct course_kit kit_course = { DOM_PLAYERS, start_rounds, start_rows, view_round,
				       view_score, view_cpu };

/* dominator.h's parameters. */
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
		       kit_unit_at(&units, p.i * view.cols + p.j), dom_cell_haunted(c) };
}

Unit unit(int id)
{
	int place = kit_unit_index(&units, id);
	if (place < 0)
		return (Unit){ Farmer, -1, -1, 0, { -1, -1 } };
	const struct dom_msg_unit *u = &view.unit[place];
	return (Unit){ (UnitType)u->type, u->id, u->owner, u->health, { u->row, u->col } };
}

Ids farmers(int player) { return kit_units(&units, player, DOM_FARMER); }
Ids knights(int player) { return kit_units(&units, player, DOM_KNIGHT); }
Ids witches(int player) { return kit_units(&units, player, DOM_WITCH); }

int land(int player)
{
	return player >= 0 && player < DOM_PLAYERS ? view.player[player].land : 0;
}

void command(int id, Dir d)
{
	/* One past the limit is kept, so the judge sees the player broke it. */
	if (norders <= DOM_MAX_ORDERS)
		orders[norders++] = (struct dom_msg_order){ (uint16_t)id, (uint8_t)d };
}

/* The lookups the API needs, rebuilt from each view. */
static void index_view(void)
{
	kit_units_clear(&units);
	for (int k = 0; k < view.nunits; k++) {
		const struct dom_msg_unit *u = &view.unit[k];
		kit_unit_add(&units, k, u->id, u->row * view.cols + u->col, u->owner, u->type);
	}
}

/* The two steps of the game as the kit sees them, apart from how the bytes
 * travel: through the sandbox's pipes in main() below, or by direct calls
 * in the in-process benchmark build (KIT_NO_MAIN),
 * which hides every symbol but these two. */
KIT_ENTRY int dom_kit_start(const uint8_t *msg, size_t len);

int dom_kit_start(const uint8_t *msg, size_t len)
{
	return kit_started(dom_start_decode(msg, len, &start), &start.seed);
}

KIT_ENTRY long dom_kit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);

long dom_kit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap)
{
	if (!dom_view_decode(msg, len, &view))
		return -1;
	index_view();
	return kit_play(&dom_orders, orders, &norders, out, cap);
}

#ifndef KIT_NO_MAIN
int main(void)
{
	return kit_run("dominator", dom_kit_start, dom_kit_turn, DOM_VIEW_MAX, DOM_ORDERS_MAX);
}
#endif
