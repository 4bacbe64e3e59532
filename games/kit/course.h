/* course.h - what the course games' headers (dominator.h, ants.h,
 * starwar.h) declare alike, for your player.
 *
 * Your game's header includes this file: include your game's header, never
 * this one (the compile step refuses it).  Your game's page in docs/games/
 * says what its board, positions and players mean; this file only gathers
 * the names every course game gives the same meaning.
 */
#ifndef COURSE_H
#define COURSE_H

#include <stdbool.h>

/* Your player's name: 1 to 12 letters, digits or underscores. */
#define PLAYER_NAME(name) const char player_name[] = #name

/* Yours to define: the game calls it once per round. */
void play(void);

/* A cell of the board: row i, column j; (0, 0) is the top-left corner. */
typedef struct {
	int i, j;
} Pos;

/* A list of ids (units, ants, starships), valid until play() returns. */
typedef struct {
	int n;
	const int *id;
} Ids;

/* ---- the game's parameters and state ------------------------------------- */

int nb_players(void);         /* 4 */
int nb_rounds(void);
int rows(void);
int me(void);                 /* your player number, 0..3 */
int current_round(void);      /* rounds played so far: 0 in the first call */
long long score(int player);  /* total so far */
double status(int player);    /* share of its CPU budget used; -1: frozen */

/* ---- positions ------------------------------------------------------------ */

Pos pos(int i, int j);
bool pos_ok(Pos p);           /* inside the board */
bool pos_eq(Pos a, Pos b);    /* the same cell */

/* ---- debug drawing: marks in the replay, for you and the organisers ------ */

/* colour: 0xRRGGBB.  At most about 1 KB of marks a turn (some 80 dots or
 * 30 short texts): the rest is dropped, and the replay counts it.  Other
 * contestants never see your marks; they cost your CPU time as any code. */
void draw_dot(Pos p, int colour);
void draw_line(Pos from, Pos to, int colour);
void draw_text(Pos p, int colour, const char *text); /* its first 32 characters */

/* ---- random numbers: use these, so that a seed fixes a whole match -------- */

int random_int(int low, int high);          /* uniform in [low, high] */
void random_permutation(int n, int *out);   /* 0..n-1 shuffled into out */

/* ---- the course's C++ names that C already has ---------------------------- */

/* Declared here as <stdlib.h> and <math.h> do, so that the course's
 * random(low, high) and round() are compile errors pointing to these lines
 * (not, without those headers, silent calls of a generator that ignores the
 * match seed, or advice to include <math.h>). */
long random(void); /* takes no bounds: the course's random(low, high) is random_int(low, high) */
double round(double x); /* rounds x: the course's round() is current_round() */

#endif
