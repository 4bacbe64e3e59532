/* player_name.h - the one rule for a player's name, shared by uploads (the
 * PLAYER_NAME in a contestant's source) and the runner (the name a player
 * announces): 1 to 12 ASCII letters, digits or '_', so a name is safe in a
 * file name, a URL, a terminal and HTML as it is. */
#ifndef JUDGE_PLAYER_NAME_H
#define JUDGE_PLAYER_NAME_H

#include <stdbool.h>
#include <stddef.h>

#define PLAYER_NAME_MAX 12

bool player_name_valid(const char *name, size_t len);

#endif
