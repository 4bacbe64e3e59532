/* repro.h - a frozen seat's failing turn played again by a local program.
 *
 * A player's state at a turn depends on every message before it, so the
 * turn is reached the way the match reached it: the engine is created from
 * the replay's parameters and seed, and round after round (or, in a game of
 * steps, step after step) the program gets the message the seat got, its
 * answer is read, and the engine is then given every seat's orders as the
 * replay recorded them (judge/replay/replay_check.h), so the match goes as
 * it went whatever the program answers.  At the recorded message the program
 * gets the recorded bytes (the re-created ones when more than the kept
 * 256 KiB), and its fate is watched: it crashes, exits, answers, or stays
 * silent past the wait.
 *
 * What differs from the match: the CPU shares a view shows (status()) come
 * from the replay's CPU time per round ("cpu_us", whole microseconds, 0 in
 * a replay without it), not from the clocks the runner read, and the
 * program runs here outside the judge's sandbox: run only your own.
 * The replay is hostile input, checked as `judge replay check` does.
 * A record of a unit that crashed while its seat played on (AIC2018)
 * runs the program with JUDGE_REPRO_UNIT_FAULTS set: the kit then lets a
 * unit's fault end the program where it happened, as a seat's crash.
 */
#ifndef JUDGE_REPRO_H
#define JUDGE_REPRO_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/replay/fault.h"

enum repro_end {
	REPRO_CRASHED,   /* killed by a signal */
	REPRO_EXITED,    /* ended by itself (AddressSanitizer exits with 1) */
	REPRO_SILENT,    /* no answer within the wait */
	REPRO_ANSWERED,  /* it answered the failing turn: not reproduced */
};

struct repro_spec {
	const json_t *replay;
	const struct fault *fault;
	char *const *argv;      /* the program: the player, or gdb running it */
	/* The program reads the player's input on fd 3 and writes its output
	 * to fd 4 (gdb's `run <&3 >&4`), its own stdin and stdout being
	 * gdb's; otherwise stdin and stdout. */
	bool fds_3_4;
	int interrupt_signal;   /* sent when silent at the failing turn (gdb: SIGINT); 0: kill */
	uint64_t turn_wait_ns;  /* wait for an answer to a turn before the failing one */
	uint64_t fault_wait_ns; /* ... at the failing one */
	FILE *log;              /* what happens, turn by turn, in words */
};

struct repro_outcome {
	enum repro_end end;
	int message;            /* the message it failed on */
	int round;              /* its round, -1: the start */
	int step;               /* its step in the round (games of steps), else 0 */
	bool same_input;        /* the re-created message is the recorded one */
	int status;             /* exit status or signal */
	double cpu_s;           /* the program's CPU time at the end */
};

/* 0 with out filled once the program was run to the failing turn or
 * stopped before it (out->message says where); -1 with err when the
 * replay or the record cannot be played (or the program not started). */
int repro_run(const struct repro_spec *spec, struct repro_outcome *out, err_t err);

#endif
