/* fuzz_starwar_orders.c - libFuzzer target: hostile orders bytes against
 * the Star War engine.  The input layout, the match copies and the checks
 * every engine passes are the shared harness's (fuzz_orders.h); this file
 * names seven parameter sets and checks what Star War's rules promise
 * (sw.h, the seed and shared/rules/starwar.md):
 *
 * - start: decodes, says which seat it goes to, carries the player's seed
 *   and the same parameters for all;
 * - views: decode and fit their layout; every player gets the same bytes
 *   (nothing is fogged or rotated); every live ship stands alone on a ship
 *   cell inside the current window and every ship cell holds a live ship;
 *   a dead ship waits at most regen_rounds rounds; scores (scores() too)
 *   and cpu (-1 exactly for a frozen player) agree; bonuses on the board
 *   plus those waiting to reappear keep their number (read from the
 *   engine's state: the only look inside it);
 * - a round: a ship that lived through it made exactly the move its
 *   player's first order asked when that order was valid (shooting: one
 *   column), the default move otherwise or when its player is frozen; its
 *   missiles went down by one per shot and up only by whole bonuses; a dead
 *   ship counts down its wait and keeps its missiles; a ship comes back
 *   only when its wait is over, in the coming window, with no asteroid,
 *   missile or other ship in its 5 x 5 square; asteroids never appear;
 *   missiles appear only by shots; scores never go down and grow by no more
 *   than the kills and the point bonuses of the round allow.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/starwar/proto.h"
#include "games/starwar/sw.h"
#include "tests/fuzz/fuzz_orders.h"

#define FUZZ_NAME "fuzz_starwar_orders"
#include "tests/fuzz/fuzz_check.h"

#define MAP_ROWS 12
#define MAP_COLS 40

static char map_params[256 + MAP_ROWS * (MAP_COLS + 1)];

/* Each set reaches parts of the engine the others rarely do. */
static const struct fuzz_set sets[] = {
	FUZZ_SET_DEFAULT,
	/* A small universe full of ships that come back at once: collisions,
	 * kills and regeneration every round. */
	FUZZ_SET_CROWDED("rows 8\ncols 12\nwindow 6\nships 8\nregen_rounds 0\nmissile_bonuses 10\n"
			 "point_bonuses 10\nbonus_missiles 3\nbonus_points 7\nkill_points 11\n"
			 "initial_missiles 2\n"),
	FUZZ_SET_SHORT(""),
	/* The largest fleets and bonus counts too. */
	FUZZ_SET_LARGEST("rows 100\ncols 250\nwindow 200\nships 64\nmissile_bonuses 600\n"
			 "point_bonuses 600\n"),
	/* Missiles by the ten thousand: the view's u16 saturates. */
	{ "missiles",
	  "rows 10\ncols 20\nwindow 8\nships 4\nregen_rounds 1\ninitial_missiles 10000\n"
	  "bonus_missiles 10000\nmissile_bonuses 30\npoint_bonuses 0\nkill_points 10000\n"
	  "bonus_points 0\n",
	  4, 0 },
	/* A map with asteroids, some where ships start (built below). */
	{ "map", map_params, 4, 0 },
	/* The window is the whole cylinder: no room for bonuses to come back. */
	{ "round", "rows 6\ncols 6\nwindow 6\nships 6\nregen_rounds 3\nmissile_bonuses 0\n"
		   "point_bonuses 0\n",
	  4, 0 },
};

/* 12 x 40: asteroid walls with gaps, asteroids in the start columns (ships
 * fall back to other cells), point and missile bonuses. */
static void build_map(void)
{
	int len = snprintf(map_params, sizeof map_params,
			   "window 10\nships 4\nregen_rounds 2\ninitial_missiles 1\nmap\n");
	for (int r = 0; r < MAP_ROWS; r++) {
		for (int c = 0; c < MAP_COLS; c++) {
			char ch = '.';
			if ((c == 15 || c == 30) && r % 4 != 1)
				ch = 'X';
			else if (c < 4 && (r + c) % 5 == 0)
				ch = 'X';
			else if ((r * 7 + c * 3) % 23 == 0 && c > 4)
				ch = 'P';
			else if ((r * 5 + c * 11) % 29 == 0 && c > 4)
				ch = 'M';
			map_params[len++] = ch;
		}
		map_params[len++] = '\n';
	}
	map_params[len] = '\0';
}

/* ---- the run's model ----------------------------------------------------- */

static struct sw_msg_params params; /* from player 0's start message */
static int nships;

/* Player 0's views, decoded; every other player's view must repeat its
 * bytes (fuzz_same_view). */
static struct sw_msg_view view, before;
static int16_t occupant[SW_MAX_CELLS];

/* Point and missile bonuses on the board or waiting: fixed for a match. */
static int bonuses[SW_KINDS];
static bool have_bonuses;

/* The first order of each ship this round (-1: none). */
static int8_t chosen[SW_MAX_SHIPS];

static void begin(struct fuzz_run *r)
{
	(void)r;
	have_bonuses = false;
	memset(chosen, -1, sizeof chosen);
}

static void start(struct fuzz_run *r, int p, const uint8_t *buf, size_t len)
{
	struct sw_msg_start s = { 0 };
	bool ok = len == SW_START_LEN && sw_start_decode(buf, len, &s);
	long rounds = s.params.rounds;
	fuzz_check_start(r, p, &(struct fuzz_start){ ok, s.player, s.seed, &s.params, rounds },
			 &params, sizeof params);
	nships = SW_PLAYERS * params.ships;
}

static int col_mod(int c)
{
	int r = c % params.cols;
	return r < 0 ? r + params.cols : r;
}

static bool in_window(int round, int col)
{
	return col_mod(col - round) < params.window;
}

static int kind_at(const struct sw_msg_view *v, int row, int col)
{
	return v->cell[row * params.cols + col_mod(col)];
}

static void check_view(struct fuzz_run *r, int p, const uint8_t *buf, size_t len, bool all)
{
	(void)all;
	if (!fuzz_same_view(p, buf, len))
		return;
	check(sw_view_decode(buf, len, &view), "view (%zu bytes) does not decode", len);
	size_t cells = (size_t)params.rows * params.cols;
	check(len == 8 + SW_PLAYERS * SW_VIEW_PLAYER_LEN + cells + 2 +
			     (size_t)view.nships * SW_VIEW_SHIP_LEN,
	      "view: %zu bytes for %u ships", len, view.nships);
	check(view.rows == params.rows && view.cols == params.cols &&
		      view.window == params.window,
	      "view: %u x %u, window %u; the start said %u x %u, window %u", view.rows,
	      view.cols, view.window, params.rows, params.cols, params.window);
	check(view.round == r->game->round(r->g), "view: round %u, round() %d", view.round,
	      r->game->round(r->g));
	check(view.nships == nships, "view: %u ships, the match has %d", view.nships, nships);

	int ship_cells = 0, alive = 0;
	for (size_t i = 0; i < cells; i++)
		ship_cells += view.cell[i] == SW_SHIP;
	memset(occupant, 0xff, cells * sizeof *occupant);
	for (int id = 0; id < nships; id++) {
		const struct sw_msg_ship *s = &view.ship[id];
		if (!s->alive) {
			check(s->wait <= params.regen_rounds, "dead ship %d waits %u rounds of %u", id,
			      s->wait, params.regen_rounds);
			continue;
		}
		alive++;
		int cell = s->row * params.cols + s->col;
		check(view.cell[cell] == SW_SHIP, "ship %d at (%u, %u) on a cell of kind %u", id,
		      s->row, s->col, view.cell[cell]);
		check(occupant[cell] < 0, "ships %d and %d share (%u, %u)", occupant[cell], id, s->row,
		      s->col);
		occupant[cell] = (int16_t)id;
		check(in_window(view.round, s->col), "ship %d at column %u, the window is %u..%u", id,
		      s->col, view.round % params.cols, (view.round + params.window - 1) % params.cols);
		check(s->wait == 0, "live ship %d waits %u rounds", id, s->wait);
	}
	check(ship_cells == alive, "view: %d ship cells, %d live ships", ship_cells, alive);
}

static void views_done(struct fuzz_run *r, bool all)
{
	(void)all;
	for (int q = 0; q < SW_PLAYERS; q++)
		check((view.player[q].cpu == -1) == r->frozen[q],
		      "player %d: view says cpu %d, it is %sfrozen", q, view.player[q].cpu,
		      r->frozen[q] ? "" : "not ");
	int64_t score[SW_PLAYERS];
	r->game->scores(r->g, score);
	for (int q = 0; q < SW_PLAYERS; q++)
		check(score[q] == view.player[q].score, "scores() %lld, view %lld for player %d",
		      (long long)score[q], (long long)view.player[q].score, q);

	/* sw.h: a consumed bonus waits in pending[] to reappear. */
	const struct game_state *d = r->g;
	const int kinds[2] = { SW_POINT_BONUS, SW_MISSILE_BONUS };
	for (int k = 0; k < 2; k++) {
		int n = d->pending[kinds[k]];
		for (int i = 0; i < params.rows * params.cols; i++)
			n += view.cell[i] == kinds[k];
		if (!have_bonuses)
			bonuses[kinds[k]] = n;
		check(n == bonuses[kinds[k]], "%d bonuses of kind %d on the board or waiting, were %d",
		      n, kinds[k], bonuses[kinds[k]]);
	}
	have_bonuses = true;
}

/* sw.h's orders rules: an order naming no live ship of the player's or an
 * action past 9 is ignored; the first other one of each ship counts, even
 * when it turns out invalid. */
static void take(struct fuzz_run *r, int player, const uint8_t *o, int count)
{
	(void)r;
	for (int i = 0; i < count; i++, o += SW_ORDER_LEN) {
		int id = o[0] | o[1] << 8, action = o[2];
		if (id >= nships || id / params.ships != player || !view.ship[id].alive ||
		    action >= SW_ACTIONS || chosen[id] >= 0)
			continue;
		chosen[id] = (int8_t)action;
	}
}

static void before_advance(struct fuzz_run *r)
{
	(void)r;
	before = view;
}

/* ---- a round ------------------------------------------------------------- */

/* What ship id did this round: its order when valid (a move into the rows
 * and the coming window, a shot with a missile left), else the default
 * move; frozen players' ships only move by default. */
static int action_of(int id, const bool frozen[GAME_MAX_PLAYERS])
{
	const struct sw_msg_ship *b = &before.ship[id];
	int a = chosen[id];
	if (a < 0 || frozen[id / params.ships])
		return SW_DEFAULT_MOVE;
	if (a == SW_SHOOT)
		return b->missiles > 0 ? a : SW_DEFAULT_MOVE;
	int row = b->row + sw_action_dr(a);
	bool valid = row >= 0 && row < params.rows &&
		     in_window(before.round + 1, b->col + sw_action_dc(a));
	return valid ? a : SW_DEFAULT_MOVE;
}

/* Missiles after a round: those before, minus one per shot, plus whole
 * bonuses (at most one per cell passed), the view's u16 saturating; or
 * none used when the ship may have died before its turn. */
static void check_missiles(int id, int shots, bool may_die_first)
{
	int was = before.ship[id].missiles - shots, is = view.ship[id].missiles;
	int per = params.bonus_missiles, got = is - was;
	if ((is == UINT16_MAX && got >= 0) || (may_die_first && is == before.ship[id].missiles))
		return;
	check(got >= 0 && (per ? got % per == 0 && got / per <= SW_MAX_PASSED : got == 0),
	      "ship %d: %d missiles after %d (%d shot), bonuses bring %d", id, is,
	      before.ship[id].missiles, shots, per);
}

/* A ship that came back: nothing but itself in its 5 x 5 square (rows
 * past the edges do not exist, columns wrap). */
static void check_comeback(int id)
{
	const struct sw_msg_ship *s = &view.ship[id];
	for (int r = s->row - SW_FREE_RADIUS; r <= s->row + SW_FREE_RADIUS; r++) {
		if (r < 0 || r >= params.rows)
			continue;
		for (int c = s->col - SW_FREE_RADIUS; c <= s->col + SW_FREE_RADIUS; c++) {
			int k = kind_at(&view, r, c);
			bool self = r == s->row && col_mod(c) == s->col;
			check(self || (k != SW_ASTEROID && k != SW_MISSILE && k != SW_SHIP),
			      "ship %d came back at (%u, %u) with kind %d at (%d, %d)", id, s->row,
			      s->col, k, r, col_mod(c));
		}
	}
}

static void check_ship(int id, const bool frozen[GAME_MAX_PLAYERS], int *shots, int *died)
{
	const struct sw_msg_ship *b = &before.ship[id], *u = &view.ship[id];
	int a = b->alive ? action_of(id, frozen) : -1, shot = a == SW_SHOOT;
	*shots += shot;
	if (b->alive && u->alive) {
		int dr = shot ? 0 : sw_action_dr(a), dc = shot ? 1 : sw_action_dc(a);
		bool there = u->row == b->row + dr && u->col == col_mod(b->col + dc);
		/* With no wait, a ship may die and come back in one round. */
		check(there || params.regen_rounds == 0,
		      "ship %d (player %d%s) went (%u,%u) -> (%u,%u); its action was %d", id,
		      id / params.ships, frozen[id / params.ships] ? ", frozen" : "", b->row, b->col,
		      u->row, u->col, a);
		if (!there)
			check_comeback(id);
		check_missiles(id, shot, params.regen_rounds == 0);
	} else if (b->alive) {
		++*died;
		check(u->wait == params.regen_rounds, "ship %d died and waits %u, not %u", id,
		      u->wait, params.regen_rounds);
		check_missiles(id, shot, true);
	} else {
		check(u->missiles == b->missiles, "dead ship %d: %u missiles after %u", id,
		      u->missiles, b->missiles);
		if (u->alive) {
			check(b->wait <= 1, "ship %d came back with %u rounds to wait", id, b->wait);
			check_comeback(id);
		} else {
			check(u->wait == (b->wait ? b->wait - 1 : 0), "dead ship %d waits %u after %u",
			      id, u->wait, b->wait);
		}
	}
}

/* gain is k kills and b point bonuses, k <= kills, b <= bonuses. */
static bool made_of(int64_t gain, int kills, int bonuses)
{
	int64_t kp = params.kill_points, bp = params.bonus_points;
	for (int k = 0; k <= kills; k++) {
		int64_t rest = gain - k * kp;
		if (rest >= 0 && (bp ? rest % bp == 0 && rest / bp <= bonuses : rest == 0))
			return true;
	}
	return false;
}

static void after_advance(struct fuzz_run *r, const bool frozen[GAME_MAX_PLAYERS])
{
	(void)r;
	int shots = 0, died = 0, alive = 0;
	for (int id = 0; id < nships; id++) {
		alive += before.ship[id].alive;
		check_ship(id, frozen, &shots, &died);
	}

	int cells = params.rows * params.cols, missiles[2] = { 0 }, points = 0;
	for (int i = 0; i < cells; i++) {
		check(view.cell[i] != SW_ASTEROID || before.cell[i] == SW_ASTEROID,
		      "an asteroid appeared at cell %d", i);
		missiles[0] += before.cell[i] == SW_MISSILE;
		missiles[1] += view.cell[i] == SW_MISSILE;
		points += before.cell[i] == SW_POINT_BONUS;
	}
	check(missiles[1] <= missiles[0] + shots, "%d missiles after %d and %d shots", missiles[1],
	      missiles[0], shots);

	/* Each dead ship scores a kill once at most; each point bonus once. */
	int deaths = params.regen_rounds > 0 ? died : alive;
	int64_t gained = 0;
	for (int q = 0; q < SW_PLAYERS; q++) {
		int64_t g = view.player[q].score - before.player[q].score;
		check(made_of(g, deaths, points), "player %d's score went %lld -> %lld", q,
		      (long long)before.player[q].score, (long long)view.player[q].score);
		gained += g;
	}
	check(gained <= (int64_t)params.kill_points * deaths + (int64_t)params.bonus_points * points,
	      "scores gained %lld with at most %d kills and %d point bonuses", (long long)gained,
	      deaths, points);
	memset(chosen, -1, sizeof chosen);
}

const struct fuzz_orders_game fuzz_orders_game = {
	FUZZ_ORDERS_GAME("starwar", sets, struct game_state, SW_ORDER_LEN, SW_MAX_ORDERS),
	FUZZ_ORDERS_HOOKS,
	.init = build_map,
};
