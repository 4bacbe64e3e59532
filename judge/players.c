#include "judge/players.h"

#include <stdio.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

/* data_dir/games/GAME/WHAT, or "" (a path nothing opens) when too long. */
static void game_file(char path[PATH_MAX], const char *data_dir, const char *game,
		      const char *what, const char *name, const char *ext)
{
	int n = snprintf(path, PATH_MAX, "%s/games/%s/%s%s%s", data_dir, game, what, name, ext);
	if (n < 0 || n >= PATH_MAX)
		path[0] = '\0';
}

bool players_shipped(const char *data_dir, const char *game, const char *name,
		     char path[PATH_MAX])
{
	game_file(path, data_dir, game, "players/AI", name, ".c");
	return path[0] && access(path, R_OK) == 0;
}

void players_header(const char *data_dir, const char *game, char path[PATH_MAX])
{
	game_file(path, data_dir, game, "kit/", game, ".h");
}

void players_default_params(const char *data_dir, const char *game, char path[PATH_MAX])
{
	int n = snprintf(path, PATH_MAX, "%s/config/games/%s.cnf", data_dir, game);
	if (n < 0 || n >= PATH_MAX)
		path[0] = '\0';
}

int players_compile(const struct judge_config *cfg, const char *game, const char *source,
		    struct cmp_result *res, char err[CMP_ERRLEN])
{
	char header[PATH_MAX], runtime[PATH_MAX];
	players_header(cfg->data_dir, game, header);
	int n = snprintf(runtime, sizeof runtime, "%s/build/kits/lib%s.a", cfg->data_dir, game);
	if (n < 0 || n >= (int)sizeof runtime) {
		snprintf(err, CMP_ERRLEN, "the data directory's path is too long");
		return -1;
	}
	struct sbx_uid uid = { 0, -1 };
	if (geteuid() == 0 &&
	    sbx_uid_claim(cfg->sandbox.uid_base, cfg->sandbox.uid_count, &uid, err) < 0)
		return -1;
	struct cmp_request req = { .source = source, .header = header, .runtime = runtime,
				   .uid = uid.uid, .gid = uid.uid };
	int rc = cmp_compile(&cfg->compile, &req, res, err);
	sbx_uid_release(&uid);
	return rc;
}
