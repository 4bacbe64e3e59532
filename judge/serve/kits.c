/* kits.c - GET /kits/GAME.tar.gz: the student kit (student_kit.h), built on
 * the first request for it and then kept in the service's cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/kit/student_kit.h"
#include "judge/serve/serve_int.h"

#define KIT_SUFFIX ".tar.gz"

void page_kit(struct request *rq, struct reply *rp, const char *arg)
{
	size_t n = strlen(arg), suffix = strlen(KIT_SUFFIX);
	char game[72], key[96];
	if (n <= suffix || n - suffix >= sizeof game || strcmp(arg + n - suffix, KIT_SUFFIX) != 0) {
		reply_error(rp, 404, "a kit is /kits/GAME.tar.gz, e.g. /kits/dominator.tar.gz");
		return;
	}
	snprintf(game, sizeof game, "%.*s", (int)(n - suffix), arg);
	if (!student_kit_supported(game)) {
		reply_error(rp, 404, "no student kit for '%s': %s", game, student_kit_why_none(game));
		return;
	}
	snprintf(key, sizeof key, "kit/%s", game);
	size_t len;
	char *bytes = cache_get(rq->cache, key, 0, &len);
	err_t err;
	if (!bytes) {
		struct judge_config defaults;
		const struct judge_config *cfg = request_settings(rq, &defaults);
		if (student_kit_build(cfg, game, NULL, &bytes, &len, err) < 0) {
			reply_error(rp, 500, "the kit could not be built (tell the organiser): %s",
				    err->msg);
			return;
		}
		cache_put(rq->cache, key, bytes, len);
	}
	reply_bytes(rp, 200, "application/gzip", bytes, len);
}
