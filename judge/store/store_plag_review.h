/* store_plag_review.h - the organiser's review of flagged pairs.
 *
 * Promises: every flagged pair is numbered once (a flag) in the
 * transaction that flags it, and only its later side is marked suspected:
 * the later upload, never an archived file of an earlier year against this
 * year's.  A review (confirm, dismiss, clear) records who, when, the pair's
 * share and a note, and keeps every earlier decision; a file stays
 * suspected while an open or confirmed flag names it as the later side.
 * A flag nobody has looked at is news until store_plag_flags_seen().
 */
#ifndef JUDGE_STORE_PLAG_REVIEW_H
#define JUDGE_STORE_PLAG_REVIEW_H

#include <jansson.h>

#include "judge/store/store.h"

/* Inside a transaction: the flagged pair p numbered (once) and its later
 * side marked suspected. */
int store_plag_flag(struct store *s, const struct store_plag_pair *p, err_t err);

/* The largest share at which a pair of files by author_a and author_b (in
 * either order) of game was dismissed: 1 (*share), 0 never dismissed, -1. */
int store_plag_dismissed_share(struct store *s, const char *game, const char *author_a,
			       const char *author_b, double *share, err_t err);

/* One review of flag: action "confirm", "dismiss" or "clear" (open again),
 * by whom, with a note (may be NULL); in its own transaction.  *out (may be
 * NULL) receives the flag as store_plag_flags() lists it.  1 done, 0 no
 * such flag, -1 (an unknown action too). */
int store_plag_review(struct store *s, int64_t flag, const char *action, const char *by,
		      const char *note, json_t **out, err_t err);

/* The flags of game (NULL: every game), unseen first, then newest first:
 * {id, game, similarity, review (null while open), review_share,
 * reviewed_by, reviewed_at, note, seen, flagged_at, earlier, later}, each
 * side {doc, submission (null: archived), author, player, label,
 * uploaded_at}.  At most 500. */
int store_plag_flags(struct store *s, const char *game, json_t **out, err_t err);

/* One flag so (1), or 0 when there is none. */
int store_plag_flag_get(struct store *s, int64_t flag, json_t **out, err_t err);

/* Every decision on flag, oldest first: {action, share, by, note, at}. */
int store_plag_history(struct store *s, int64_t flag, json_t **out, err_t err);

/* The flags of game (NULL: all) marked seen; *n how many were news. */
int store_plag_flags_seen(struct store *s, const char *game, int64_t *n,
			  err_t err);

/* The news: [{game, unseen}] for each game with a flag nobody has seen. */
int store_plag_news(struct store *s, json_t **out, err_t err);

/* The authors of game whose file is the later side of a confirmed flag:
 * the confirmed copies, a sorted array of texts. */
int store_plag_confirmed_authors(struct store *s, const char *game, json_t **out,
				 err_t err);

#endif
