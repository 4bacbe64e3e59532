/* plag_event.h - the data of a plagiarism.flagged event.
 *
 * Promise: the event is about one file, named by player and author; it
 * lists the files that file resembles at or over the flag threshold, most
 * similar first, each seen from the file's side (its lines, then theirs),
 * with "fragment": true when its longest shared fragment flagged it.
 */
#ifndef JUDGE_PLAG_EVENT_H
#define JUDGE_PLAG_EVENT_H

#include <jansson.h>
#include <stddef.h>

#include "judge/plag/plag_store.h"

/* An event names at most this many similar files. */
#define PLAG_EVENT_MAX 10

/* From the n matches of the file (most similar first): the event's data,
 * or NULL when none of them is flagged. */
json_t *plag_event_data(const char *player, const char *author, const struct plag_match *v,
			size_t n);

#endif
