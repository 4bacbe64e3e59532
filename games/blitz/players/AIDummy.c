/* Dummy: a sparring partner clearly stronger than Demo.
 *
 * A piece on the border attacks the neighbouring site worth most (the
 * map's sites by production per strength, enemy sites and the empty sites
 * next to them by the damage it would deal there: overkill) as soon as it
 * can take it.  A piece inside our territory waits until it has grown
 * several turns' production, then walks to the nearest border, never
 * wasting strength above 255 by merging into a strong piece. */
#include "blitz.h"

PLAYER_NAME(Dummy);

#define WAIT_TURNS 5 /* an inner piece moves after this many turns' growth */

static bool mine(Site s)
{
	return s.owner == my_tag();
}

/* Damage a piece arriving at l would deal to enemy pieces there and around. */
static int overkill(Location l)
{
	int total = 0;
	for (Direction d = STILL; d <= WEST; ++d) {
		Site s = get_site_at(l, d);
		if (s.owner != 0 && !mine(s))
			total += s.strength;
	}
	return total;
}

/* How much a site is worth taking; the map's sites by production per
 * strength, sites where enemies would be hurt by the damage done. */
static double worth(Location l)
{
	Site s = get_site(l);
	int damage = overkill(l);
	if (s.owner == 0 && s.strength > 0)
		return (double)s.production / s.strength + (damage ? 10.0 + damage : 0);
	return s.production + 10.0 + damage;
}

/* The direction of the nearest site that is not ours, looking straight. */
static Direction towards_border(Location l)
{
	Direction best = NORTH;
	int best_steps = map_width() + map_height();
	for (Direction d = NORTH; d <= WEST; ++d) {
		Location q = l;
		int limit = (d == NORTH || d == SOUTH ? map_height() : map_width()) / 2, steps = 0;
		while (steps < limit && mine(get_site(q))) {
			q = get_location(q, d);
			steps++;
		}
		if (steps < best_steps) {
			best_steps = steps;
			best = d;
		}
	}
	return best;
}

static void move_piece(Location l)
{
	Site here = get_site(l);
	Direction target = STILL;
	double target_worth = -1;
	for (Direction d = NORTH; d <= WEST; ++d) {
		Location q = get_location(l, d);
		if (mine(get_site(q)))
			continue;
		double w = worth(q);
		if (w > target_worth) {
			target_worth = w;
			target = d;
		}
	}
	if (target != STILL) {
		Site t = get_site_at(l, target);
		if (here.strength > t.strength || (t.owner != 0 && here.strength > 0))
			set_move(l, target);
		return;
	}
	if (here.strength < WAIT_TURNS * here.production || here.strength == 0)
		return;
	Direction d = towards_border(l);
	if (here.strength + get_site_at(l, d).strength <= 255 + 30)
		set_move(l, d);
}

void play(void)
{
	for (int y = 0; y < map_height(); ++y)
		for (int x = 0; x < map_width(); ++x)
			if (mine(get_site(location(x, y))))
				move_piece(location(x, y));
}
