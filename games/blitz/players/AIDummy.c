/* Dummy: a sparring partner clearly stronger than Demo.
 *
 * A piece on the border takes, among the neighbouring sites it is strong
 * enough to take now, the one worth most: the map's sites by the
 * production of the area around them per strength squared (cheap sites
 * first: early on, many sites soon beat a few rich ones), enemy sites and
 * the empty sites next to them by the damage a piece arriving there deals
 * (overkill).  Next to an enemy it holds the line rather than leave a
 * 0-strength piece behind for a mere map site.  A piece inside our
 * territory waits until it has grown several turns' production, then
 * walks to the front: the nearest enemy when one is close, else the
 * nearest border, never wasting strength above 255 by merging. */
#include <string.h>

#include "blitz.h"

PLAYER_NAME(Dummy);

#define WAIT_TURNS 5  /* an inner piece moves after this many turns' growth */
#define FRONT_REACH 8 /* an enemy this close draws the inner pieces */
#define FAR 1000000
#define MAX_SITES (64 * 64)

static int to_border[MAX_SITES], to_enemy[MAX_SITES];
static int queue[MAX_SITES];

static bool mine(Site s)
{
	return s.owner == my_tag();
}

static bool enemy(Site s)
{
	return s.owner != 0 && !mine(s);
}

static int index_of(Location l)
{
	return l.y * map_width() + l.x;
}

static Location at(int i)
{
	return location(i % map_width(), i / map_width());
}

/* Damage a piece arriving at l would deal to enemy pieces there and around. */
static int overkill(Location l)
{
	int total = 0;
	for (Direction d = STILL; d <= WEST; ++d)
		if (enemy(get_site_at(l, d)))
			total += get_site_at(l, d).strength;
	return total;
}

static bool near_enemy(Location l)
{
	for (Direction d = STILL; d <= WEST; ++d)
		if (enemy(get_site_at(l, d)))
			return true;
	return false;
}

/* Production per strength squared of the map's sites on l and around it
 * (within 2 steps, the nearer weighing more): a site in a rich, weak area
 * is worth more than a lone good one. */
static double area_ratio(Location l)
{
	double production = 0, strength = 1;
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) {
			int far = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
			Location q = location(l.x + dx, l.y + dy);
			Site s = get_site(q);
			if (far > 2 || s.owner != 0 || !in_sight(q))
				continue;
			double weight = far == 0 ? 3 : far == 1 ? 2 : 1;
			production += weight * s.production;
			strength += weight * s.strength;
		}
	return production / strength / strength * 100;
}

/* How much a site is worth taking. */
static double worth(Location l)
{
	Site s = get_site(l);
	int damage = overkill(l);
	if (s.owner == 0 && s.strength > 0)
		return area_ratio(l) + (damage ? 10.0 + damage : 0);
	return s.production + 10.0 + damage;
}

/* Steps through our territory to the nearest site that is not ours
 * (front: one next to an enemy), breadth first from those sites. */
static void distances(int *dist, bool front)
{
	int sites = map_width() * map_height(), head = 0, tail = 0;
	for (int i = 0; i < sites; i++) {
		dist[i] = FAR;
		Location l = at(i);
		if (!mine(get_site(l)) && (!front || near_enemy(l))) {
			dist[i] = 0;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		int i = queue[head++];
		for (Direction d = NORTH; d <= WEST; ++d) {
			int j = index_of(get_location(at(i), d));
			if (dist[j] == FAR && mine(get_site(at(j)))) {
				dist[j] = dist[i] + 1;
				queue[tail++] = j;
			}
		}
	}
}

/* The step downhill in dist, or STILL. */
static Direction downhill(Location l, const int *dist)
{
	Direction best = STILL;
	int best_dist = dist[index_of(l)];
	for (Direction d = NORTH; d <= WEST; ++d) {
		int j = index_of(get_location(l, d));
		if (dist[j] < best_dist) {
			best_dist = dist[j];
			best = d;
		}
	}
	return best;
}

/* The site worth most among those this piece takes now; none: it waits. */
static void move_border_piece(Location l, Site here)
{
	Direction target = STILL;
	double target_worth = -1;
	for (Direction d = NORTH; d <= WEST; ++d) {
		Location q = get_location(l, d);
		Site t = get_site(q);
		if (mine(t) || here.strength <= t.strength)
			continue;
		/* Next to an enemy, leaving a 0-strength piece behind for a
		 * mere map site opens the way in: hold the line instead. */
		if (near_enemy(l) && !enemy(t) && overkill(q) == 0)
			continue;
		double w = worth(q);
		if (w > target_worth) {
			target_worth = w;
			target = d;
		}
	}
	if (target != STILL)
		set_move(l, target);
}

static void move_piece(Location l)
{
	Site here = get_site(l);
	int i = index_of(l);
	if (to_border[i] == 1) {
		move_border_piece(l, here);
		return;
	}
	if (here.strength < WAIT_TURNS * here.production || here.strength == 0)
		return;
	Direction d = downhill(l, to_enemy[i] <= FRONT_REACH ? to_enemy : to_border);
	if (d != STILL && here.strength + get_site_at(l, d).strength <= 255 + 30)
		set_move(l, d);
}

void play(void)
{
	distances(to_border, false);
	distances(to_enemy, true);
	for (int y = 0; y < map_height(); ++y)
		for (int x = 0; x < map_width(); ++x)
			if (mine(get_site(location(x, y))))
				move_piece(location(x, y));
}
