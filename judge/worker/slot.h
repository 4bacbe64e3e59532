/* slot.h - one worker slot's settings, and its log.
 *
 * Apart from worker.h so that the jobs (work_*.c), which log through
 * worker_log(), use no more of the slot than its settings.
 */
#ifndef JUDGE_SLOT_H
#define JUDGE_SLOT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "judge/base/config.h"

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
	/* Set by a signal (SIGHUP): between two jobs the slot clears it and
	 * calls on_reload, which may change *cfg (the settings are read only
	 * between jobs). */
	volatile sig_atomic_t *reload;
	void (*on_reload)(const struct worker_opts *o);
	FILE *log;
};

/* One line of the slot's log, by the slot's name (judge/base/log.h). */
__attribute__((format(printf, 2, 3)))
void worker_log(const struct worker_opts *o, const char *fmt, ...);

#endif
