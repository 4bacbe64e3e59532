/* engine.h - what the files of AIC2018's engine share (game.c: the
 * struct game glue and orders; view.c: each step's view). */
#ifndef AIC_ENGINE_H
#define AIC_ENGINE_H

#include <jansson.h>
#include <stdbool.h>

#include "games/aic2018/proto.h"
#include "games/aic2018/replay.h"
#include "games/aic2018/world.h"

struct game_state {
	struct aic_world w;
	struct aic_world scratch;   /* a team's view, built in place */
	struct aic_step step;
	uint8_t kept[AIC_MAX_UNITS]; /* view.c's marks, all 0 between views */
	struct aic_replay replay;
	int acting;                 /* the slot the current step starts with, or -1 */
	bool frozen[AIC_TEAMS];
	int steps_fed;              /* steps of this round taken so far */
	json_t *steps;              /* this round's accepted orders, replay form */
	/* The team's first unit that died by its own fault in the step just
	 * taken (0: none), and why (enum aic_death). */
	int faulted_unit[AIC_TEAMS], faulted_why[AIC_TEAMS];
};

/* view.c: encodes the view of the team of g->acting (its units from the
 * acting one up to the first enemy, the next spawn ids, and the world
 * without what the team may not know); the length, 0 if cap is short. */
size_t aic_step_view(struct game_state *g, uint8_t *buf, size_t cap);

#endif
