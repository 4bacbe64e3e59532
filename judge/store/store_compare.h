/* store_compare.h - version comparisons as the store keeps them: the
 * comparison (two submissions of one author), and its paired matches.
 *
 * The store only keeps; judge/event/compare.h plans the pairs and reads
 * the results.  Promises.  A comparison and all its match jobs are
 * written inside the caller's transaction; a pair's two matches are the
 * rows (pair, side 0) and (pair, side 1), side 0 the first submission.
 * The same answers on SQLite and PostgreSQL.
 */
#ifndef JUDGE_STORE_COMPARE_H
#define JUDGE_STORE_COMPARE_H

#include <jansson.h>
#include <stdint.h>

#include "judge/store/store.h"

/* Inside a transaction: the comparison of a with b; *id. */
int store_compare_create(struct store *s, const char *author, const char *game, int64_t a,
			 int64_t b, int64_t *id, err_t err);
/* Inside a transaction: one side of one pair, its match job (class
 * comparison) queued with payload; the version sits in seat. */
int store_compare_add(struct store *s, int64_t id, int pair, int side, int seat,
		      const char *payload, err_t err);
/* The version sub replaced in the ranked pool: the newest older
 * submission of the same author and player that is superseded.  1 with
 * *id, 0 none (sub is the player's first qualified version), -1. */
int store_previous_version(struct store *s, const struct store_submission *sub, int64_t *id,
			   err_t err);
/* {id, author, game, a, b, created_at, matches} (matches: how many were
 * queued): 1, 0 no such comparison, -1. */
int store_compare_get(struct store *s, int64_t id, json_t **out, err_t err);
/* The recorded sides, by pair then side: [{pair, side, rank, players}]
 * (rank: the version's, 1 the best).  NULL with err. */
json_t *store_compare_results(struct store *s, int64_t id, err_t err);

#endif
