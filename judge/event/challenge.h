/* challenge.h - a contestant's challenges: unrated matches of their own
 * player against opponents they choose, in the seat order they choose,
 * on as many fresh seeds as they ask for.
 *
 * Promises.  A request is checked whole before anything is queued: the
 * game, the seats (the game's number of players; each a shipped player,
 * or a contestant's player that has a qualified version; the challenger's
 * own player in at least one), the number of seeds (1 to
 * CHALLENGE_SEEDS_MAX), the author's limit per hour (config contest.
 * challenges_per_hour; the refusal says when the next is allowed) and,
 * while the contest is frozen (contest.frozen), opponents that are
 * shipped players only.  Then every match is queued in one transaction as
 * challenge work (sched.h: below qualifying and ranked work), recorded
 * as kind 'challenge', never rated.  The challenger plays their newest
 * compiled version; an opponent its qualified one.
 */
#ifndef JUDGE_EVENT_CHALLENGE_H
#define JUDGE_EVENT_CHALLENGE_H

#include <jansson.h>
#include <stdint.h>

#include "games/game.h"
#include "judge/base/config.h"
#include "judge/store/store.h"
#include "judge/base/error.h"

#define CHALLENGE_SEEDS_MAX 20
#define CHALLENGE_HOUR_MS (3600 * 1000LL)

struct challenge_request {
	const char *game, *author, *player; /* player: the challenger's own */
	const char *seats[GAME_MAX_PLAYERS]; /* player names, as the seats go */
	int nseats;
	int seeds;
};

/* Why a request was refused, so a caller can answer in its own terms. */
enum challenge_outcome {
	CHALLENGE_QUEUED,
	CHALLENGE_INVALID,   /* the request itself is wrong: fix it */
	CHALLENGE_FORBIDDEN, /* not now (the contest is frozen) or not yours */
	CHALLENGE_LIMITED,   /* over the limit per hour: next_allowed_ms says when */
	CHALLENGE_FAILED,    /* the store did not answer */
};

struct challenge_queued {
	int n;                         /* matches queued */
	int64_t jobs[CHALLENGE_SEEDS_MAX];
	int64_t next_allowed_ms;       /* CHALLENGE_LIMITED: when the request would fit */
};

/* The request in a JSON object {"game", "player", "seats": [names],
 * "seeds": n} for author; the strings stay body's.  0, or -1 with err. */
int challenge_from_json(const json_t *body, const char *author, struct challenge_request *rq,
			err_t err);

/* Checks and queues rq at time now; data_dir: where the shipped players
 * are.  err says what was wrong, or what was queued. */
enum challenge_outcome challenge_queue(struct store *s, const struct cfg_contest *contest,
				       const char *data_dir, const struct challenge_request *rq,
				       int64_t now, struct challenge_queued *out,
				       err_t err);

#endif
