/* debug.h - what a match records for its players' authors beyond the
 * game: each seat's debug marks (games/kit/draw.h) and its CPU time, per
 * round.
 *
 * Marks are hostile bytes: a block that is not marks is refused (the
 * runner freezes the seat).  A seat keeps at most DRAW_TURN_BYTES of marks
 * a round (a game of steps sends several blocks a round: they share it)
 * and DEBUG_MATCH_BYTES a match; what exceeds that, and what its kit
 * dropped, is counted.  In the replay: "cpu_us", each seat's CPU time per
 * round in microseconds (0 once frozen), and, only when some seat drew,
 * "debug": {"marks": per seat a list of [round, mark...], "dropped": per
 * seat a count}, a mark being ["dot", "#rrggbb", row, col], ["line",
 * colour, row, col, row2, col2] or ["text", colour, row, col, "text"].
 */
#ifndef JUDGE_DEBUG_H
#define JUDGE_DEBUG_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define DEBUG_MATCH_BYTES (256 * 1024)

struct debug_record {
	int n;
	json_t *marks[GAME_MAX_PLAYERS];   /* [[round, mark...], ...] */
	unsigned long dropped[GAME_MAX_PLAYERS];
	size_t round_bytes[GAME_MAX_PLAYERS], match_bytes[GAME_MAX_PLAYERS];
	int last_round[GAME_MAX_PLAYERS];  /* of the seat's last entry in marks */
	int bytes_round[GAME_MAX_PLAYERS]; /* the round round_bytes counts */
	json_t *cpu_us[GAME_MAX_PLAYERS];
	uint64_t cpu_seen[GAME_MAX_PLAYERS];
};

void debug_init(struct debug_record *d, int nseats);

/* Takes seat's block of len bytes (draw.h) for round: 0, or -1 when it is
 * not marks. */
int debug_take_marks(struct debug_record *d, int seat, int round, const uint8_t *block,
		     size_t len);

/* The seat's CPU clock (ns) at the end of a round: the round's share is
 * what it grew since the last call.  A frozen seat gives its last clock. */
void debug_end_round(struct debug_record *d, int seat, uint64_t cpu_ns);
/* Its clock before the first round. */
void debug_start_cpu(struct debug_record *d, int seat, uint64_t cpu_ns);

/* Adds "cpu_us" and, when a seat drew, "debug" to replay; frees d. */
void debug_finish(struct debug_record *d, json_t *replay);
void debug_free(struct debug_record *d);

#endif
