/* judge compile - compiles one contestant's file; see usage() and compile.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/compile/compile.h"
#include "judge/base/file_write.h"
#include "judge/base/config.h"
#include "judge/play/players.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: judge compile FILE [--header H [--shared-header S]] [--runtime LIB]\n"
		"                    [-o OUT] [--config F]\n"
		"       judge compile FILE --game GAME [-o OUT] [--config F]\n"
		"\n"
		"Compiles the contestant's C file FILE (NAME.c) into a static binary:\n"
		"gcc -std=gnu17 -O2, linked -static with the game's runtime LIB (.a or .o)\n"
		"and -lm.  Only the standard C headers and the game header H (by its\n"
		"file name) may be included; H may include S (the course games' header,\n"
		"by default the data directory's games/kit/course.h), copied beside it.\n"
		"Inline assembler is refused.\n"
		"--game GAME compiles FILE exactly as judge play and the judge's worker\n"
		"do: the game's header and runtime, and the game's own checks (AIC2018's\n"
		"energy count and its refusal of writable global variables).\n"
		"Games:");
	for (const struct game *const *g = game_list(); *g; g++)
		fprintf(f, " %s", (*g)->name);
	fprintf(f, "\n"
		"\n"
		"gcc runs in the compiler sandbox with the \"compile\" limits of the\n"
		"config file F.\n"
		"Identical inputs compile once: the result is cached in compile.cache_dir.\n"
		"\n"
		"On success prints the binary's path (OUT when given, else the cached one)\n"
		"and exits 0; on a compile error prints the compiler's messages and exits 1;\n"
		"exits 2 on bad usage.  -o - writes the binary to standard output (and\n"
		"prints no path); a device or FIFO is written in place, a directory refused.\n");
}

struct compile_args {
	const char *file, *game, *header, *shared_header, *runtime, *out, *config;
};

/* Returns 0, 1 for --help, -1 on bad usage (reported). */
static int parse_args(int argc, char **argv, struct compile_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char **slot = NULL;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			return 1;
		if (strcmp(arg, "--header") == 0)
			slot = &a->header;
		else if (strcmp(arg, "--game") == 0)
			slot = &a->game;
		else if (strcmp(arg, "--shared-header") == 0)
			slot = &a->shared_header;
		else if (strcmp(arg, "--runtime") == 0)
			slot = &a->runtime;
		else if (strcmp(arg, "-o") == 0)
			slot = &a->out;
		else if (strcmp(arg, "--config") == 0)
			slot = &a->config;
		if (slot && i + 1 == argc) {
			fprintf(stderr, "judge compile: %s needs a value\n", arg);
			return -1;
		}
		if (slot) {
			*slot = argv[++i];
		} else if (arg[0] == '-' || a->file) {
			fprintf(stderr, "judge compile: unexpected argument '%s'\n", arg);
			return -1;
		} else {
			a->file = arg;
		}
	}
	if (!a->file) {
		fprintf(stderr, "judge compile: no source file given\n");
		return -1;
	}
	if (a->game && (a->header || a->shared_header || a->runtime)) {
		fprintf(stderr, "judge compile: --game chooses the header and the runtime: "
				"give --game alone, or --header and --runtime\n");
		return -1;
	}
	if (a->game && !game_find(a->game)) {
		fprintf(stderr, "judge compile: unknown game '%s' (see --help for the list)\n",
			a->game);
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
	char err[FILE_ERRLEN];
	if (a->out && file_check_target(a->out, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err);
		return -1;
	}
	return 0;
}

static int report(const struct compile_args *a, const struct cmp_result *r)
{
	char err[UPLOAD_ERRLEN];
	if (players_name_check(a->file, r, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err);
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
	char ferr[FILE_ERRLEN];
	if (a->out && file_copy(r->binary, a->out, 0755, ferr) < 0) {
		fprintf(stderr, "judge compile: %s\n", ferr);
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
			struct cmp_result *res, char err[CMP_ERRLEN])
{
	if (a->game)
		return players_compile(cfg, a->game, a->file, res, err);
	char shared[PATH_MAX];
	players_shared_header(cfg->data_dir, shared);
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
	int rc = parse_args(argc, argv, &a);
	if (rc) {
		usage(rc > 0 ? stdout : stderr);
		return rc > 0 ? 0 : 2;
	}
	struct judge_config cfg;
	char err[CFG_ERRLEN > CMP_ERRLEN ? CFG_ERRLEN : CMP_ERRLEN];
	if (cfg_init(&cfg, a.config, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err);
		return 2;
	}
	if (check_inputs(&a) < 0)
		return 2;
	struct cmp_result res;
	if (compile_file(&cfg, &a, &res, err) < 0) {
		fprintf(stderr, "judge compile: %s\n", err);
		return 1;
	}
	rc = report(&a, &res);
	cmp_result_free(&res);
	return rc;
}
