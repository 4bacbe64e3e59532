/* starwar.h - what the fidelity benchmark counts in a Star War match.
 *
 * Each engine names its state struct game_state, so one file sees one
 * engine's: bench/fidelity.c reads Dominator's, this part Star War's.
 */
#ifndef BENCH_FIDELITY_STARWAR_H
#define BENCH_FIDELITY_STARWAR_H

#include "games/game.h"

/* Star War's table, as games/starwar/sw.h declares it. */
extern const struct game starwar_game;

/* A whole match's figures, as the original's were measured. */
struct fidelity_starwar {
	double mean_score;    /* per player */
	double point_bonuses; /* bonuses taken in the match */
	double missile_bonuses;
	double deaths;        /* ships killed in the match */
};

/* g's asteroids now (call it before the first round). */
int fidelity_starwar_asteroids(const struct game_state *g);
/* The rest of the figures of g, a match played to its end. */
void fidelity_starwar_figures(const struct game_state *g, struct fidelity_starwar *f);

#endif
