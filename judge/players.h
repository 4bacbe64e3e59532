/* players.h - where a game's players come from, for play and the worker.
 *
 * A shipped player "Demo" of game G is games/G/players/AIDemo.c; every
 * player, shipped or a contestant's, is compiled the same way: with G's
 * header and runtime (games/G/kit/G.h, build/kits/libG.a), by the compile
 * step, as an unprivileged uid of its own when the judge is root.
 */
#ifndef JUDGE_PLAYERS_H
#define JUDGE_PLAYERS_H

#include <limits.h>
#include <stdbool.h>

#include "judge/compile.h"
#include "judge/config.h"

/* The source of shipped player `name` of game; false if there is none. */
bool players_shipped(const char *game, const char *name, char path[PATH_MAX]);

/* Compiles source for game.  0 with res filled (res->ok says whether it
 * compiled), -1 with err when the judge itself failed. */
int players_compile(const struct judge_config *cfg, const char *game, const char *source,
		    struct cmp_result *res, char err[CMP_ERRLEN]);

#endif
