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

void bz_visible(const struct game_state *b, int player, bool *seen)
{
	bool all = bz_fog_off(b->width, b->height, b->p.fog);
	memset(seen, all, (size_t)b->sites);
	if (all)
		return;
	/* memchr skips the sites of others many at a time */
	const uint8_t *owner = b->owner, *end = owner + b->sites;
	for (const uint8_t *o = owner; (o = memchr(o, player + 1, (size_t)(end - o))); o++)
		bz_mark_disc(b->width, b->height, (int)(o - owner), b->p.fog, seen);
}

/* Copies the sites of [from, to) that the player sees; the others stay
 * zero (fog). */
static void bz_copy_seen(const struct game_state *b, const bool *seen, int from, int to,
			 struct bz_site *site)
{
	for (int s = from; s < to; s++) {
		/* no branch: a fogged site is all zero bytes */
		uint8_t keep = (uint8_t)-(uint8_t)seen[s];
		site[s] = (struct bz_site){ b->owner[s] & keep, b->strength[s] & keep,
					    b->production[s] & keep };
	}
}

void bz_view_build(const struct game_state *b, int player, struct bz_msg_view *v)
{
	/* seen is read 8 sites at a time: a fogged stretch costs one test */
	enum { CHUNK = sizeof(uint64_t) };
	_Alignas(uint64_t) bool seen[BZ_MAX_SITES + CHUNK];
	bz_visible(b, player, seen);
	memset(seen + b->sites, 0, CHUNK);
	v->turn = (uint16_t)b->round;
	v->width = (uint16_t)b->width;
	v->height = (uint16_t)b->height;
	memset(v->site, 0, sizeof v->site[0] * (size_t)b->sites);
	for (int s = 0; s < b->sites; s += CHUNK) {
		uint64_t any;
		memcpy(&any, seen + s, CHUNK);
		if (any)
			bz_copy_seen(b, seen, s, s + CHUNK < b->sites ? s + CHUNK : b->sites, v->site);
	}
}

size_t bz_start(const struct game_state *b, int player, uint8_t *buf, size_t cap)
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

size_t bz_view(const struct game_state *b, int player, uint8_t *buf, size_t cap)
{
	static _Thread_local struct bz_msg_view v;
	bz_view_build(b, player, &v);
	return bz_view_encode(&v, buf, cap);
}
