/* bracket.h - single and double elimination brackets for two-player games
 * (AIC2018's finals, as Battlecode's), as a pure function.
 *
 * The shape.  Entrants come seeded, best first (from the phase before),
 * and are placed as usual brackets place them, so seeds 1 and 2 can meet
 * only in the final; missing entrants up to the next power of two are
 * byes, which the best seeds meet and pass without playing.  Each series
 * is best of `best_of` games (drawn games count for nobody; after twice
 * best_of games without a winner, the better seed goes on).  In a double
 * elimination bracket a loser of the winners' bracket drops into the
 * losers' bracket (the drops of each round in reverse order, so two
 * players meet again as late as possible); a loss there is the second and
 * last.  The grand final sets the winners' bracket champion against the
 * losers'; with `reset`, a win of the losers' champion forces a second
 * grand final, since both then have one loss.
 *
 * Promises.  brk_plan() reads only its arguments (rules, entrants, the
 * phase's seed, the games recorded so far, in any order) and says which
 * games can be played now (every series whose two players are known, as
 * many games as could decide it, each with its seed and seat order), who
 * each entrant is eliminated by and, when the bracket is over, every
 * entrant's place: 1 + the number of entrants who lasted longer, so
 * entrants out in the same round share a place (13th-16th...).  Series
 * have stable ids: the same entrants and rules give the same ids.
 */
#ifndef JUDGE_BRACKET_H
#define JUDGE_BRACKET_H

#include <stdbool.h>
#include <stdint.h>
#include "judge/base/error.h"

#define BRK_BYE 0 /* entrants are > 0 */
#define BRK_MAX 256

struct brk_rules {
	bool double_elim;
	int best_of; /* odd, 1 or more */
	bool reset;  /* double elimination: a second grand final when needed */
};

/* A recorded game: its series, and who won it (BRK_BYE: a draw). */
struct brk_game {
	int series;
	int game;
	int64_t winner;
};

/* A game to play: seat 0 is `first`, seat 1 `second`. */
struct brk_todo {
	int series, game;
	char bracket; /* 'W' winners', 'L' losers', 'F' grand final, 'R' its reset */
	int round;    /* 1-based within its bracket */
	int64_t first, second;
	uint64_t seed;
};

/* A series as the record stands, for showing the bracket: its players
 * (BRK_BYE a bye, BRK_UNKNOWN not known yet), the games each has won, and
 * its winner (BRK_UNKNOWN until decided). */
#define BRK_UNKNOWN (-1)
struct brk_series {
	char bracket; /* as brk_todo's */
	int round;
	int64_t player[2];
	int wins[2], played;
	int64_t winner;
	bool skipped; /* a reset that was not needed */
};

struct brk_plan {
	struct brk_todo *todo;
	int ntodo;
	struct brk_series *series; /* every series, by id */
	int nseries;
	bool done;
	int *place; /* per entrant, in the caller's order; 0 until done */
	int64_t champion;
};

/* 0 with plan filled (brk_plan_free), or -1 with err: bad rules, fewer
 * than two or more than BRK_MAX entrants, an entrant twice, a game of no
 * series, or a winner who did not play it. */
int brk_plan(const struct brk_rules *rules, const int64_t *entrants, int n, uint64_t seed,
	     const struct brk_game *games, int ngames, struct brk_plan *plan,
	     err_t err);
void brk_plan_free(struct brk_plan *plan);

#endif
