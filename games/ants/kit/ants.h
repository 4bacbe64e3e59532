/* ants.h - the Ants game, for your player.
 *
 * Your file AIName.c includes this header (and any standard C header),
 * names its player once with PLAYER_NAME, and defines play(), which the game
 * calls every round:
 *
 *     #include "ants.h"
 *
 *     PLAYER_NAME(Formica);
 *
 *     void play(void)
 *     {
 *         Ids mine = workers(me());
 *         for (int k = 0; k < mine.n; ++k)
 *             move(mine.id[k], Down);
 *     }
 *
 * Ants is not rotated: every colony starts in its own corner (player 0
 * top-left, 1 top-right, 2 bottom-right, 3 bottom-left), positions are real
 * board positions and me() tells you which player you are.  Global
 * variables keep their values from one round to the next.  Print debugging
 * output with printf or fprintf(stderr, ...): it goes to your debug log,
 * never to the game.  docs/games/ants.md explains the rules and every
 * function.
 */
#ifndef ANTS_KIT_H
#define ANTS_KIT_H

/* PLAYER_NAME, play(), Pos, Ids, nb_players() ... pos_eq(), random_int():
 * what every course game declares alike. */
#include "course.h"

/* ---- types ---------------------------------------------------------------- */

/* The four directions; Down is row + 1, Right is column + 1. */
typedef enum { Down, Right, Up, Left } Dir;

/* In a fight the lower type wins: a queen beats a soldier, a soldier beats
 * a worker; two ants of the same type both die. */
typedef enum { Queen, Soldier, Worker } AntType;

typedef enum { Bread, Seed, Leaf, NoBonus } BonusType;

typedef enum { Carbo, Prote, Lipid } Nutrient;

typedef enum { Soil, Water } CellType;

typedef struct {
	CellType type;
	int id;          /* the ant on it, or -1 */
	BonusType bonus; /* the food on it, or NoBonus */
} Cell;

typedef struct {
	int id; /* -1 when there is no such ant */
	AntType type;
	int player;
	Pos pos;
	int life;        /* rounds left */
	int reserve[3];  /* a queen's nutrients, by Nutrient; 0 for others */
	BonusType bonus; /* the food a worker carries, or NoBonus */
} Ant;

/* ---- the game's parameters ----------------------------------------------- */

int cols(void);
int queen_period(void);   /* queens move only in rounds multiple of this */
int needed(AntType t, Nutrient n);        /* to lay an egg of Soldier or Worker */
int nutrients(BonusType b, Nutrient n);   /* in a bonus of food */
int nb_ini_soldiers(void);
int nb_ini_workers(void);
int bonus_rows(void);
int bonus_cols(void);
int bonus_period(void);   /* food appears every bonus_period() rounds */
int worker_life(void);
int soldier_life(void);
int queen_life(void);

/* ---- the state of the game ----------------------------------------------- */

Cell cell(Pos p);             /* off the board: Water */
Ant ant(int id);              /* an ant on the board (else its id is -1) */
Ids queens(int player);
Ids soldiers(int player);
Ids workers(int player);
int colony_size(int player);  /* ants of the colony now */
/* Whether queen id has the nutrients for an egg of type t. */
bool can_lay(int id, AntType t);
/* Whether queens may move in the current round. */
bool queens_move_now(void);

/* ---- positions ------------------------------------------------------------ */

Pos pos_move(Pos p, Dir d);    /* the neighbour of p in direction d */

/* ---- your orders ---------------------------------------------------------- */

/* One order per ant and round: only the first one an ant gets counts.
 * More than 1000 orders in one round abort your player for the rest of the
 * game.  Moving onto another ant attacks it, even one of your own colony. */
void move(int id, Dir d);            /* queens only when queens_move_now() */
void take(int id);                   /* a worker picks up the food under it */
void leave(int id);                  /* a worker drops its food (cell w/o food) */
void lay(int id, Dir d, AntType t);  /* a queen lays a Soldier or Worker egg */

#endif
