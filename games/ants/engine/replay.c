/* replay.c - Ants' replay: the start, then only what each round changed.
 *
 * Header: {"params":{key: value, ...} (the parameters file's keys),
 *   "board":["..X..", ...] (X water, . soil),
 *   "rects":[[player, bonus, row, col], ...] (the food rectangles, hidden
 *   from players but shown to viewers),
 *   "ants":[[id, type, player, row, col, life], ...]}
 * with type 0 queen, 1 soldier, 2 worker; bonus 0 bread, 1 seed, 2 leaf.
 *
 * Round: {"moved":[[id, row, col], ...], "dead":[id, ...],
 *   "born":[[id, type, player, row, col], ...], "crowned":[id, ...],
 *   "carry":[[id, bonus or -1], ...], "reserve":[[id, c, p, l], ...],
 *   "food":[[row, col, bonus or -1], ...], "score":[4 totals]}
 * Lives are not sent: every ant loses one a round, a newborn starts full
 * and a crowned ant at queen_life.  Empty arrays are left out.
 */
#include <string.h>

#include "games/ants/ants.h"

static json_t *ant_json_params(const struct ant_params *p)
{
	json_t *o = json_pack("{s:i}", "players", ANT_PLAYERS);
	const int *v = ant_params_array(p);
	for (int i = 0; i < ANT_NPARAMS; i++)
		json_object_set_new(o, ant_param_name(i), json_integer(v[i]));
	return o;
}

static json_t *ant_json_board(const struct ant_state *g)
{
	json_t *rows = json_array();
	char line[ANT_MAX_ROWS + 1];
	for (int r = 0; r < g->p.rows; r++) {
		for (int c = 0; c < g->p.cols; c++)
			line[c] = g->water[ant_cell(g, r, c)] ? 'X' : '.';
		line[g->p.cols] = '\0';
		json_array_append_new(rows, json_string(line));
	}
	return rows;
}

json_t *ant_replay_header(const struct ant_state *g)
{
	json_t *rects = json_array(), *ants = json_array();
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++)
			json_array_append_new(rects, json_pack("[i, i, i, i]", q, b,
							       g->rect_row[q][b],
							       g->rect_col[q][b]));
	for (int id = 0; id < g->nids; id++) {
		const struct ant *a = &g->ant[id];
		if (a->alive)
			json_array_append_new(ants, json_pack("[i, i, i, i, i, i]", id, a->type,
							      a->player, a->row, a->col, a->life));
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "params", ant_json_params(&g->p), "board",
			 ant_json_board(g), "rects", rects, "ants", ants);
}

/* ---- rounds -------------------------------------------------------------- */

struct ant_frame {
	json_t *moved, *dead, *born, *crowned, *carry, *reserve, *food;
};

/* An ant alive before the round: what became of it. */
static void ant_diff_old(const struct ant_state *g, int id, struct ant_frame *f)
{
	const struct ant *a = &g->ant[id], *b = &g->log.before[id];
	if (!a->alive) {
		json_array_append_new(f->dead, json_integer(id));
		return;
	}
	if (a->row != b->row || a->col != b->col)
		json_array_append_new(f->moved, json_pack("[i, i, i]", id, a->row, a->col));
	if (a->type != b->type)
		json_array_append_new(f->crowned, json_integer(id));
	if (a->carried != b->carried)
		json_array_append_new(f->carry, json_pack("[i, i]", id, a->carried));
	if (memcmp(a->reserve, b->reserve, sizeof a->reserve) != 0)
		json_array_append_new(f->reserve, json_pack("[i, i, i, i]", id, a->reserve[0],
							    a->reserve[1], a->reserve[2]));
}

static void ant_set_if_any(json_t *frame, const char *key, json_t *array)
{
	if (json_array_size(array))
		json_object_set(frame, key, array);
	json_decref(array);
}

json_t *ant_replay_round(const struct ant_state *g)
{
	struct ant_frame f = { json_array(), json_array(), json_array(), json_array(),
			       json_array(), json_array(), json_array() };
	for (int id = 0; id < g->log.nids; id++)
		if (g->log.before[id].alive)
			ant_diff_old(g, id, &f);
	for (int id = g->log.nids; id < g->nids; id++) {
		const struct ant *a = &g->ant[id];
		json_array_append_new(f.born, json_pack("[i, i, i, i, i]", id, a->type, a->player,
							a->row, a->col));
		/* A newborn crowned at once eats the food under it. */
		if (a->reserve[0] || a->reserve[1] || a->reserve[2])
			json_array_append_new(f.reserve, json_pack("[i, i, i, i]", id, a->reserve[0],
								   a->reserve[1], a->reserve[2]));
	}
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		if (g->bonus[i] != g->log.bonus[i])
			json_array_append_new(f.food, json_pack("[i, i, i]", i / g->p.cols,
								i % g->p.cols, g->bonus[i]));
	json_t *frame = json_object();
	ant_set_if_any(frame, "moved", f.moved);
	ant_set_if_any(frame, "dead", f.dead);
	ant_set_if_any(frame, "born", f.born);
	ant_set_if_any(frame, "crowned", f.crowned);
	ant_set_if_any(frame, "carry", f.carry);
	ant_set_if_any(frame, "reserve", f.reserve);
	ant_set_if_any(frame, "food", f.food);
	json_t *score = json_array();
	for (int q = 0; q < ANT_PLAYERS; q++)
		json_array_append_new(score, json_integer(g->score[q]));
	json_object_set_new(frame, "score", score);
	return frame;
}
