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
 *
 * The judge adds to each round "orders": the commands the engine took from
 * the players for the round, as a string with one letter per ant that got
 * one, in id order, and a number k for k ids skipped (ants without a
 * command); each command is its ant's player's:
 *   'a' + d  move in direction d (0 down, 1 right, 2 up, 3 left)
 *   'e'      take food            'f' leave food
 *   'g' + 2 d + t  lay an egg in direction d, t 0 a soldier, 1 a worker
 * A frozen seat has none.  Feeding these back to the engine
 * (ant_replay_message) replays the match: `judge replay check` does.
 */
#include <string.h>

#include "games/engine.h"
#include "games/ants/ants.h"
#include "games/replay_runs.h"

/* X water, . soil. */
static char ant_board_letter(const void *state, int row, int col)
{
	const struct game_state *g = state;
	return g->water[ant_cell(g, row, col)] ? 'X' : '.';
}

json_t *ant_replay_header(const struct game_state *g)
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
	return json_pack("{s:o, s:o, s:o, s:o}", "params", ant_params_json(&g->p), "board",
			 game_json_rows(g, g->p.rows, g->p.cols, ant_board_letter), "rects", rects,
			 "ants", ants);
}

/* ---- rounds -------------------------------------------------------------- */

struct ant_frame {
	json_t *moved, *dead, *born, *crowned, *carry, *reserve, *food;
};

/* An ant alive before the round: what became of it. */
static void ant_diff_old(const struct game_state *g, int id, struct ant_frame *f)
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

json_t *ant_replay_round(const struct game_state *g)
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
	json_object_set_new(frame, "score", game_json_scores(g->score, ANT_PLAYERS));
	return frame;
}

/* ---- orders -------------------------------------------------------------- */

#define ANT_LETTER_MOVE 'a'
#define ANT_LETTER_TAKE 'e'
#define ANT_LETTER_LEAVE 'f'
#define ANT_LETTER_LAY 'g'

static char ant_cmd_letter(const struct ant_cmd *c)
{
	switch (c->kind) {
	case ANT_MOVE: return (char)(ANT_LETTER_MOVE + c->dir);
	case ANT_TAKE: return ANT_LETTER_TAKE;
	case ANT_LEAVE: return ANT_LETTER_LEAVE;
	default: return (char)(ANT_LETTER_LAY + 2 * c->dir + (c->type == ANT_WORKER));
	}
}

/* The command a letter stands for; false for a letter that is none. */
static bool ant_letter_cmd(char c, struct ant_msg_order *o)
{
	int k = c - ANT_LETTER_MOVE;
	if (k >= 0 && k < ANT_DIRS)
		*o = (struct ant_msg_order){ .kind = ANT_MOVE, .dir = (uint8_t)k };
	else if (c == ANT_LETTER_TAKE || c == ANT_LETTER_LEAVE)
		*o = (struct ant_msg_order){ .kind = c == ANT_LETTER_TAKE ? ANT_TAKE : ANT_LEAVE };
	else if ((k = c - ANT_LETTER_LAY) >= 0 && k < 2 * ANT_DIRS)
		*o = (struct ant_msg_order){ .kind = ANT_LAY, .dir = (uint8_t)(k / 2),
					     .type = k % 2 ? ANT_WORKER : ANT_SOLDIER };
	else
		return false;
	return true;
}

/* A frozen player's commands were dropped. */
json_t *ant_replay_orders(const struct game_state *g)
{
	char s[2 * ANT_MAX_IDS + 8];
	struct runs_writer w = runs_writer(s, sizeof s);
	for (int id = 0; id < g->nids; id++)
		if (g->cmd[id].kind != ANT_NONE)
			runs_put(&w, id, ant_cmd_letter(&g->cmd[id]));
	return json_string(s);
}

/* A command of the string, if its ant is player's. */
static int ant_replay_take(const void *state, int player, int id, char c, void *order)
{
	const struct game_state *g = state;
	struct ant_msg_order *o = order;
	if (!ant_letter_cmd(c, o))
		return -1;
	if (id >= g->nids || g->ant[id].player != player)
		return 0;
	o->id = (uint16_t)id;
	return 1;
}

size_t ant_replay_message(const struct game_state *g, int player, const json_t *orders,
			  uint8_t *buf, size_t cap)
{
	static _Thread_local struct ant_msg_order scratch[ANT_MAX_ORDERS];
	return runs_message(orders, ANT_PLAYERS, ANT_MAX_IDS, g, player, ant_replay_take, &ant_orders, scratch,
			    buf, cap);
}
