/* student_kit.h - a game's student kit (`judge kit GAME`, GET
 * /kits/GAME.tar.gz): what a contestant unpacks to write and try a player
 * on a machine with only gcc and make.
 *
 * Promises.  The archive holds, under GAME-kit/: the game's header and
 * runtime and the judge's engine for it (src/), the Null and Demo sources,
 * every other shipped player as object files only (opponents/NAME-SEAT.o:
 * compiled here, their sources never enter the archive), the Makefile of
 * the local runner (./Game, which plays the judge's match for a seed and
 * players), the parameters and CPU budget in force (params.cnf, kit.mk),
 * scripts/upload and a README.  Building it runs gcc, ld, objcopy and make
 * in a private temporary folder, removed afterwards.
 */
#ifndef JUDGE_STUDENT_KIT_H
#define JUDGE_STUDENT_KIT_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/base/config.h"
#include "judge/base/error.h"


/* True for a game the kit's local runner can play (not AIC2018, whose
 * players are instrumented by the judge's compile step). */
bool student_kit_supported(const char *game);
/* Why game has no kit, in a contestant's words (a sentence to follow
 * "no student kit for GAME: "). */
const char *student_kit_why_none(const char *game);

/* The kit of game, with the settings of cfg (its data directory, CPU
 * budget, parameters) and the service's address for the upload script
 * (NULL: none), as a .tar.gz in *out (malloc'd, *len bytes): 0, or -1 with
 * err saying what went wrong and what to do. */
int student_kit_build(const struct judge_config *cfg, const char *game, const char *server,
		      char **out, size_t *len, err_t err);

#endif
