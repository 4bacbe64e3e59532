/* Demo: a simple player to learn the API from.  Each piece grows STILL
 * until it is strong enough, then takes the weakest site around it that is
 * not ours; a piece with only our sites around wanders north or west once
 * it has grown a while. */
#include "blitz.h"

PLAYER_NAME(Demo);

static void move_piece(Location l)
{
	Site here = get_site(l);
	Direction weakest = STILL;
	int weakest_strength = 256;
	for (Direction d = NORTH; d <= WEST; ++d) {
		Site s = get_site_at(l, d);
		if (s.owner != my_tag() && s.strength < weakest_strength) {
			weakest = d;
			weakest_strength = s.strength;
		}
	}
	if (weakest != STILL && here.strength > weakest_strength)
		set_move(l, weakest);
	else if (weakest == STILL && here.strength >= 5 * here.production + 5)
		set_move(l, random_int(0, 1) ? NORTH : WEST);
}

void play(void)
{
	for (int y = 0; y < map_height(); ++y)
		for (int x = 0; x < map_width(); ++x)
			if (get_site(location(x, y)).owner == my_tag())
				move_piece(location(x, y));
}
