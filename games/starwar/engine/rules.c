/* rules.c - Star War's universe, orders and the resolution of a round.
 *
 * A round (seed section 1.3, rules page "Round"): missiles move two columns
 * first; then the players in a random order, each one's ships in the order
 * its instructions came; then every live ship that has not acted moves by
 * default, in increasing id; then dead ships count down and regenerate;
 * then consumed bonuses reappear.  Nothing here allocates.
 *
 * Where the texts leave room, this engine decides (the seed wins over the
 * rules page when they disagree):
 *  - Invalid instructions: the seed says they are ignored, the rules page
 *    that they "become the default move".  Ignored, so such a ship moves by
 *    default with the others, in increasing id, after every player's
 *    instructions (the rules page's own "no successful instruction" line).
 *  - Only a ship's first order counts, even when it turns out invalid (seed
 *    1.3); orders that name no ship of the player's, a dead ship or no
 *    action at all are dropped without using that place up.
 *  - A missile that destroys a bonus consumes it: the bonus reappears, so
 *    the game keeps the numbers of bonuses its parameters give.
 *  - Missiles never expire: they fly round the cylinder until they meet
 *    something.  Lifted off the universe together, they never meet each
 *    other while moving; a new missile meeting one (seed: "both are
 *    destroyed") cannot actually happen, since any missile one or two cells
 *    ahead would first have passed the shooter's cell.
 *  - A ship that dies in round r counts down from round r + 1: it misses
 *    exactly regen_rounds rounds, then reappears in the coming round's
 *    window (tried again each round while no cell fits).
 *  - "Outside the window" for bonuses is outside the coming round's window,
 *    the one the players see next.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/starwar/sw.h"

/* ---- the universe -------------------------------------------------------- */

void sw_put(struct game_state *d, int row, int col, int kind, int ref)
{
	int cell = sw_cell(d, row, col);
	d->kind[cell] = (uint8_t)kind;
	d->ref[cell] = (int16_t)ref;
}

static void sw_empty(struct game_state *d, int cell)
{
	d->kind[cell] = SW_EMPTY;
	d->ref[cell] = SW_NONE;
}

/* Puts dead or live ship id on an empty cell, alive; -1 when not empty. */
int sw_put_ship(struct game_state *d, int id, int row, int col)
{
	int cell = sw_cell(d, row, col);
	if (d->kind[cell] != SW_EMPTY)
		return -1;
	struct sw_ship *s = &d->ship[id];
	s->row = row;
	s->col = sw_mod(col, d->p.cols);
	s->alive = true;
	s->wait = 0;
	s->died_now = false;
	sw_put(d, row, col, SW_SHIP, id);
	return 0;
}

void sw_clear(struct game_state *d)
{
	for (int i = 0; i < d->p.rows * d->p.cols; i++)
		sw_empty(d, i);
	/* Cleared ships wait for ever: only sw_put_ship brings them back. */
	for (int id = 0; id < d->nships; id++) {
		d->ship[id].alive = false;
		d->ship[id].died_now = false;
		d->ship[id].wait = INT_MAX;
	}
	memset(d->pending, 0, sizeof d->pending);
}

/* No kind in mask within the 5 x 5 square around (row, col); rows past the
 * edges do not exist, columns wrap. */
static bool sw_square_free(const struct game_state *d, int row, int col, unsigned mask)
{
	for (int r = row - SW_FREE_RADIUS; r <= row + SW_FREE_RADIUS; r++) {
		if (r < 0 || r >= d->p.rows)
			continue;
		for (int c = col - SW_FREE_RADIUS; c <= col + SW_FREE_RADIUS; c++)
			if (mask & 1u << d->kind[sw_cell(d, r, c)])
				return false;
	}
	return true;
}

/* A random empty cell in columns first .. first + span - 1 whose square is
 * free of mask, in at most SW_PLACE_TRIES draws; false when none was found
 * ("if possible": the caller tries again next round). */
static bool sw_draw_cell(struct game_state *d, int first, int span, unsigned mask, int *row,
			 int *col)
{
	if (span <= 0)
		return false;
	for (int t = 0; t < SW_PLACE_TRIES; t++) {
		int r = rng_uniform(&d->rng, 0, d->p.rows - 1);
		int c = sw_mod(first + rng_uniform(&d->rng, 0, span - 1), d->p.cols);
		if (d->kind[sw_cell(d, r, c)] == SW_EMPTY && sw_square_free(d, r, c, mask)) {
			*row = r;
			*col = c;
			return true;
		}
	}
	return false;
}

/* ---- setup --------------------------------------------------------------- */

/* Each ship on its start cell when the parameters list them (the
 * original's default game does); otherwise spread over the rows, in columns
 * 0..3 by id, a taken cell (the map may put an asteroid there) falling
 * back to the first empty one. */
static int sw_place_start(struct game_state *d, int id)
{
	int rows = d->p.rows, n = d->nships;
	if (d->p.nstarts)
		return sw_put_ship(d, id, d->p.start_row[id], d->p.start_col[id]);
	if (sw_put_ship(d, id, (2 * id + 1) * rows / (2 * n), id % SW_START_COLS) == 0)
		return 0;
	for (int c = 0; c < SW_START_COLS; c++)
		for (int r = 0; r < rows; r++)
			if (sw_put_ship(d, id, r, c) == 0)
				return 0;
	return -1;
}

int sw_setup(struct game_state *d, err_t err)
{
	const struct sw_params *p = &d->p;
	d->nships = SW_PLAYERS * p->ships;
	sw_clear(d);
	for (int i = 0; p->has_map && i < p->rows * p->cols; i++)
		d->kind[i] = p->map[i];
	for (int id = 0; id < d->nships; id++) {
		d->ship[id] = (struct sw_ship){ .owner = id / p->ships,
						.missiles = p->initial_missiles,
						.order = SW_NONE };
		if (sw_place_start(d, id) < 0) {
			err_set(err, "map: no empty start cell for ship %d", id);
			return -1;
		}
	}
	/* Without a map the bonuses start where they would reappear. */
	if (!p->has_map) {
		d->pending[SW_POINT_BONUS] = p->point_bonuses;
		d->pending[SW_MISSILE_BONUS] = p->missile_bonuses;
		sw_refill_bonuses(d);
	}
	return 0;
}

/* ---- moves --------------------------------------------------------------- */

/* The rules page's list: (±1,+1): (0,+1), (±1,0), (±1,+1); (0,+2): (0,+1),
 * (0,+2); (±1,+2): (0,+1), (±1,0), (±1,+1), (0,+2), (±1,+2); any other
 * move only its destination. */
int sw_passed(int row, int col, int dr, int dc, int out_row[SW_MAX_PASSED],
	      int out_col[SW_MAX_PASSED])
{
	static const int steps[][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };
	static const int one_one[] = { 0, 1, 2 }, zero_two[] = { 0, 3 }, one_two[] = { 0, 1, 2, 3, 4 };
	const int *pick = NULL;
	int n = 0;
	if (dr != 0 && dc == 1)
		pick = one_one, n = 3;
	else if (dr == 0 && dc == 2)
		pick = zero_two, n = 2;
	else if (dr != 0 && dc == 2)
		pick = one_two, n = 5;
	for (int i = 0; i < n; i++) {
		out_row[i] = row + steps[pick[i]][0] * dr;
		out_col[i] = col + steps[pick[i]][1];
	}
	if (n == 0) {
		out_row[0] = row + dr;
		out_col[0] = col + dc;
		n = 1;
	}
	return n;
}

/* A move is valid when its destination is in the universe's rows and in
 * the window of the next round (columns r+1 .. r+window); shooting when
 * the ship has a missile (its default move is always valid). */
bool sw_valid(const struct game_state *d, int id, int action)
{
	const struct sw_ship *s = &d->ship[id];
	if (!s->alive || action < 0 || action >= SW_ACTIONS)
		return false;
	if (action == SW_SHOOT)
		return s->missiles > 0;
	int row = s->row + sw_action_dr(action);
	return row >= 0 && row < d->p.rows &&
	       sw_in_window(d, d->round + 1, s->col + sw_action_dc(action));
}

/* ---- collisions ---------------------------------------------------------- */

static void sw_kill(struct game_state *d, int id)
{
	struct sw_ship *s = &d->ship[id];
	int cell = sw_cell(d, s->row, s->col);
	if (d->kind[cell] == SW_SHIP && d->ref[cell] == id)
		sw_empty(d, cell);
	s->alive = false;
	s->died_now = true;
	s->wait = d->p.regen_rounds;
	d->deaths++;
}

/* A missile of shooter's destroyed ship victim: a kill of another player's
 * ship scores; one's own ships do not. */
static void sw_score_kill(struct game_state *d, int shooter, int victim)
{
	int a = d->ship[shooter].owner;
	if (a != d->ship[victim].owner)
		d->score[a] += d->p.kill_points;
}

static void sw_take_bonus(struct game_state *d, int id, int kind)
{
	struct sw_ship *s = &d->ship[id];
	d->taken[kind]++;
	if (kind == SW_POINT_BONUS)
		d->score[s->owner] += d->p.bonus_points;
	else if (s->missiles <= UINT16_MAX - d->p.bonus_missiles)
		s->missiles += d->p.bonus_missiles;
	else
		s->missiles = UINT16_MAX; /* the view's u16 */
}

/* A mover (ship `ref`, or a missile shot by ship `ref`) passes cell.  A
 * ship takes a bonus and goes on; any other meeting destroys both (seed
 * 1.2).  A missile destroying a bonus also counts as consuming it: the game
 * keeps its number of bonuses.  True when the mover survives.  The mover
 * itself is not on the grid while it moves. */
static bool sw_enter(struct game_state *d, bool missile, int ref, int cell)
{
	int kind = d->kind[cell], other = d->ref[cell];
	if (kind == SW_EMPTY)
		return true;
	if (kind == SW_POINT_BONUS || kind == SW_MISSILE_BONUS) {
		sw_empty(d, cell);
		d->pending[kind]++;
		if (missile)
			return false;
		sw_take_bonus(d, ref, kind);
		return true;
	}
	sw_empty(d, cell);
	if (kind == SW_SHIP) {
		sw_kill(d, other);
		if (missile)
			sw_score_kill(d, ref, other);
	} else if (kind == SW_MISSILE && !missile) {
		sw_score_kill(d, other, ref);
	}
	return false;
}

/* Ship id moves (dr, dc) through its passed cells; it dies at the first
 * meeting that destroys it. */
static void sw_move_ship(struct game_state *d, int id, int dr, int dc)
{
	struct sw_ship *s = &d->ship[id];
	int rows[SW_MAX_PASSED], cols[SW_MAX_PASSED];
	int n = sw_passed(s->row, s->col, dr, dc, rows, cols);
	sw_empty(d, sw_cell(d, s->row, s->col));
	for (int i = 0; i < n; i++) {
		if (!sw_enter(d, false, id, sw_cell(d, rows[i], cols[i]))) {
			sw_kill(d, id);
			return;
		}
	}
	s->row = rows[n - 1];
	s->col = sw_mod(cols[n - 1], d->p.cols);
	sw_put(d, s->row, s->col, SW_SHIP, id);
}

/* The missile appears on the ship's cell and moves two columns at once;
 * then the ship makes its default move (rules page "Shooting"). */
static void sw_shoot(struct game_state *d, int id)
{
	struct sw_ship *s = &d->ship[id];
	s->missiles--;
	int row = s->row, col = s->col;
	bool alive = sw_enter(d, true, id, sw_cell(d, row, col + 1)) &&
		     sw_enter(d, true, id, sw_cell(d, row, col + 2));
	if (alive)
		sw_put(d, row, col + 2, SW_MISSILE, id);
	sw_move_ship(d, id, 0, 1);
}

static void sw_act(struct game_state *d, int id, int action)
{
	d->ship[id].moved = true;
	if (action == SW_SHOOT)
		sw_shoot(d, id);
	else
		sw_move_ship(d, id, sw_action_dr(action), sw_action_dc(action));
}

/* Every missile moves two columns, one column at a time for all of them:
 * lifted off the grid first, they never meet each other, and which of two
 * missiles in a row reaches a target first does not depend on a scan
 * order. */
void sw_move_missiles(struct game_state *d)
{
	int n = 0, cells = d->p.rows * d->p.cols;
	for (int i = 0; i < cells; i++) {
		if (d->kind[i] != SW_MISSILE)
			continue;
		d->missile_cell[n] = i;
		d->missile_ref[n++] = d->ref[i];
		sw_empty(d, i);
	}
	for (int step = 0; step < 2; step++)
		for (int k = 0; k < n; k++) {
			int c = d->missile_cell[k];
			if (c < 0)
				continue;
			int next = sw_cell(d, c / d->p.cols, c % d->p.cols + 1);
			d->missile_cell[k] = sw_enter(d, true, d->missile_ref[k], next) ? next : -1;
		}
	for (int k = 0; k < n; k++)
		if (d->missile_cell[k] >= 0) {
			d->kind[d->missile_cell[k]] = SW_MISSILE;
			d->ref[d->missile_cell[k]] = d->missile_ref[k];
		}
}

/* ---- orders -------------------------------------------------------------- */

static void sw_drop_orders(struct game_state *d, int player)
{
	for (int i = 0; i < d->nqueue[player]; i++)
		d->ship[d->queue[player][i]].order = SW_NONE;
	d->nqueue[player] = 0;
}

static void sw_freeze(struct game_state *d, int player)
{
	if (game_seat_freeze(d->frozen, d->cpu, player))
		sw_drop_orders(d, player);
}

/* Orders naming another player's ship, a ship that does not exist or is
 * dead, or an action outside 0..9 are ignored and do not use up the ship's
 * order.  The first order for a ship counts even when it turns out invalid
 * (seed 1.3: "only the first one will be taken into account"). */
static void sw_select_order(struct game_state *d, int player, struct sw_msg_order o)
{
	if (o.id >= d->nships || o.action >= SW_ACTIONS)
		return;
	struct sw_ship *s = &d->ship[o.id];
	if (s->owner != player || !s->alive || s->order != SW_NONE)
		return;
	s->order = (int8_t)o.action;
	d->queue[player][d->nqueue[player]++] = (int16_t)o.id;
}

int sw_take_orders(struct game_state *d, int player, const uint8_t *buf, size_t len,
		   err_t err)
{
	struct game_seats seats = { SW_PLAYERS, d->frozen, d->norders, SW_MAX_ORDERS, NULL };
	bool broken;
	int n = game_seat_orders(&seats, player, &sw_orders, buf, len, d->incoming, &broken, err);
	if (broken)
		sw_freeze(d, player);
	for (int i = 0; i < n; i++)
		sw_select_order(d, player, d->incoming[i]);
	return n < 0 ? -1 : 0;
}

void sw_set_status(struct game_state *d, int player, double cpu_share)
{
	if (game_seat_status(SW_PLAYERS, d->frozen, d->cpu, player, cpu_share))
		sw_freeze(d, player);
}

/* ---- end of round -------------------------------------------------------- */

/* Dead ships count down from the round after their death, so a ship misses
 * exactly regen_rounds rounds; then it reappears in the window of the coming
 * round on an empty cell with no missile, ship or asteroid in its 5 x 5
 * square, if one is found, keeping its missiles. */
void sw_regenerate(struct game_state *d)
{
	unsigned mask = 1u << SW_MISSILE | 1u << SW_SHIP | 1u << SW_ASTEROID;
	for (int id = 0; id < d->nships; id++) {
		struct sw_ship *s = &d->ship[id];
		if (s->alive)
			continue;
		if (!s->died_now && s->wait > 0)
			s->wait--;
		s->died_now = false;
		int row, col;
		if (s->wait == 0 && sw_draw_cell(d, d->round, d->p.window, mask, &row, &col))
			sw_put_ship(d, id, row, col);
	}
}

/* Consumed bonuses reappear in the columns just outside the coming round's
 * window, [r + window, r + cols - 1], on an empty cell with no missile or
 * ship in its 5 x 5 square; missiles first, then points, as the original
 * places them. */
void sw_refill_bonuses(struct game_state *d)
{
	unsigned mask = 1u << SW_MISSILE | 1u << SW_SHIP;
	const int kinds[2] = { SW_MISSILE_BONUS, SW_POINT_BONUS };
	for (int k = 0; k < 2; k++)
		while (d->pending[kinds[k]] > 0) {
			int row, col;
			if (!sw_draw_cell(d, d->round + d->p.window, d->p.cols - d->p.window, mask,
					  &row, &col))
				break;
			sw_put(d, row, col, kinds[k], SW_NONE);
			d->pending[kinds[k]]--;
		}
}

/* ---- the round ----------------------------------------------------------- */

void sw_begin_log(struct game_state *d)
{
	memcpy(d->log.kind, d->kind, (size_t)d->p.rows * d->p.cols);
	memcpy(d->log.ship, d->ship, sizeof d->ship);
	memcpy(d->log.score, d->score, sizeof d->score);
}

/* Each player's selected ships, players in a random order; an invalid
 * instruction is ignored and the ship moves by default afterwards. */
static void sw_run_instructions(struct game_state *d)
{
	int perm[SW_PLAYERS];
	rng_permutation(&d->rng, perm, SW_PLAYERS);
	for (int i = 0; i < SW_PLAYERS; i++) {
		int q = perm[i];
		for (int k = 0; k < d->nqueue[q]; k++) {
			int id = d->queue[q][k];
			if (!d->ship[id].moved && sw_valid(d, id, d->ship[id].order))
				sw_act(d, id, d->ship[id].order);
		}
	}
}

static void sw_reset_orders(struct game_state *d)
{
	for (int id = 0; id < d->nships; id++) {
		d->ship[id].order = SW_NONE;
		d->ship[id].moved = false;
	}
	memset(d->nqueue, 0, sizeof d->nqueue);
	memset(d->norders, 0, sizeof d->norders);
}

void sw_advance(struct game_state *d)
{
	if (d->round >= d->p.rounds)
		return;
	sw_begin_log(d);
	sw_move_missiles(d);
	sw_run_instructions(d);
	for (int id = 0; id < d->nships; id++)
		if (d->ship[id].alive && !d->ship[id].moved)
			sw_act(d, id, SW_DEFAULT_MOVE);
	d->round++;
	sw_regenerate(d);
	sw_refill_bonuses(d);
	sw_reset_orders(d);
}
