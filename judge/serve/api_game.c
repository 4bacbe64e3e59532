/* api_game.c - GET /api/games/GAME (serve.h): what a contestant needs to
 * write a player and what it will run under, from the running service's
 * own settings: the rules page, the header of the player kit, the limits
 * (CPU, memory, rounds) and the game's parameters in force.  Texts come as
 * they are written (Markdown, C); the page puts them in as text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/paths.h"
#include "judge/kit/student_kit.h"
#include "judge/serve/serve_int.h"

#define GAME_TEXT_MAX (1 << 20) /* no shipped rules page or header is near this */

/* The whole file, as JSON text; null when it cannot be read. */
static json_t *file_text(const char *path)
{
	FILE *f = *path ? fopen(path, "re") : NULL;
	if (!f)
		return json_null();
	char *buf = malloc(GAME_TEXT_MAX + 1);
	size_t n = buf ? fread(buf, 1, GAME_TEXT_MAX, f) : 0;
	fclose(f);
	json_t *text = buf ? json_stringn_nocheck(buf, n) : json_null();
	free(buf);
	return text;
}

/* The rounds and every parameter a match plays with under params_text
 * (NULL: the game's defaults), as the engine reads them: {rounds, params}
 * or {error} when the organiser's file does not parse. */
static json_t *params_in_force(const struct game *g, const char *params_text)
{
	err_t err = {0};
	struct game_state *st = game_create(g, params_text, 1, g->players, err);
	if (!st)
		return json_pack("{s:s}", "error", err->msg);
	json_t *header = g->replay_header(st);
	json_t *out = json_pack("{s:i, s:O?}", "rounds", g->rounds(st), "params",
				json_object_get(header, "params"));
	json_decref(header);
	g->destroy(st);
	return out;
}

static json_t *limits_in_force(const struct game *g, const struct judge_config *cfg,
			       json_t *params_file)
{
	uint64_t cpu = cfg->sandbox.cpu_ns > g->match_cpu_ns ? cfg->sandbox.cpu_ns
							     : g->match_cpu_ns;
	json_t *out = params_in_force(g, json_string_value(params_file));
	json_object_update_new(out, json_pack("{s:I, s:I, s:I, s:I, s:i, s:i}",
		"cpu_ms", (json_int_t)(cpu / 1000000),
		"memory_mb", (json_int_t)(cfg->sandbox.memory_bytes >> 20),
		"turn_cpu_ms", (json_int_t)(g->turn_cpu_ns / 1000000),
		"start_cpu_ms", (json_int_t)(g->init_cpu_ns / 1000000),
		"min_players", game_min_players(g), "max_players", game_max_players(g)));
	return out;
}

static json_t *game_sheet(const struct game *g, const struct request *rq)
{
	struct judge_config defaults;
	const struct judge_config *cfg = request_settings(rq, &defaults);
	char rules[PATH_MAX], header[PATH_MAX], params[PATH_MAX], header_name[80], kit[96];
	paths_in(rules, cfg->data_dir, "docs/games/%s.md", g->name);
	paths_in(header, cfg->data_dir, "games/%s/kit/%s.h", g->name, g->name);
	paths_game_params(cfg->data_dir, g->name, params);
	snprintf(header_name, sizeof header_name, "%s.h", g->name);
	snprintf(kit, sizeof kit, "/kits/%s.tar.gz", g->name);
	json_t *params_file = file_text(params);
	return json_pack("{s:s, s:s, s:b, s:s?, s:o, s:{s:s, s:o}, s:o, s:o}", "name", g->name,
			 "title", g->title, "uploads",
			 cfg_takes_uploads(&rq->opt->contest, g->name), "kit",
			 student_kit_supported(g->name) ? kit : NULL, "rules", file_text(rules),
			 "header", "file", header_name, "text", file_text(header), "limits",
			 limits_in_force(g, cfg, params_file), "params_file", params_file);
}

/* The sheet depends on the settings read at start only: made once. */
void api_game(struct request *rq, struct reply *rp, const char *arg)
{
	const struct game *g = request_game(arg, rp);
	if (!g)
		return;
	char key[64];
	size_t len;
	snprintf(key, sizeof key, "game:%s", g->name);
	char *text = cache_get(rq->cache, key, 0, &len);
	if (text) {
		reply_bytes(rp, 200, "application/json; charset=utf-8", text, len);
		return;
	}
	reply_json(rp, 200, game_sheet(g, rq));
	if (rp->body)
		cache_put(rq->cache, key, rp->body, rp->len);
}
