/* view.c - what each Star War player sees: the whole universe.
 *
 * Seed 1: "Players can look up the content of any cell of the universe
 * during the match", so nothing is fogged or rotated; every player gets the
 * same cells, ships and scores, in real coordinates and ids.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "games/engine.h"
#include "games/starwar/sw.h"
#include "games/seed.h"

static uint16_t sw_u16(int v)
{
	return (uint16_t)(v < 0 ? 0 : v > UINT16_MAX ? UINT16_MAX : v);
}

void sw_view_build(const struct game_state *d, int player, struct sw_msg_view *v)
{
	(void)player; /* everybody sees the same universe */
	v->round = sw_u16(d->round);
	v->rows = sw_u16(d->p.rows);
	v->cols = sw_u16(d->p.cols);
	v->window = sw_u16(d->p.window);
	for (int q = 0; q < SW_PLAYERS; q++) {
		v->player[q].score = d->score[q];
		v->player[q].cpu = game_cpu_millionths(d->cpu[q], d->frozen[q]);
	}
	memcpy(v->cell, d->kind, (size_t)d->p.rows * d->p.cols);
	v->nships = sw_u16(d->nships);
	for (int id = 0; id < d->nships; id++) {
		const struct sw_ship *s = &d->ship[id];
		v->ship[id] = (struct sw_msg_ship){ .alive = s->alive,
						    .row = (uint8_t)s->row,
						    .col = (uint8_t)s->col,
						    .missiles = sw_u16(s->missiles),
						    .wait = sw_u16(s->alive ? 0 : s->wait) };
	}
}

#define SW_START_PARAM(field, lo, hi) .field = sw_u16(d->p.field),

size_t sw_start(const struct game_state *d, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= SW_PLAYERS)
		return 0;
	struct sw_msg_start m = {
		.version = SW_PROTO_VERSION,
		.players = SW_PLAYERS,
		.seed = game_player_seed(d->seed, player),
		.player = (uint8_t)player,
		.params = { SW_PARAMS(SW_START_PARAM) },
	};
	return sw_start_encode(&m, buf, cap);
}

/* The view struct is about 27 KB: on the stack, like Dominator's. */
size_t sw_view(const struct game_state *d, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= SW_PLAYERS)
		return 0;
	struct sw_msg_view v;
	sw_view_build(d, player, &v);
	return sw_view_encode(&v, buf, cap);
}
