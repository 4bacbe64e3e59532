/* Demo: a simple player to learn the API from.  Farmers wander towards
 * cells that are not ours yet, knights attack whatever enemy stands next
 * to them, witches wander. */
#include "dominator.h"

PLAYER_NAME(Demo);

/* A cell a unit may step on: on the board, no wall, nobody there. */
static bool free_cell(Pos p)
{
	Cell c = cell(p);
	return c.type == Empty && c.id == -1;
}

static void move_farmer(int id)
{
	Pos p = unit(id).pos;
	Dir best = None;
	for (int tries = 0; tries < 4; ++tries) {
		Dir d = (Dir)(2 * random_int(0, 3)); /* Bottom, Right, Top or Left */
		Pos q = pos_move(p, d);
		if (!free_cell(q) || cell(q).haunted)
			continue;
		best = d;
		if (cell(q).owner != me())
			break;
	}
	command(id, best);
}

static void move_knight(int id)
{
	Pos p = unit(id).pos;
	for (int d = 0; d < 8; ++d) {
		Cell c = cell(pos_move(p, (Dir)d));
		if (c.id != -1 && unit(c.id).player != me() && unit(c.id).type != Witch) {
			command(id, (Dir)d);
			return;
		}
	}
	Dir d = (Dir)random_int(0, 7);
	Pos q = pos_move(p, d);
	command(id, free_cell(q) && !cell(q).haunted ? d : None);
}

static void move_witch(int id)
{
	Dir d = (Dir)(2 * random_int(0, 3));
	command(id, free_cell(pos_move(unit(id).pos, d)) ? d : None);
}

void play(void)
{
	Ids f = farmers(me()), k = knights(me()), w = witches(me());
	for (int i = 0; i < f.n; ++i)
		move_farmer(f.id[i]);
	for (int i = 0; i < k.n; ++i)
		move_knight(k.id[i]);
	for (int i = 0; i < w.n; ++i)
		move_witch(w.id[i]);
}
