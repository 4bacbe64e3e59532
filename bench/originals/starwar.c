/* The original Star War engine's Demo player (GonMolon/StarWar, AIDemo.cc),
 * its logic written again for this kit, so that bench/fidelity.c compares
 * both engines with the same players.  Each live ship: with missiles and
 * an enemy ship on the next cell, it shoots; otherwise it moves onto a bonus
 * that one move reaches (trying the moves in the original's order), and
 * failing that, away from the top and bottom rows, makes a random move
 * when it stays in the next window; on those rows it is left to the
 * default move. */
#include "starwar.h"

PLAYER_NAME(Demo);

/* The original's order of the nine moves. */
static const Dir original_order[9] = { Up, Default, Down, SlowUp, Slow, SlowDown,
				       FastUp, Fast, FastDown };

static bool reachable(Pos p, Dir d)
{
	Pos q = pos_add(p, d);
	return pos_ok(q) && in_window(q, current_round() + 1);
}

static bool move_to_bonus(int sid, Pos p)
{
	for (int k = 0; k < 9; ++k) {
		Dir d = original_order[k];
		if (!reachable(p, d))
			continue;
		CellType t = cell(pos_add(p, d)).type;
		if (t == PointBonus || t == MissileBonus) {
			move(sid, d);
			return true;
		}
	}
	return false;
}

static void command_ship(int sid)
{
	Ship s = starship(sid);
	Cell ahead = cell(pos_add(s.pos, Default));
	if (s.missiles > 0 && ahead.type == Starship) {
		if (starship(ahead.sid).player != me())
			shoot(sid);
		return;
	}
	if (move_to_bonus(sid, s.pos) || s.pos.i == 0 || s.pos.i == rows() - 1)
		return;
	Dir d = original_order[random_int(0, 8)];
	if (reachable(s.pos, d))
		move(sid, d);
}

void play(void)
{
	Ids mine = starships(me());
	for (int k = 0; k < mine.n; ++k)
		if (starship(mine.id[k]).alive)
			command_ship(mine.id[k]);
}
