/* repro_build.h - the contestant's file built here for `judge repro`, with
 * the line information gdb and AddressSanitizer report.
 *
 * The file is built with its game's header and kit from cfg->data_dir.  A
 * game that plays the judge's own code (one that rewrites its players'
 * assembly: AIC2018's energy count) is built with the judge's code flags
 * and the same rewrite, so that every block, and so every unit's energy,
 * is the judge's: the same machine code, plus line information (-g), which
 * the rewrite leaves out of the count.  AddressSanitizer cannot be had
 * there (repro_build_asan_refusal says why); elsewhere the file is built
 * -g -O0, under AddressSanitizer when asked.
 */
#ifndef JUDGE_REPRO_BUILD_H
#define JUDGE_REPRO_BUILD_H

#include <stdbool.h>
#include <stdio.h>

#include "games/game.h"
#include "judge/base/config.h"

enum repro_build_result {
	REPRO_BUILT,
	REPRO_BUILD_FAILED,  /* the file does not build (said in the log) */
	REPRO_BUILD_REFUSED, /* the build asked for cannot be had (said) */
};

/* Builds source into the program bin, using dir (the caller's, empty, and
 * emptied again by the caller) for what lies between; says what it does
 * and why it failed on log. */
enum repro_build_result repro_build(const struct judge_config *cfg, const struct game *game,
				    const char *source, bool asan, const char *dir,
				    const char *bin, FILE *log);

/* Why --asan is refused for game (a sentence), or NULL when it is not. */
const char *repro_build_asan_refusal(const struct game *game);

#endif
