/* worker.h - one worker slot: claims jobs from the store and does them.
 *
 * Jobs: compile (a submission; on success its qualifying matches are
 * queued), match (qualifying or ranked: played in the sandbox, recorded
 * with its replay and, if ranked, the rating updates in one transaction,
 * exactly once), notify (one webhook delivery), claimed in the order of
 * judge/store/sched.h.  After each job, and when idle, a slot tops up each
 * game's queue of ranked matches (matchmaking) so that no slot waits for a
 * batch, until every ranked player has the configured minimum of games or
 * the cap is reached; an idle slot looks again after 20 ms, waiting up to
 * 200 ms while nothing comes.  A slot holds one store connection and
 * renews its job's lease from a second thread while the job runs.  It
 * writes one line per job outcome to its log stream, with the time, the
 * players' names and the game, and one line each time the reason it has
 * nothing to do changes (no worker is silent for long without saying
 * why).
 */
#ifndef JUDGE_WORKER_H
#define JUDGE_WORKER_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "judge/base/config.h"

#define WORKER_ERRLEN 256

struct worker_opts {
	const struct judge_config *cfg;
	const char *queue;   /* the store's path */
	const char *name;    /* this slot's name in jobs.worker */
	bool pin_cpu;        /* play matches on one CPU */
	int cpu;
	int slots;           /* slots of this worker (0: one): how far ranked is planned */
	bool once;           /* do one job, then return */
	bool exit_when_idle; /* return when there is nothing left to do */
	long ranked_cap;     /* ranked matches this slot may schedule; < 0 none */
	volatile sig_atomic_t *stop; /* set by a signal: finish the job, return */
	FILE *log;
};

/* One line of the slot's log: "2026-05-01T12:00:00Z NAME: " and the text,
 * written whole by one write(2) to the stream's file (UTC, so that the
 * logs of several machines sort): slots sharing a file or pipe never mix
 * their lines, and O_APPEND keeps each line whole at the file's end. */
__attribute__((format(printf, 2, 3)))
void worker_log(const struct worker_opts *o, const char *fmt, ...);

/* Why no ranked match of game can be scheduled now, in words ("2
 * qualified players, a match needs 4", "each of the 5 qualified players
 * has its 25 ranked games"), or "" when one can or one is under way.
 * 0, or -1 when the store fails. */
struct store;
int worker_idle_reason(struct store *s, const char *game, int min_games, char *why,
		       size_t size);

/* Runs the slot until told to stop (or idle, or once).  0, or -1 with err
 * when the store cannot be used at all. */
int worker_run(const struct worker_opts *o, char err[WORKER_ERRLEN]);

#endif
