/* pseudonym.h - who an author is on the public pages of a game.
 *
 * Promises.  An author entered in a tournament of the game whose spec says
 * "pseudonyms": true is shown to the public by that entrant's pseudonym
 * ("entrant N" when it has none), on every page of the game (matches,
 * players, leaderboard), not only the tournament's; when an author is an
 * entrant of several, the oldest tournament's name is used.  Other
 * authors are shown as they are.  Only reads.
 */
#ifndef JUDGE_EVENT_PSEUDONYM_H
#define JUDGE_EVENT_PSEUDONYM_H

#include <jansson.h>

#include "judge/event/run.h"
#include "judge/store/store.h"

/* An entrant of store_entrants() as the public sees it: its pseudonym, or
 * "entrant N" written into fallback. */
const char *event_public_name(json_t *entrant, char fallback[40]);

/* {author: public name} for the game's authors who must be hidden:
 * 0 with *out (the caller's), -1 with err. */
int event_pseudonyms(struct store *s, const char *game, json_t **out, err_t err);

#endif
