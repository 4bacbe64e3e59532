/*
 * Alder - greedy player.
 *
 * Every unit looks for the closest thing worth having and takes one step
 * towards it.  Farmers claim the nearest cell that is not ours (two farmers
 * never claim the same cell in a round), knights chase the nearest enemy
 * farmer, witches drift towards the nearest enemy while keeping clear of
 * our own people.
 */
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Alder);

#define FAR_AWAY 1000000
#define MAX_CLAIMS 512

static Pos claims[MAX_CLAIMS];
static int claim_count;

static int manhattan(Pos a, Pos b)
{
	return abs(a.i - b.i) + abs(a.j - b.j);
}

static int chebyshev(Pos a, Pos b)
{
	int di = abs(a.i - b.i), dj = abs(a.j - b.j);
	return di > dj ? di : dj;
}

static bool is_open(Pos p)
{
	if (!pos_ok(p))
		return false;
	Cell c = cell(p);
	return c.type == Empty && c.id == -1;
}

static bool is_safe(Pos p)
{
	return is_open(p) && !cell(p).haunted;
}

static bool is_enemy(int id)
{
	if (id < 0)
		return false;
	Unit u = unit(id);
	return u.id != -1 && u.player != me();
}

static bool enemy_knight_touches(Pos p)
{
	for (int d = 0; d < 8; d++) {
		Pos q = pos_move(p, (Dir)d);
		if (!pos_ok(q))
			continue;
		int id = cell(q).id;
		if (is_enemy(id) && unit(id).type == Knight)
			return true;
	}
	return false;
}

static bool already_claimed(Pos p)
{
	for (int k = 0; k < claim_count; k++)
		if (pos_eq(claims[k], p))
			return true;
	return false;
}

static void claim(Pos p)
{
	if (claim_count < MAX_CLAIMS)
		claims[claim_count++] = p;
}

static bool worth_painting(Pos p)
{
	Cell c = cell(p);
	return c.type == Empty && c.owner != me() && !c.haunted;
}

/* The best cell to paint within `radius' rows and columns of `from',
 * or `from' itself when there is none. */
static Pos nearest_target_within(Pos from, int radius)
{
	Pos best = from;
	int best_score = FAR_AWAY;
	int i_lo = from.i - radius < 1 ? 1 : from.i - radius;
	int i_hi = from.i + radius > rows() - 2 ? rows() - 2 : from.i + radius;
	int j_lo = from.j - radius < 1 ? 1 : from.j - radius;
	int j_hi = from.j + radius > cols() - 2 ? cols() - 2 : from.j + radius;
	for (int i = i_lo; i <= i_hi; i++) {
		for (int j = j_lo; j <= j_hi; j++) {
			Pos p = pos(i, j);
			int d = manhattan(from, p);
			/* our own cell is not a target: only stepping paints */
			if (d == 0 || 2 * d - 1 >= best_score)
				continue;
			if (!worth_painting(p) || already_claimed(p))
				continue;
			/* enemy colour is a little better: it costs them too */
			int s = cell(p).owner >= 0 ? d * 2 - 1 : d * 2;
			if (s < best_score) {
				best_score = s;
				best = p;
			}
		}
	}
	return best;
}

/* Look close by first, then further and further. */
static Pos nearest_target(Pos from)
{
	int side = rows() > cols() ? rows() : cols();
	for (int radius = 4; ; radius *= 2) {
		Pos p = nearest_target_within(from, radius);
		if (!pos_eq(p, from) || radius >= side)
			return p;
	}
}

/* How far `a' is from `b' for a unit that does (or does not) move
 * diagonally; smaller is better. */
static int gap(Pos a, Pos b, bool diagonals)
{
	if (diagonals)
		return chebyshev(a, b) * 4 + manhattan(a, b);
	return manhattan(a, b);
}

/* One step from `from' that brings us closer to `to'; diagonals only if
 * the unit may use them.  None when nothing helps. */
static Dir step_toward(Pos from, Pos to, bool diagonals, bool avoid_knights)
{
	Dir best = None;
	int best_gap = gap(from, to, diagonals);
	int step = diagonals ? 1 : 2;
	int start = 2 * random_int(0, 3);
	for (int k = 0; k < 8; k += step) {
		Dir d = (Dir)((start + k) % 8);
		Pos q = pos_move(from, d);
		if (!is_safe(q))
			continue;
		if (avoid_knights && enemy_knight_touches(q))
			continue;
		int g = gap(q, to, diagonals);
		if (g < best_gap) {
			best_gap = g;
			best = d;
		}
	}
	return best;
}

static Dir any_safe_step(Pos from)
{
	int start = random_int(0, 3);
	for (int k = 0; k < 4; k++) {
		Dir d = (Dir)(2 * ((start + k) % 4));
		if (is_safe(pos_move(from, d)))
			return d;
	}
	return None;
}

static void order_farmer(Unit u)
{
	if (enemy_knight_touches(u.pos) && u.health < farmers_health()) {
		command(u.id, any_safe_step(u.pos));
		return;
	}
	Pos target = nearest_target(u.pos);
	claim(target);
	Dir d = step_toward(u.pos, target, false, true);
	if (d == None && !pos_eq(target, u.pos))
		d = any_safe_step(u.pos);
	command(u.id, d);
}

static int nearest_enemy_of_type(Pos from, UnitType type)
{
	int best = -1, best_d = FAR_AWAY;
	for (int pl = 0; pl < nb_players(); pl++) {
		if (pl == me())
			continue;
		Ids l = type == Farmer ? farmers(pl) : knights(pl);
		for (int k = 0; k < l.n; k++) {
			int d = chebyshev(from, unit(l.id[k]).pos);
			if (d < best_d) {
				best_d = d;
				best = l.id[k];
			}
		}
	}
	return best;
}

static void order_knight(Unit u)
{
	Dir hit = None;
	int lowest = FAR_AWAY;
	for (int d = 0; d < 8; d++) {
		int id = cell(pos_move(u.pos, (Dir)d)).id;
		if (!is_enemy(id))
			continue;
		Unit v = unit(id);
		if (v.type != Witch && v.health < lowest) {
			lowest = v.health;
			hit = (Dir)d;
		}
	}
	if (hit != None) {
		command(u.id, hit);
		return;
	}
	if (u.health < knights_health() / 3) {
		command(u.id, None);
		return;
	}
	int prey = nearest_enemy_of_type(u.pos, Farmer);
	if (prey < 0)
		prey = nearest_enemy_of_type(u.pos, Knight);
	if (prey < 0) {
		command(u.id, None);
		return;
	}
	command(u.id, step_toward(u.pos, unit(prey).pos, true, false));
}

static bool friend_within(Pos p, int r)
{
	Ids a = farmers(me()), b = knights(me());
	for (int k = 0; k < a.n; k++)
		if (manhattan(p, unit(a.id[k]).pos) <= r)
			return true;
	for (int k = 0; k < b.n; k++)
		if (manhattan(p, unit(b.id[k]).pos) <= r)
			return true;
	return false;
}

static bool witch_within(Pos p, int r, int self)
{
	for (int pl = 0; pl < nb_players(); pl++) {
		Ids w = witches(pl);
		for (int k = 0; k < w.n; k++)
			if (w.id[k] != self && manhattan(p, unit(w.id[k]).pos) <= r)
				return true;
	}
	return false;
}

static void order_witch(Unit u)
{
	int prey = nearest_enemy_of_type(u.pos, Farmer);
	if (prey < 0)
		return;
	Pos goal = unit(prey).pos;
	Dir best = None;
	int best_d = manhattan(u.pos, goal);
	for (int d = 0; d < 8; d += 2) {
		Pos q = pos_move(u.pos, (Dir)d);
		if (!is_open(q) || friend_within(q, 2) || witch_within(q, 2, u.id))
			continue;
		if (manhattan(q, goal) < best_d) {
			best_d = manhattan(q, goal);
			best = (Dir)d;
		}
	}
	command(u.id, best);
}

void play(void)
{
	claim_count = 0;
	Ids f = farmers(me());
	for (int k = 0; k < f.n; k++)
		order_farmer(unit(f.id[k]));
	Ids kn = knights(me());
	for (int k = 0; k < kn.n; k++)
		order_knight(unit(kn.id[k]));
	Ids w = witches(me());
	for (int k = 0; k < w.n; k++)
		order_witch(unit(w.id[k]));
}
