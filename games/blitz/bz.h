/* bz.h - the Blitz2018 engine's state and functions (games/blitz).
 *
 * Blitz2018 is Halite I with fog of war: shared/seeds/003_*.txt, completed
 * by shared/rules/blitz.md; where they disagree the seed wins.
 *
 * Promises: a match is one flat struct game_state, allocated once by
 * bz_new() and never again (a copy of its bytes is a match); resolving a
 * turn allocates nothing.  The map comes from the seed alone (or from the
 * parameters file), and resolving a turn has no randomness at all, so
 * (parameters, seed, players, orders) fix the match and its replay.  Orders
 * are hostile bytes: bounded, validated, ignored when they name a site the
 * player does not own or an unknown direction.  A player ejected (frozen by
 * the runner, or breaking the protocol) leaves its pieces to the map.
 *
 * Everything is exposed for white-box tests.  Owners are 0 (the map) or a
 * tag 1..players; player p of the runner (0-based) is tag p + 1.
 */
#ifndef BZ_H
#define BZ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/blitz/proto.h"
#include "games/engine.h"
#include "games/game.h"
#include "games/kit/rng.h"

#define BZ_NO_ORDER 0xff
#define BZ_ALIVE 0x7fffffff /* elimination turn of a player still playing */

struct bz_params {
	int width, height; /* asked; the generated map may be smaller */
	int size_min, size_max; /* not 0: each match draws its side from this
				 * range with its seed, over width and height */
	int fog;           /* sight radius; 0: no fog */
	int rounds;        /* the turn limit; 0 in the file: floor(10 *
			    * sqrt(width * height)) of the map, set by bz_new */
	int start_strength;
	bool fixed_map;
	int map_width, map_height; /* of the fixed map */
	uint8_t owner[BZ_MAX_SITES], strength[BZ_MAX_SITES], production[BZ_MAX_SITES];
};

/* A match of Blitz2018: the state behind the judge's opaque struct game_state
 * (games/game.h), which this engine's functions and table take. */
struct game_state {
	struct bz_params p;
	uint64_t seed;
	struct rng rng; /* the map generator's */
	int players;
	int width, height, sites;
	int round; /* turns played */

	uint8_t owner[BZ_MAX_SITES];
	uint8_t strength[BZ_MAX_SITES];
	uint8_t production[BZ_MAX_SITES];
	/* The map before the first turn, for the replay's header (the runner
	 * asks for it when the match is over). */
	uint8_t first_owner[BZ_MAX_SITES], first_strength[BZ_MAX_SITES];
	int start[BZ_MAX_PLAYERS]; /* each player's first site (-1: fixed map) */

	int land[BZ_MAX_PLAYERS];       /* sites owned now */
	int64_t integral[BZ_MAX_PLAYERS]; /* land summed over the turns */
	int out_turn[BZ_MAX_PLAYERS];   /* turn eliminated, BZ_ALIVE if not */
	bool ejected[BZ_MAX_PLAYERS];
	double cpu[BZ_MAX_PLAYERS];
	int64_t score[BZ_MAX_PLAYERS];  /* territory: the sites owned */

	/* Orders for the coming turn: a direction per site, BZ_NO_ORDER. */
	uint8_t order[BZ_MAX_SITES];
	int norders[BZ_MAX_PLAYERS];
	struct bz_msg_order incoming[BZ_MAX_ORDERS];

	/* What the last turn did, for the replay: the direction each piece
	 * moved (BZ_STILL when it did not). */
	uint8_t moved[BZ_MAX_SITES];

	/* Scratch of a turn: each player's pieces after moving (-1: none),
	 * the sites that hold one (in `held`, so that a turn costs what the
	 * pieces are, not what the map is), the damage each piece of `held`
	 * takes (-1: it did not fight), the damage to the map's sites, and all
	 * the players' strengths and pieces on each site.  Between turns every
	 * piece is -1 and every sum, count and neutral_hurt 0 (bz_new_players
	 * sets that, each turn restores it). */
	int16_t piece[BZ_MAX_PLAYERS][BZ_MAX_SITES];
	uint16_t held[BZ_MAX_PLAYERS][BZ_MAX_SITES];
	int nheld[BZ_MAX_PLAYERS];
	int32_t hurt[BZ_MAX_SITES];
	int32_t neutral_hurt[BZ_MAX_SITES];
	int32_t sum[BZ_MAX_SITES];
	uint8_t count[BZ_MAX_SITES];

	/* Scratch of the map generator. */
	double chunk[BZ_MAX_SITES], field[BZ_MAX_SITES], field_tmp[BZ_MAX_SITES];
};

/* ---- game.c, rules.c, view.c, replay.c: the table's functions ------------ */

/* game.h says what each does; bz_take_orders fills err when it refuses a
 * message. */
struct game_state *bz_new(const char *params, uint64_t seed, err_t err);
void bz_free(struct game_state *s);
size_t bz_start(const struct game_state *s, int player, uint8_t *buf, size_t cap);
size_t bz_view(const struct game_state *s, int player, uint8_t *buf, size_t cap);
int bz_take_orders(struct game_state *s, int player, const uint8_t *buf, size_t len,
		   err_t err);
void bz_set_status(struct game_state *s, int player, double cpu_share);
void bz_advance(struct game_state *s);
json_t *bz_replay_header(const struct game_state *s);
json_t *bz_replay_round(const struct game_state *s);
json_t *bz_replay_orders(const struct game_state *s);
size_t bz_replay_message(const struct game_state *s, int player, const json_t *orders,
			 uint8_t *buf, size_t cap);

/* ---- params.c ------------------------------------------------------------ */

void bz_params_default(struct bz_params *p);
/* From a parameters file's text (NULL or empty: the defaults); -1 with
 * err naming the line and key. */
int bz_params_parse(const char *text, struct bz_params *p, err_t err);

/* ---- mapgen.c ------------------------------------------------------------ */

/* How the map is cut into one chunk per player: tiles across and down. */
void bz_tiling(int players, bool horizontal, int *across, int *down);
/* Generates the map for the state's players from its seed (or copies the
 * fixed one); sets width, height, sites, the fields and the starts.  -1
 * with err when the asked size cannot hold the players. */
int bz_map_setup(struct game_state *b, err_t err);

/* ---- rules.c ------------------------------------------------------------- */

/* Ejects a player: its pieces become the map's, it is out this turn. */
void bz_eject(struct game_state *b, int player);
bool bz_over(const struct game_state *b);
void bz_ranks(const struct game_state *b, int *rank);
/* Counts land per player. */
void bz_count_land(struct game_state *b);

/* ---- view.c -------------------------------------------------------------- */

/* Which sites player (0-based) sees: its own and all within the fog
 * radius of one (every site when there is no fog). */
void bz_visible(const struct game_state *b, int player, bool *seen);
void bz_view_build(const struct game_state *b, int player, struct bz_msg_view *v);

/* ---- game.c -------------------------------------------------------------- */

struct game_state *bz_new_players(const char *params, uint64_t seed, int players,
				err_t err);

extern const struct game blitz_game;

#endif
