/* paths.h - where the judge finds the files it ships: each game's kit and
 * players (games/), the kits built for linking (build/kits/) and the
 * default settings (config/).
 *
 * Promise: every program finds the same directory the same way, wherever
 * it is started from: $JUDGE_DATA when set; else, beside the running
 * program, the installed layout (BIN/../share/judge) or the source tree
 * (build/PROGRAM, build/asan/PROGRAM); else the working directory.  What
 * the judge writes (the queue, the compile cache) stays relative to the
 * working directory.
 */
#ifndef JUDGE_PATHS_H
#define JUDGE_PATHS_H

#include <limits.h>
#include <stdbool.h>

#define PATHS_DATA_ENV "JUDGE_DATA"

/* Fills out with the data directory ("." for the working directory). */
void paths_data_dir(char out[PATH_MAX]);

/* out = dir/ followed by fmt formatted as printf does; false, with out
 * empty (a path nothing opens), when it does not fit. */
__attribute__((format(printf, 3, 4)))
bool paths_in(char out[PATH_MAX], const char *dir, const char *fmt, ...);

/* Makes folder dir and its missing parents (mode 0755), as mkdir -p does:
 * 0, or -1 with errno set and failed naming the folder that could not be
 * made (dir itself when it is too long). */
int paths_make_dirs(const char *dir, char failed[PATH_MAX]);

/* What game G ships, under the data directory data_dir. */

/* The source of shipped player `name` (games/G/players/AIname.c); false
 * if there is none. */
bool paths_shipped_player(const char *data_dir, const char *game, const char *name,
			  char path[PATH_MAX]);

/* The game's header, which every player includes (games/G/kit/G.h). */
void paths_game_header(const char *data_dir, const char *game, char path[PATH_MAX]);

/* The header the game headers may include (games/kit/course.h;
 * compile.h: shared_header). */
void paths_shared_header(const char *data_dir, char path[PATH_MAX]);

/* The game's default parameters file (config/games/G.cnf). */
void paths_game_params(const char *data_dir, const char *game, char path[PATH_MAX]);

#endif
