/* view.c - what each Dominator player sees: rotated so that it is player 0.
 *
 * Player p's view is the board turned p quarter turns, so its box (p:
 * top-left, bottom-left, bottom-right, top-right) lands top-left, and every
 * team q is shown as (q - p) mod 4.  The same turn maps directions: the
 * view's d is the real (d + 2p) mod 8 (rules.c: dom_turn_dir).  Unit ids
 * are not renumbered.
 */
#include <math.h>
#include <stdint.h>

#include "games/engine.h"
#include "games/dominator/dom.h"
#include "games/seed.h"

/* One quarter turn takes view (r, c) to real (n-1-c, r): the view's Bottom
 * (+1, 0) becomes the real Right (0, +1), as (d + 2) mod 8 says. */
void dom_view_to_real(int n, int player, int vr, int vc, int *r, int *c)
{
	for (int k = 0; k < (player & 3); k++) {
		int t = vr;
		vr = n - 1 - vc;
		vc = t;
	}
	*r = vr;
	*c = vc;
}

/* The inverse turn: real (r, c) to (c, n-1-r), once per quarter. */
void dom_real_to_view(int n, int player, int r, int c, int *vr, int *vc)
{
	for (int k = 0; k < (player & 3); k++) {
		int t = r;
		r = c;
		c = n - 1 - t;
	}
	*vr = r;
	*vc = c;
}

static int dom_relative(int player, int team)
{
	return (team - player + DOM_PLAYERS) % DOM_PLAYERS;
}

static void dom_view_cells(const struct game_state *d, int player, struct dom_msg_view *v)
{
	int n = d->n;
	for (int vr = 0; vr < n; vr++)
		for (int vc = 0; vc < n; vc++) {
			int r, c;
			dom_view_to_real(n, player, vr, vc, &r, &c);
			int cell = dom_cell(d, r, c);
			uint8_t b = 0;
			if (d->wall[cell])
				b = DOM_CELL_WALL;
			else if (d->owner[cell] != DOM_NOBODY)
				b = (uint8_t)(dom_relative(player, d->owner[cell]) + 1);
			v->cell[vr * n + vc] = b;
		}
	/* Stamp each active witch's reach rather than asking every cell. */
	for (int i = 0; i < d->nwitches; i++) {
		const struct dom_unit *w = &d->unit[d->witch[i]];
		if (!w->active)
			continue;
		int cells[DOM_REACH_MAX];
		for (int k = dom_witch_reach(d, w, cells); k-- > 0;) {
			int vr, vc;
			dom_real_to_view(n, player, cells[k] / n, cells[k] % n, &vr, &vc);
			v->cell[vr * n + vc] |= DOM_CELL_HAUNTED;
		}
	}
}

void dom_view_build(const struct game_state *d, int player, struct dom_msg_view *v)
{
	v->round = (uint16_t)d->round;
	v->rows = v->cols = (uint16_t)d->n;
	for (int q = 0; q < DOM_PLAYERS; q++) {
		int team = (q + player) % DOM_PLAYERS;
		v->player[q] = (struct dom_msg_player){ .land = d->land[team],
							.score = d->score[team],
							.cpu = game_cpu_millionths(d->cpu[team], d->frozen[team]) };
	}
	dom_view_cells(d, player, v);
	v->nunits = 0;
	for (int id = 0; id < d->nunits; id++) {
		const struct dom_unit *u = &d->unit[id];
		if (u->captured)
			continue;
		int vr, vc;
		dom_real_to_view(d->n, player, u->row, u->col, &vr, &vc);
		v->unit[v->nunits++] = (struct dom_msg_unit){
			.id = (uint16_t)id,
			.type = (uint8_t)u->type,
			.owner = (uint8_t)dom_relative(player, u->owner),
			.row = (uint8_t)vr,
			.col = (uint8_t)vc,
			.health = (uint16_t)(u->health > 0 ? u->health : 0),
		};
	}
}

size_t dom_view(const struct game_state *d, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= DOM_PLAYERS)
		return 0;
	struct dom_msg_view v;
	dom_view_build(d, player, &v);
	return dom_view_encode(&v, buf, cap);
}

/* Every value fits: the key table's ranges keep them below 2^16. */
#define DOM_START_PARAM(field, lo, hi) .field = (uint16_t)d->p.field,

size_t dom_start(const struct game_state *d, int player, uint8_t *buf, size_t cap)
{
	if (player < 0 || player >= DOM_PLAYERS)
		return 0;
	struct dom_msg_start m = {
		.version = DOM_PROTO_VERSION,
		.players = DOM_PLAYERS,
		.seed = game_player_seed(d->seed, player),
		.params = { DOM_PARAMS(DOM_START_PARAM) },
	};
	return dom_start_encode(&m, buf, cap);
}
