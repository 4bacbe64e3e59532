/* replay.c - Star War's replay: the start, then what each round changed.
 *
 * Header: {"params":{...}, "map":["..X.P", ...] (. empty, X asteroid,
 * P point bonus, M missile bonus, S ship, * missile), "ships":[[id, owner,
 * row, col, missiles], ...]}; real coordinates and ids.
 *
 * Round: {"cells":[row, col, kind, row, col, kind, ...], "ships":[id, alive,
 * row, col, missiles, ...], "score":[4 totals]}: a flat array of triples
 * for every cell whose kind changed (enum sw_kind, 0 empty .. 5 missile),
 * a flat array of quintuples for every ship that did anything but live on
 * with a default move (0, +1) and the same missiles: every live ship left
 * out moved one column on.  Empty arrays are left out.  The window needs no field: in round r it starts at
 * column r.  A viewer applies cells, then ships.
 *
 * The judge adds to each round "orders": per seat, the instructions the
 * engine took from that player for the round, in the order given (it is
 * the order they run in), as a flat array [ship id, action, ...]: action
 * 0..8 a move (dr + 1) * 3 + dc, 9 a shot.  A frozen seat's array is
 * empty.  E.g. [[0, 9, 2, 5], [], [], [12, 4]].  Feeding these back to the engine (sw_replay_message) replays the
 * match: `judge replay check` does.
 */
#include <string.h>

#include "games/engine.h"
#include "games/starwar/sw.h"

static const char sw_kind_char[SW_KINDS] = { '.', 'X', 'P', 'M', 'S', '*' };

static char sw_map_letter(const void *state, int row, int col)
{
	const struct game_state *d = state;
	return sw_kind_char[d->kind[sw_cell(d, row, col)]];
}

json_t *sw_replay_header(const struct game_state *d)
{
	json_t *ships = json_array();
	for (int id = 0; id < d->nships; id++) {
		const struct sw_ship *s = &d->ship[id];
		json_array_append_new(ships, json_pack("[i, i, i, i, i]", id, s->owner, s->row,
						       s->col, s->missiles));
	}
	return json_pack("{s:o, s:o, s:o}", "params", sw_params_json(&d->p), "map",
			 game_json_rows(d, d->p.rows, d->p.cols, sw_map_letter), "ships", ships);
}

static void sw_append_ints(json_t *a, const int *v, int n)
{
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
}

/* A live ship that made the default move and kept its missiles is left
 * out: the viewer moves every unlisted live ship one column on. */
static bool sw_ship_changed(const struct game_state *d, const struct sw_ship *now,
			    const struct sw_ship *before)
{
	if (!now->alive || !before->alive)
		return now->alive != before->alive;
	return now->row != before->row || now->col != sw_mod(before->col + 1, d->p.cols) ||
	       now->missiles != before->missiles;
}

static void sw_set_if_any(json_t *frame, const char *key, json_t *array)
{
	if (json_array_size(array))
		json_object_set(frame, key, array);
	json_decref(array);
}

json_t *sw_replay_round(const struct game_state *d)
{
	json_t *cells = json_array(), *ships = json_array();
	for (int i = 0; i < d->p.rows * d->p.cols; i++)
		if (d->kind[i] != d->log.kind[i]) {
			int v[3] = { i / d->p.cols, i % d->p.cols, d->kind[i] };
			sw_append_ints(cells, v, 3);
		}
	for (int id = 0; id < d->nships; id++) {
		const struct sw_ship *s = &d->ship[id];
		if (sw_ship_changed(d, s, &d->log.ship[id])) {
			int v[5] = { id, s->alive, s->row, s->col, s->missiles };
			sw_append_ints(ships, v, 5);
		}
	}
	json_t *frame = json_object();
	sw_set_if_any(frame, "cells", cells);
	sw_set_if_any(frame, "ships", ships);
	json_object_set_new(frame, "score", game_json_scores(d->score, SW_PLAYERS));
	return frame;
}

/* ---- orders -------------------------------------------------------------- */

json_t *sw_replay_orders(const struct game_state *d)
{
	json_t *all = json_array();
	for (int q = 0; q < SW_PLAYERS; q++) {
		json_t *a = json_array();
		for (int k = 0; k < d->nqueue[q]; k++) {
			int id = d->queue[q][k];
			int v[2] = { id, d->ship[id].order };
			sw_append_ints(a, v, 2);
		}
		json_array_append_new(all, a);
	}
	return all;
}

size_t sw_replay_message(const struct game_state *d, int player, const json_t *orders,
			 uint8_t *buf, size_t cap)
{
	(void)d;
	const json_t *mine = json_array_get(orders, (size_t)player);
	size_t n = json_array_size(mine);
	if (json_array_size(orders) != SW_PLAYERS || !json_is_array(mine) || n % 2 ||
	    n / 2 > SW_MAX_PLAYER_SHIPS)
		return 0;
	struct sw_msg_order o[SW_MAX_PLAYER_SHIPS];
	for (size_t i = 0; i < n / 2; i++) {
		const json_t *id = json_array_get(mine, 2 * i);
		const json_t *action = json_array_get(mine, 2 * i + 1);
		if (!json_is_integer(id) || !json_is_integer(action) ||
		    json_integer_value(id) < 0 || json_integer_value(id) >= SW_MAX_SHIPS ||
		    json_integer_value(action) < 0 || json_integer_value(action) >= SW_ACTIONS)
			return 0;
		o[i] = (struct sw_msg_order){ .id = (uint16_t)json_integer_value(id),
					      .action = (uint8_t)json_integer_value(action) };
	}
	return orders_encode(&sw_orders, o, n / 2, buf, cap);
}
