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
 * Empty "cells", "health" and "units" are left out: an active 200-round
 * match stays around 40 KB.
 */
#include <stdio.h>

#include "games/dominator/dom.h"

static json_t *dom_json_params(const struct dom_params *p)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
			 "players", p->players, "rounds", p->rounds, "rows", p->rows, "cols",
			 p->cols, "farmers", p->farmers, "knights", p->knights, "witches",
			 p->witches, "farmer_health", p->farmer_health, "knight_health",
			 p->knight_health, "farmer_regen", p->farmer_regen, "knight_regen",
			 p->knight_regen, "damage_min", p->damage_min, "damage_max",
			 p->damage_max);
}

static json_t *dom_json_board(const struct dom_state *d)
{
	json_t *rows = json_array();
	char line[DOM_MAX_ROWS + 1];
	for (int r = 0; r < d->n; r++) {
		for (int c = 0; c < d->n; c++) {
			int cell = dom_cell(d, r, c);
			line[c] = d->wall[cell]			   ? 'X'
				  : d->owner[cell] == DOM_NOBODY ? '.'
								 : (char)('0' + d->owner[cell]);
		}
		line[d->n] = '\0';
		json_array_append_new(rows, json_string(line));
	}
	return rows;
}

static json_t *dom_json_scores(const struct dom_state *d)
{
	json_t *a = json_array();
	for (int q = 0; q < DOM_PLAYERS; q++)
		json_array_append_new(a, json_integer(d->score[q]));
	return a;
}

json_t *dom_replay_header(const struct dom_state *d)
{
	json_t *units = json_array();
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id];
		json_array_append_new(units, json_pack("[i, i, i, i, i, i]", id, u->type, u->owner,
						       u->row, u->col, u->health));
	}
	return json_pack("{s:o, s:o, s:o}", "params", dom_json_params(&d->p), "board",
			 dom_json_board(d), "units", units);
}

/* ---- rounds -------------------------------------------------------------- */

static size_t dom_put_stay_run(char *s, size_t len, int run)
{
	if (run > 0)
		len += (size_t)snprintf(s + len, 8, "%d", run);
	return len;
}

/* At most two characters per unit: "1a1a..." is the worst case. */
static void dom_moves_string(const struct dom_state *d, char *s)
{
	size_t len = 0;
	int run = 0;
	for (int id = 0; id < d->nunits; id++) {
		int step = d->log.step[id];
		if (step < 0) {
			run++;
			continue;
		}
		len = dom_put_stay_run(s, len, run);
		run = 0;
		s[len++] = (char)((d->log.painted[id] ? 'A' : 'a') + step);
	}
	s[len] = '\0';
}

/* Where the unit would be after its logged step alone. */
static void dom_expected_cell(const struct dom_state *d, int id, int *row, int *col)
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
static json_t *dom_paint_fixes(const struct dom_state *d)
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

json_t *dom_replay_round(const struct dom_state *d)
{
	char moves[2 * DOM_MAX_UNITS + 8];
	dom_moves_string(d, moves);
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
	json_object_set_new(frame, "score", dom_json_scores(d));
	return frame;
}
