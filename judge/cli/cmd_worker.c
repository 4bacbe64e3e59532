/* judge worker (also installed as judge-worker): runs N worker slots, one
 * process each, until told to stop or, with --exit-when-idle, until the
 * queue is done.  SIGTERM or SIGINT: every slot stops claiming, finishes
 * the job it runs and exits; then the worker exits 0. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/cli/commands.h"
#include "judge/compile/compile.h"
#include "judge/store/store.h"
#include "judge/worker/worker.h"

#define MAX_SLOTS 256

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge-worker [--queue FILE] [--jobs N] [--once] [--exit-when-idle]\n"
"                    [--ranked-matches N] [--config FILE]\n"
"\n"
"Takes jobs from the judge's queue and does them: compiles submissions,\n"
"plays their qualifying matches, keeps ratings, sends webhooks.  It keeps\n"
"ranked matches planned ahead until every ranked player has played the\n"
"configured minimum (worker.min_games) or --ranked-matches were scheduled.\n"
"\n"
"  --queue FILE        the judge's database (default db/jobs.sqlite)\n"
"  --jobs N            jobs at a time, one process each (default: the cores)\n"
"  --once              do one job and exit\n"
"  --exit-when-idle    exit once nothing is left to do\n"
"  --ranked-matches N  schedule at most N ranked matches\n"
"  --config FILE       settings (without it: $JUDGE_CONFIG, else config/judge.json\n"
"                      in the data directory; `judge config` shows which)\n"
"\n"
"SIGTERM or SIGINT: stop claiming, finish the running jobs, exit 0.\n"
"One line per job outcome goes to stderr.\n");
}

struct worker_args {
	const char *queue, *config;
	long jobs, ranked;
	bool once, idle;
};

static int parse_args(int argc, char **argv, struct worker_args *a)
{
	static const struct option longopts[] = {
		{ "queue", 1, 0, 'q' }, { "jobs", 1, 0, 'j' }, { "once", 0, 0, 'o' },
		{ "exit-when-idle", 0, 0, 'x' }, { "ranked-matches", 1, 0, 'r' },
		{ "config", 1, 0, 'C' }, { "help", 0, 0, 'h' }, { 0 },
	};
	*a = (struct worker_args){ .queue = STORE_DEFAULT_PATH, .jobs = sysconf(_SC_NPROCESSORS_ONLN),
				   .ranked = -1 };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case 'q': a->queue = optarg; break;
		case 'j': a->jobs = strtol(optarg, &end, 10); break;
		case 'o': a->once = true; break;
		case 'x': a->idle = true; break;
		case 'r': a->ranked = strtol(optarg, &end, 10); break;
		case 'C': a->config = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
		if (end && (*end || end == optarg)) {
			fprintf(stderr, "judge-worker: '%s' is not a number\n", optarg);
			return -1;
		}
	}
	if (optind < argc || a->jobs < 1 || a->jobs > MAX_SLOTS || a->ranked < -1) {
		fprintf(stderr, "judge-worker: bad arguments (see --help)\n");
		return -1;
	}
	if (a->once)
		a->jobs = 1;
	return 0;
}

static int run_slot(const struct judge_config *cfg, const struct worker_args *a, int slot,
		    long ranked)
{
	char name[128], host[64] = "host", err[WORKER_ERRLEN];
	gethostname(host, sizeof host - 1);
	snprintf(name, sizeof name, "%s:%d", host, (int)getpid());
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct worker_opts o = {
		.cfg = cfg, .queue = a->queue, .name = name, .slots = (int)a->jobs, .once = a->once,
		.exit_when_idle = a->idle, .ranked_cap = ranked, .stop = &stop_requested,
		.pin_cpu = cpus > 0, .cpu = cpus > 0 ? slot % (int)cpus : 0, .log = stderr,
	};
	if (worker_run(&o, err) < 0) {
		fprintf(stderr, "judge-worker: %s\n", err);
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
	for (; n < a->jobs; n++) {
		pids[n] = fork();
		if (pids[n] == 0)
			_exit(run_slot(cfg, a, n, share(a->ranked, n, a->jobs)));
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
	char err[CMP_ERRLEN];
	uid_t uid = geteuid() == 0 ? cfg->sandbox.uid_base : 0;
	if (cmp_check_confinement(&cfg->compile, uid, uid, err) < 0) {
		fprintf(stderr, "judge-worker: %s\n", err);
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
	struct judge_config cfg;
	char err[CFG_ERRLEN];
	if (parse_args(argc, argv, &a) < 0)
		return 2;
	if (cfg_init(&cfg, a.config, err) < 0) {
		fprintf(stderr, "judge-worker: %s\n", err);
		return 2;
	}
	/* Fail early, in the parent, on a database that cannot be used. */
	char serr[STORE_ERRLEN];
	struct store *s = store_open(a.queue, true, serr);
	if (!s) {
		fprintf(stderr, "judge-worker: %s\n", serr);
		return 2;
	}
	store_close(s);
	if (check_compile_confinement(&cfg) < 0)
		return 2;
	struct sigaction sa = { .sa_handler = on_stop };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return a.jobs == 1 ? run_slot(&cfg, &a, 0, a.ranked) : supervise(&cfg, &a);
}
