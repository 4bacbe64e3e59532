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

/* The world as the last call saw it, to diff the next round against (what
 * the diff reads of it). */
struct aic_replay {
	struct aic_world prev;
};

/* [v[0], ..., v[n-1]]: what json_pack("[i, i...]") makes, without reading
 * a format each time (a replay holds tens of thousands of them). */
static inline json_t *aic_json_ints(const int *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

/* The header; also remembers w as the base of the first round. */
json_t *aic_replay_header(struct aic_replay *r, const struct aic_world *w);
/* What changed since the last call (header or round). */
json_t *aic_replay_round(struct aic_replay *r, const struct aic_world *w);

#endif
