/* view.c - what a Blitz2018 player is sent: the start, and each turn the
 * map under its fog.
 *
 * Fog: a player sees its own sites and every site within wrapped Euclidean
 * distance `fog` of one of them; no memory (a site seen before goes back
 * into fog).  Other sites are sent as the map's, strength 0, production 0.
 * Radius 0, or one reaching every site, is no fog.
 */
#include <string.h>

#include "games/blitz/bz.h"

void bz_visible(const struct bz_state *b, int player, bool *seen)
{
	bool all = bz_fog_off(b->width, b->height, b->p.fog);
	memset(seen, all, (size_t)b->sites);
	for (int s = 0; !all && s < b->sites; s++)
		if (b->owner[s] == player + 1)
			bz_mark_disc(b->width, b->height, s, b->p.fog, seen);
}

void bz_view_build(const struct bz_state *b, int player, struct bz_msg_view *v)
{
	bool seen[BZ_MAX_SITES];
	bz_visible(b, player, seen);
	v->turn = (uint16_t)b->round;
	v->width = (uint16_t)b->width;
	v->height = (uint16_t)b->height;
	for (int s = 0; s < b->sites; s++) {
		/* no branch: a fogged site is all zero bytes */
		uint8_t keep = (uint8_t)-(uint8_t)seen[s];
		v->site[s] = (struct bz_site){ b->owner[s] & keep, b->strength[s] & keep,
					       b->production[s] & keep };
	}
}

size_t bz_start(const struct bz_state *b, int player, uint8_t *buf, size_t cap)
{
	struct bz_msg_start s = {
		.version = BZ_PROTO_VERSION,
		.players = (uint8_t)b->players,
		.tag = (uint8_t)(player + 1),
		.width = (uint16_t)b->width,
		.height = (uint16_t)b->height,
		.turns = (uint16_t)b->p.rounds,
		.fog = (uint16_t)b->p.fog,
		.seed = b->seed + (uint64_t)player + 1,
	};
	return bz_start_encode(&s, buf, cap);
}

size_t bz_view(const struct bz_state *b, int player, uint8_t *buf, size_t cap)
{
	static _Thread_local struct bz_msg_view v;
	bz_view_build(b, player, &v);
	return bz_view_encode(&v, buf, cap);
}
