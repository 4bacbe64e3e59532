/* judge worker (also installed as judge-worker): runs N worker slots, one
 * process each, until told to stop or, with --exit-when-idle, until the
 * queue is done.  SIGTERM or SIGINT: every slot stops claiming, finishes
 * the job it runs and exits; then the worker exits 0. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/base/config_running.h"
#include "judge/base/holder.h"
#include "judge/cli/commands.h"
#include "judge/cli/in_force.h"
#include "judge/cli/options.h"
#include "judge/compile/compile.h"
#include "judge/store/store.h"
#include "judge/worker/worker.h"

#define MAX_SLOTS 256

static volatile sig_atomic_t stop_requested, reload_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_hangup(int sig)
{
	(void)sig;
	reload_requested = 1;
}

/* This process's settings in force: the slot's reload callback has only
 * the slot's options to go by. */
static struct in_force in_force;

/* Published before the log says so: whoever reads the line and asks
 * `judge config` sees what it says. */
static void reload_settings(const struct worker_opts *o)
{
	char line[1024], published[1024];
	in_force_reload(&in_force, line, sizeof line);
	bool failed = in_force_publish(&in_force, published, sizeof published) < 0;
	worker_log(o, "%s", line);
	if (failed)
		worker_log(o, "%s", published);
}

static const char summary[] =
"Takes jobs from the judge's queue and does them: compiles submissions,\n"
"plays their qualifying matches, keeps ratings, sends webhooks.  It keeps\n"
"ranked matches planned ahead until every ranked player has played the\n"
"configured minimum (worker.min_games) or --ranked-matches were scheduled.";

struct worker_args {
	const char *queue, *config;
	struct judge_config cfg;
	int64_t jobs, ranked;
	bool once, idle;
};

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct worker_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_NUM("jobs", 0, "N", &a->jobs, 1, MAX_SLOTS, NULL,
			"jobs at a time, one process each (default: the cores)"),
		OPT_BOOL("once", 0, &a->once, "do one job and exit"),
		OPT_BOOL("exit-when-idle", 0, &a->idle, "exit once nothing is left to do"),
		OPT_NUM("ranked-matches", 0, "N", &a->ranked, -1, INT64_MAX, NULL,
			"schedule at most N ranked matches (default -1: no cap)"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge-worker", .opts = opts, .summary = summary,
		.queue = &a->queue, .config = &a->config, .settings = &a->cfg,
		.epilogue = "SIGTERM or SIGINT: stop claiming, finish the running jobs, exit 0.\n"
			    "SIGHUP: each slot reads the settings again between two jobs and logs\n"
			    "what changed (`judge config` says when running slots differ from the file).\n"
			    "One line per job outcome goes to stderr.",
	};
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	*a = (struct worker_args){ .ranked = -1,
				   .jobs = cores < 1 ? 1 : cores > MAX_SLOTS ? MAX_SLOTS : cores };
	if (opt_parse(&cmd, argc, argv, status) < 0)
		return -1;
	if (a->once)
		a->jobs = 1;
	return 0;
}

static int run_slot(const struct judge_config *cfg, const struct worker_args *a, int slot,
		    long ranked)
{
	char name[HOLDER_LEN], line[512];
	err_t err;
	holder_self(name);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct judge_config settings = *cfg;
	in_force = (struct in_force){ .cfg = &settings, .path = a->config,
				      .program = "judge-worker" };
	cfgrun_dir(a->queue, in_force.dir);
	struct worker_opts o = {
		.cfg = &settings, .queue = a->queue, .name = name, .slots = (int)a->jobs,
		.once = a->once, .exit_when_idle = a->idle, .ranked_cap = ranked,
		.stop = &stop_requested, .reload = &reload_requested,
		.on_reload = reload_settings, .pin_cpu = cpus > 0,
		.cpu = cpus > 0 ? slot % (int)cpus : 0, .log = stderr,
	};
	if (in_force_publish(&in_force, line, sizeof line) < 0)
		worker_log(&o, "%s", line);
	int rc = worker_run(&o, err);
	cfgrun_withdraw(in_force.dir, in_force.program);
	if (rc < 0) {
		fprintf(stderr, "judge-worker: %s\n", err->msg);
		return 1;
	}
	return 0;
}

/* Each slot gets its share of the ranked-match cap. */
static long share(long total, int slot, long slots)
{
	return total < 0 ? -1 : total / slots + (slot < total % slots);
}

static int supervise(const struct judge_config *cfg, const struct worker_args *a)
{
	pid_t pids[MAX_SLOTS];
	int n = 0, rc = 0;
	pid_t self = getpid();
	for (; n < a->jobs; n++) {
		pids[n] = fork();
		if (pids[n] == 0) {
			/* Whatever ends the worker ends its slots, and with them
			 * their players: no slot goes on claiming jobs, or playing
			 * an old binary after an upgrade, without its worker. */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != self)
				_exit(1);
			_exit(run_slot(cfg, a, n, share(a->ranked, n, a->jobs)));
		}
		if (pids[n] < 0) {
			perror("judge-worker: fork");
			stop_requested = 1;
			break;
		}
	}
	for (int left = n; left > 0;) {
		int status;
		pid_t pid = wait(&status);
		if (pid < 0 && errno == EINTR) {
			for (int i = 0; i < n && stop_requested; i++)
				kill(pids[i], SIGTERM);
			for (int i = 0; i < n && reload_requested; i++)
				kill(pids[i], SIGHUP);
			reload_requested = 0;
			continue;
		}
		if (pid < 0)
			break;
		left--;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			rc = 1;
	}
	return rc;
}

/* Said once at start, not at the first submission: on a kernel that
 * refuses namespaces the organiser must choose, before anybody uploads. */
static int check_compile_confinement(const struct judge_config *cfg)
{
	err_t err;
	uid_t uid = geteuid() == 0 ? cfg->sandbox.uid_base : 0;
	if (cmp_check_confinement(&cfg->compile, uid, uid, err) < 0) {
		fprintf(stderr, "judge-worker: %s\n", err->msg);
		return -1;
	}
	if (cfg->compile.unconfined)
		fprintf(stderr, "judge-worker: WARNING: compile.unconfined is set: gcc will run "
			"with the whole machine visible to it\n");
	return 0;
}

int cmd_worker(int argc, char **argv)
{
	struct worker_args a;
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	/* Fail early, in the parent, on a database that cannot be used. */
	err_t serr;
	struct store *s = store_open(a.queue, true, serr);
	if (!s || worker_take_over(s, stderr, serr) < 0) {
		fprintf(stderr, "judge-worker: %s\n", serr->msg);
		store_close(s);
		return 2;
	}
	store_close(s);
	if (check_compile_confinement(&a.cfg) < 0)
		return 2;
	char line[2048];
	in_force = (struct in_force){ .cfg = &a.cfg, .path = a.config };
	in_force_said(&in_force, line, sizeof line);
	fprintf(stderr, "judge-worker: %s\n", line);
	struct sigaction sa = { .sa_handler = on_stop }, hup = { .sa_handler = on_hangup };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &hup, NULL);
	signal(SIGPIPE, SIG_IGN);
	return a.jobs == 1 ? run_slot(&a.cfg, &a, 0, a.ranked) : supervise(&a.cfg, &a);
}
