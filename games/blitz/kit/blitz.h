/* blitz.h - the Blitz2018 game (Halite I with fog of war), for your player.
 *
 * Your file AIName.c includes this header (and any standard C header),
 * names its player once with PLAYER_NAME, and defines play(), which the
 * game calls every turn; it may also define init(), called once with the
 * first map before the first play():
 *
 *     #include "blitz.h"
 *
 *     PLAYER_NAME(Sauron);
 *
 *     void play(void)
 *     {
 *         for (int y = 0; y < map_height(); ++y)
 *             for (int x = 0; x < map_width(); ++x) {
 *                 Location l = location(x, y);
 *                 if (get_site(l).owner == my_tag() && get_site(l).strength > 50)
 *                     set_move(l, NORTH);
 *             }
 *     }
 *
 * The map wraps at every edge; (0, 0) is its north-west corner, NORTH is
 * y - 1, EAST is x + 1.  Players are tagged 1..nb_players(); owner 0 is
 * the map.  Under the fog you see your own sites and those within
 * fog_radius() of one of them: every other site reads owner 0, strength 0,
 * production 0.  Global variables keep their values from one turn to the
 * next.  Print debugging output with printf or fprintf(stderr, ...): it
 * goes to your debug log, never to the game.  docs/games/blitz.md explains
 * the rules and every function.
 */
#ifndef BLITZ_H
#define BLITZ_H

#include <stdbool.h>

/* Your player's name: 1 to 12 letters, digits or underscores. */
#define PLAYER_NAME(name) const char player_name[] = #name

void play(void);
void init(void); /* optional */

typedef enum { STILL, NORTH, EAST, SOUTH, WEST } Direction;

typedef struct {
	int x, y; /* 0 <= x < map_width(), 0 <= y < map_height() */
} Location;

typedef struct {
	int owner;      /* 0: the map, else a player's tag */
	int strength;   /* 0..255 */
	int production; /* what a piece staying here gains each turn */
} Site;

/* ---- the game ------------------------------------------------------------- */

int my_tag(void);       /* your tag, 1..nb_players() */
int nb_players(void);   /* 2..6 */
int map_width(void);
int map_height(void);
int max_turns(void);    /* the game ends after this many turns at most */
int current_turn(void); /* turns played so far: 0 in init() and the first play() */
int fog_radius(void);   /* 0: no fog */

/* ---- the map -------------------------------------------------------------- */

Location location(int x, int y);               /* wrapped onto the map */
Location get_location(Location l, Direction d); /* one step away, wrapping */
Site get_site(Location l);
Site get_site_at(Location l, Direction d);      /* get_site(get_location(l, d)) */
bool in_sight(Location l);   /* outside the fog this turn */
int get_distance(Location a, Location b);       /* steps, the map wrapping */
double get_angle(Location a, Location b);       /* radians, 0 east, pi/2 south */
bool same_location(Location a, Location b);

/* ---- your moves ----------------------------------------------------------- */

/* Moves your piece at l in direction d this turn (the last call for a site
 * counts).  A piece given no move stays STILL; a move for a site you do
 * not own is ignored. */
void set_move(Location l, Direction d);

/* ---- debug drawing: marks in the replay, for you and the organisers ------ */

/* colour: 0xRRGGBB.  At most about 1 KB of marks a turn (some 80 dots or
 * 30 short texts): the rest is dropped, and the replay counts it.  Other
 * contestants never see your marks; they cost your CPU time as any code. */
void draw_dot(Location l, int colour);
void draw_line(Location from, Location to, int colour);
void draw_text(Location l, int colour, const char *text); /* its first 32 characters */

/* ---- random numbers: use these, so that a seed fixes a whole match -------- */

int random_int(int low, int high); /* uniform in [low, high] */

#endif
