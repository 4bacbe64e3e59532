/* fuzz_blitz_orders.c - libFuzzer target: hostile orders bytes against the
 * Blitz2018 engine.  The input layout, the match copies and the checks
 * every engine passes are the shared harness's (fuzz_orders.h); this file
 * names its parameter sets and checks what Blitz's rules promise:
 *
 * start messages decode and carry the player's tag and seed; views decode,
 * are the map's size and the round's, and show nothing beyond the fog
 * radius of the player's own sites (fogged sites are 0, 0, 0); an ejected
 * player owns no site and takes no orders; strengths stay within 255 (the
 * bytes can hold no more: the land counts are checked instead against the
 * map); the replay's round has its moves and a land count per player that
 * adds up to the map's owned sites.  The orders limit is the map's sites.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/blitz/proto.h"
#include "tests/fuzz/fuzz_orders.h"

#define FUZZ_NAME "fuzz_blitz_orders"
#include "tests/fuzz/fuzz_check.h"

static const struct fuzz_set sets[] = {
	FUZZ_SET_DEFAULT,
	/* Small, no fog, weak neutrals: contact within a few rounds. */
	{ "small", "width 8\nheight 8\nfog 0\nstart_strength 200\n", FUZZ_MAX_SEEDS, 0 },
	FUZZ_SET_SHORT("width 12\nheight 10\nfog 3\n"),
	/* The view is exactly view_max bytes long. */
	FUZZ_SET_LARGEST("width 64\nheight 64\n"),
	/* A fixed map where the players touch: early ends, 0-strength pieces,
	 * the map's sites fighting. */
	{ "fixed",
	  "fog 1\nmap\n"
	  "1/0/1 2/5 0/0 3/40\n"
	  "0/30/1 1/0/2 2/10/2 0/0\n"
	  "4/255 0/0 1/1/1 0/0/2\n",
	  1, 0 },
};

static int players;

static int sites_of(const struct fuzz_run *r)
{
	return r->g->sites;
}

static void start(struct fuzz_run *r, int p, const uint8_t *buf, size_t len)
{
	struct bz_msg_start s;
	check(bz_start_decode(buf, len, &s), "start of player %d does not decode", p);
	check(s.tag == p + 1, "start of player %d: tag %u", p, s.tag);
	check(s.seed == r->seed + (uint64_t)p + 1, "start of player %d: seed %llu", p,
	      (unsigned long long)s.seed);
	check(s.turns == r->game->rounds(r->g), "start says %u turns, rounds() %d", s.turns,
	      r->game->rounds(r->g));
	players = s.players;
}

/* Every site the view shows is within the radius of one of the player's
 * own sites, which the view shows too. */
static void check_fog(const struct bz_msg_view *v, int p, int fog)
{
	int n = v->width * v->height;
	if (bz_fog_off(v->width, v->height, fog))
		return;
	for (int s = 0; s < n; s++) {
		const struct bz_site *x = &v->site[s];
		if (!x->owner && !x->strength && !x->production)
			continue;
		bool near = false;
		for (int t = 0; !near && t < n; t++)
			near = v->site[t].owner == p + 1 &&
			       bz_dist2(v->width, v->height, s, t) <= fog * fog;
		check(near, "view of player %d: site %d shown, beyond radius %d of its sites", p, s,
		      fog);
	}
}

static void check_view(struct fuzz_run *r, int p, const uint8_t *buf, size_t len, bool all)
{
	(void)all;
	static struct bz_msg_view v;
	const struct game_state *b = r->g;
	check(bz_view_decode(buf, len, players, &v), "view of player %d (%zu bytes) does not decode",
	      p, len);
	check(v.width == b->width && v.height == b->height, "view of player %d: %u x %u", p,
	      v.width, v.height);
	check(len == BZ_VIEW_HEAD + (size_t)b->sites * BZ_SITE_LEN, "view of player %d: %zu bytes",
	      p, len);
	check(v.turn == r->game->round(r->g), "view of player %d: turn %u, round() %d", p, v.turn,
	      r->game->round(r->g));
	check_fog(&v, p, b->p.fog);
	if (b->ejected[p])
		for (int s = 0; s < b->sites; s++)
			check(v.site[s].owner != p + 1, "ejected player %d still owns site %d", p, s);
}

static void after_advance(struct fuzz_run *r, const bool frozen[GAME_MAX_PLAYERS])
{
	const struct game_state *b = r->g;
	int land[BZ_MAX_PLAYERS] = { 0 };
	for (int s = 0; s < b->sites; s++) {
		check(b->owner[s] <= b->players, "site %d owned by %d", s, b->owner[s]);
		if (b->owner[s])
			land[b->owner[s] - 1]++;
	}
	for (int p = 0; p < b->players; p++) {
		check(land[p] == b->land[p], "player %d: land %d, %d sites", p, b->land[p], land[p]);
		check(!frozen[p] || land[p] == 0, "frozen player %d owns %d sites", p, land[p]);
		check((b->out_turn[p] == BZ_ALIVE) == (land[p] > 0),
		      "player %d: out on turn %d with %d sites", p, b->out_turn[p], land[p]);
	}
}

static void replay_round(struct fuzz_run *r, json_t *f)
{
	const struct game_state *b = r->g;
	check(json_is_string(json_object_get(f, "moves")), "replay_round: no \"moves\"");
	json_t *land = json_object_get(f, "land");
	check(json_array_size(land) == (size_t)b->players, "replay_round: no \"land\" per player");
	for (int p = 0; p < b->players; p++)
		check(json_integer_value(json_array_get(land, p)) == b->land[p],
		      "replay_round: land of player %d differs", p);
}

const struct fuzz_orders_game fuzz_orders_game = {
	FUZZ_ORDERS_GAME("blitz", sets, struct game_state, BZ_ORDER_LEN, BZ_MAX_ORDERS),
	.max_orders_of = sites_of,
	.start = start,
	.view = check_view,
	.after_advance = after_advance,
	.replay_round = replay_round,
};
