/* judge kit - the student kit of a game, as a .tar.gz (student_kit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/base/file_write.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/kit/student_kit.h"

static const char summary[] =
"Writes the student kit of GAME: the game's header and runtime, the Null\n"
"and Demo sources, the other shipped players as object files only, a\n"
"Makefile and a local runner that need nothing but gcc and make, the\n"
"parameters and CPU budget in force, scripts/upload and a README.  The\n"
"student unpacks it, writes AIName.c beside AIDemo.c and runs\n"
"  make && ./Game Name Dummy Demo Demo -s 7\n"
"which plays the match `judge play` plays for the same seed and players.\n"
"The service serves the same kit at /kits/GAME.tar.gz.";

int cmd_kit(int argc, char **argv)
{
	const char *output = NULL, *config = NULL, *server = NULL;
	struct judge_config cfg;
	const struct opt opts[] = {
		OPT_STR("output", 'o', "FILE", &output, "where the archive goes (default "
			"GAME-kit.tar.gz; - for standard output)"),
		OPT_STR("server", 0, "URL", &server, "the service's address, written into the "
			"kit for scripts/upload"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge kit", .args = "GAME", .min_args = 1, .max_args = 1, .opts = opts,
		.config = &config, .settings = &cfg,
		.summary = summary, .list_games = true,
		.exits = "0 when the kit was written, 1 when it could not be built, 2 for bad "
			 "usage (a game without a kit, an output that cannot be written).",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	const char *game = argv[1];
	if (!student_kit_supported(game))
		return opt_bad(&cmd, "no student kit for '%s': %s", game, student_kit_why_none(game));
	char default_output[96];
	err_t err;
	snprintf(default_output, sizeof default_output, "%s-kit.tar.gz", game);
	if (!output)
		output = default_output;
	if (file_check_target(output, err) < 0)
		return opt_fail("judge kit", 2, err->msg);
	char *bytes;
	size_t len;
	if (student_kit_build(&cfg, game, server, &bytes, &len, err) < 0)
		return opt_fail("judge kit", 1, err->msg);
	int rc = file_write_whole(output, bytes, len, 0644, err);
	free(bytes);
	if (rc < 0)
		return opt_fail("judge kit", 1, err->msg);
	if (strcmp(output, "-") != 0)
		fprintf(stderr, "judge kit: wrote %s (%zu bytes)\n", output, len);
	return 0;
}
