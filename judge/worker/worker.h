/* worker.h - one worker slot: claims jobs from the store and does them.
 *
 * Jobs: compile (a submission; on success its qualifying matches are
 * queued), match (qualifying or ranked: played in the sandbox, recorded
 * with its replay and, if ranked, the rating updates in one transaction,
 * exactly once), notify (one webhook delivery), claimed in the order of
 * judge/store/sched.h.  While each job runs, and when idle, a slot tops up
 * each game's queue of ranked matches (matchmaking) so that no slot waits
 * for a batch and the next job is claimed as soon as one is recorded,
 * until every ranked player has the configured minimum of games or the cap
 * is reached; an idle slot looks again after 20 ms, waiting up to 200 ms
 * while nothing comes.  A slot holds two store connections: the job's, and
 * one a second thread uses while the job runs to plan ahead and renew the
 * job's lease.  It
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
#include "judge/worker/slot.h"
#include "judge/base/error.h"


/* Why no ranked match of game can be scheduled now, in words ("2
 * qualified players, a match needs 4", "each of the 5 qualified players
 * has its 25 ranked games"), or "" when one can or one is under way.
 * 0, or -1 when the store fails. */
struct store;
int worker_idle_reason(struct store *s, const char *game, int min_games, char *why,
		       size_t size);

/* Ends the leases of the jobs held by worker slots of this host that are
 * provably gone (judge/base/holder.h), so that a restarted worker takes
 * them at once instead of waiting out their leases; log gets one line
 * per dead holder.  0, or -1 with err. */
int worker_take_over(struct store *s, FILE *log, err_t err);

/* Runs the slot until told to stop (or idle, or once).  0, or -1 with err
 * when the store cannot be used at all. */
int worker_run(const struct worker_opts *o, err_t err);

#endif
