/* match.h - play one match of a game between sandboxed players.
 *
 * Promises: every player runs under the player sandbox with the given
 * limits (its CPU budget covers the whole match; a game with budgets for
 * the start and each turn also gets those, and the whole-match budget
 * grows to cover them); whatever a player does (crash, overrun, forbidden
 * call, protocol error, silence), it is frozen with a reason and the match
 * goes on without it; the match ends after the game's last round, or
 * earlier when the game says it is over (game_over()); ranks are the
 * game's (game_ranks()).  The replay is JSON and, for the same game,
 * parameters, seed and player binaries, the same bytes but for its
 * "cpu_us" (each seat's CPU time per round, judge/play/debug.h); the
 * result adds what else varies: CPU time, memory, logs.  The
 * replay holds the parameters file's text, the seed, the state before
 * round 1, and per round what changed, the orders the engine acted on and
 * which seats still played (and the players' debug marks, debug.h): enough to replay the match without the
 * players (judge/replay/replay_check.h).  A seat's name is its entry's, never what its
 * program says: one that announces another name is frozen before round 1.
 */
#ifndef JUDGE_MATCH_H
#define JUDGE_MATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "games/game.h"
#include "judge/base/player_name.h"
#include "sandbox/sandbox.h"
#include "judge/base/error.h"

/* The replay's "format": 2 has the state before round 1 as its start and
 * each round's accepted orders (judge/replay/replay_check.h reads it). */
#define MATCH_REPLAY_FORMAT 2

struct match_entry {
	const char *binary;        /* static player binary */
	/* The player's name as the judge decided it from its source
	 * (upload_name_check: the stored name of a submission).  The seat
	 * goes by it in the result and the replay whatever its program
	 * says; a program that announces another name is frozen. */
	const char *name;
	const char *label;         /* what the user called it: "Demo", "AISauron.c" */
	const char *binary_sha256; /* for the replay; may be NULL */
	const char *source_sha256;
};

struct match_spec {
	const struct game *game;
	const char *params;        /* parameters file text; NULL: the defaults */
	uint64_t seed;
	struct sbx_limits limits;  /* per player; wall_ns guards each turn */
	/* Each player's wall budget for the match, the time the runner waits
	 * for its orders summed over every round: wall_budget_factor times its
	 * CPU budget plus wall_round_ns per round (0 and 0: none).  Past it the
	 * player is frozen ("wall-clock budget exceeded"), so a player that
	 * sleeps just under the per-turn guard holds the match for no longer. */
	unsigned wall_budget_factor;
	uint64_t wall_round_ns;
	uid_t uid_base;            /* players' uids when the judge is root */
	unsigned uid_count;
	const char *compiler;      /* compiler version, for the replay */
	/* Play on one CPU: the judge's thread and every player run on `cpu`
	 * for the match.  A round wakes each player once; on one core that is
	 * a context switch, across cores an interrupt to an idle core, much
	 * slower (on virtual machines most of all).  A worker plays one match
	 * per core. */
	bool pin_cpu;
	int cpu;
	int nplayers;
	struct match_entry entry[GAME_MAX_PLAYERS];
};

/* What a frozen seat was given last, for the contestant to play that turn
 * again (judge/replay/repro.h): the message's place among the messages the
 * seat got (0: the start, then one per turn or, in a game of steps, per
 * step), its first bytes (at most MATCH_INPUT_KEEP of `size`), and the CPU
 * figures: its whole match's, of that turn alone, and its budget. */
#define MATCH_INPUT_KEEP (256 * 1024)
struct match_fault {
	int message;
	uint8_t *input;
	size_t input_len, input_size;
	uint64_t turn_cpu_ns, cpu_budget_ns;
	/* A seat that did not freeze but one of whose units died by its own
	 * fault (game.h: unit_fault; the first such unit): its id, the round,
	 * the seat's step in that round, and why (as long as the store keeps
	 * it: struct store_fault's unit_reason).  unit 0: the seat froze. */
	int unit, round, step;
	char reason[256];
};

struct match_seat {
	char name[PLAYER_NAME_MAX + 1]; /* the entry's name */
	int64_t score;
	int rank;                      /* 1 = best; ties share a rank */
	bool frozen;
	int frozen_round;              /* -1: before the first round */
	enum sbx_verdict verdict;
	char reason[200];
	uint64_t cpu_ns;
	uint64_t peak_memory;
	char *log;                     /* its stderr, capped */
	size_t log_len;
	struct match_fault *fault;     /* when frozen: what it was given last;
					* else what it was given when a unit
					* of its own crashed, if one did */
};

struct match_result {
	int nplayers;
	int rounds;
	struct match_seat seat[GAME_MAX_PLAYERS];
	json_t *replay;
};

/* Plays the match.  -1 with err filled when it could not be played at all
 * (bad parameters, the judge failed); a player's failure is not an error. */
int match_play(const struct match_spec *spec, struct match_result *out,
	       err_t err);
void match_result_free(struct match_result *r);

#endif
