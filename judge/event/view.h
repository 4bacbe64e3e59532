/* view.h - a tournament as its watchers see it: every phase with what it
 * has played so far, read from the store's record.
 *
 * Promises.  event_view() only reads, and reads the record through the
 * same rules that run the tournament (elimination.h, points.h, bracket.h),
 * so who is safe, the points of a group and the series of a bracket are
 * the ones the judge acts on, never a second reading of them.  Names: with
 * the spec's "pseudonyms" and for the public, an entrant is shown by its
 * pseudonym ("entrant N" when it has none) and its player's name is left
 * out; an organiser always sees authors.  The JSON it gives is the service's
 * /api/tournaments/NAME, described in docs/organisers.md.
 */
#ifndef JUDGE_EVENT_VIEW_H
#define JUDGE_EVENT_VIEW_H

#include <jansson.h>
#include <stdbool.h>

#include "judge/event/run.h"
#include "judge/store/store.h"

/* The tournament called name: 1 with *out, 0 none of that name, -1 with err. */
int event_view(struct store *s, const char *name, bool organiser, json_t **out,
	       err_t err);

#endif
