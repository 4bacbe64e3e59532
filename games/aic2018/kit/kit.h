/* kit.h - what the AIC2018 kit's files share (runtime.c: the scheduler;
 * api.c: the uc_* calls).  Never seen by a player: the kit's archive
 * keeps only the API's names global. */
#ifndef AIC_KIT_H
#define AIC_KIT_H

#include <stdbool.h>

#include "games/aic2018/proto.h"
#include "games/aic2018/world.h"

struct kit {
	int team;
	int slot;             /* the unit running now, -1 between units */
	struct aic_world w;   /* this step's copy of the world */
	struct aic_step step;
};

extern struct kit kit;

/* The running unit. */
struct aic_unit *kit_me(void);
/* Notes the reason of a failed call; false. */
bool kit_fail(int error);
/* Notes error (AIC_OK: none); true when AIC_OK. */
bool kit_check(int error);
/* The unit may still record an action this turn (AIC_MAX_ACTIONS). */
bool kit_room(void);
/* When error is AIC_OK, records the action for the judge; true then. */
bool kit_record(int error, int kind, int a, int b);
/* The id of the next spawn (the judge's), 0 when none is left. */
int kit_take_id(void);
/* Touches every page of the team array once, at the start, so no unit's
 * turn pays the first touch in CPU time (energy.h's watch). */
void kit_touch_team_array(void);
/* A unit spawned this step (by id): it runs this step too. */
void kit_spawned(int id);

#endif
