/* replay_check.h - does a replay say what its engine does?
 *
 * A replay (judge/play/match.h, format 2) holds the parameters file's text, the
 * seed, the state before round 1, and per round what changed, the orders
 * the engine acted on and which seats still played.  The check creates the
 * game from the parameters and the seed, compares the start, then feeds
 * each round's orders back to the engine (through the same validation a
 * player's message goes through), freezes the seats that stopped playing,
 * resolves the round and compares what changed; at the end the scores,
 * the ranks and the frozen seats of the result.
 *
 * Promises: any JSON may be checked (a replay is hostile input): nothing
 * it holds is trusted before the engine has validated it; the first
 * difference is named (the start, round N counted from 0 as the replay's
 * "rounds" array and the frozen rounds count, or the result) with what
 * differs.  What the engine cannot recompute is not checked: the players'
 * names and binaries, the limits, why a seat froze, and an order that
 * changes nothing in the game (a step into a wall) could be another such
 * order.
 */
#ifndef JUDGE_REPLAY_CHECK_H
#define JUDGE_REPLAY_CHECK_H

#include <jansson.h>

#define REPLAY_WHAT_LEN 512

struct replay_verdict {
	int rounds;                  /* rounds that agreed */
	char where[48];              /* "the start", "round 17", "the result"... */
	char what[REPLAY_WHAT_LEN];  /* what differs, in words */
};

/* 0 when the engine agrees with the whole replay; 1 when it does not, or
 * the JSON is not a replay it can check (the verdict says where and what). */
int replay_check(const json_t *replay, struct replay_verdict *v);

#endif
