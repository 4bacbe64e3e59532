/* judge compile - compiles one contestant's file; see its summary and compile.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/compile/compile.h"
#include "judge/base/file_write.h"
#include "judge/base/paths.h"
#include "judge/base/config.h"
#include "judge/play/players.h"

static const char *const compile_forms[] = {
	"judge compile FILE [--header H [--shared-header S]] [--runtime LIB]",
	"                   [-o OUT] [--config FILE]",
	"judge compile FILE --game GAME [-o OUT] [--config FILE]",
	NULL,
};

static const char summary[] =
"Compiles the contestant's C file FILE (NAME.c) into a static binary:\n"
"gcc -std=gnu17 -O2, linked -static with the game's runtime LIB (.a or .o)\n"
"and -lm, without symbols or debug sections (-s).  Only the standard C headers and the game header H (by its\n"
"file name) may be included; H may include S (the course games' header,\n"
"by default the data directory's games/kit/course.h), copied beside it.\n"
"Inline assembler is refused.\n"
"--game GAME compiles FILE exactly as judge play and the judge's worker\n"
"do: the game's header and runtime, and the game's own checks (AIC2018's\n"
"energy count and its refusal of writable global variables), and the\n"
"upload's rule for PLAYER_NAME.\n"
"\n"
"gcc runs in the compiler sandbox with the \"compile\" limits of the\n"
"settings (--config).\n"
"Identical inputs compile once: the result is cached in compile.cache_dir.\n"
"-o - writes the binary to standard output (and prints no path); a device\n"
"or FIFO is written in place, a directory refused.";

struct compile_args {
	const char *file, *game, *header, *shared_header, *runtime, *out, *config;
	struct judge_config cfg;
};

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct compile_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_STR("header", 0, "H", &a->header, "the game header FILE may include"),
		OPT_STR("shared-header", 0, "S", &a->shared_header, "a header H may include"),
		OPT_STR("runtime", 0, "LIB", &a->runtime, "the game's runtime, linked in"),
		OPT_GAME(&a->game),
		OPT_STR("output", 'o', "OUT", &a->out, "where the binary goes (a copy of the "
			"cached one)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge compile", .args = "FILE", .min_args = 1, .max_args = 1,
		.config = &a->config, .settings = &a->cfg,
		.forms = compile_forms, .opts = opts, .summary = summary,
		.exits = "0 compiled (it prints the binary's path: OUT when given, else the cached "
			 "one), 1 a compile error (it prints the compiler's messages), 2 bad usage.",
	};
	if (opt_parse(&cmd, argc, argv, status) < 0)
		return -1;
	a->file = argv[1];
	if (a->game && (a->header || a->shared_header || a->runtime)) {
		*status = opt_bad(&cmd, "--game chooses the header and the runtime: give --game "
				  "alone, or --header and --runtime");
		return -1;
	}
	return 0;
}

/* The files named on the command line must be there, and -o must name
 * something the binary can go to: a wrong path is bad usage, not a compile
 * error. */
static int check_inputs(const struct compile_args *a)
{
	const char *files[] = { a->file, a->header, a->shared_header, a->runtime };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		if (files[i] && access(files[i], R_OK) != 0) {
			fprintf(stderr, "judge compile: cannot read %s: %s\n", files[i],
				strerror(errno));
			return -1;
		}
	}
	err_t err;
	if (a->out && file_check_target(a->out, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err->msg);
		return -1;
	}
	return 0;
}

static int report(const struct compile_args *a, const struct cmp_result *r)
{
	/* A file that compiled for a game, as an upload; a link error on
	 * player_name, in the contestant's words. */
	char name[PLAYER_NAME_MAX + 1];
	err_t err;
	bool name_rule = r->ok ? a->game != NULL : strstr(r->log, "player_name") != NULL;
	if (name_rule && players_source_name(a->file, name, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err->msg);
		return 1;
	}
	if (!r->ok) {
		fputs(r->log, stderr);
		if (!a->game && !a->header)
			fprintf(stderr, "judge compile: no game was given, so no game header may "
					"be included: add --game GAME (see --help)\n");
		return 1;
	}
	fputs(r->log, stderr); /* warnings */
	err_t ferr;
	if (a->out && file_copy(r->binary, a->out, 0755, ferr) < 0) {
		fprintf(stderr, "judge compile: %s\n", ferr->msg);
		return 1;
	}
	if (!a->out || strcmp(a->out, "-") != 0) /* - holds the binary alone */
		printf("%s\n", a->out ? a->out : r->binary);
	return 0;
}

/* With --game, as judge play and the worker compile; otherwise from the
 * files named, the shared header defaulting to the data directory's (the
 * course games' headers include it, and a contestant cannot supply it). */
static int compile_file(const struct judge_config *cfg, const struct compile_args *a,
			struct cmp_result *res, err_t err)
{
	if (a->game)
		return players_compile(cfg, a->game, a->file, res, err);
	char shared[PATH_MAX];
	paths_shared_header(cfg->data_dir, shared);
	bool default_shared = a->header && !a->shared_header && access(shared, R_OK) == 0;
	/* As root, gcc runs as the first uid after the players' range. */
	uid_t id = geteuid() == 0 ? cfg->sandbox.uid_base + cfg->sandbox.uid_count : 0;
	struct cmp_request req = { .source = a->file, .header = a->header,
				   .shared_header = default_shared ? shared : a->shared_header,
				   .runtime = a->runtime, .uid = id, .gid = (gid_t)id };
	return cmp_compile(&cfg->compile, &req, res, err);
}

int cmd_compile(int argc, char **argv)
{
	struct compile_args a = { 0 };
	int rc;
	if (parse_args(argc, argv, &a, &rc) < 0)
		return rc;
	if (check_inputs(&a) < 0)
		return 2;
	err_t err;
	struct cmp_result res;
	if (compile_file(&a.cfg, &a, &res, err) < 0)
		return opt_fail("judge compile", 1, err->msg);
	rc = report(&a, &res);
	cmp_result_free(&res);
	return rc;
}
