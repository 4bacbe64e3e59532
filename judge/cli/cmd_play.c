/* judge play - compile the players and play one match, as the original
 * `./Game Demo Demo Demo Demo -s 30 -i default.cnf -o default.res`. */
#include <errno.h>
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/compile/compile.h"
#include "judge/compile/upload_check.h"
#include "judge/base/config.h"
#include "judge/base/file_write.h"
#include "judge/base/hash.h"
#include "judge/base/player_name.h"
#include "judge/base/paths.h"
#include "judge/play/match.h"
#include "judge/play/players.h"
#include "judge/replay/viewer.h"
#include "judge/replay/replay_io.h"

#define PARAMS_MAX (1 << 20)

struct play_args {
	const struct game *game;
	const char *players[GAME_MAX_PLAYERS];
	int nplayers;
	struct judge_config cfg;
	uint64_t seed;
	const char *params_file, *output, *html, *logs, *config;
	int64_t cpu_ms, memory_mb;
};

static const char summary[] =
"Compiles the players and plays one match of GAME in the sandbox, then\n"
"prints each player's score, rank, CPU time, peak memory and, if it was\n"
"frozen, the round and the reason.\n"
"\n"
"PLAYER is a shipped player (Null, Demo, Dummy), a file AIName.c, or a\n"
"program AIName already linked with the game's kit (an organiser's object\n"
"from `judge reference object`, say: gcc Strong.o build/kits/libGAME.a -lm\n"
"-static -o AIStrong).";

/* The game and the players, argv[1..n]: 0, or the exit status of bad usage
 * (said). */
static int take_players(const struct opt_command *cmd, char **argv, int n, struct play_args *a)
{
	a->game = game_find(argv[1]);
	if (!a->game)
		return opt_bad(cmd, "unknown game '%s'", argv[1]);
	a->nplayers = n - 1;
	int lo = game_min_players(a->game), hi = game_max_players(a->game);
	if (!game_players_ok(a->game, a->nplayers))
		return lo == hi ? opt_bad(cmd, "%s needs %d players, %d given", a->game->title, lo,
					  a->nplayers)
				: opt_bad(cmd, "%s needs %d to %d players, %d given", a->game->title,
					  lo, hi, a->nplayers);
	for (int i = 0; i < a->nplayers; i++)
		a->players[i] = argv[2 + i];
	return 0;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct play_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_SEED_NUM("seed", 's', "N", &a->seed,
			     "random seed, 0 to 2^63-1 (default 1): one seed, one match"),
		OPT_STR("params", 'i', "FILE", &a->params_file,
			"parameters file (default config/games/GAME.cnf)"),
		OPT_STR("output", 'o', "FILE", &a->output, "write the replay (JSON) to FILE, "
			"gzip-compressed when its name ends in .gz (`judge replay check FILE` "
			"checks it)"),
		OPT_STR("html", 0, "FILE", &a->html, "write the match as a page to watch it in a "
			"browser (FILE - for either: standard output, the table then goes to "
			"stderr; a device or FIFO is written in place, a regular file replaced "
			"whole, a directory refused)"),
		OPT_STR("logs", 0, "DIR", &a->logs, "write each player's debug log (stderr) to "
			"DIR/seatN.log (DIR is made when missing)"),
		OPT_NUM("cpu", 0, "MS", &a->cpu_ms, 0, 3600 * 1000, "a number of milliseconds",
			"CPU budget of each player for the whole game"),
		OPT_NUM("memory", 0, "MB", &a->memory_mb, 0, 1 << 20, "a number of MiB",
			"memory limit of each player"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge play", .args = "GAME PLAYER...", .min_args = 1, .max_args = -1,
		.config = &a->config, .settings = &a->cfg,
		.opts = opts, .summary = summary, .list_games = true,
		.exits = "0 when the match was played, 1 when a player did not compile, 2 for "
			 "bad usage (unknown game or player, missing file, bad parameters).",
	};
	a->seed = 1;
	a->cpu_ms = a->memory_mb = -1;
	int n = opt_parse(&cmd, argc, argv, status);
	if (n >= 0)
		*status = take_players(&cmd, argv, n, a);
	return n < 0 || *status ? -1 : 0;
}

/* A program named AIName: a player already linked with the kit. */
static bool prebuilt(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;
	return strncmp(base, "AI", 2) == 0 && player_name_valid(base + 2, strlen(base + 2)) &&
	       stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* A linked program as the match wants it: its name from its file's. */
static int prebuilt_player(const char *path, char name[PLAYER_NAME_MAX + 1],
			   struct cmp_result *res)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(name, PLAYER_NAME_MAX + 1, "%s", base + 2);
	snprintf(res->binary, sizeof res->binary, "%s", path);
	res->ok = true;
	if (hash_file(path, res->binary_sha256) == 0)
		return 0;
	fprintf(stderr, "judge play: cannot read %s: %s\n", path, strerror(errno));
	return -1;
}

/* "Demo" -> games/dominator/players/AIDemo.c; a path ending in .c, or a
 * linked program AIName, stays. */
static int resolve_source(const struct judge_config *cfg, const struct play_args *a,
			  const char *player, char out[PATH_MAX])
{
	size_t len = strlen(player);
	bool file = len > 2 && strcmp(player + len - 2, ".c") == 0;
	if ((file && access(player, R_OK) == 0) || (!file && prebuilt(player))) {
		snprintf(out, PATH_MAX, "%s", player);
		return 0;
	}
	if (file)
		fprintf(stderr, "judge play: cannot read %s: %s\n", player, strerror(errno));
	else if (paths_shipped_player(cfg->data_dir, a->game->name, player, out))
		return 0;
	else
		fprintf(stderr, "judge play: unknown player '%s': not a shipped player "
				"(Null, Demo, Dummy in %s/games/%s/players) nor a file ending "
				"in .c\n", player, cfg->data_dir, a->game->name);
	return -1;
}

static int read_params(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "judge play: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *buf = malloc(PARAMS_MAX + 1);
	size_t n = buf ? fread(buf, 1, PARAMS_MAX + 1, f) : 0;
	fclose(f);
	if (!buf || n > PARAMS_MAX) {
		fprintf(stderr, "judge play: %s is larger than %d bytes\n", path, PARAMS_MAX);
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* Names one player as an upload would (the runner holds its program to
 * that name) and compiles it into the cache; 1 (reported) when the file
 * names no player the judge can trust or does not compile. */
static int compile_player(const struct judge_config *cfg, const struct play_args *a,
			  const char *source, char name[PLAYER_NAME_MAX + 1],
			  struct cmp_result *res)
{
	err_t err;
	if (players_source_name(source, name, err) < 0) {
		fprintf(stderr, "judge play: %s\n", err->msg);
		return 1;
	}
	if (players_compile(cfg, a->game->name, source, res, err) < 0) {
		fprintf(stderr, "judge play: %s\n", err->msg);
		return -1;
	}
	if (!res->ok) {
		fprintf(stderr, "judge play: %s does not compile:\n%s", source, res->log);
		return 1;
	}
	return 0;
}

static void print_table(FILE *out, const struct match_result *r)
{
	fprintf(out, "%-4s %-12s %10s %4s %9s %9s  %s\n", "seat", "player", "score", "rank",
		"cpu", "memory", "frozen");
	for (int i = 0; i < r->nplayers; i++) {
		const struct match_seat *s = &r->seat[i];
		char frozen[260] = "-";
		if (s->frozen && s->frozen_round < 0)
			snprintf(frozen, sizeof frozen, "before the first round: %s", s->reason);
		else if (s->frozen)
			snprintf(frozen, sizeof frozen, "round %d: %s", s->frozen_round, s->reason);
		fprintf(out, "%-4d %-12s %10lld %4d %7.3f s %5.1f MiB  %s\n", i,
			s->name[0] ? s->name : "?", (long long)s->score, s->rank, s->cpu_ns / 1e9,
			s->peak_memory / 1048576.0, frozen);
	}
}

/* The viewer page, with each frozen player's reason in words. */
static int write_page(const char *path, const struct match_result *r)
{
	err_t err;
	for (int i = 0; i < r->nplayers; i++)
		if (r->seat[i].frozen)
			viewer_add_reason(r->replay, i, r->seat[i].reason);
	if (viewer_write(path, r->replay, err) == 0)
		return 0;
	fprintf(stderr, "judge play: %s\n", err->msg);
	return -1;
}

static int write_outputs(const struct play_args *a, const struct match_result *r)
{
	err_t err;
	if (a->output && replay_write_file(a->output, r->replay, err) < 0) {
		fprintf(stderr, "judge play: %s\n", err->msg);
		return -1;
	}
	if (a->html && write_page(a->html, r) < 0)
		return -1;
	for (int i = 0; a->logs && i < r->nplayers; i++) {
		char path[PATH_MAX];
		err_t ferr;
		snprintf(path, sizeof path, "%s/seat%d.log", a->logs, i);
		if (file_write_whole(path, r->seat[i].log, r->seat[i].log_len, 0644, ferr) < 0) {
			fprintf(stderr, "judge play: %s\n", ferr->msg);
			return -1;
		}
	}
	return 0;
}

/* Where the results go, before the match, so that a wrong name costs no
 * match: -o and --html can each be written (file_write.h), one at most to
 * standard output; --logs DIR is a directory, made (with its parents) when
 * missing. */
static int check_outputs(const struct play_args *a)
{
	char failed[PATH_MAX];
	err_t err;
	if (a->output && a->html && strcmp(a->output, "-") == 0 && strcmp(a->html, "-") == 0) {
		fprintf(stderr, "judge play: -o - and --html - would both go to standard output: "
				"give one of them a file name\n");
		return -1;
	}
	if ((a->output && file_check_target(a->output, err) < 0) ||
	    (a->html && file_check_target(a->html, err) < 0) ||
	    (a->logs && file_check_dir(a->logs, "--logs", err) < 0)) {
		fprintf(stderr, "judge play: %s\n", err->msg);
		return -1;
	}
	if (a->logs && paths_make_dirs(a->logs, failed) < 0) {
		fprintf(stderr, "judge play: cannot create %s for --logs: %s\n", failed,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* A replay or page on standard output has it alone: the table goes to
 * stderr then. */
static FILE *table_stream(const struct play_args *a)
{
	bool taken = (a->output && strcmp(a->output, "-") == 0) ||
		     (a->html && strcmp(a->html, "-") == 0);
	return taken ? stderr : stdout;
}

static void fill_spec(struct match_spec *spec, const struct judge_config *cfg,
		      const struct play_args *a)
{
	const struct cfg_sandbox *sb = &cfg->sandbox;
	*spec = (struct match_spec){
		.game = a->game, .seed = a->seed, .nplayers = a->nplayers,
		.uid_base = sb->uid_base, .uid_count = sb->uid_count,
		.wall_budget_factor = sb->wall_budget_factor, .wall_round_ns = sb->wall_round_ns,
		.pin_cpu = sched_getcpu() >= 0, .cpu = sched_getcpu(),
		.limits = { .cpu_ns = a->cpu_ms >= 0 ? (uint64_t)a->cpu_ms * 1000000 : sb->cpu_ns,
			    .wall_ns = sb->wall_ns,
			    .memory_bytes = a->memory_mb >= 0 ? (uint64_t)a->memory_mb << 20
							       : sb->memory_bytes,
			    .stderr_bytes = sb->stderr_bytes, .open_files = sb->open_files },
	};
}

static int play(const struct judge_config *cfg, const struct play_args *a, char *params)
{
	struct match_spec spec;
	struct cmp_result bin[GAME_MAX_PLAYERS] = { 0 };
	char source[GAME_MAX_PLAYERS][PATH_MAX], name[GAME_MAX_PLAYERS][PLAYER_NAME_MAX + 1];
	int rc = 0;
	fill_spec(&spec, cfg, a);
	spec.params = params;
	for (int i = 0; i < a->nplayers && rc == 0; i++) {
		int same = 0; /* the first seat of the same file: compiled once */
		if (resolve_source(cfg, a, a->players[i], source[i]) < 0)
			rc = 2;
		while (rc == 0 && same < i && strcmp(source[same], source[i]) != 0)
			same++;
		bool linked = rc == 0 && same == i && prebuilt(source[i]);
		if (linked && prebuilt_player(source[i], name[i], &bin[i]) < 0)
			rc = 2;
		if (rc == 0 && same == i && !linked &&
		    (rc = compile_player(cfg, a, source[i], name[i], &bin[i])) < 0)
			rc = 2;
		if (rc == 0 && same < i)
			memcpy(name[i], name[same], sizeof name[i]);
		spec.entry[i] = (struct match_entry){ .binary = bin[same].binary, .name = name[i],
						      .label = a->players[i],
						      .binary_sha256 = bin[same].binary_sha256,
						      .source_sha256 = bin[same].source_sha256 };
		spec.compiler = bin[same].compiler;
	}
	struct match_result r;
	err_t err;
	if (rc == 0 && match_play(&spec, &r, err) < 0) {
		fprintf(stderr, "judge play: %s\n", err->msg);
		rc = 2;
	} else if (rc == 0) {
		print_table(table_stream(a), &r);
		if (write_outputs(a, &r) < 0)
			rc = 2;
		match_result_free(&r);
	}
	for (int i = 0; i < a->nplayers; i++)
		cmp_result_free(&bin[i]);
	return rc;
}

int cmd_play(int argc, char **argv)
{
	struct play_args a = { 0 };
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	char default_params[PATH_MAX], *params = NULL;
	if (!a.params_file) {
		paths_game_params(a.cfg.data_dir, a.game->name, default_params);
		if (access(default_params, R_OK) == 0)
			a.params_file = default_params;
	}
	if (check_outputs(&a) < 0 || (a.params_file && read_params(a.params_file, &params) < 0))
		return 2;
	int rc = play(&a.cfg, &a, params);
	free(params);
	return rc;
}
