/* replay.c - Dominator's replay: the start, then what each round changed.
 *
 * Header: {"params":{...}, "board":["XXX..", ...] (X wall, . free, a digit
 * the owner), "units":[[id, type, owner, row, col, health], ...]} with
 * type 0 farmer, 1 knight, 2 witch; real coordinates, real players.
 *
 * Round: {"moves":"...", "cells":[[row, col, owner], ...],
 *         "health":[id, health, ...], "units":[[id, row, col, health, owner],
 *         ...], "score":[4 totals]}
 * "moves" has one letter per unit in id order: 'a' + d when the unit
 * stepped in direction d (0..7), 'A' + d when a farmer's step painted its
 * new cell with its colour; a number k stands for k units that did not
 * step, and the units that did not step at the end are left out.  Painting
 * only happens on such steps, so the board follows from the letters, taken
 * in id order with the owner the unit had at the start of the round; in the
 * rare round where two farmers painted one cell in the other order, "cells"
 * ([row, col, owner], ...) sets it right.  "health" lists units whose health
 * alone changed; "units" gives the final state of units captured (and
 * reborn) in the round.  A viewer applies moves, cells, health, then units.
 * Empty "cells", "health" and "units" are left out.
 *
 * The judge adds to each round "orders": the moves the engine took from
 * the players for the round, as a string like "moves": one letter 'a' + d
 * per unit told to step in real direction d (0..7), in id order, a number
 * k for k unit ids skipped (units without an order, or with None, which
 * changes nothing).  Each order is its unit's owner's (the owner at the
 * start of the round); a frozen seat has none.  One string for all seats
 * compresses to about half of four: it follows "moves" closely.  Feeding
 * the orders back to the engine (dom_replay_message) replays the match:
 * `judge replay check` does.
 */
#include <stdio.h>

#include "games/engine.h"
#include "games/dominator/dom.h"
#include "games/replay_runs.h"

/* X wall, . free, a digit the owner. */
static char dom_board_letter(const void *state, int row, int col)
{
	const struct game_state *d = state;
	int cell = dom_cell(d, row, col);
	if (d->wall[cell])
		return 'X';
	return d->owner[cell] == DOM_NOBODY ? '.' : (char)('0' + d->owner[cell]);
}

json_t *dom_replay_header(const struct game_state *d)
{
	json_t *units = json_array();
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id];
		json_array_append_new(units, json_pack("[i, i, i, i, i, i]", id, u->type, u->owner,
						       u->row, u->col, u->health));
	}
	return json_pack("{s:o, s:o, s:o}", "params", dom_params_json(&d->p), "board",
			 game_json_rows(d, d->n, d->n, dom_board_letter), "units", units);
}

/* ---- rounds -------------------------------------------------------------- */

/* At most two characters per unit (games/replay_runs.h). */
static void dom_moves_string(const struct game_state *d, char *s, size_t cap)
{
	struct runs_writer w = runs_writer(s, cap);
	for (int id = 0; id < d->nunits; id++) {
		int step = d->log.step[id];
		if (step >= 0)
			runs_put(&w, id, (char)((d->log.painted[id] ? 'A' : 'a') + step));
	}
}

/* Where the unit would be after its logged step alone. */
static void dom_expected_cell(const struct game_state *d, int id, int *row, int *col)
{
	const struct dom_unit *b = &d->log.before[id];
	int dr = 0, dc = 0;
	if (d->log.step[id] >= 0)
		dom_dir_delta(d->log.step[id], &dr, &dc);
	*row = b->row + dr;
	*col = b->col + dc;
}

/* Cells whose colour the letters, read in id order, get wrong: the last
 * painter by id is not the last by execution order. */
static json_t *dom_paint_fixes(const struct game_state *d)
{
	json_t *fixes = json_array();
	for (int id = 0; id < d->nunits; id++) {
		if (!d->log.painted[id])
			continue;
		int row, col, later_row, later_col;
		dom_expected_cell(d, id, &row, &col);
		bool last = true;
		for (int j = id + 1; j < d->nunits && last; j++) {
			if (!d->log.painted[j])
				continue;
			dom_expected_cell(d, j, &later_row, &later_col);
			last = later_row != row || later_col != col;
		}
		int owner = d->owner[dom_cell(d, row, col)];
		if (last && owner != d->log.before[id].owner)
			json_array_append_new(fixes, json_pack("[i, i, i]", row, col, owner));
	}
	return fixes;
}

static void dom_set_if_any(json_t *frame, const char *key, json_t *array)
{
	if (json_array_size(array))
		json_object_set(frame, key, array);
	json_decref(array);
}

json_t *dom_replay_round(const struct game_state *d)
{
	char moves[2 * DOM_MAX_UNITS + 8];
	dom_moves_string(d, moves, sizeof moves);
	json_t *frame = json_pack("{s:s}", "moves", moves);
	json_t *health = json_array(), *units = json_array();
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id], *b = &d->log.before[id];
		int row, col;
		dom_expected_cell(d, id, &row, &col);
		if (u->owner != b->owner || u->row != row || u->col != col) {
			json_array_append_new(units, json_pack("[i, i, i, i, i]", id, u->row,
							       u->col, u->health, u->owner));
		} else if (u->health != b->health) {
			json_array_append_new(health, json_integer(id));
			json_array_append_new(health, json_integer(u->health));
		}
	}
	dom_set_if_any(frame, "cells", dom_paint_fixes(d));
	dom_set_if_any(frame, "health", health);
	dom_set_if_any(frame, "units", units);
	json_object_set_new(frame, "score", game_json_scores(d->score, DOM_PLAYERS));
	return frame;
}

/* ---- orders -------------------------------------------------------------- */

/* The moves units will try, in real directions; None orders change
 * nothing and are left out.  A frozen player's orders were dropped. */
json_t *dom_replay_orders(const struct game_state *d)
{
	char s[2 * DOM_MAX_UNITS + 8];
	struct runs_writer w = runs_writer(s, sizeof s);
	for (int id = 0; id < d->nunits; id++) {
		int dir = d->order[id];
		if (dir != DOM_NO_ORDER && dir != DOM_NONE)
			runs_put(&w, id, (char)('a' + dir));
	}
	return json_string(s);
}

/* An order of the string, if its unit is player's, turned back into its
 * view (2 * player steps of the direction circle). */
static int dom_replay_take(const void *state, int player, int id, char c, void *order)
{
	const struct game_state *d = state;
	if (c < 'a' || c >= 'a' + DOM_NONE)
		return -1;
	if (id >= d->nunits || d->unit[id].owner != player)
		return 0;
	int view_dir = (c - 'a' + 8 - 2 * player) % 8;
	*(struct dom_msg_order *)order = (struct dom_msg_order){ (uint16_t)id, (uint8_t)view_dir };
	return 1;
}

size_t dom_replay_message(const struct game_state *d, int player, const json_t *orders,
			  uint8_t *buf, size_t cap)
{
	static _Thread_local struct dom_msg_order scratch[DOM_MAX_ORDERS];
	return runs_message(orders, DOM_PLAYERS, DOM_MAX_UNITS, d, player, dom_replay_take, &dom_orders, scratch,
			    buf, cap);
}
