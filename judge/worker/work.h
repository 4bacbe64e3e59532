/* work.h - what the worker's job handlers share (judge/work_*.c). */
#ifndef JUDGE_WORK_H
#define JUDGE_WORK_H

#include <jansson.h>
#include <sys/stat.h>

#include "judge/plag/plag_winnow.h"
#include "judge/store/store.h"
#include "judge/worker/worker.h"

/* A cached binary whose bytes this worker checked, and the file as it was
 * then: while stat() says the same file, its hash needs no new reading. */
struct work_checked {
	char sha[65];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};
#define WORK_CHECKED_MAX 32

struct work {
	const struct worker_opts *o;
	struct store *store;
	struct store_job job;
	json_t *payload;
	char outcome[512]; /* the job's log line, filled by its handler */
	bool permanent;    /* the failure cannot be cured by retrying */
	char idle[512];    /* why work_schedule() queued nothing, per game */
	struct work_checked checked[WORK_CHECKED_MAX]; /* round robin */
	int nchecked;
};

/* Each handler does its job and, in the same transaction as its results,
 * marks it done.  -1 with err when it failed (the worker then retries it
 * later or parks it). */
int work_compile(struct work *w, err_t err);
int work_match(struct work *w, err_t err);
int work_notify(struct work *w, err_t err);

/* Tops up each game's queue of ranked matches to
 * sched_ranked_ahead(slots) while players lack games, queueing at most
 * `room` in all; sets *queued, and w->idle to why the games it could not
 * schedule wait.  0 or -1. */
int work_schedule(struct work *w, long room, int *queued, err_t err);

/* Inside a transaction: ends a submission's qualification (qualified:
 * rated from the initial rating, older submissions of its player leave the
 * ranked pool), with the note the contestant reads (which step refused it
 * and why). */
int work_conclude(struct work *w, int64_t submission, bool passed, const char *note,
		  err_t err);

/* Inside the compile job's transaction: the first step of a compiled
 * submission's qualification queued (work_qualify.c), or its verdict when
 * no match is asked. */
int work_qualify_begin(struct work *w, const struct store_submission *sub,
		       err_t err);
/* Inside a qualifying match's transaction (the payload w->payload): the
 * next step queued, or the verdict; note says which. */
struct match_result;
int work_qualify_after(struct work *w, int64_t submission, const char *game,
		       const struct match_result *r, char *note, size_t cap,
		       err_t err);

/* Inside a transaction: records an event for a submission and queues a
 * notify job for every webhook that wants it. */
int work_event(struct work *w, const char *kind, int64_t submission, json_t *data,
	       err_t err);

/* Plagiarism for a compile job.  First, outside any transaction, the
 * submission's fingerprints (fp_error empty) or why it has none.  Then,
 * inside the job's transaction, they are stored, indexed and compared with
 * every earlier file of the game, and a plagiarism.flagged event goes out
 * when one is over the threshold.  A submission is fingerprinted once. */
void work_plag_fingerprint(struct work *w, const char *game, const char *src, size_t len,
			   struct plag_fps *fps, err_t fp_error);
int work_plag_record(struct work *w, const struct store_submission *sub,
		     const struct plag_fps *fps, const char *fp_error, err_t err);

/* Moves on the tournaments whose next step waits for a time (a phase's
 * start, a deadline, a gap between rounds), each in its own transaction,
 * at most once a second (*last_ms: when it last did). */
void work_tick_events(struct work *w, int64_t *last_ms);

/* Inside a transaction: the job still ours, then marked done. */
int work_done(struct work *w, err_t err);

#endif
