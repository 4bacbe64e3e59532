/* store_challenge.h - challenges as the store keeps them, and who may see
 * an unrated match.
 *
 * The store only keeps; judge/event/challenge.h decides what may be
 * asked.  Promises.  A challenge match's row and its job are written
 * together inside the caller's transaction.  A challenge or comparison
 * match is visible to the authors whose submissions played in it, to the
 * author who asked for it, and to organisers (the caller's part); every
 * other match to everybody.  The same answers on SQLite and PostgreSQL.
 */
#ifndef JUDGE_STORE_CHALLENGE_H
#define JUDGE_STORE_CHALLENGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/store.h"

/* The submission a player name of game plays with: with qualified set,
 * its qualified submission (the one in the ranked pool); else its newest
 * compiled one (qualifying, qualified or not).  1 found, 0 none, -1. */
struct store_player_now {
	int64_t submission;
	char author[64];
	char state[16];
};
int store_player_now(struct store *s, const char *game, const char *name, bool qualified,
		     struct store_player_now *out, err_t err);

/* Inside the transaction that will queue more: when each of author's
 * challenge matches queued at or after since was queued, oldest first, *n
 * of them in *times (malloc'd, the caller's).  On PostgreSQL it first
 * takes the challenges' lock, so that two requests at once are counted
 * one after the other. */
int store_challenge_times(struct store *s, const char *author, int64_t since, int64_t **times,
			  size_t *n, err_t err);

struct store_new_challenge {
	const char *author, *game;
	int64_t submission;  /* the challenger's */
	const char *seats;   /* JSON, as the match job's payload has them */
	int64_t seed;
	const char *payload; /* the match job's */
};
/* Inside a transaction: the challenge's match job (class challenge) and
 * its row; *job its id. */
int store_add_challenge(struct store *s, const struct store_new_challenge *c, int64_t *job,
			err_t err);

/* May author see match (see above; an organiser always may)?  1 yes, or
 * no such match; 0 no; -1. */
int store_match_visible(struct store *s, int64_t match, const char *author,
			err_t err);

/* The SQL condition, on a match aliased m, that the match is visible to
 * the author bound as parameter ?A, or to anybody when parameter ?ALL is
 * 1 (A and ALL: the parameters' numbers, as strings): for the store's
 * own lists. */
#define STORE_MATCH_VISIBLE_SQL(A, ALL)                                            \
	"(?" ALL " = 1 OR m.kind NOT IN ('challenge', 'comparison') OR EXISTS (SELECT 1" \
	" FROM match_players vp JOIN submissions vs ON vs.id = vp.submission_id"        \
	" WHERE vp.match_id = m.id AND vs.author = ?" A ") OR EXISTS (SELECT 1"         \
	" FROM challenges vc WHERE vc.job_id = m.job_id AND vc.author = ?" A "))"

#endif
