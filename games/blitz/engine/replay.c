/* replay.c - Blitz2018's replay: the initial map, then each turn's moves.
 *
 * Header (the map before the first turn, whenever it is asked for):
 * {"params":{"width", "height", "players", "fog", "rounds",
 * "start_strength"}, "production":"...", "strength":"...", "owner":"..."}
 * where production and strength give two hex digits per site and owner
 * one digit (0 the map, 1..6 a player), row-major from the north-west.
 *
 * Round: {"moves":"...", "land":[sites of each player]}.  "moves" goes
 * through the sites in the same order: a number k stands for k sites whose
 * piece did not move (or without a piece), a letter n, e, s or w for a
 * piece that moved north, east, south or west; the sites after the last
 * move are left out.  Turns have no randomness, so the moves and the rules
 * give every turn's map: a viewer replays them.  "orders" (the runner's,
 * next to "moves") has the same form: the moves the pieces were ordered,
 * whose owner at the start of the turn is the player who gave them.  A
 * 30 x 30 match of two players is 17-45 KB without the orders.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/replay_runs.h"

static json_t *bz_hex_grid(const struct game_state *b, const uint8_t *v)
{
	static const char hex[] = "0123456789abcdef";
	char *s = malloc((size_t)b->sites * 2 + 1);
	if (!s)
		return json_null();
	for (int i = 0; i < b->sites; i++) {
		s[2 * i] = hex[v[i] >> 4];
		s[2 * i + 1] = hex[v[i] & 15];
	}
	s[2 * b->sites] = '\0';
	json_t *j = json_string(s);
	free(s);
	return j;
}

json_t *bz_replay_header(const struct game_state *b)
{
	char owners[BZ_MAX_SITES + 1];
	for (int i = 0; i < b->sites; i++)
		owners[i] = (char)('0' + b->first_owner[i]);
	owners[b->sites] = '\0';
	const struct bz_params *p = &b->p;
	return json_pack("{s:{s:i, s:i, s:i, s:i, s:i, s:i}, s:o, s:o, s:s}", "params", "width",
			 b->width, "height", b->height, "players", b->players, "fog", p->fog,
			 "rounds", p->rounds, "start_strength", p->start_strength, "production",
			 bz_hex_grid(b, b->production), "strength", bz_hex_grid(b, b->first_strength),
			 "owner", owners);
}

static const char bz_letter[BZ_DIRS] = { '.', 'n', 'e', 's', 'w' };

/* The sites whose direction in dirs is a move, as the header says; buf
 * holds at least 5 * sites + 1.  Most sites hold `blank` (no move): eight
 * of them at a time are passed over with one test. */
static void bz_moves_text(const struct game_state *b, const uint8_t *dirs, uint8_t blank,
			  char *buf, size_t cap)
{
	enum { CHUNK = sizeof(uint64_t) };
	const uint64_t blanks = blank * 0x0101010101010101ULL;
	struct runs_writer w = runs_writer(buf, cap);
	for (int s = 0; s < b->sites; s++) {
		uint64_t chunk;
		if (s % CHUNK == 0 && s + CHUNK <= b->sites) {
			memcpy(&chunk, dirs + s, CHUNK);
			if (chunk == blanks) {
				s += CHUNK - 1;
				continue;
			}
		}
		if (dirs[s] != BZ_STILL && dirs[s] < BZ_DIRS)
			runs_put(&w, s, bz_letter[dirs[s]]);
	}
}

json_t *bz_replay_round(const struct game_state *b)
{
	static _Thread_local char moves[5 * BZ_MAX_SITES + 1];
	bz_moves_text(b, b->moved, BZ_STILL, moves, sizeof moves);
	json_t *land = json_array();
	for (int p = 0; p < b->players; p++)
		json_array_append_new(land, json_integer(b->land[p]));
	return json_pack("{s:s, s:o}", "moves", moves, "land", land);
}

/* ---- orders -------------------------------------------------------------- */

/* The moves the pieces were ordered, in the round's form; STILL (or no
 * order) is left out: it is what a piece does anyway.  An ejected player's
 * pieces belong to the map by then and have none. */
json_t *bz_replay_orders(const struct game_state *b)
{
	static _Thread_local char moves[5 * BZ_MAX_SITES + 1];
	bz_moves_text(b, b->order, BZ_NO_ORDER, moves, sizeof moves);
	return json_string(moves);
}

/* A move of the string, if its site is player's. */
static int bz_replay_take(const void *state, int player, int site, char c, void *order)
{
	const struct game_state *b = state;
	int dir = BZ_NORTH;
	while (dir < BZ_DIRS && bz_letter[dir] != c)
		dir++;
	if (dir == BZ_DIRS)
		return -1;
	if (b->owner[site] != player + 1)
		return 0;
	*(struct bz_msg_order *)order = (struct bz_msg_order){ (uint16_t)site, (uint8_t)dir };
	return 1;
}

/* The player's part of the orders (its own sites), as its message. */
size_t bz_replay_message(const struct game_state *b, int player, const json_t *orders,
			 uint8_t *buf, size_t cap)
{
	static _Thread_local struct bz_msg_order scratch[BZ_MAX_ORDERS];
	return runs_message(orders, b->players, b->sites, b, player, bz_replay_take, &bz_orders, scratch,
			    buf, cap);
}
