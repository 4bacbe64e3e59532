/* runtime.c - the Ants kit's side of the game: it talks to the judge and
 * answers the functions of ants.h from the last view received.  Linked
 * into every player binary; one player per process, so its state lives in
 * this file's statics. */
#include <stdio.h>

#include "games/ants/kit/ants.h"
#include "games/ants/proto.h"
#include "games/kit/course_runtime.h"


static struct ant_msg_start start;
static struct ant_msg_view view;
static struct ant_msg_order orders[ANT_MAX_ORDERS + 1];
static int norders;

static int param(int k)
{
	return start.params.v[k];
}

/* The ants of the last view, by id, by cell and by player and type. */
static int ant_index[ANT_MAX_IDS], ant_at[ANT_MAX_CELLS];
static int ant_lists[ANT_PLAYERS][ANT_TYPES][ANT_MAX_CELLS], ant_list_len[ANT_PLAYERS][ANT_TYPES];
static const struct kit_units units = {
	.players = ANT_PLAYERS, .types = ANT_TYPES, .max_ids = ANT_MAX_IDS,
	.cells = ANT_MAX_CELLS, .per_list = ANT_MAX_CELLS, .index = ant_index, .at = ant_at,
	.lists = &ant_lists[0][0][0], .list_len = &ant_list_len[0][0],
};

/* What course.h's shared answers read (course_runtime.h). */
static int start_rounds(void) { return param(ANT_P_ROUNDS); }
static int start_rows(void) { return param(ANT_P_ROWS); }
static int view_round(void) { return view.h.round; }
static long long view_score(int player) { return view.h.player[player].score; }
static int view_cpu(int player) { return view.h.player[player].cpu; }
const struct course_kit kit_course = { ANT_PLAYERS, start_rounds, start_rows, view_round,
				       view_score, view_cpu };

int cols(void) { return param(ANT_P_COLS); }
int queen_period(void) { return param(ANT_P_QUEEN_PERIOD); }
int nb_ini_soldiers(void) { return param(ANT_P_INI_SOLDIERS); }
int nb_ini_workers(void) { return param(ANT_P_INI_WORKERS); }
int bonus_rows(void) { return param(ANT_P_BONUS_ROWS); }
int bonus_cols(void) { return param(ANT_P_BONUS_COLS); }
int bonus_period(void) { return param(ANT_P_BONUS_PERIOD); }
int worker_life(void) { return param(ANT_P_WORKER_LIFE); }
int soldier_life(void) { return param(ANT_P_SOLDIER_LIFE); }
int queen_life(void) { return param(ANT_P_QUEEN_LIFE); }

int needed(AntType t, Nutrient n)
{
	if ((t != Soldier && t != Worker) || (unsigned)n >= ANT_NUTRIENTS)
		return 0;
	return param(ANT_P_NEED + (t == Soldier ? 0 : ANT_NUTRIENTS) + (int)n);
}

int nutrients(BonusType b, Nutrient n)
{
	if ((unsigned)b >= ANT_BONUSES || (unsigned)n >= ANT_NUTRIENTS)
		return 0;
	return param(ANT_P_FOOD + (int)b * ANT_NUTRIENTS + (int)n);
}

int me(void) { return start.me; }

bool queens_move_now(void)
{
	return view.h.round % queen_period() == 0;
}

bool pos_ok(Pos p)
{
	return p.i >= 0 && p.j >= 0 && p.i < view.h.rows && p.j < view.h.cols;
}

bool pos_eq(Pos a, Pos b)
{
	return a.i == b.i && a.j == b.j;
}

Pos pos_move(Pos p, Dir d)
{
	static const int di[4] = { 1, 0, -1, 0 };
	static const int dj[4] = { 0, 1, 0, -1 };
	if ((unsigned)d >= 4)
		return p;
	return (Pos){ p.i + di[d], p.j + dj[d] };
}

Cell cell(Pos p)
{
	if (!pos_ok(p))
		return (Cell){ Water, -1, NoBonus };
	int c = p.i * view.h.cols + p.j;
	int b = ant_cell_bonus(view.cell[c]);
	return (Cell){ ant_cell_water(view.cell[c]) ? Water : Soil, kit_unit_at(&units, c),
		       b < 0 ? NoBonus : (BonusType)b };
}

Ant ant(int id)
{
	int place = kit_unit_index(&units, id);
	if (place < 0)
		return (Ant){ -1, Worker, -1, { -1, -1 }, 0, { 0, 0, 0 }, NoBonus };
	const struct ant_msg_ant *a = &view.ant[place];
	Ant r = { a->id, (AntType)a->type, a->player, { a->row, a->col }, a->life,
		  { 0, 0, 0 }, a->carried ? (BonusType)(a->carried - 1) : NoBonus };
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		r.reserve[k] = a->reserve[k] > 1000000000u ? 1000000000 : (int)a->reserve[k];
	return r;
}

Ids queens(int player) { return kit_units(&units, player, ANT_QUEEN); }
Ids soldiers(int player) { return kit_units(&units, player, ANT_SOLDIER); }
Ids workers(int player) { return kit_units(&units, player, ANT_WORKER); }

int colony_size(int player)
{
	return player >= 0 && player < ANT_PLAYERS ? view.h.player[player].ants : 0;
}

bool can_lay(int id, AntType t)
{
	Ant a = ant(id);
	if (a.id < 0 || a.type != Queen || (t != Soldier && t != Worker))
		return false;
	for (int k = 0; k < ANT_NUTRIENTS; k++)
		if (a.reserve[k] < needed(t, (Nutrient)k))
			return false;
	return true;
}

static void order(int id, int kind, int dir, int type)
{
	/* One past the limit is kept, so the judge sees the player broke it. */
	if (norders <= ANT_MAX_ORDERS)
		orders[norders++] = (struct ant_msg_order){ (uint16_t)id, (uint8_t)kind,
							    (uint8_t)dir, (uint8_t)type };
}

void move(int id, Dir d) { order(id, ANT_MOVE, (int)d, 0); }
void take(int id) { order(id, ANT_TAKE, 0, 0); }
void leave(int id) { order(id, ANT_LEAVE, 0, 0); }
void lay(int id, Dir d, AntType t) { order(id, ANT_LAY, (int)d, (int)t); }

/* The lookups the API needs, rebuilt from each view. */
static void index_view(void)
{
	kit_units_clear(&units);
	for (int k = 0; k < view.nants; k++) {
		const struct ant_msg_ant *a = &view.ant[k];
		kit_unit_add(&units, k, a->id, a->row * view.h.cols + a->col, a->player, a->type);
	}
}

/* The two steps of the game as the kit sees them, apart from how the bytes
 * travel: through the sandbox's pipes in main() below, or by direct calls
 * in an in-process build (KIT_NO_MAIN),
 * which hides every symbol but these two. */
KIT_ENTRY int antkit_start(const uint8_t *msg, size_t len);

int antkit_start(const uint8_t *msg, size_t len)
{
	return kit_started(ant_start_decode(msg, len, &start), &start.seed);
}

KIT_ENTRY long antkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);

long antkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap)
{
	if (!ant_view_decode(msg, len, &view))
		return -1;
	index_view();
	return kit_play(&ant_orders, orders, &norders, out, cap);
}

#ifndef KIT_NO_MAIN
int main(void)
{
	return kit_run("ants", antkit_start, antkit_turn, ANT_VIEW_MAX, ANT_ORDERS_MAX);
}
#endif
