/* runtime.c - the Star War kit's side of the game: it talks to the judge
 * and answers the functions of starwar.h from the last view received.
 * Linked into every player binary; one player per process, so its state
 * lives in this file's statics.
 */
#include <stdio.h>
#include <string.h>

#include "games/starwar/kit/starwar.h"
#include "games/kit/course_runtime.h"
#include "games/starwar/proto.h"


static struct sw_msg_start start;
static struct sw_msg_view view;
static int my_player;
static int ship_at[SW_MAX_CELLS]; /* cell -> ship id, or -1 */
static int ids[SW_PLAYERS][SW_MAX_PLAYER_SHIPS];
static struct sw_msg_order orders[SW_MAX_ORDERS + 1];
static int norders;

/* What course.h's shared answers read (course_runtime.h). */
static int start_rounds(void) { return start.params.rounds; }
static int start_rows(void) { return start.params.rows; }
static int view_round(void) { return view.round; }
static long long view_score(int player) { return view.player[player].score; }
static int view_cpu(int player) { return view.player[player].cpu; }
const struct course_kit kit_course = { SW_PLAYERS, start_rounds, start_rows, view_round,
				       view_score, view_cpu };

/* starwar.h's parameters. */
int universe_cols(void) { return start.params.cols; }
int window_cols(void) { return start.params.window; }
int nb_starships_per_player(void) { return start.params.ships; }
int rounds_to_regenerate(void) { return start.params.regen_rounds; }
int nb_missile_bonuses(void) { return start.params.missile_bonuses; }
int nb_point_bonuses(void) { return start.params.point_bonuses; }
int bonus_missiles(void) { return start.params.bonus_missiles; }
int bonus_points(void) { return start.params.bonus_points; }
int kill_points(void) { return start.params.kill_points; }
int initial_missiles(void) { return start.params.initial_missiles; }
int nb_starships(void) { return SW_PLAYERS * start.params.ships; }

int me(void) { return my_player; }
int window_start(void) { return view.cols ? view.round % view.cols : 0; }

static int col_mod(int j)
{
	int m = view.cols ? view.cols : 1;
	int r = j % m;
	return r < 0 ? r + m : r;
}

bool in_window(Pos p, int r)
{
	return col_mod(p.j - r) < view.window;
}

bool pos_ok(Pos p)
{
	return p.i >= 0 && p.i < view.rows;
}

bool pos_eq(Pos a, Pos b)
{
	return a.i == b.i && col_mod(a.j) == col_mod(b.j);
}

int dir_di(Dir d)
{
	return (unsigned)d <= FastDown ? sw_action_dr((int)d) : 0;
}

int dir_dj(Dir d)
{
	return (unsigned)d <= FastDown ? sw_action_dc((int)d) : 1;
}

Dir dir(int di, int dj)
{
	di = di < -1 ? -1 : di > 1 ? 1 : di;
	dj = dj < 0 ? 0 : dj > 2 ? 2 : dj;
	return (Dir)sw_move_action(di, dj);
}

Pos pos_add(Pos p, Dir d)
{
	return (Pos){ p.i + dir_di(d), p.j + dir_dj(d) };
}

Cell cell(Pos p)
{
	if (!pos_ok(p) || view.cols == 0)
		return (Cell){ Asteroid, -1 };
	int c = p.i * view.cols + col_mod(p.j);
	return (Cell){ (CellType)view.cell[c], view.cell[c] == SW_SHIP ? ship_at[c] : -1 };
}

Ship starship(int sid)
{
	if (sid < 0 || sid >= view.nships)
		return (Ship){ -1, -1, { -1, -1 }, 0, false, 0 };
	const struct sw_msg_ship *s = &view.ship[sid];
	return (Ship){ sid, sid / start.params.ships, { s->row, s->col }, s->missiles,
		       s->alive != 0, s->wait };
}

Ids starships(int player)
{
	if (player < 0 || player >= SW_PLAYERS)
		return (Ids){ 0, ids[0] };
	return (Ids){ start.params.ships, ids[player] };
}

static void order(int sid, int action)
{
	/* One past the limit is kept, so the judge sees the player broke it. */
	if (norders <= SW_MAX_ORDERS)
		orders[norders++] = (struct sw_msg_order){ (uint16_t)sid, (uint8_t)action };
}

void move(int sid, Dir d)
{
	order(sid, (int)d);
}

void shoot(int sid)
{
	order(sid, SW_SHOOT);
}

/* The in-process build hides every symbol but these two. */
KIT_ENTRY int swkit_start(const uint8_t *msg, size_t len);
KIT_ENTRY long swkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);

/* The lookups the API needs, rebuilt from each view. */
static void index_view(void)
{
	memset(ship_at, -1, sizeof *ship_at * (size_t)(view.rows * view.cols));
	for (int k = 0; k < view.nships; k++)
		if (view.ship[k].alive)
			ship_at[view.ship[k].row * view.cols + view.ship[k].col] = k;
}

/* The two steps of the game as the kit sees them, apart from how the bytes
 * travel: through the sandbox's pipes in main() below, or by direct calls
 * in the in-process benchmark build (KIT_NO_MAIN). */
int swkit_start(const uint8_t *msg, size_t len)
{
	if (!sw_start_decode(msg, len, &start))
		return -1;
	kit_seed(start.seed);
	my_player = start.player;
	for (int p = 0; p < SW_PLAYERS; p++)
		for (int k = 0; k < start.params.ships; k++)
			ids[p][k] = p * start.params.ships + k;
	return 0;
}

long swkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap)
{
	if (!sw_view_decode(msg, len, &view))
		return -1;
	/* The view must describe the universe and fleets the start announced. */
	if (view.rows != start.params.rows || view.cols != start.params.cols ||
	    view.nships != SW_PLAYERS * start.params.ships)
		return -1;
	index_view();
	return kit_play(&sw_orders, orders, &norders, out, cap);
}

#ifndef KIT_NO_MAIN
int main(void)
{
	return kit_run("starwar", swkit_start, swkit_turn, SW_VIEW_MAX, SW_ORDERS_MAX);
}
#endif
