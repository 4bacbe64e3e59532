/* view.c - what each Ants player sees: everything, as it is.
 *
 * Ants has no rotation and no renumbering: the seed places colony p in its
 * own corner and lets the player ask me(), so the view is the real board
 * with real player numbers, and the start message tells the player who it
 * is.  Nothing is hidden but the food rectangles ("unknown to the players").
 */
#include <math.h>

#include "games/engine.h"
#include "games/ants/ants.h"
#include "games/seed.h"

static uint32_t ant_u32(int v)
{
	return v > 0 ? (uint32_t)v : 0;
}

static uint8_t ant_view_cell(const struct game_state *g, int cell)
{
	return (uint8_t)((g->water[cell] ? ANT_CELL_WATER : 0) | (g->bonus[cell] + 1));
}

static void ant_view_head(const struct game_state *g, struct ant_msg_head *h)
{
	h->round = (uint16_t)g->round;
	h->rows = (uint16_t)g->p.rows;
	h->cols = (uint16_t)g->p.cols;
	for (int q = 0; q < ANT_PLAYERS; q++)
		h->player[q] = (struct ant_msg_player){ .score = g->score[q],
							.ants = ant_count(g, q),
							.cpu = game_cpu_millionths(g->cpu[q], g->frozen[q]) };
}

static struct ant_msg_ant ant_view_ant(const struct game_state *g, int id)
{
	const struct ant *a = &g->ant[id];
	return (struct ant_msg_ant){
		.id = (uint16_t)id,
		.type = (uint8_t)a->type,
		.player = (uint8_t)a->player,
		.row = (uint8_t)a->row,
		.col = (uint8_t)a->col,
		.life = (uint16_t)(a->life > 0 ? a->life : 0),
		.carried = (uint8_t)(a->carried + 1),
		.reserve = { ant_u32(a->reserve[0]), ant_u32(a->reserve[1]),
			     ant_u32(a->reserve[2]) },
	};
}

void ant_view_build(const struct game_state *g, int player, struct ant_msg_view *v)
{
	(void)player; /* everybody sees the same */
	ant_view_head(g, &v->h);
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		v->cell[i] = ant_view_cell(g, i);
	v->nants = 0;
	for (int id = 0; id < g->nids; id++)
		if (g->ant[id].alive)
			v->ant[v->nants++] = ant_view_ant(g, id);
}

/* Streamed with proto.h's pieces rather than through ant_view_build():
 * a whole struct ant_msg_view is some 250 KB, too much for a stack, and
 * the same bytes come out (a unit test compares them). */
size_t ant_view(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= ANT_PLAYERS)
		return 0;
	struct ant_msg_head h;
	ant_view_head(g, &h);
	struct wire_w w = wire_writer(buf, cap);
	ant_msg_head_put(&w, &h);
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		wire_u8(&w, ant_view_cell(g, i));
	int nants = 0;
	for (int q = 0; q < ANT_PLAYERS; q++)
		nants += h.player[q].ants;
	wire_u16(&w, (uint16_t)nants);
	for (int id = 0; id < g->nids; id++)
		if (g->ant[id].alive) {
			struct ant_msg_ant a = ant_view_ant(g, id);
			ant_msg_ant_put(&w, &a);
		}
	return w.overflow ? 0 : w.len;
}

static struct ant_msg_params ant_start_params(const struct ant_params *p)
{
	struct ant_msg_params m;
	const int *v = ant_params_array(p);
	for (int i = 0; i < ANT_NPARAMS; i++)
		m.v[i] = (uint16_t)v[i];
	return m;
}

size_t ant_start(const struct game_state *g, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= ANT_PLAYERS)
		return 0;
	struct ant_msg_start m = {
		.version = ANT_PROTO_VERSION,
		.players = ANT_PLAYERS,
		.seed = game_player_seed(g->seed, player),
		.me = (uint8_t)player,
		.params = ant_start_params(&g->p),
	};
	return ant_start_encode(&m, buf, cap);
}
