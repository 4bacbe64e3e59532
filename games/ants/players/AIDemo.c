/* Demo: a simple player to learn the API from.  Workers fetch food (first
 * the kind richest in what the queen lacks most), keep away from enemy
 * soldiers and queens, and drop the food next to the queen; the queen eats
 * it and lays eggs when she can afford them; soldiers hunt enemy workers.
 * Nobody ever steps onto one of our own ants: in Ants that is a fight too. */
#include <string.h>

#include "ants.h"

PLAYER_NAME(Demo);

#define MAXN 99

static bool claimed[MAXN][MAXN]; /* cells one of our ants moves into now */
static bool danger[MAXN][MAXN];  /* cells next to an enemy soldier or queen */
static bool avoid_danger;        /* step_towards() keeps off those cells */
static int wanted = -1;          /* the bonus the queen needs most, or -1 */
static Pos queen_pos;
static bool have_queen;

static int dist(Pos a, Pos b)
{
	int di = a.i - b.i, dj = a.j - b.j;
	return (di < 0 ? -di : di) + (dj < 0 ? -dj : dj);
}

/* A cell an ant of ours may step on now: soil, nobody there, not claimed. */
static bool free_cell(Pos p)
{
	Cell c = cell(p);
	return c.type == Soil && c.id == -1 && !claimed[p.i][p.j];
}

static bool next_to_queen(Pos p)
{
	return have_queen && dist(p, queen_pos) == 1;
}

/* Food for workers to fetch: not the food waiting near our queen. */
static bool fetchable(Pos p)
{
	return cell(p).bonus != NoBonus && !(have_queen && dist(p, queen_pos) <= 2);
}

static bool fetch_goal(Pos p)
{
	return fetchable(p) && cell(p).id == -1;
}

static bool fetch_wanted_goal(Pos p)
{
	return fetch_goal(p) && (int)cell(p).bonus == wanted;
}

/* Where a loaded worker drops its food. */
static bool drop_goal(Pos p)
{
	return next_to_queen(p) && cell(p).bonus == NoBonus && cell(p).id == -1;
}

static bool prey_goal(Pos p)
{
	Cell c = cell(p);
	if (c.id == -1)
		return false;
	Ant a = ant(c.id);
	return a.player != me() && a.type == Worker;
}

static bool queen_food_goal(Pos p)
{
	Cell c = cell(p);
	return c.bonus != NoBonus && c.id == -1;
}

/* Breadth-first search from `from` through free cells to the nearest cell
 * where goal() holds (an occupied goal may be entered: an attack), at most
 * `limit` steps away.  Returns the first direction, or -1. */
static int step_towards(Pos from, bool (*goal)(Pos), int limit)
{
	static int first[MAXN][MAXN], d[MAXN][MAXN];
	static Pos queue[MAXN * MAXN];
	for (int i = 0; i < rows(); ++i)
		for (int j = 0; j < cols(); ++j)
			d[i][j] = -1;
	int head = 0, tail = 0, order[4];
	random_permutation(4, order);
	d[from.i][from.j] = 0;
	first[from.i][from.j] = -1;
	queue[tail++] = from;
	while (head < tail) {
		Pos p = queue[head++];
		if (d[p.i][p.j] >= limit)
			continue;
		for (int k = 0; k < 4; ++k) {
			Dir dir = (Dir)order[k];
			Pos q = pos_move(p, dir);
			if (!pos_ok(q) || d[q.i][q.j] != -1 || cell(q).type == Water ||
			    claimed[q.i][q.j] || (avoid_danger && danger[q.i][q.j]))
				continue;
			d[q.i][q.j] = d[p.i][p.j] + 1;
			first[q.i][q.j] = p.i == from.i && p.j == from.j ? (int)dir : first[p.i][p.j];
			if (goal(q))
				return first[q.i][q.j];
			if (cell(q).id == -1)
				queue[tail++] = q;
		}
	}
	return -1;
}

/* Moves ant id one step in direction dir if that is safe, claiming the
 * cell.  An attack (prey) is allowed onto an enemy ant. */
static void go(int id, int dir, bool attack)
{
	if (dir < 0)
		return;
	Pos q = pos_move(ant(id).pos, (Dir)dir);
	if (!free_cell(q) && !(attack && prey_goal(q)))
		return;
	claimed[q.i][q.j] = true;
	move(id, (Dir)dir);
}

static void play_queen(int id)
{
	Ant q = ant(id);
	int nsol = soldiers(me()).n, nwor = workers(me()).n;
	AntType egg = can_lay(id, Soldier) && nsol * 3 < nwor ? Soldier : Worker;
	if (can_lay(id, egg)) {
		int order[4];
		random_permutation(4, order);
		for (int k = 0; k < 4; ++k) {
			Pos p = pos_move(q.pos, (Dir)order[k]);
			if (free_cell(p)) {
				claimed[p.i][p.j] = true;
				lay(id, (Dir)order[k], egg);
				return;
			}
		}
	}
	if (queens_move_now())
		go(id, step_towards(q.pos, queen_food_goal, 2), false);
}

/* The bonus richest in the nutrient the queen has least of. */
static int most_wanted(int queen)
{
	Ant q = ant(queen);
	int low = 0;
	for (int k = 1; k < 3; ++k)
		if (q.reserve[k] - needed(Worker, (Nutrient)k) <
		    q.reserve[low] - needed(Worker, (Nutrient)low))
			low = k;
	int best = 0;
	for (int b = 1; b < 3; ++b)
		if (nutrients((BonusType)b, (Nutrient)low) >
		    nutrients((BonusType)best, (Nutrient)low))
			best = b;
	return best;
}

static void play_worker(int id)
{
	Ant w = ant(id);
	Cell here = cell(w.pos);
	if (w.bonus != NoBonus) {
		if (next_to_queen(w.pos) && here.bonus == NoBonus)
			leave(id);
		else if (have_queen)
			go(id, step_towards(w.pos, drop_goal, 2 * MAXN), false);
		return;
	}
	if (fetchable(w.pos)) {
		take(id);
		return;
	}
	int dir = wanted >= 0 ? step_towards(w.pos, fetch_wanted_goal, 12) : -1;
	if (dir < 0)
		dir = step_towards(w.pos, fetch_goal, 2 * MAXN);
	if (dir < 0 && next_to_queen(w.pos)) {
		/* Make room around the queen. */
		int order[4];
		random_permutation(4, order);
		for (int k = 0; k < 4 && dir < 0; ++k) {
			Pos p = pos_move(w.pos, (Dir)order[k]);
			if (free_cell(p) && !next_to_queen(p))
				dir = order[k];
		}
	}
	go(id, dir, false);
}

static void play_soldier(int id)
{
	Ant s = ant(id);
	go(id, step_towards(s.pos, prey_goal, 2 * MAXN), true);
}

void play(void)
{
	memset(claimed, 0, sizeof claimed);
	memset(danger, 0, sizeof danger);
	for (int pl = 0; pl < nb_players(); ++pl) {
		if (pl == me())
			continue;
		Ids lists[2] = { soldiers(pl), queens(pl) };
		for (int l = 0; l < 2; ++l)
			for (int k = 0; k < lists[l].n; ++k) {
				Pos p = ant(lists[l].id[k]).pos;
				for (int d = 0; d < 4; ++d) {
					Pos n = pos_move(p, (Dir)d);
					if (pos_ok(n))
						danger[n.i][n.j] = true;
				}
			}
	}
	Ids q = queens(me());
	have_queen = q.n > 0;
	queen_pos = have_queen ? ant(q.id[0]).pos : pos(-9, -9);
	wanted = have_queen ? most_wanted(q.id[0]) : -1;
	if (have_queen)
		play_queen(q.id[0]);
	Ids w = workers(me()), s = soldiers(me());
	avoid_danger = true;
	for (int k = 0; k < w.n; ++k)
		play_worker(w.id[k]);
	avoid_danger = false;
	for (int k = 0; k < s.n; ++k)
		play_soldier(s.id[k]);
}
