/* starwar.h - the Star War game, for your player.
 *
 * Your file AIName.c includes this header (and any standard C header),
 * names its player once with PLAYER_NAME, and defines play(), which the game
 * calls every round:
 *
 *     #include "starwar.h"
 *
 *     PLAYER_NAME(Vader);
 *
 *     void play(void)
 *     {
 *         Ids mine = starships(me());
 *         for (int k = 0; k < mine.n; ++k)
 *             if (starship(mine.id[k]).alive)
 *                 move(mine.id[k], Fast);
 *     }
 *
 * Nothing is rotated: me() is your real player number (0..3), your ships are
 * ids me() * k .. me() * k + k - 1 (k = nb_starships_per_player()), and
 * columns are real universe columns.  The universe is a cylinder: column j
 * and column j + universe_cols() are the same cell, so cell() and pos_eq()
 * accept any column.  In round r (current_round()) the window is columns
 * r .. r + window_cols() - 1; a move is valid only if it ends inside the
 * next round's window (columns r + 1 .. r + window_cols()).  Global
 * variables keep their values from one round to the next.  Print debugging
 * output with printf or fprintf(stderr, ...): it goes to your debug log,
 * never to the game.  docs/games/starwar.md explains the rules and every
 * function.
 */
#ifndef STARWAR_H
#define STARWAR_H

/* PLAYER_NAME, play(), Pos, Ids, nb_players() ... pos_eq(), random_int():
 * what every course game declares alike.  Here a Pos's row is 0 at the
 * top and its column any integer (taken modulo universe_cols()): pos_ok()
 * checks the row only, pos_eq() compares columns modulo. */
#include "course.h"

/* ---- types ---------------------------------------------------------------- */

/* The nine moves: the row changes by -1 (Up), 0 or +1 (Down), the column by
 * 0 (Slow), +1 or +2 (Fast).  Default is (0, +1), what a ship does when it
 * is given nothing to do.  dir_di()/dir_dj() give the two steps. */
typedef enum {
	SlowUp, Up, FastUp,       /* row - 1, column + 0, + 1, + 2 */
	Slow, Default, Fast,      /* row + 0 */
	SlowDown, Down, FastDown  /* row + 1 */
} Dir;

/* What a cell holds: one thing at most. */
typedef enum { Empty, Asteroid, PointBonus, MissileBonus, Starship, Missile } CellType;

typedef struct {
	CellType type;
	int sid; /* the starship on it (type Starship), else -1 */
} Cell;

typedef struct {
	int sid;      /* its id, or -1 when sid names no starship */
	int player;   /* its owner: sid / nb_starships_per_player() */
	Pos pos;      /* where it is (or was, when dead); column in 0..cols-1 */
	int missiles; /* missiles in stock */
	bool alive;
	int wait;     /* dead: rounds still to wait before it may regenerate */
} Ship;

/* ---- the game's parameters ----------------------------------------------- */

/* rows(): of the universe and of the window */
int universe_cols(void);
int window_cols(void);
int nb_starships_per_player(void);
int nb_starships(void);               /* all players' */
int rounds_to_regenerate(void);
int nb_missile_bonuses(void);
int nb_point_bonuses(void);
int bonus_missiles(void);             /* missiles a missile bonus gives */
int bonus_points(void);               /* points a point bonus gives */
int kill_points(void);                /* points for killing another's ship */
int initial_missiles(void);           /* each ship's stock at the start */

/* ---- the state of the game ----------------------------------------------- */

int window_start(void);         /* leftmost column of this round's window */
bool in_window(Pos p, int r);   /* p's column is inside round r's window */
Cell cell(Pos p);               /* rows outside 0..rows()-1 read as Asteroid */
Ship starship(int sid);
Ids starships(int player);      /* all its ship ids, dead ones too */

/* ---- positions and moves ------------------------------------------------- */

Pos pos_add(Pos p, Dir d);      /* where move d from p ends */
int dir_di(Dir d);              /* -1, 0 or +1 */
int dir_dj(Dir d);              /* 0, 1 or 2 */
Dir dir(int di, int dj);        /* the move with these steps (clamped) */

/* ---- your orders ---------------------------------------------------------- */

/* Moves starship sid by d, or shoots a missile from it (which flies two
 * columns at once; the ship then makes its default move).  Only the first
 * order a ship gets in a round counts; an invalid one (leaving the next
 * window or the rows, shooting with no missiles) is ignored and the ship
 * moves by default.  More than 1000 orders in one round abort your player
 * for the rest of the game. */
void move(int sid, Dir d);
void shoot(int sid);

#endif
