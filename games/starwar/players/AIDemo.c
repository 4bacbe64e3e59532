/* Demo: a simple player to learn the API from.  Each live ship shoots at an
 * enemy ship a few cells straight ahead, and otherwise picks the move that
 * keeps it clear of asteroids, ships and missiles, preferring bonuses (point
 * bonuses first) and open space ahead. */
#include "starwar.h"

PLAYER_NAME(Demo);

/* The cells move d from p passes through, destination last (the rules'
 * order); returns how many. */
static int passed(Pos p, Dir d, Pos out[5])
{
	int di = dir_di(d), dj = dir_dj(d), n = 0;
	if (di != 0 && dj == 1) {
		out[n++] = pos(p.i, p.j + 1);
		out[n++] = pos(p.i + di, p.j);
	} else if (di == 0 && dj == 2) {
		out[n++] = pos(p.i, p.j + 1);
	} else if (di != 0 && dj == 2) {
		out[n++] = pos(p.i, p.j + 1);
		out[n++] = pos(p.i + di, p.j);
		out[n++] = pos(p.i + di, p.j + 1);
		out[n++] = pos(p.i, p.j + 2);
	}
	out[n++] = pos_add(p, d);
	return n;
}

/* A missile is at q now, or will be after the missiles' step: it flies two
 * columns at the start of this round and two more at the start of the next,
 * so a ship must not pass or end where it will be. */
static bool missile_near(Pos q)
{
	for (int back = 1; back <= 4; ++back)
		if (cell(pos(q.i, q.j - back)).type == Missile)
			return true;
	return cell(q).type == Missile;
}

/* Worth of move d for ship at p, or -1 when it is dangerous or invalid. */
static int worth(Pos p, Dir d, int sid)
{
	Pos q = pos_add(p, d);
	if (!pos_ok(q) || !in_window(q, current_round() + 1))
		return -1;
	Pos cells[5];
	int n = passed(p, d, cells), value = 0;
	for (int k = 0; k < n; ++k) {
		Cell c = cell(cells[k]);
		if (c.type == Asteroid || c.type == Missile || missile_near(cells[k]))
			return -1;
		if (c.type == Starship && c.sid != sid)
			return -1;
		if (c.type == PointBonus)
			value += 100;
		if (c.type == MissileBonus)
			value += 60;
	}
	/* Open space straight ahead of the destination. */
	for (int k = 1; k <= 4; ++k) {
		CellType t = cell(pos(q.i, q.j + k)).type;
		if (t == Asteroid || t == Starship || t == Missile)
			break;
		value += 5;
	}
	return value + random_int(0, 3);
}

/* An enemy ship straight ahead within reach, with nothing in between. */
static bool target_ahead(Pos p)
{
	for (int k = 1; k <= 6; ++k) {
		Cell c = cell(pos(p.i, p.j + k));
		if (c.type == Starship)
			return starship(c.sid).player != me();
		if (c.type != Empty)
			return false;
	}
	return false;
}

static void command_ship(int sid)
{
	Ship s = starship(sid);
	if (s.missiles > 0 && target_ahead(s.pos)) {
		shoot(sid);
		return;
	}
	int best = -1;
	Dir best_dir = Default;
	for (int d = SlowUp; d <= FastDown; ++d) {
		int w = worth(s.pos, (Dir)d, sid);
		if (w > best) {
			best = w;
			best_dir = (Dir)d;
		}
	}
	/* Nothing safe: blast whatever blocks the way, if we can. */
	if (best < 0 && s.missiles > 0 && cell(pos(s.pos.i, s.pos.j + 1)).type == Asteroid)
		shoot(sid);
	else
		move(sid, best_dir);
}

void play(void)
{
	Ids mine = starships(me());
	for (int k = 0; k < mine.n; ++k)
		if (starship(mine.id[k]).alive)
			command_ship(mine.id[k]);
}
