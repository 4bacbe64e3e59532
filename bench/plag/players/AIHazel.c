/* Hazel - farmers fan out over the board, one zone each.
 *
 * The board is cut into five zones: the four quarters and a square in the
 * middle.  Farmer number k works in zone zone_cycle[k % 8]; it draws a goal
 * cell in its zone that is not ours yet, walks there greedily and draws a
 * new goal once the goal turns our colour or the farmer gets stuck.
 * Knights keep to the same zones and hit any enemy next to them.  Witches
 * patrol the two inner edges of our home quarter.
 */
#include <stdlib.h>

#include "dominator.h"

PLAYER_NAME(Hazel);

#define MAX_SIDE 99
#define MAX_ID 8192
#define GOAL_TRIES 30

static int side;
static unsigned char risky[MAX_SIDE][MAX_SIDE];
static unsigned char planned[MAX_SIDE][MAX_SIDE];
static Pos goal_of[MAX_ID];
static bool has_goal[MAX_ID];
static int stuck_for[MAX_ID];

static const int zone_cycle[8] = { 0, 1, 3, 4, 0, 1, 3, 2 };

static int iabs(int x) { return x < 0 ? -x : x; }

static int manhattan(Pos a, Pos b) { return iabs(a.i - b.i) + iabs(a.j - b.j); }

static bool inside(int i, int j) { return i >= 0 && j >= 0 && i < side && j < side; }

static bool open_cell(Pos p)
{
	if (!pos_ok(p))
		return false;
	Cell c = cell(p);
	return c.type == Empty && c.id == -1 && !planned[p.i][p.j];
}

static bool walkable(Pos p) { return open_cell(p) && !risky[p.i][p.j]; }

static bool is_enemy(int id)
{
	if (id < 0)
		return false;
	Unit u = unit(id);
	return u.id != -1 && u.player != me() && u.type != Witch;
}

static void mark_diamond(Pos c, int r)
{
	for (int di = -r; di <= r; di++)
		for (int dj = -r + iabs(di); dj <= r - iabs(di); dj++)
			if (inside(c.i + di, c.j + dj))
				risky[c.i + di][c.j + dj] = 1;
}

static void build_risk(void)
{
	for (int i = 0; i < side; i++)
		for (int j = 0; j < side; j++) {
			risky[i][j] = cell(pos(i, j)).haunted;
			planned[i][j] = 0;
		}
	for (int pl = 0; pl < nb_players(); pl++) {
		Ids w = witches(pl);
		for (int k = 0; k < w.n; k++)
			mark_diamond(unit(w.id[k]).pos, pl == me() ? 2 : 3);
	}
}

/* The rectangle of a zone: 0 home, 1 below, 2 opposite, 3 right, 4 middle. */
static void zone_box(int z, int *i0, int *i1, int *j0, int *j1)
{
	int half = side / 2;
	*i0 = 1; *i1 = half; *j0 = 1; *j1 = half;
	if (z == 1 || z == 2) { *i0 = half; *i1 = side - 2; }
	if (z == 2 || z == 3) { *j0 = half; *j1 = side - 2; }
	if (z == 4) {
		*i0 = *j0 = side / 4 + 2;
		*i1 = *j1 = side - side / 4 - 3;
	}
}

static Pos zone_centre(int z)
{
	int i0, i1, j0, j1;
	zone_box(z, &i0, &i1, &j0, &j1);
	return pos((i0 + i1) / 2, (j0 + j1) / 2);
}

static void pick_goal(int id, Pos from, int z)
{
	int i0, i1, j0, j1, best_cost = 1 << 30;
	zone_box(z, &i0, &i1, &j0, &j1);
	has_goal[id] = false;
	for (int t = 0; t < GOAL_TRIES; t++) {
		Pos q = pos(random_int(i0, i1), random_int(j0, j1));
		Cell c = cell(q);
		if (c.type == Wall || c.owner == me() || risky[q.i][q.j])
			continue;
		int cost = manhattan(from, q) - (c.owner != -1 ? 3 : 0);
		if (cost < best_cost) {
			best_cost = cost;
			goal_of[id] = q;
			has_goal[id] = true;
		}
	}
	if (!has_goal[id]) {
		goal_of[id] = zone_centre(z);
		has_goal[id] = true;
	}
	stuck_for[id] = 0;
}

static void order(int id, Pos from, Dir d)
{
	Pos q = pos_move(from, d);
	if (d != None)
		planned[q.i][q.j] = 1;
	command(id, d);
}

/* An enemy knight on one of the 8 cells around p, or -1. */
static int knight_next_to(Pos p)
{
	for (int d = 0; d < 8; d++) {
		int id = cell(pos_move(p, (Dir)d)).id;
		if (is_enemy(id) && unit(id).type == Knight)
			return id;
	}
	return -1;
}

static Dir flee_from(Pos p, Pos danger)
{
	Dir best = None;
	int far = manhattan(p, danger);
	for (int d = 0; d < 8; d += 2) {
		Pos q = pos_move(p, (Dir)d);
		if (walkable(q) && manhattan(q, danger) > far) {
			far = manhattan(q, danger);
			best = (Dir)d;
		}
	}
	return best;
}

static void run_farmer(Unit u, int index)
{
	int z = zone_cycle[index % 8];
	int threat = knight_next_to(u.pos);
	if (threat != -1) {
		order(u.id, u.pos, flee_from(u.pos, unit(threat).pos));
		return;
	}
	if (!has_goal[u.id] || pos_eq(u.pos, goal_of[u.id]) ||
	    cell(goal_of[u.id]).owner == me() || stuck_for[u.id] > 3)
		pick_goal(u.id, u.pos, z);

	Pos g = goal_of[u.id];
	Dir best = None, spare = None;
	int best_key = 1 << 30;
	int start = 2 * random_int(0, 3);
	for (int k = 0; k < 4; k++) {
		Dir d = (Dir)((start + 2 * k) % 8);
		Pos q = pos_move(u.pos, d);
		if (!walkable(q))
			continue;
		if (spare == None || cell(q).owner != me())
			spare = d;
		int key = 4 * manhattan(q, g) + (cell(q).owner == me() ? 2 : 0);
		if (key < best_key) {
			best_key = key;
			best = d;
		}
	}
	if (best == None || manhattan(pos_move(u.pos, best), g) >= manhattan(u.pos, g)) {
		stuck_for[u.id]++;
		best = spare;
	}
	order(u.id, u.pos, best);
}

static int nearest_enemy_in_zone(Pos p, int z, int reach)
{
	int i0, i1, j0, j1, best = -1, best_d = reach + 1;
	zone_box(z, &i0, &i1, &j0, &j1);
	for (int pl = 1; pl < nb_players(); pl++) {
		Ids lists[2] = { farmers(pl), knights(pl) };
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < lists[t].n; k++) {
				Pos q = unit(lists[t].id[k]).pos;
				bool in_zone = q.i >= i0 && q.i <= i1 && q.j >= j0 && q.j <= j1;
				int d = manhattan(p, q) + (in_zone ? 0 : 6);
				if (d < best_d) {
					best_d = d;
					best = lists[t].id[k];
				}
			}
	}
	return best;
}

static void run_knight(Unit u, int index)
{
	Dir hit = None;
	int weakest = 1 << 30;
	for (int d = 0; d < 8; d++) {
		int id = cell(pos_move(u.pos, (Dir)d)).id;
		if (is_enemy(id) && unit(id).health < weakest) {
			weakest = unit(id).health;
			hit = (Dir)d;
		}
	}
	if (hit != None) {
		command(u.id, hit);
		return;
	}
	if (u.health < knights_health() / 2) {
		command(u.id, None);
		return;
	}
	int z = zone_cycle[(index * 3) % 8];
	int prey = nearest_enemy_in_zone(u.pos, z, 14);
	Pos g = prey != -1 ? unit(prey).pos : zone_centre(z);
	Dir best = None;
	int best_d = manhattan(u.pos, g);
	for (int d = 0; d < 8; d++) {
		Pos q = pos_move(u.pos, (Dir)d);
		if (walkable(q) && manhattan(q, g) < best_d) {
			best_d = manhattan(q, g);
			best = (Dir)d;
		}
	}
	order(u.id, u.pos, best);
}

static bool witch_spot_ok(Pos q, int self)
{
	if (!open_cell(q))
		return false;
	for (int pl = 0; pl < nb_players(); pl++) {
		Ids w = witches(pl);
		for (int k = 0; k < w.n; k++)
			if (w.id[k] != self && manhattan(q, unit(w.id[k]).pos) <= 2)
				return false;
	}
	Ids f = farmers(me()), kn = knights(me());
	for (int k = 0; k < f.n; k++)
		if (manhattan(q, unit(f.id[k]).pos) <= 2)
			return false;
	for (int k = 0; k < kn.n; k++)
		if (manhattan(q, unit(kn.id[k]).pos) <= 2)
			return false;
	return true;
}

static void run_witch(Unit u, int index)
{
	Pos post = index % 2 == 0 ? pos(side / 2, side / 4) : pos(side / 4, side / 2);
	int prey = nearest_enemy_in_zone(u.pos, 0, 7);
	Pos g = prey != -1 ? unit(prey).pos : post;
	Dir best = None;
	int best_d = manhattan(u.pos, g);
	for (int d = 0; d < 8; d += 2) {
		Pos q = pos_move(u.pos, (Dir)d);
		if (witch_spot_ok(q, u.id) && manhattan(q, g) < best_d) {
			best_d = manhattan(q, g);
			best = (Dir)d;
		}
	}
	if (best != None) {
		Pos q = pos_move(u.pos, best);
		planned[q.i][q.j] = 1;
		mark_diamond(q, 2);
	}
	command(u.id, best);
}

void play(void)
{
	side = rows();
	build_risk();
	Ids w = witches(me());
	for (int k = 0; k < w.n; k++)
		run_witch(unit(w.id[k]), k);
	Ids kn = knights(me());
	for (int k = 0; k < kn.n; k++)
		run_knight(unit(kn.id[k]), k);
	Ids f = farmers(me());
	for (int k = 0; k < f.n; k++)
		run_farmer(unit(f.id[k]), k);
}
