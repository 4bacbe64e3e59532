/* starwar.c - the Star War figures of the fidelity benchmark. */
#include "bench/fidelity/starwar.h"

#include "games/starwar/sw.h"

int fidelity_starwar_asteroids(const struct game_state *g)
{
	int rocks = 0;
	for (int i = 0; i < g->p.rows * g->p.cols; i++)
		rocks += g->kind[i] == SW_ASTEROID;
	return rocks;
}

void fidelity_starwar_figures(const struct game_state *g, struct fidelity_starwar *f)
{
	double total = 0;
	for (int p = 0; p < SW_PLAYERS; p++)
		total += (double)g->score[p];
	f->mean_score = total / SW_PLAYERS;
	f->point_bonuses = (double)g->taken[SW_POINT_BONUS];
	f->missile_bonuses = (double)g->taken[SW_MISSILE_BONUS];
	f->deaths = (double)g->deaths;
}
