/* upload_check.h - what a submission must pass before it is stored.
 *
 * Promises: upload_check() is the one gate every upload goes through (the
 * local `judge submit`, the HTTP API): a known game, a valid author, a
 * non-empty text file of at most CMP_SOURCE_MAX bytes without byte-order
 * mark that names its player as upload_name_check() says and passes the compile step's
 * source checks (cscan_source: allowed includes, the game's own header
 * GAME.h, directives, characters).  It reads nothing but its
 * arguments and stores nothing; on refusal err holds one line saying what
 * is wrong and what to do, naming the file as `label`.
 */
#ifndef JUDGE_UPLOAD_CHECK_H
#define JUDGE_UPLOAD_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/base/player_name.h"
#include "judge/base/error.h"


/* 0 with name filled (the player's PLAYER_NAME), -1 with err filled. */
int upload_check(const char *game, const char *author, const char *label, const char *src,
		 size_t len, char name[PLAYER_NAME_MAX + 1], err_t err);

/* The PLAYER_NAME part alone, which decides the player's name once for
 * good (also for `judge play`, whose files are not uploads): exactly one
 * PLAYER_NAME(Name) outside comments and literals, Name valid, and nothing
 * that could let the program announce another name (cscan_player_names:
 * no PLAYER_NAME in a directive, a conditional group, braces or
 * parentheses; no player_name of the file's own outside a function).  The
 * runner freezes a program that announces another name all the same.
 * 0 with name filled, -1 with err saying what to write. */
int upload_name_check(const char *label, const char *src, size_t len,
		      char name[PLAYER_NAME_MAX + 1], err_t err);

/* An author name: 1 to 63 printable characters, no blank at either end
 * (so never only blanks). */
bool upload_author_valid(const char *author);

#endif
