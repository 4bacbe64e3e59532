/* fuzz_dominator_orders.c - libFuzzer target: hostile orders bytes against
 * the Dominator engine.  The input layout, the match copies and the checks
 * every engine passes are the shared harness's (fuzz_orders.h); this file
 * names six parameter sets and checks what Dominator's rules promise:
 *
 * start messages decode, carry the player's seed and the same parameters;
 * a refused or frozen player shows as frozen (cpu -1) and its units stay
 * put; a unit moves only one step, the way its owner's first usable order
 * said, diagonally only if a knight; views decode, fit their layout, and
 * player p's is player 0's turned p quarter turns (teams renumbered) at the
 * start and the end; no unit leaves the board, stands on a wall or shares
 * a cell; units keep their type and stay on the board between rounds;
 * land, scores (scores() and the replay's too), health add up.  A broken
 * rule aborts with a message, which libFuzzer reports as a crash, saving
 * the input.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/dominator/dom.h"
#include "games/dominator/proto.h"
#include "tests/fuzz/fuzz_orders.h"

#define FUZZ_NAME "fuzz_dominator_orders"
#include "tests/fuzz/fuzz_check.h"

#define FIXED_N 25

static char fixed_board[256 + FIXED_N * (FIXED_N + 1)];

/* Each set reaches parts of the engine the others rarely do. */
static const struct fuzz_set sets[] = {
	FUZZ_SET_DEFAULT,
	/* Crowded boxes, one-hit kills, no regeneration: captures and
	 * rebirth every round. */
	FUZZ_SET_CROWDED("rows 21\nfarmers 12\nknights 12\nwitches 4\ndamage_min 1\n"
			 "damage_max 300\nfarmer_regen 0\nknight_regen 0\n"),
	FUZZ_SET_SHORT("rows 23\nfarmers 3\nknights 3\nwitches 1\n"),
	/* The most units too: the view is exactly view_max bytes long. */
	FUZZ_SET_LARGEST("rows 99\nfarmers 128\nknights 128\nwitches 0\n"),
	/* As many witches as allowed: haunting and sweeps. */
	{ "witches", "rows 41\nfarmers 40\nknights 40\nwitches 20\n", 2, 2 },
	/* A fixed board with inner walls and painted cells (built below). */
	{ "fixed", fixed_board, 4, 0 },
};

/* 25 x 25: walls around, a cross of walls with two gaps per arm through the
 * middle band, a wall in each box, and cells already painted by every
 * player (some in a rival's box), so land starts nonzero and uneven. */
static void build_fixed_board(void)
{
	int len = snprintf(fixed_board, sizeof fixed_board,
			   "farmers 10\nknights 6\nwitches 2\nboard\n");
	const int n = FIXED_N, mid = FIXED_N / 2;
	for (int r = 0; r < n; r++) {
		for (int c = 0; c < n; c++) {
			char ch = '.';
			bool border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
			bool cross = (r == mid && c >= 3 && c <= n - 4 && c != 6 && c != n - 7) ||
				     (c == mid && r >= 3 && r <= n - 4 && r != 6 && r != n - 7);
			if (border || cross || (r == 5 && c == 5) || (r == n - 6 && c == n - 6))
				ch = 'X';
			else if (r == 2 && c >= 2 && c <= 8)
				ch = '2';
			else if (c == n - 3 && r >= 14)
				ch = (char)('0' + r % 4);
			else if (r == mid + 1 && c < 8)
				ch = '1';
			fixed_board[len++] = ch;
		}
		fixed_board[len++] = '\n';
	}
	fixed_board[len] = '\0';
}

/* ---- the run's model ----------------------------------------------------- */

static struct dom_msg_params params; /* from player 0's start message */
static int units;                    /* on the board, all players */
/* Per unit id: its team at the start of the round (from player 0's view),
 * and the real direction its team's first usable order chose this round
 * (-1: none yet). */
static int8_t team[DOM_MAX_UNITS];
static int8_t chosen[DOM_MAX_UNITS];

/* Views are large (18 KB at most); one run at a time, so static. */
static struct dom_msg_view view[DOM_PLAYERS], before;
static uint16_t occupant[DOM_MAX_CELLS];

static void begin(struct fuzz_run *r)
{
	(void)r;
	memset(chosen, -1, sizeof chosen);
	memset(team, -1, sizeof team);
}

static void start(struct fuzz_run *r, int p, const uint8_t *buf, size_t len)
{
	struct dom_msg_start s = { 0 };
	bool ok = dom_start_decode(buf, len, &s);
	/* rotated: the message names no player */
	fuzz_check_start(r, p, &(struct fuzz_start){ ok, -1, s.seed, &s.params, s.params.rounds },
			 &params, sizeof params);
	units = DOM_PLAYERS * (params.farmers + params.knights + params.witches);
}

static int full_health(int type)
{
	return type == DOM_FARMER ? params.farmer_health
	       : type == DOM_KNIGHT ? params.knight_health
				    : 0;
}

/* One view on its own: the layout, the board, the units. */
static void check_view(struct fuzz_run *r, int p, const uint8_t *buf, size_t len, bool all)
{
	(void)all;
	struct dom_msg_view *v = &view[p];
	check(dom_view_decode(buf, len, v), "view of player %d (%zu bytes) does not decode", p,
	      len);
	int n = params.rows;
	size_t cells = (size_t)n * n;
	check(len == 6 + DOM_PLAYERS * DOM_VIEW_PLAYER_LEN + cells + 2 +
			     (size_t)v->nunits * DOM_VIEW_UNIT_LEN,
	      "view of player %d: %zu bytes for %u units", p, len, v->nunits);
	check(v->rows == n && v->cols == n, "view of player %d: %u x %u, the board is %d", p,
	      v->rows, v->cols, n);
	check(v->round == r->game->round(r->g), "view of player %d: round %u, round() %d", p,
	      v->round, r->game->round(r->g));

	int land[DOM_PLAYERS] = { 0 };
	for (size_t i = 0; i < cells; i++) {
		uint8_t c = v->cell[i];
		int owner = c & DOM_CELL_OWNER;
		check((c & 0x38) == 0 && owner <= DOM_PLAYERS, "view of player %d: cell %zu is %#x",
		      p, i, c);
		check(!(dom_cell_wall(c) && owner), "view of player %d: wall cell %zu has owner %d",
		      p, i, owner - 1);
		if (owner)
			land[owner - 1]++;
	}
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(v->player[q].land == land[q], "view of player %d: team %d has land %d, %d cells",
		      p, q, v->player[q].land, land[q]);

	/* Between rounds nobody waits for rebirth: every unit is on the board. */
	check(v->nunits == units, "view of player %d: %u units, the match has %d", p, v->nunits,
	      units);
	memset(occupant, 0xff, cells * sizeof *occupant);
	for (int i = 0; i < v->nunits; i++) {
		const struct dom_msg_unit *u = &v->unit[i];
		check(u->id < units, "view of player %d: unit id %u of %d", p, u->id, units);
		check(u->row < n && u->col < n, "view of player %d: unit %u off the board at (%u, %u)",
		      p, u->id, u->row, u->col);
		size_t cell = (size_t)u->row * n + u->col;
		check(!dom_cell_wall(v->cell[cell]), "view of player %d: unit %u on a wall at (%u, %u)",
		      p, u->id, u->row, u->col);
		check(occupant[cell] == 0xffff, "view of player %d: units %u and %u share (%u, %u)", p,
		      occupant[cell], u->id, u->row, u->col);
		occupant[cell] = u->id;
		int full = full_health(u->type);
		if (u->type == DOM_WITCH)
			check(u->health == 0, "witch %u has health %u", u->id, u->health);
		else
			check(u->health >= 1 && u->health <= full,
			      "unit %u (type %u) has health %u of %d", u->id, u->type, u->health, full);
	}
}

/* Player p's view is player 0's turned: the same units with the same type
 * and health, teams renumbered (q - p) mod 4, the same standings. */
static void check_against_view0(int p)
{
	const struct dom_msg_view *a = &view[0], *b = &view[p];
	static int16_t slot[DOM_MAX_UNITS];
	memset(slot, 0xff, sizeof slot);
	for (int i = 0; i < a->nunits; i++)
		slot[a->unit[i].id] = (int16_t)i;
	for (int i = 0; i < b->nunits; i++) {
		const struct dom_msg_unit *u = &b->unit[i];
		check(slot[u->id] >= 0, "unit %u in player %d's view, not in player 0's", u->id, p);
		const struct dom_msg_unit *w = &a->unit[slot[u->id]];
		slot[u->id] = -1; /* seen: a second copy fails above */
		check(u->type == w->type && u->health == w->health &&
			      u->owner == (w->owner - p + DOM_PLAYERS) % DOM_PLAYERS,
		      "unit %u: player %d sees type %u health %u team %u, player 0 %u %u %u", u->id, p,
		      u->type, u->health, u->owner, w->type, w->health, w->owner);
	}
	for (int q = 0; q < DOM_PLAYERS; q++) {
		const struct dom_msg_player *x = &b->player[q], *y = &a->player[(q + p) % DOM_PLAYERS];
		check(x->land == y->land && x->score == y->score && x->cpu == y->cpu,
		      "player %d's team %d is not player 0's team %d", p, q, (q + p) % DOM_PLAYERS);
	}
}

/* Player 0's view sees the real board and teams; the others only turn it. */
static void views_done(struct fuzz_run *r, bool all)
{
	for (int i = 0; i < view[0].nunits; i++)
		team[view[0].unit[i].id] = (int8_t)view[0].unit[i].owner;
	for (int p = 1; all && p < DOM_PLAYERS; p++)
		check_against_view0(p);
	for (int q = 0; q < DOM_PLAYERS; q++)
		check((view[0].player[q].cpu == -1) == r->frozen[q],
		      "player %d: view says cpu %d, it is %sfrozen", q, view[0].player[q].cpu,
		      r->frozen[q] ? "" : "not ");
	int64_t score[DOM_PLAYERS];
	r->game->scores(r->g, score);
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(score[q] == view[0].player[q].score, "scores() %lld, view %lld for team %d",
		      (long long)score[q], (long long)view[0].player[q].score, q);
}

/* The orders rules of dom.h: an order naming a unit of another team (or
 * none) or a direction past None is ignored; the first other one of each
 * unit counts.  Player p sees the board turned p quarter turns, and a
 * quarter turn is 2 steps of the direction circle (proto.h). */
static void take(struct fuzz_run *r, int player, const uint8_t *o, int count)
{
	(void)r;
	for (int i = 0; i < count; i++, o += 3) {
		int id = o[0] | o[1] << 8, dir = o[2];
		if (id >= units || team[id] != player || dir > DOM_NONE || chosen[id] >= 0)
			continue;
		chosen[id] = (int8_t)(dir == DOM_NONE ? DOM_NONE : (dir + 2 * player) % 8);
	}
}

static void before_advance(struct fuzz_run *r)
{
	(void)r;
	before = view[0];
}

/* Row and column steps of the directions, by the names proto.h gives them
 * (rows grow towards the bottom). */
static const int step[8][2] = {
	[DOM_BOTTOM] = { 1, 0 }, [DOM_BR] = { 1, 1 },	[DOM_RIGHT] = { 0, 1 },
	[DOM_RT] = { -1, 1 },	 [DOM_TOP] = { -1, 0 }, [DOM_TL] = { -1, -1 },
	[DOM_LEFT] = { 0, -1 },	 [DOM_LB] = { 1, -1 },
};

/* A unit that kept its team either stayed or took one step in the
 * direction its owner chose for it (never for a frozen team, never
 * diagonally unless a knight).  A capture always hands the unit to another
 * team, so a unit that kept its team was not reborn elsewhere.  Each team
 * scores its land every round. */
static void after_advance(struct fuzz_run *r, const bool frozen[GAME_MAX_PLAYERS])
{
	(void)r;
	static int16_t slot[DOM_MAX_UNITS];
	memset(slot, 0xff, sizeof slot);
	for (int i = 0; i < before.nunits; i++)
		slot[before.unit[i].id] = (int16_t)i;
	for (int i = 0; i < view[0].nunits; i++) {
		const struct dom_msg_unit *u = &view[0].unit[i];
		check(slot[u->id] >= 0, "unit %u appeared from nowhere", u->id);
		const struct dom_msg_unit *b = &before.unit[slot[u->id]];
		check(u->type == b->type, "unit %u changed type %u -> %u", u->id, b->type, u->type);
		if (u->owner != b->owner)
			continue;
		int dr = u->row - b->row, dc = u->col - b->col;
		if (dr == 0 && dc == 0)
			continue;
		int dir = chosen[u->id];
		check(!frozen[u->owner], "unit %u of frozen team %u moved (%u,%u) -> (%u,%u)", u->id,
		      u->owner, b->row, b->col, u->row, u->col);
		check(dir >= 0 && dir < 8 && dr == step[dir][0] && dc == step[dir][1],
		      "unit %u (type %u, team %u) moved (%u,%u) -> (%u,%u), its order was %d", u->id,
		      u->type, u->owner, b->row, b->col, u->row, u->col, dir);
		check(u->type == DOM_KNIGHT || dr == 0 || dc == 0,
		      "unit %u (type %u) moved diagonally (%u,%u) -> (%u,%u)", u->id, u->type, b->row,
		      b->col, u->row, u->col);
	}
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(view[0].player[q].score == before.player[q].score + view[0].player[q].land,
		      "team %d: score %lld after %lld plus land %d", q,
		      (long long)view[0].player[q].score, (long long)before.player[q].score,
		      view[0].player[q].land);
	memset(chosen, -1, sizeof chosen);
}

static void replay_round(struct fuzz_run *r, json_t *f)
{
	(void)r;
	check(json_is_string(json_object_get(f, "moves")), "replay_round: no \"moves\"");
	json_t *score = json_object_get(f, "score");
	check(json_array_size(score) == DOM_PLAYERS, "replay_round: no \"score\" of 4");
	for (int q = 0; q < DOM_PLAYERS; q++)
		check(json_integer_value(json_array_get(score, q)) == view[0].player[q].score,
		      "replay_round: score of team %d differs from the view", q);
}

const struct fuzz_orders_game fuzz_orders_game = {
	FUZZ_ORDERS_GAME("dominator", sets, struct game_state, 3, DOM_MAX_ORDERS),
	FUZZ_ORDERS_HOOKS,
	.init = build_fixed_board,
	.replay_round = replay_round,
};
