#include "judge/base/paths.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool paths_in(char out[PATH_MAX], const char *dir, const char *fmt, ...)
{
	int n = snprintf(out, PATH_MAX, "%s/", dir);
	if (n > 0 && n < PATH_MAX) {
		va_list ap;
		va_start(ap, fmt);
		int m = vsnprintf(out + n, (size_t)(PATH_MAX - n), fmt, ap);
		va_end(ap);
		if (m >= 0 && m < PATH_MAX - n)
			return true;
	}
	out[0] = '\0';
	return false;
}

/* A data directory has the default settings and the games (a bare games/
 * is not enough: Debian has /usr/games). */
static bool holds_data(const char *dir)
{
	char config[PATH_MAX], games[PATH_MAX];
	return paths_in(config, dir, "config/judge.json") && access(config, R_OK) == 0 &&
	       paths_in(games, dir, "games") && access(games, R_OK | X_OK) == 0;
}

void paths_data_dir(char out[PATH_MAX])
{
	const char *env = getenv(PATHS_DATA_ENV);
	if (env && *env && strlen(env) < PATH_MAX) {
		strcpy(out, env);
		return;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? memrchr(exe, '/', (size_t)n) : NULL;
	if (slash) {
		*slash = '\0';
		static const char *const beside[] = { "../share/judge", "..", "../.." };
		for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
			if (paths_in(out, exe, "%s", beside[i]) && holds_data(out)) {
				char *real = realpath(out, NULL);
				if (real && strlen(real) < PATH_MAX)
					strcpy(out, real);
				free(real);
				return;
			}
		}
	}
	strcpy(out, ".");
}

int paths_make_dirs(const char *dir, char failed[PATH_MAX])
{
	if ((size_t)snprintf(failed, PATH_MAX, "%s", dir) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = failed + 1;; p++) {
		bool end = *p == '\0';
		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(failed, 0755) < 0 && errno != EEXIST)
			return -1;
		if (end)
			return 0;
		*p = '/';
	}
}

bool paths_shipped_player(const char *data_dir, const char *game, const char *name,
			  char path[PATH_MAX])
{
	return paths_in(path, data_dir, "games/%s/players/AI%s.c", game, name) &&
	       access(path, R_OK) == 0;
}

void paths_game_header(const char *data_dir, const char *game, char path[PATH_MAX])
{
	paths_in(path, data_dir, "games/%s/kit/%s.h", game, game);
}

void paths_shared_header(const char *data_dir, char path[PATH_MAX])
{
	paths_in(path, data_dir, "games/kit/course.h");
}

void paths_game_params(const char *data_dir, const char *game, char path[PATH_MAX])
{
	paths_in(path, data_dir, "config/games/%s.cnf", game);
}
