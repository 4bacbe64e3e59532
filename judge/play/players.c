#include "judge/play/players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/base/paths.h"
#include "judge/compile/source.h"
#include "sandbox/sandbox.h"

int players_compile(const struct judge_config *cfg, const char *game, const char *source,
		    struct cmp_result *res, err_t err)
{
	char header[PATH_MAX], shared[PATH_MAX], runtime[PATH_MAX];
	paths_game_header(cfg->data_dir, game, header);
	paths_shared_header(cfg->data_dir, shared);
	if (!paths_in(runtime, cfg->data_dir, "build/kits/lib%s.a", game)) {
		err_set(err, "the data directory's path is too long");
		return -1;
	}
	struct sbx_uid uid = { 0, -1 };
	if (geteuid() == 0 &&
	    sbx_uid_claim(cfg->sandbox.uid_base, cfg->sandbox.uid_count, &uid, err) < 0)
		return -1;
	const struct game *gm = game_find(game);
	struct cmp_request req = { .source = source, .header = header, .shared_header = shared,
				   .runtime = runtime, .instrument = gm ? gm->compile_flag : NULL,
				   .no_writable_globals = gm && gm->no_writable_globals,
				   .asm_pass = gm ? gm->asm_pass : NULL,
				   .asm_pass_version = gm ? gm->asm_pass_version : NULL,
				   .uid = uid.uid, .gid = uid.uid };
	int rc = cmp_compile(&cfg->compile, &req, res, err);
	sbx_uid_release(&uid);
	return rc;
}

int players_source_name(const char *source, char name[PLAYER_NAME_MAX + 1],
			err_t err)
{
	char *src = NULL;
	size_t len = 0;
	int rc = src_read(source, CMP_SOURCE_MAX, &src, &len, err);
	if (rc == 0)
		rc = upload_name_check(source, src, len, name, err);
	free(src);
	return rc;
}
