/* fuzz_ants_orders.c - libFuzzer target: hostile orders bytes against the
 * Ants engine.  The input layout, the match copies and the checks every
 * engine passes are the shared harness's (fuzz_orders.h); this file names
 * six parameter sets and checks what Ants' rules promise (ants.h, the seed
 * and shared/rules/ants.md), reading only the messages the players get:
 *
 * - start: decodes, says which player it goes to, carries the player's
 *   seed and the same parameters for all;
 * - views: decode and fit their layout; every player gets the same bytes
 *   (Ants has no rotation and no fog); the water never changes and holds
 *   no food; ids are listed once, in increasing order; an ant stands on a
 *   soil cell of the board, alone, with a life of 1 to its type's full
 *   life; only queens hold reserves, only workers carry food, no queen
 *   stands on food; each colony with ants has exactly one queen; counts,
 *   scores (scores() too) and cpu (-1 exactly for a frozen player) agree;
 * - a round: an ant moves only one step, the way its colony's first
 *   well-formed order said (never for a frozen player, a queen only on
 *   queen rounds); lives go down by one, a crowned ant gets a queen's
 *   life; a worker's load changes only by its own take or leave order; a
 *   queen's reserve changes only by what she lays or eats; a newborn has a
 *   new id, is next to its colony's queen, who was told to lay it there,
 *   one at most per colony; food appears only where a worker left it or
 *   on food rounds; each colony scores its size.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/ants/ants.h"
#include "games/ants/proto.h"
#include "tests/fuzz/fuzz_orders.h"

#define FUZZ_NAME "fuzz_ants_orders"
#include "tests/fuzz/fuzz_check.h"

/* Each set reaches parts of the engine the others rarely do. */
static const struct fuzz_set sets[] = {
	FUZZ_SET_DEFAULT,
	/* The smallest board, free eggs every round, short lives: fights,
	 * births, deaths and successions all the time; food every round. */
	FUZZ_SET_CROWDED("rows 10\ncols 10\nnum_ini_soldiers 3\nnum_ini_workers 6\nqueen_period 1\n"
			 "soldier_carbo 0\nsoldier_prote 0\nsoldier_lipid 0\n"
			 "worker_carbo 0\nworker_prote 0\nworker_lipid 0\n"
			 "bonus_rows 2\nbonus_cols 2\nbonus_period 1\n"
			 "worker_life 4\nsoldier_life 6\nqueen_life 5\n"),
	FUZZ_SET_SHORT(""),
	/* The largest colonies too. */
	FUZZ_SET_LARGEST("rows 99\ncols 99\nnum_ini_soldiers 100\nnum_ini_workers 154\n"),
	/* Not square, rectangles as large as their quadrants, rich food,
	 * dear soldiers, queens every third round. */
	{ "wide",
	  "rows 12\ncols 60\nnum_ini_soldiers 4\nnum_ini_workers 10\nqueen_period 3\n"
	  "bonus_rows 6\nbonus_cols 30\nbonus_period 2\n"
	  "bread_carbo 100\nbread_prote 100\nbread_lipid 100\n"
	  "soldier_carbo 100\nsoldier_prote 7\nsoldier_lipid 0\n",
	  4, 0 },
	/* The other way round, food with nothing in it, cheap workers. */
	{ "tall",
	  "rows 60\ncols 12\nnum_ini_soldiers 0\nnum_ini_workers 14\nqueen_period 1\n"
	  "seed_carbo 0\nseed_prote 0\nseed_lipid 0\nbonus_period 1\n"
	  "worker_carbo 1\nworker_prote 0\nworker_lipid 0\nqueen_life 10000\n",
	  4, 0 },
};

/* ---- the run's model ----------------------------------------------------- */

static struct ant_msg_params params; /* from player 0's start message */
static int rows, cols;

/* Player 0's views, decoded (some 250 KB each: static, one run at a time);
 * every other player's view must repeat its bytes (fuzz_same_view). */
static struct ant_msg_view view, before;

static int16_t slot[ANT_MAX_IDS], bslot[ANT_MAX_IDS]; /* id -> index in view, before */
static int16_t occupant[ANT_MAX_CELLS];
static bool water[ANT_MAX_CELLS]; /* from the run's first view */
static bool have_water;
static int max_id; /* the largest id seen in the run */

/* The first well-formed order of each ant this round (kind -1: none). */
static struct ant_cmd chosen[ANT_MAX_IDS];

static int param(int k)
{
	return params.v[k];
}

static int full_life(int type)
{
	return type == ANT_QUEEN ? param(ANT_P_QUEEN_LIFE)
	       : type == ANT_SOLDIER ? param(ANT_P_SOLDIER_LIFE)
				     : param(ANT_P_WORKER_LIFE);
}

static int need(int type, int k)
{
	return param(ANT_P_NEED + (type == ANT_SOLDIER ? 0 : ANT_NUTRIENTS) + k);
}

static int food(int bonus, int k)
{
	return param(ANT_P_FOOD + bonus * ANT_NUTRIENTS + k);
}

static void forget_orders(void)
{
	for (int id = 0; id < ANT_MAX_IDS; id++)
		chosen[id].kind = -1;
}

static void begin(struct fuzz_run *r)
{
	(void)r;
	have_water = false;
	max_id = -1;
	forget_orders();
}

static void start(struct fuzz_run *r, int p, const uint8_t *buf, size_t len)
{
	struct ant_msg_start s = { 0 };
	bool ok = len == ANT_START_LEN && ant_start_decode(buf, len, &s);
	long rounds = s.params.v[ANT_P_ROUNDS];
	fuzz_check_start(r, p, &(struct fuzz_start){ ok, s.me, s.seed, &s.params, rounds }, &params,
			 sizeof params);
	rows = param(ANT_P_ROWS);
	cols = param(ANT_P_COLS);
}

static void check_ant(const struct ant_msg_ant *a, int prev_id)
{
	check(a->id > prev_id && a->id < ANT_MAX_IDS, "ant id %u after %d", a->id, prev_id);
	check(a->row < rows && a->col < cols, "ant %u off the board at (%u, %u)", a->id, a->row,
	      a->col);
	int cell = a->row * cols + a->col;
	check(!water[cell], "ant %u in the water at (%u, %u)", a->id, a->row, a->col);
	check(occupant[cell] < 0, "ants %d and %u share (%u, %u)", occupant[cell], a->id, a->row,
	      a->col);
	occupant[cell] = (int16_t)a->id;
	check(a->life >= 1 && a->life <= full_life(a->type), "ant %u (type %u) has life %u of %d",
	      a->id, a->type, a->life, full_life(a->type));
	if (a->type != ANT_QUEEN)
		check(!a->reserve[0] && !a->reserve[1] && !a->reserve[2],
		      "ant %u of type %u has a reserve", a->id, a->type);
	else
		check(ant_cell_bonus(view.cell[cell]) < 0, "queen %u stands on food at (%u, %u)",
		      a->id, a->row, a->col);
	if (a->type != ANT_WORKER)
		check(a->carried == 0, "ant %u of type %u carries food", a->id, a->type);
}

static void check_view(struct fuzz_run *r, int p, const uint8_t *buf, size_t len, bool all)
{
	(void)all;
	if (!fuzz_same_view(p, buf, len))
		return;
	check(ant_view_decode(buf, len, &view), "view (%zu bytes) does not decode", len);
	size_t cells = (size_t)rows * cols;
	check(len == 6 + ANT_PLAYERS * ANT_VIEW_PLAYER_LEN + cells + 2 +
			     (size_t)view.nants * ANT_VIEW_ANT_LEN,
	      "view: %zu bytes for %u ants", len, view.nants);
	check(view.h.rows == rows && view.h.cols == cols, "view: %u x %u, the board is %d x %d",
	      view.h.rows, view.h.cols, rows, cols);
	check(view.h.round == r->game->round(r->g), "view: round %u, round() %d", view.h.round,
	      r->game->round(r->g));

	for (size_t i = 0; i < cells; i++) {
		uint8_t c = view.cell[i];
		check((c & ~(ANT_CELL_WATER | ANT_CELL_BONUS)) == 0, "view: cell %zu is %#x", i, c);
		if (!have_water)
			water[i] = ant_cell_water(c);
		check(ant_cell_water(c) == water[i], "view: cell %zu %s water", i,
		      water[i] ? "is no longer" : "became");
		check(!water[i] || ant_cell_bonus(c) < 0, "view: food in the water at cell %zu", i);
	}
	have_water = true;

	memset(occupant, 0xff, cells * sizeof *occupant);
	int count[ANT_PLAYERS] = { 0 }, queens[ANT_PLAYERS] = { 0 }, prev = -1;
	for (int i = 0; i < view.nants; i++) {
		const struct ant_msg_ant *a = &view.ant[i];
		check_ant(a, prev);
		prev = a->id;
		count[a->player]++;
		queens[a->player] += a->type == ANT_QUEEN;
	}
	for (int q = 0; q < ANT_PLAYERS; q++) {
		check(view.h.player[q].ants == count[q], "view: colony %d has %d ants, %d listed", q,
		      view.h.player[q].ants, count[q]);
		check(queens[q] == (count[q] > 0), "view: colony %d of %d ants has %d queens", q,
		      count[q], queens[q]);
	}
}

static void views_done(struct fuzz_run *r, bool all)
{
	(void)all;
	memset(slot, 0xff, sizeof slot);
	for (int i = 0; i < view.nants; i++)
		slot[view.ant[i].id] = (int16_t)i;
	for (int q = 0; q < ANT_PLAYERS; q++)
		check((view.h.player[q].cpu == -1) == r->frozen[q],
		      "player %d: view says cpu %d, it is %sfrozen", q, view.h.player[q].cpu,
		      r->frozen[q] ? "" : "not ");
	int64_t score[ANT_PLAYERS];
	r->game->scores(r->g, score);
	for (int q = 0; q < ANT_PLAYERS; q++)
		check(score[q] == view.h.player[q].score, "scores() %lld, view %lld for colony %d",
		      (long long)score[q], (long long)view.h.player[q].score, q);
}

/* ants.h's orders rules: an order naming no live ant of the player's, an
 * unknown kind, a direction past 3 (moves and eggs) or an egg that is not
 * a soldier or a worker is ignored; the first other one of each ant
 * counts, even if it cannot run. */
static void take(struct fuzz_run *r, int player, const uint8_t *o, int count)
{
	(void)r;
	for (int i = 0; i < count; i++, o += ANT_ORDER_LEN) {
		int id = o[0] | o[1] << 8, kind = o[2], dir = o[3], type = o[4];
		if (id >= ANT_MAX_IDS || slot[id] < 0 || view.ant[slot[id]].player != player ||
		    chosen[id].kind >= 0 || kind >= ANT_KINDS)
			continue;
		if ((kind == ANT_MOVE || kind == ANT_LAY) && dir >= ANT_DIRS)
			continue;
		if (kind == ANT_LAY && type != ANT_SOLDIER && type != ANT_WORKER)
			continue;
		chosen[id] = (struct ant_cmd){ (int8_t)kind, (int8_t)dir, (int8_t)type };
	}
}

static void before_advance(struct fuzz_run *r)
{
	(void)r;
	before = view;
	memcpy(bslot, slot, sizeof slot);
	for (int i = 0; i < view.nants; i++)
		max_id = view.ant[i].id > max_id ? view.ant[i].id : max_id;
}

/* ---- a round ------------------------------------------------------------- */

static int bonus_at(const struct ant_msg_view *v, int row, int col)
{
	return ant_cell_bonus(v->cell[row * cols + col]);
}

/* A queen that stayed a queen: what she ate (a step onto food), what she
 * paid (an egg she could lay), or nothing. */
static void check_reserve(const struct ant_msg_ant *b, const struct ant_msg_ant *u,
			  const struct ant_cmd *c, bool moved)
{
	int64_t diff[ANT_NUTRIENTS];
	bool none = true;
	for (int k = 0; k < ANT_NUTRIENTS; k++) {
		diff[k] = (int64_t)u->reserve[k] - b->reserve[k];
		none &= diff[k] == 0;
	}
	if (moved) {
		bool ate = none;
		for (int f = 0; f < ANT_BONUSES && !ate; f++)
			ate = diff[0] == food(f, 0) && diff[1] == food(f, 1) && diff[2] == food(f, 2);
		check(ate, "queen %u stepped and her reserve changed by (%lld, %lld, %lld)", u->id,
		      (long long)diff[0], (long long)diff[1], (long long)diff[2]);
		return;
	}
	bool paid = false;
	if (c->kind == ANT_LAY) {
		int dr, dc;
		ant_dir_delta(c->dir, &dr, &dc);
		int row = b->row + dr, col = b->col + dc;
		paid = row >= 0 && col >= 0 && row < rows && col < cols && !water[row * cols + col];
		for (int k = 0; k < ANT_NUTRIENTS; k++)
			paid &= b->reserve[k] >= (uint32_t)need(c->type, k);
	}
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		check(diff[k] == (paid ? -need(c->type, k) : 0),
		      "queen %u (order %d) has reserve %u of nutrient %d, had %u", u->id, c->kind,
		      u->reserve[k], k, b->reserve[k]);
}

/* An ant that lived through the round. */
static void check_survivor(const struct ant_msg_ant *b, const struct ant_msg_ant *u,
			   bool frozen, bool queen_round)
{
	static const struct ant_cmd nothing = { -1, 0, 0 };
	const struct ant_cmd *c = frozen ? &nothing : &chosen[u->id];
	check(u->player == b->player, "ant %u changed colony %u -> %u", u->id, b->player,
	      u->player);
	bool crowned = b->type != ANT_QUEEN && u->type == ANT_QUEEN;
	check(u->type == b->type || crowned, "ant %u changed type %u -> %u", u->id, b->type,
	      u->type);

	int dr = u->row - b->row, dc = u->col - b->col, wr, wc;
	ant_dir_delta(c->dir, &wr, &wc);
	bool moved = dr || dc;
	if (moved)
		check(c->kind == ANT_MOVE && dr == wr && dc == wc &&
			      (b->type != ANT_QUEEN || queen_round),
		      "ant %u (type %u, colony %u%s) went (%u,%u) -> (%u,%u), its order %d dir %d",
		      u->id, b->type, b->player, frozen ? ", frozen" : "", b->row, b->col, u->row,
		      u->col, c->kind, c->dir);

	check(u->life == (crowned ? full_life(ANT_QUEEN) : b->life - 1),
	      "ant %u (type %u -> %u): life %u after %u", u->id, b->type, u->type, u->life,
	      b->life);

	if (crowned) {
		check(u->carried == 0, "crowned ant %u still carries food", u->id);
	} else if (u->carried != b->carried) {
		if (!b->carried)
			check(c->kind == ANT_TAKE && u->carried - 1 == bonus_at(&before, b->row, b->col),
			      "ant %u took food %d at (%u,%u) where there was %d, its order %d",
			      u->id, u->carried - 1, b->row, b->col, bonus_at(&before, b->row, b->col),
			      c->kind);
		else
			check(c->kind == ANT_LEAVE && !u->carried,
			      "ant %u's load went %u -> %u, its order %d", u->id, b->carried,
			      u->carried, c->kind);
	}
	if (b->type == ANT_QUEEN)
		check_reserve(b, u, c, moved);
}

/* An ant not there before: a hatched egg of an unfrozen colony whose queen
 * was told to lay this type in this direction, and could pay for it. */
static void check_newborn(const struct ant_msg_ant *u, bool frozen, int born)
{
	check(u->id > max_id, "new ant %u, but ids up to %d were handed out", u->id, max_id);
	check(!frozen, "new ant %u of frozen colony %u", u->id, u->player);
	check(born == 1, "colony %u has %d newborns", u->player, born);
	const struct ant_msg_ant *queen = NULL;
	for (int i = 0; i < before.nants && !queen; i++)
		if (before.ant[i].player == u->player && before.ant[i].type == ANT_QUEEN)
			queen = &before.ant[i];
	check(queen, "new ant %u of colony %u, which had no queen", u->id, u->player);
	const struct ant_cmd *c = &chosen[queen->id];
	int dr, dc;
	ant_dir_delta(c->dir, &dr, &dc);
	check(c->kind == ANT_LAY && u->row == queen->row + dr && u->col == queen->col + dc,
	      "new ant %u at (%u,%u); queen %u at (%u,%u) had order %d dir %d", u->id, u->row,
	      u->col, queen->id, queen->row, queen->col, c->kind, c->dir);
	check(u->type == c->type || u->type == ANT_QUEEN, "new ant %u is a %u, the egg a %d",
	      u->id, u->type, c->type);
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		check(queen->reserve[k] >= (uint32_t)need(c->type, k),
		      "queen %u laid a %d with %u of nutrient %d, it costs %d", queen->id, c->type,
		      queen->reserve[k], k, need(c->type, k));
	check(u->life == full_life(u->type), "new ant %u (type %u) has life %u", u->id, u->type,
	      u->life);
}

/* Food that was not there: left on an empty cell by a worker told to, or
 * grown on a food round (at most one per rectangle, where the food may
 * have been eaten or taken during the round). */
static void check_food(bool food_round, const bool frozen[GAME_MAX_PLAYERS])
{
	static int8_t left[ANT_MAX_CELLS];
	memset(left, -1, (size_t)rows * cols);
	for (int i = 0; i < before.nants; i++) {
		const struct ant_msg_ant *b = &before.ant[i];
		if (b->carried && !frozen[b->player] && chosen[b->id].kind == ANT_LEAVE)
			left[b->row * cols + b->col] = (int8_t)(b->carried - 1);
	}
	int grown = 0;
	for (int i = 0; i < rows * cols; i++) {
		int was = ant_cell_bonus(before.cell[i]), is = ant_cell_bonus(view.cell[i]);
		if (is < 0 || is == was)
			continue;
		/* Eaten or taken, then grown again on a food round. */
		check(was < 0 || food_round, "cell %d: food %d became %d", i, was, is);
		if (was >= 0 || left[i] != is)
			grown++;
	}
	check(grown <= (food_round ? ANT_PLAYERS * ANT_BONUSES : 0),
	      "%d foods appeared in round %u (food every %d rounds)", grown, before.h.round,
	      param(ANT_P_BONUS_PERIOD));
}

static void after_advance(struct fuzz_run *r, const bool frozen[GAME_MAX_PLAYERS])
{
	(void)r;
	int round = before.h.round, born[ANT_PLAYERS] = { 0 };
	for (int i = 0; i < view.nants; i++)
		if (bslot[view.ant[i].id] < 0)
			born[view.ant[i].player]++;
	for (int i = 0; i < view.nants; i++) {
		const struct ant_msg_ant *u = &view.ant[i];
		if (bslot[u->id] >= 0)
			check_survivor(&before.ant[bslot[u->id]], u, frozen[u->player],
				       round % param(ANT_P_QUEEN_PERIOD) == 0);
		else
			check_newborn(u, frozen[u->player], born[u->player]);
	}
	check_food(round % param(ANT_P_BONUS_PERIOD) == 0, frozen);
	for (int q = 0; q < ANT_PLAYERS; q++)
		check(view.h.player[q].score == before.h.player[q].score + view.h.player[q].ants,
		      "colony %d: score %lld after %lld plus %d ants", q,
		      (long long)view.h.player[q].score, (long long)before.h.player[q].score,
		      view.h.player[q].ants);
	forget_orders();
}

const struct fuzz_orders_game fuzz_orders_game = {
	FUZZ_ORDERS_GAME("ants", sets, struct game_state, ANT_ORDER_LEN, ANT_MAX_ORDERS),
	FUZZ_ORDERS_HOOKS,
};
