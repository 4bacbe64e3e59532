/* replay.h - AIC2018's replay: the world's first state, then each round's
 * changes, as compact JSON (games/aic2018/engine/world_replay.c; engine
 * side only, the kit does not link it).  games/aic2018/viewer.js reads it.
 *
 * Header: {"width", "height", "symmetry", "rounds", "terrain": one
 * character per cell, row by row from the north-west ('.' land, '~'
 * water), then the first round's lists as below (every unit in execution
 * order, every tree, every VP).
 *
 * Round (what changed since the previous one; empty lists left out):
 *   "u": [[id, x, y, hp, level, construction, flags], ...] units changed;
 *        a new unit's row goes on with team and type (0 worker, 1
 *        barracks, 2 soldier, 3 archer, 4 knight, 5 ballista); flags: 1
 *        poisoned, 2 countered, 4 rooted
 *   "d": [id, ...] units gone
 *   "t": [[x, y, kind, hp], ...] trees changed (kind 0 gone, 1 oak, 2 small)
 *   "v": [[x, y, points], ...] VP changed (0: gone)
 *   "w": [wood A, wood B], "p": [VP A, VP B] (always)
 *   "end": [winner, reason] once the match is decided (enum aic_win)
 * A viewer applies them in order to get every round's world.
 */
#ifndef AIC_REPLAY_H
#define AIC_REPLAY_H

#include <jansson.h>

#include "games/aic2018/world.h"

/* Integers 0 .. AIC_REPLAY_INTS - 1 (every id, slot, coordinate, action
 * byte and most hit points a replay holds) are made once per match and
 * shared by every row that holds them: a long match's replay has hundreds
 * of thousands, and nothing changes an integer of a replay. */
#define AIC_REPLAY_INTS (AIC_MAX_ID + 1)

struct aic_replay {
	/* The world as the last call saw it, to diff the next round against
	 * (what the diff reads of it). */
	struct aic_world prev;
	json_t *ints[AIC_REPLAY_INTS]; /* made on first use */
};

/* v as JSON (a new reference). */
json_t *aic_json_int(struct aic_replay *r, int v);
/* [v[0], ..., v[n-1]] (a new reference). */
json_t *aic_json_ints(struct aic_replay *r, const int *v, int n);
/* Drops r's shared integers (the replays made keep theirs). */
void aic_replay_free(struct aic_replay *r);

/* The header; also remembers w as the base of the first round. */
json_t *aic_replay_header(struct aic_replay *r, const struct aic_world *w);
/* What changed since the last call (header or round). */
json_t *aic_replay_round(struct aic_replay *r, const struct aic_world *w);

#endif
