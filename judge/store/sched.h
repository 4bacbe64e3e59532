/* sched.h - one policy for all the work the judge queues.
 *
 * Every job belongs to a class, and its class alone decides when it runs.
 * The classes, most urgent first (sched_classes[] holds the figures):
 *
 *   class       priority  max pause  what it is
 *   notify         90        -       a webhook delivery: tiny, never held behind matches
 *   qualifying     80        -       a new submission's qualifying matches, queued when
 *                                    its compile ends, so they start before the next compile
 *   compile        70        -       a submission's compile and fingerprints
 *   tournament     60      10 s      a tournament phase's matches
 *   ranked         40       5 s      the ladder's rated matches
 *   comparison     30      60 s      a version comparison's paired matches
 *   challenge      20      30 s      a contestant's unrated challenge
 *
 * The rule.  A claim takes the claimable job of the highest priority,
 * oldest first, except that a class with a max pause is served first when
 * it has a job that has waited longer than its pause and nothing of the
 * class was claimed for as long (the one starved longest first).  So a
 * burst of uploads runs its compiles and qualifying matches first, yet the
 * ladder plays at least one match every 5 s of it; and 100 challenges
 * queued take at most one claim every 30 s from a qualification, never a
 * run of claims.
 *
 * The store keeps, per class (by priority), the time a job of it was last
 * claimed (job_classes.served_at), and per job the time it becomes overdue
 * (jobs.due_at: queued, or claimable if later, + max pause); the claim
 * reads both in the transaction that takes the job, on SQLite and on
 * PostgreSQL alike, so every worker on every machine follows one policy.
 * A worker writes this table into the store when it starts
 * (store_publish_classes), so a policy change needs no migration.
 *
 * The ladder is planned ahead: while each job runs a slot tops up the
 * ranked queue of each game to sched_ranked_ahead(slots) matches once half of
 * them were taken, counting the games of queued and running ranked matches
 * as played, so no slot waits for a batch to finish and no player is
 * over-scheduled.
 *
 * This lives beside the store, not in the worker: the store (a
 * submission's compile job) and the webhooks queue work too, and both sit
 * below the worker.
 */
#ifndef JUDGE_SCHED_H
#define JUDGE_SCHED_H

#include <stdint.h>

enum sched_class {
	SCHED_NOTIFY,
	SCHED_QUALIFYING,
	SCHED_COMPILE,
	SCHED_TOURNAMENT,
	SCHED_RANKED,
	SCHED_COMPARISON,
	SCHED_CHALLENGE,
	SCHED_CLASSES
};

struct sched_class_info {
	const char *name;
	int priority;          /* higher runs first; unique per class */
	int64_t max_pause_ms;  /* 0: no promise, runs only when nothing above waits */
};

extern const struct sched_class_info sched_classes[SCHED_CLASSES];

/* When a job of cls queued at now, claimable from not_before, is overdue;
 * 0 for a class without a max pause. */
int64_t sched_due_at(enum sched_class cls, int64_t now, int64_t not_before);

/* How many ranked matches of a game a worker of `slots` slots keeps
 * queued: planned again once half of them were taken, so every slot still
 * finds one when it ends its job, and planning is paid once every few
 * matches. */
int sched_ranked_ahead(int slots);

#endif
