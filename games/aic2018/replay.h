/* replay.h - AIC2018's replay: the world's first state, then each round's
 * changes, as compact JSON (games/aic2018/engine/replay.c; engine side
 * only, the kit does not link it).
 *
 * Header: {"width", "height", "symmetry", "rounds", "terrain": one
 * character per cell row by row ('.' land, '~' water, 'O' oak),
 * "oak_hp": [hp of each oak in the terrain's order], "units": [[id, team,
 * type, x, y, hp, level, construction], ...] in execution order, "wood":
 * [a, b]}.
 *
 * Round: {"u": [[id, x, y, hp, level, construction, flags], ...] the units
 * that are new or changed (flags: 1 poisoned, 2 countered, 4 rooted; a new
 * unit's row carries team and type after flags), "d": [ids of units gone],
 * "t": [[x, y, kind, hp], ...] trees changed (kind 0: gone, 1 oak, 2 small),
 * "v": [[x, y, points], ...] VP changed (0: gone), "w": [wood a, wood b],
 * "p": [VP a, VP b]}; empty lists are left out.  A viewer applies them in
 * order to get every round's world.
 */
#ifndef AIC_REPLAY_H
#define AIC_REPLAY_H

#include <jansson.h>

#include "games/aic2018/world.h"

/* The world as the last round left it, to diff the next one against. */
struct aic_replay {
	struct aic_world prev;
};

/* The header; also remembers w as the base of the first round. */
json_t *aic_replay_header(struct aic_replay *r, const struct aic_world *w);
/* What changed since the last call (or the header). */
json_t *aic_replay_round(struct aic_replay *r, const struct aic_world *w);

#endif
