/* rules.c - Ants' orders and the resolution of a round.
 *
 * A round, as the seed orders it: the first well-formed command of each
 * ant is selected; the selected commands run in one random order (one that
 * cannot run any more, say because its ant died, is skipped); lives go down
 * by one and exhausted ants die; eggs hatch in random order into empty
 * cells only; queenless colonies crown a random soldier or worker; food
 * appears on rounds multiple of BONUS_PERIOD; each colony scores its ants.
 * Nothing here allocates: every buffer is in the state.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/ants/ants.h"

int ant_count(const struct game_state *g, int player)
{
	int n = 0;
	for (int id = 0; id < g->nids; id++)
		n += g->ant[id].alive && g->ant[id].player == player;
	return n;
}

/* ---- orders -------------------------------------------------------------- */

static void ant_forget_orders(struct game_state *g)
{
	for (int id = 0; id < g->nids; id++)
		g->cmd[id].kind = ANT_NONE;
	memset(g->norders, 0, sizeof g->norders);
}

static void ant_drop_orders(struct game_state *g, int player)
{
	for (int id = 0; id < g->nids; id++)
		if (g->ant[id].player == player)
			g->cmd[id].kind = ANT_NONE;
}

static void ant_freeze(struct game_state *g, int player)
{
	if (game_seat_freeze(g->frozen, g->cpu, player))
		ant_drop_orders(g, player);
}

/* Orders naming a dead ant, another player's ant, an unknown kind, a
 * direction outside 0..3 or an egg that is not a soldier or a worker are
 * ignored and do not use up the ant's one command.  A well-formed command
 * is selected even if it cannot run (a soldier told to take food): it is
 * then skipped at its turn, as the seed says of commands that "cannot be
 * executed". */
static void ant_select(struct game_state *g, int player, struct ant_msg_order o)
{
	if (o.id >= g->nids || o.kind >= ANT_KINDS || g->cmd[o.id].kind != ANT_NONE)
		return;
	const struct ant *a = &g->ant[o.id];
	if (!a->alive || a->player != player)
		return;
	if ((o.kind == ANT_MOVE || o.kind == ANT_LAY) && o.dir >= ANT_DIRS)
		return;
	if (o.kind == ANT_LAY && o.type != ANT_SOLDIER && o.type != ANT_WORKER)
		return;
	g->cmd[o.id] = (struct ant_cmd){ .kind = (int8_t)o.kind, .dir = (int8_t)o.dir,
					 .type = (int8_t)o.type };
}

int ant_take_orders(struct game_state *g, int player, const uint8_t *buf, size_t len,
		    err_t err)
{
	struct game_seats seats = { ANT_PLAYERS, g->frozen, g->norders, ANT_MAX_ORDERS, NULL };
	bool broken;
	int n = game_seat_orders(&seats, player, &ant_orders, buf, len, g->incoming, &broken, err);
	if (broken)
		ant_freeze(g, player);
	for (int i = 0; i < n; i++)
		ant_select(g, player, g->incoming[i]);
	return n < 0 ? -1 : 0;
}

void ant_set_status(struct game_state *g, int player, double cpu_share)
{
	if (game_seat_status(ANT_PLAYERS, g->frozen, g->cpu, player, cpu_share))
		ant_freeze(g, player);
}

/* ---- commands ------------------------------------------------------------ */

/* A dead worker's food is destroyed with it (the seed); food lying on its
 * cell stays. */
static void ant_kill(struct game_state *g, struct ant *a)
{
	a->alive = false;
	a->carried = ANT_NONE;
	g->ant_at[ant_cell(g, a->row, a->col)] = ANT_NONE;
}

static void ant_eat(struct game_state *g, struct ant *queen, int bonus)
{
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		queen->reserve[k] += g->p.food[bonus][k];
}

static void ant_step(struct game_state *g, int id, int row, int col)
{
	struct ant *a = &g->ant[id];
	g->ant_at[ant_cell(g, a->row, a->col)] = ANT_NONE;
	a->row = row;
	a->col = col;
	int cell = ant_cell(g, row, col);
	g->ant_at[cell] = (int16_t)id;
	if (a->type == ANT_QUEEN && g->bonus[cell] != ANT_NONE) {
		ant_eat(g, a, g->bonus[cell]);
		g->bonus[cell] = ANT_NONE;
	}
}

/* The rules page's fight: the lower type wins and the loser dies, equal
 * types both die; the mover enters when it survives.  Ants of one colony
 * fight too (the original engine does, and the seed says "be it of the
 * same colony or not"). */
static void ant_move(struct game_state *g, int id, int dir)
{
	struct ant *a = &g->ant[id];
	if (a->type == ANT_QUEEN && g->round % g->p.queen_period != 0)
		return;
	int dr, dc;
	ant_dir_delta(dir, &dr, &dc);
	int row = a->row + dr, col = a->col + dc;
	if (!ant_inside(g, row, col) || g->water[ant_cell(g, row, col)])
		return;
	int other = g->ant_at[ant_cell(g, row, col)];
	if (other != ANT_NONE) {
		struct ant *o = &g->ant[other];
		int mine = a->type, theirs = o->type;
		if (mine <= theirs)
			ant_kill(g, o);
		if (mine >= theirs) {
			ant_kill(g, a);
			return;
		}
	}
	ant_step(g, id, row, col);
}

static void ant_take(struct game_state *g, struct ant *a)
{
	int cell = ant_cell(g, a->row, a->col);
	if (a->type != ANT_WORKER || a->carried != ANT_NONE || g->bonus[cell] == ANT_NONE)
		return;
	a->carried = g->bonus[cell];
	g->bonus[cell] = ANT_NONE;
}

static void ant_leave(struct game_state *g, struct ant *a)
{
	int cell = ant_cell(g, a->row, a->col);
	if (a->type != ANT_WORKER || a->carried == ANT_NONE || g->bonus[cell] != ANT_NONE)
		return;
	g->bonus[cell] = a->carried;
	a->carried = ANT_NONE;
}

/* The egg goes into any adjacent soil cell, occupied or not: whether it
 * lives is decided when it hatches (the seed). */
static void ant_lay(struct game_state *g, struct ant *a, int dir, int type)
{
	int dr, dc;
	ant_dir_delta(dir, &dr, &dc);
	int row = a->row + dr, col = a->col + dc;
	const int *need = g->p.need[type == ANT_SOLDIER ? 0 : 1];
	if (a->type != ANT_QUEEN || !ant_inside(g, row, col) || g->water[ant_cell(g, row, col)] ||
	    g->neggs == ANT_MAX_EGGS)
		return;
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		if (a->reserve[k] < need[k])
			return;
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		a->reserve[k] -= need[k];
	g->egg[g->neggs++] = (struct ant_egg){ .type = (int8_t)type, .player = a->player,
					       .cell = ant_cell(g, row, col) };
}

static void ant_execute(struct game_state *g, int id)
{
	struct ant *a = &g->ant[id];
	const struct ant_cmd *c = &g->cmd[id];
	if (!a->alive)
		return;
	switch (c->kind) {
	case ANT_MOVE:
		ant_move(g, id, c->dir);
		break;
	case ANT_TAKE:
		ant_take(g, a);
		break;
	case ANT_LEAVE:
		ant_leave(g, a);
		break;
	case ANT_LAY:
		ant_lay(g, a, c->dir, c->type);
		break;
	default:
		break;
	}
}

/* ---- the end of the round ------------------------------------------------ */

static void ant_age(struct game_state *g)
{
	for (int id = 0; id < g->nids; id++) {
		struct ant *a = &g->ant[id];
		if (a->alive && --a->life <= 0)
			ant_kill(g, a);
	}
}

/* Even eggs of a queen that died since hatch; one whose cell is taken
 * (by anybody, an earlier newborn included) dies. */
static void ant_hatch(struct game_state *g)
{
	rng_permutation(&g->rng, g->perm, g->neggs);
	for (int i = 0; i < g->neggs; i++) {
		const struct ant_egg *e = &g->egg[g->perm[i]];
		ant_add(g, e->type, e->player, e->cell / g->p.cols, e->cell % g->p.cols);
	}
	g->neggs = 0;
}

/* The new queen starts with an empty reserve, except that the food it
 * carried and the food on its cell are eaten at once (the seed). */
static void ant_crown(struct game_state *g, struct ant *a)
{
	a->type = ANT_QUEEN;
	a->life = g->p.queen_life;
	memset(a->reserve, 0, sizeof a->reserve);
	if (a->carried != ANT_NONE) {
		ant_eat(g, a, a->carried);
		a->carried = ANT_NONE;
	}
	int cell = ant_cell(g, a->row, a->col);
	if (g->bonus[cell] != ANT_NONE) {
		ant_eat(g, a, g->bonus[cell]);
		g->bonus[cell] = ANT_NONE;
	}
}

static void ant_succession(struct game_state *g, int player)
{
	int n = 0;
	for (int id = 0; id < g->nids; id++) {
		const struct ant *a = &g->ant[id];
		if (!a->alive || a->player != player)
			continue;
		if (a->type == ANT_QUEEN)
			return;
		g->cells[n++] = id; /* scratch: candidate ids */
	}
	if (n > 0)
		ant_crown(g, &g->ant[g->cells[rng_uniform(&g->rng, 0, n - 1)]]);
}

static void ant_spawn_in(struct game_state *g, int player, int bonus)
{
	int n = 0, r0 = g->rect_row[player][bonus], c0 = g->rect_col[player][bonus];
	for (int r = r0; r < r0 + g->p.bonus_rows; r++)
		for (int c = c0; c < c0 + g->p.bonus_cols; c++) {
			int cell = ant_cell(g, r, c);
			if (!g->water[cell] && g->bonus[cell] == ANT_NONE &&
			    g->ant_at[cell] == ANT_NONE)
				g->cells[n++] = cell;
		}
	if (n > 0)
		g->bonus[g->cells[rng_uniform(&g->rng, 0, n - 1)]] = (int8_t)bonus;
}

void ant_spawn_food(struct game_state *g)
{
	for (int q = 0; q < ANT_PLAYERS; q++)
		for (int b = 0; b < ANT_BONUSES; b++)
			ant_spawn_in(g, q, b);
}

/* ---- the round ----------------------------------------------------------- */

void ant_begin_log(struct game_state *g)
{
	g->log.nids = g->nids;
	memcpy(g->log.before, g->ant, (size_t)g->nids * sizeof *g->ant);
	memcpy(g->log.bonus, g->bonus, (size_t)(g->p.rows * g->p.cols));
	g->neggs = 0;
}

/* Ants with a command, by id; the owner's freeze drops its commands, this
 * is a second guard. */
static int ant_selected(struct game_state *g)
{
	int n = 0;
	for (int id = 0; id < g->nids; id++)
		if (g->cmd[id].kind != ANT_NONE && !g->frozen[g->ant[id].player])
			g->exec[n++] = (int16_t)id;
	return n;
}

/* Ages, births, successions, food on its rounds, the scores. */
static void ant_end_round(struct game_state *g)
{
	ant_age(g);
	ant_hatch(g);
	for (int q = 0; q < ANT_PLAYERS; q++)
		ant_succession(g, q);
	if (g->round % g->p.bonus_period == 0)
		ant_spawn_food(g);
	for (int q = 0; q < ANT_PLAYERS; q++)
		g->score[q] += ant_count(g, q);
}

/* The units with an order act one at a time, in one random order (the
 * seed's rule), then the round closes.  Once the match is over, orders
 * that come anyway go nowhere. */
void ant_advance(struct game_state *g)
{
	if (g->round >= g->p.rounds) {
		ant_forget_orders(g);
		return;
	}
	ant_begin_log(g);
	int n = ant_selected(g);
	rng_permutation(&g->rng, g->perm, n);
	for (int i = 0; i < n; i++)
		ant_execute(g, g->exec[g->perm[i]]);
	ant_end_round(g);
	ant_forget_orders(g);
	g->round++;
}
