#include "judge/worker/worker.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge/base/holder.h"
#include "judge/notify/webhook.h"
#include "judge/worker/work.h"

/* ---- beside the job ----------------------------------------------------- */

/* While a job runs, a second thread on the slot's second connection
 * (struct beside) first tops up the ranked queues, so that the next batch
 * is planned while this match plays and the slot claims its next job as
 * soon as this one is recorded, then renews the job's lease (a match may
 * run longer than a lease). */
struct beside {
	struct work plan;     /* its own connection; NULL while it cannot open */
	long *left;           /* ranked matches this slot may still queue */
	char *said;           /* the slot's last idle reason */
};

struct renewer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool done;
	struct beside *b;
	int64_t job;
};

static bool plan_ranked(struct work *w, long *left, bool idle, char said[sizeof w->idle]);

static void *renew_loop(void *arg)
{
	struct renewer *r = arg;
	struct beside *b = r->b;
	const struct worker_opts *o = b->plan.o;
	err_t err;
	if (!b->plan.store)
		b->plan.store = store_open(o->queue, false, err);
	if (b->plan.store)
		plan_ranked(&b->plan, b->left, false, b->said);
	pthread_mutex_lock(&r->lock);
	while (!r->done) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		int64_t step = (int64_t)o->cfg->worker.lease_ms / 3;
		until.tv_sec += step / 1000;
		until.tv_nsec += (step % 1000) * 1000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&r->wake, &r->lock, &until) == ETIMEDOUT && b->plan.store)
			store_renew(b->plan.store, r->job, o->name, (int64_t)o->cfg->worker.lease_ms,
				    err);
	}
	pthread_mutex_unlock(&r->lock);
	/* A connection the server dropped is opened anew for the next job. */
	if (b->plan.store && store_unreachable(b->plan.store)) {
		store_close(b->plan.store);
		b->plan.store = NULL;
	}
	return NULL;
}

static bool renewer_start(struct renewer *r, struct beside *b, int64_t job)
{
	*r = (struct renewer){ .b = b, .job = job };
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	return pthread_create(&r->thread, NULL, renew_loop, r) == 0;
}

static void renewer_stop(struct renewer *r)
{
	pthread_mutex_lock(&r->lock);
	r->done = true;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
}

/* ---- one job --------------------------------------------------------------- */

static int dispatch(struct work *w, err_t err)
{
	json_error_t jerr;
	w->payload = json_loads(w->job.payload, 0, &jerr);
	if (!w->payload) {
		err_set(err, "the job's payload is not JSON: %s", jerr.text);
		return -1;
	}
	if (strcmp(w->job.kind, "compile") == 0)
		return work_compile(w, err);
	if (strcmp(w->job.kind, "match") == 0)
		return work_match(w, err);
	if (strcmp(w->job.kind, "notify") == 0)
		return work_notify(w, err);
	err_set(err, "unknown job kind '%s'", w->job.kind);
	return -1;
}

/* A job's tries: webhooks have their own cap; other jobs the worker's. */
static int attempt_cap(const struct work *w)
{
	const struct judge_config *cfg = w->o->cfg;
	if (w->permanent)
		return w->job.attempts;
	return strcmp(w->job.kind, "notify") == 0 ? (int)cfg->hooks.max_attempts
						  : (int)cfg->worker.max_attempts;
}

/* Retries wait a little longer each time: 1 s, 2 s, 4 s... (the webhook
 * schedule, which suits every job). */
static int64_t retry_at(int attempts)
{
	return store_now_ms() + hook_backoff_ms((unsigned)attempts + 1);
}

static void run_job(struct work *w, struct beside *b)
{
	const struct worker_opts *o = w->o;
	err_t err = {0};
	err_t serr;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct renewer r;
	bool renewing = renewer_start(&r, b, w->job.id);
	int rc = dispatch(w, err);
	if (renewing)
		renewer_stop(&r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (rc == 0) {
		worker_log(o, "job %lld %s: %s (%.2f s)", (long long)w->job.id, w->job.kind,
			   w->outcome, secs);
	} else {
		int cap = attempt_cap(w);
		bool last = w->job.attempts >= cap;
		const char *game = json_string_value(json_object_get(w->payload, "game"));
		bool gone = store_unreachable(w->store);
		worker_log(o, "job %lld %s%s%s failed (attempt %d): %s%s", (long long)w->job.id,
			   w->job.kind, game ? " of " : "", game ? game : "", w->job.attempts,
			   err->msg, gone ? "; nothing of it was recorded: it will be done again"
			   : last ? "; parked" : "; will retry");
		store_rollback(w->store);
		/* The server's fault, not the job's: given back untouched (or, the
		 * server still away, taken over when its lease ends). */
		if (gone)
			store_release(w->store, w->job.id, o->name, serr);
		else
			store_fail(w->store, w->job.id, o->name, err->msg, retry_at(w->job.attempts),
				   cap, serr);
	}
	fflush(o->log);
	json_decref(w->payload);
	w->payload = NULL;
	w->permanent = false;
}

/* ---- the loop ---------------------------------------------------------- */

static void nap(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Says why the slot has nothing to do, once each time the reason changes
 * (a worker waiting in silence looks like a broken one). */
static void say_idle(struct work *w, const char *why, char said[sizeof w->idle])
{
	if (strcmp(why, said) == 0)
		return;
	snprintf(said, sizeof w->idle, "%s", why);
	worker_log(w->o, "nothing to do: %s", *why ? why : "no job waits and no game has "
		   "qualified players to schedule");
}

/* Tops up the ranked queues (work_schedule); when the slot is idle, says
 * why nothing could be queued.  true if some matches were queued. */
static bool plan_ranked(struct work *w, long *left, bool idle, char said[sizeof w->idle])
{
	err_t err;
	int queued = 0;
	if (*left == 0) {
		if (idle)
			say_idle(w, "the --ranked-matches cap is reached", said);
		return false;
	}
	if (work_schedule(w, *left < 0 ? LONG_MAX : *left, &queued, err) < 0) {
		worker_log(w->o, "scheduling failed: %s", err->msg);
		return false;
	}
	if (*left > 0)
		*left -= queued;
	if (queued > 0)
		said[0] = '\1'; /* busy again: the next idle spell is said anew */
	else if (idle)
		say_idle(w, w->idle, said);
	return queued > 0;
}

/* An idle slot looks again soon (work queued by an upload or another
 * slot's plan starts within tens of ms), then less often while nothing
 * comes: 20, 40, 80, 160, 200 ms. */
static int64_t idle_wait_ms(int64_t last_ms)
{
	return last_ms < 20 ? 20 : last_ms >= 100 ? 200 : last_ms * 2;
}

/* A job whose worker died this often is parked when claimed; the larger
 * cap, so that no kind of job is parked before its own cap. */
static int claim_cap(const struct judge_config *cfg)
{
	unsigned a = cfg->worker.max_attempts, b = cfg->hooks.max_attempts;
	return (int)(a > b ? a : b);
}

static void say(void *ctx, const char *message)
{
	worker_log(ctx, "%s", message);
}

/* A claim failed: said once, then retried after a wait that grows (250 ms
 * to 10 s) while it goes on failing. */
static void claim_failed(const struct worker_opts *o, const char *why, int64_t *nap_ms)
{
	if (*nap_ms == 0)
		worker_log(o, "%s; retrying until it answers", why);
	*nap_ms = store_backoff_ms(*nap_ms);
	nap((int)*nap_ms);
}

/* How long a worker started while its server is away waits for it. */
#define WORKER_OPEN_WAIT_MS (10 * 60 * 1000)

int worker_take_over(struct store *s, FILE *log, err_t err)
{
	json_t *holders = store_holders(s, err);
	if (!holders)
		return -1;
	size_t i;
	json_t *h;
	int rc = 0;
	json_array_foreach(holders, i, h) {
		const char *name = json_string_value(json_object_get(h, "worker"));
		int64_t jobs;
		if (!name || !holder_gone(name))
			continue;
		if ((rc = store_expire_holder(s, name, &jobs, err)) < 0)
			break;
		fprintf(log, "judge-worker: %lld running job%s of %s taken over: that worker is "
			"gone\n", (long long)jobs, jobs == 1 ? "" : "s", name);
	}
	json_decref(holders);
	return rc;
}

int worker_run(const struct worker_opts *o, err_t err)
{
	struct work w = { .o = o };
	w.store = store_open_patient(o->queue, true, WORKER_OPEN_WAIT_MS, say, (void *)o, err);
	if (!w.store)
		return -1;
	err_t serr;
	if (store_publish_classes(w.store, serr) < 0)
		worker_log(o, "%s; claims follow the classes the store holds", serr->msg);
	long left = o->ranked_cap;
	char said[sizeof w.idle] = "\1"; /* nothing said yet */
	struct beside b = { .plan = { .o = o }, .left = &left, .said = said };
	int64_t nap_ms = 0;  /* while claims fail: the last wait */
	int64_t idle_ms = 0; /* while idle: the last wait */
	int64_t ticked_ms = 0; /* when tournaments were last moved on */
	while (!*o->stop) {
		if (o->reload && *o->reload && o->on_reload) {
			*o->reload = 0;
			o->on_reload(o);
		}
		work_tick_events(&w, &ticked_ms);
		int got = store_claim(w.store, o->name, (int64_t)o->cfg->worker.lease_ms,
				      claim_cap(o->cfg), &w.job, serr);
		if (got < 0) {
			claim_failed(o, serr->msg, &nap_ms);
			continue;
		}
		if (nap_ms) {
			worker_log(o, "the queue answers again: carrying on");
			nap_ms = 0;
		}
		if (got == 1) {
			said[0] = '\1';
			idle_ms = 0;
			run_job(&w, &b);
			store_job_clear(&w.job);
			if (o->once)
				break;
			continue;
		}
		if (plan_ranked(&w, &left, true, said))
			continue;
		int64_t pending = 0;
		if (o->exit_when_idle && store_pending(w.store, &pending, serr) == 0 && pending == 0)
			break;
		nap((int)(idle_ms = idle_wait_ms(idle_ms)));
	}
	store_close(b.plan.store);
	store_close(w.store);
	return 0;
}
