#include "judge/players.h"

#include <stdio.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

bool players_shipped(const char *game, const char *name, char path[PATH_MAX])
{
	snprintf(path, PATH_MAX, "games/%s/players/AI%s.c", game, name);
	return access(path, R_OK) == 0;
}

int players_compile(const struct judge_config *cfg, const char *game, const char *source,
		    struct cmp_result *res, char err[CMP_ERRLEN])
{
	char header[PATH_MAX], runtime[PATH_MAX];
	snprintf(header, sizeof header, "games/%s/kit/%s.h", game, game);
	snprintf(runtime, sizeof runtime, "build/kits/lib%s.a", game);
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
