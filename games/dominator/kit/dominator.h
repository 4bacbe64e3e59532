/* dominator.h - the Dominator game, for your player.
 *
 * Your file AIName.c includes this header (and any standard C header),
 * names its player once with PLAYER_NAME, and defines play(), which the game
 * calls every round:
 *
 *     #include "dominator.h"
 *
 *     PLAYER_NAME(Sauron);
 *
 *     void play(void)
 *     {
 *         Ids mine = farmers(me());
 *         for (int k = 0; k < mine.n; ++k)
 *             command(mine.id[k], Right);
 *     }
 *
 * You are always player 0: the board is rotated so that your box is the
 * top-left one, and your orders are turned back for you.  Global variables
 * keep their values from one round to the next.  Print debugging output
 * with printf or fprintf(stderr, ...): it goes to your debug log, never to
 * the game.  docs/games/dominator.md explains the rules and every function.
 */
#ifndef DOMINATOR_H
#define DOMINATOR_H

/* PLAYER_NAME, play(), Pos, Ids, nb_players() ... pos_eq(), random_int():
 * what every course game declares alike. */
#include "course.h"

/* ---- types ---------------------------------------------------------------- */

/* The nine directions; Bottom is row + 1, Right is column + 1.  The numbers
 * go round the compass, so (d + 2) % 8 is a quarter turn. */
typedef enum { Bottom, BR, Right, RT, Top, TL, Left, LB, None } Dir;

typedef enum { Farmer, Knight, Witch } UnitType;

typedef enum { Empty, Wall } CellType;

typedef struct {
	CellType type;
	int owner;    /* the player whose colour it has, or -1 */
	int id;       /* the unit on it, or -1 */
	bool haunted; /* within reach of an active witch */
} Cell;

typedef struct {
	UnitType type;
	int id;
	int player;
	int health; /* 0 for witches, which never die */
	Pos pos;
} Unit;

/* ---- the game's parameters ----------------------------------------------- */

int cols(void);
int nb_farmers(void);   /* per player, at the start */
int nb_knights(void);
int nb_witches(void);
int farmers_health(void);
int knights_health(void);
int farmers_regen(void);
int knights_regen(void);
int damage_min(void);
int damage_max(void);

/* ---- the state of the game ----------------------------------------------- */

Cell cell(Pos p);         /* p must be on the board (pos_ok) */
Unit unit(int id);        /* id of a unit on the board */
Ids farmers(int player);
Ids knights(int player);
Ids witches(int player);
int land(int player);         /* cells of its colour now */

/* ---- positions ------------------------------------------------------------ */

Pos pos_move(Pos p, Dir d);    /* the neighbour of p in direction d */

/* ---- your orders ---------------------------------------------------------- */

/* Moves (or, for a knight onto an enemy, attacks) unit id in direction d.
 * Only the first order a unit gets in a round counts.  More than 1000
 * orders in one round abort your player for the rest of the game. */
void command(int id, Dir d);

#endif
