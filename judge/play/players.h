/* players.h - a game G's players compiled and named, for play and the
 * worker.
 *
 * Where G's files are is judge/base/paths.h's (paths_shipped_player,
 * paths_game_header...), under cfg->data_dir.  Every player, shipped or a
 * contestant's, is compiled the same way: with G's header, the shared
 * header games/kit/course.h beside it (the course games' headers include
 * it; for the others it is never read) and G's runtime (build/kits/libG.a),
 * by the compile step, as an unprivileged uid of its own when the judge is
 * root.
 */
#ifndef JUDGE_PLAYERS_H
#define JUDGE_PLAYERS_H

#include <limits.h>
#include <stdbool.h>

#include "judge/compile/compile.h"
#include "judge/compile/upload_check.h"
#include "judge/base/config.h"

/* Compiles source for game.  0 with res filled (res->ok says whether it
 * compiled), -1 with err when the judge itself failed. */
int players_compile(const struct judge_config *cfg, const char *game, const char *source,
		    struct cmp_result *res, err_t err);

/* The name of the player in file source, decided as for an upload
 * (upload_name_check): what the runner expects its program to announce
 * and the name every record of its matches shows.  0 with name filled,
 * -1 with err saying what is wrong with the file and what to write. */
int players_source_name(const char *source, char name[PLAYER_NAME_MAX + 1],
			err_t err);

#endif
