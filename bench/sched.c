/* sched.c - the scheduling policy (judge/store/sched.h) seen from outside:
 * the real judge-worker (2 slots) on a private PostgreSQL 15 server, with
 * 4 qualified Dominator Demos playing the ladder.  A sampler reads the
 * queue every 10 ms.  Figures, measured in one run:
 *   - the slots' busy share during the ladder alone: the mean number of
 *     jobs running over the slots (goal >= 95%: no slot waits for a batch
 *     of ranked matches to be planned);
 *   - then a burst of BURST uploads at once (each a compile and a
 *     qualifying match): the longest time in it with no ranked match
 *     running (goal <= 5 s: the ladder's max pause), how long the burst's
 *     work took, and the ranked matches played meanwhile.
 * A slot is busy from the claim to the commit that ends its job, so the
 * round trips between two jobs count as idle (a loaded machine's slower
 * round trips show).  The pause is the rule's 5 s plus the wait for a
 * slot to end the job it holds.  Usage: bench-sched [JUDGE]; with the
 * JUDGE of an older build (its schema) the same figures for comparison.
 * It prints, it never fails on speed. */
#include <errno.h>
#include <libpq-fe.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "tests/unit/pg_testlib.h"

#define SLOTS 2
#define BURST ((int)bench_size(20, 4))
#define LADDER_S ((int)bench_size(8, 1))
#define SAMPLE_MS 10
#define PAUSE_GOAL_S 5.0
#define BUSY_GOAL 0.95

static struct pg_server pg;
static char dir[PATH_MAX], url[512], cfg[PATH_MAX + 16];
static const char *judge = "build/judge";
static pid_t worker_pid;

static void cleanup(void)
{
	bench_stop(&worker_pid);
	if (pg.running)
		pg_server_stop(&pg);
	bench_remove_dir("bench-sched", dir);
}

static _Noreturn void die(const char *what, const char *why)
{
	bench_fail("bench-sched", cleanup, what, why);
}

static void run(const char *cmd)
{
	if (system(cmd) == 0)
		return;
	char log[PATH_MAX + 32];
	snprintf(log, sizeof log, "tail -5 %s/qualify.log 1>&2", dir);
	if (system(log) != 0)
		fprintf(stderr, "bench-sched: no log\n");
	die("command failed", cmd);
}

/* The Demo under name, uploaded by its own author. */
static void upload(const char *name)
{
	char cmd[4 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AIDemo.c > %s/AI%s.c && JUDGE_CONFIG=%s %s submit "
		 "%s/AI%s.c --game dominator --author a%s --queue '%s' > /dev/null", name, dir, name,
		 cfg, judge, dir, name, name, url);
	run(cmd);
}

static void setup(void)
{
	char tmpl[] = "build/bench-sched-XXXXXX";
	err_t err;
	if (mkdir("build", 0755) < 0 && errno != EEXIST)
		die("mkdir build", strerror(errno));
	if (!mkdtemp(tmpl) || !realpath(tmpl, dir))
		die("mkdtemp", strerror(errno));
	chmod(dir, 0755);
	char pgdir[PATH_MAX + 8];
	snprintf(pgdir, sizeof pgdir, "%s/pg", dir);
	if (mkdir(pgdir, 0755) < 0 || pg_server_start(&pg, pgdir, true, err) < 0)
		die("starting PostgreSQL", err->msg);
	if (pg_server_createdb(&pg, "sched", url, sizeof url, err) < 0)
		die("createdb", err->msg);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	FILE *f = fopen(cfg, "w");
	if (!f)
		die("writing the config", strerror(errno));
	fprintf(f, "{ \"worker\": { \"qualify_matches\": 1, \"qualify_wins\": 0,"
		   " \"qualify_opponent\": \"Null\", \"min_games\": 100000, \"seed_secret\": \"bench\" },"
		   "  \"compile\": { \"cache_dir\": \"%s/cache\" } }\n", dir);
	fclose(f);
}

static void start_worker(void)
{
	char slots[8], log[PATH_MAX + 16];
	snprintf(slots, sizeof slots, "%d", SLOTS);
	snprintf(log, sizeof log, "%s/worker.log", dir);
	char worker[PATH_MAX];
	snprintf(worker, sizeof worker, "%s-worker", judge);
	worker_pid = fork();
	if (worker_pid < 0)
		die("fork", strerror(errno));
	if (worker_pid == 0) {
		setenv("JUDGE_CONFIG", cfg, 1);
		if (!freopen(log, "w", stderr))
			_exit(127);
		execl(worker, worker, "--queue", url, "--jobs", slots, (char *)NULL);
		_exit(127);
	}
}

/* ---- the sampler ----------------------------------------------------------- */

struct sample {
	int running;     /* jobs held by a slot */
	int ranked;      /* of them, ranked matches */
	int burst_left;  /* compiles and qualifying matches queued or running */
};

static struct sample sample(PGconn *pc)
{
	PGresult *r = PQexec(pc,
		"SELECT count(*) FILTER (WHERE state = 'running'),"
		" count(*) FILTER (WHERE state = 'running' AND payload LIKE '%\"ranked\"%'),"
		" count(*) FILTER (WHERE kind = 'compile' OR payload LIKE '%\"qualifying\"%')"
		" FROM jobs WHERE state IN ('queued', 'running')");
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		die("sampling the queue", PQerrorMessage(pc));
	struct sample s = { atoi(PQgetvalue(r, 0, 0)), atoi(PQgetvalue(r, 0, 1)),
			    atoi(PQgetvalue(r, 0, 2)) };
	PQclear(r);
	return s;
}

static int ranked_played(PGconn *pc)
{
	PGresult *r = PQexec(pc, "SELECT count(*) FROM matches WHERE kind = 'ranked'");
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		die("counting matches", PQerrorMessage(pc));
	int n = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return n;
}

static void nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static double secs_since(uint64_t t0)
{
	return (bench_now_ns() - t0) / 1e9;
}

/* The mean share of the slots busy over seconds of the ladder. */
static double ladder_busy(PGconn *pc, int seconds)
{
	uint64_t t0 = bench_now_ns();
	long busy = 0, samples = 0;
	while (secs_since(t0) < seconds) {
		struct sample s = sample(pc);
		busy += s.running < SLOTS ? s.running : SLOTS;
		samples++;
		nap_ms(SAMPLE_MS);
	}
	return samples ? (double)busy / (samples * SLOTS) : 0;
}

struct burst {
	double longest_pause_s, took_s;
	int ranked_during;
};

/* Uploads BURST players at once, then samples until their work is done:
 * the longest stretch without a ranked match running. */
static struct burst burst(PGconn *pc)
{
	int before = ranked_played(pc);
	uint64_t t0 = bench_now_ns(), last_ranked = t0, longest = 0;
	for (int i = 0; i < BURST; i++) {
		char name[16];
		snprintf(name, sizeof name, "Up%c%c", 'A' + i / 26, 'a' + i % 26);
		upload(name);
	}
	for (;;) {
		struct sample s = sample(pc);
		uint64_t now = bench_now_ns();
		if (s.ranked > 0)
			last_ranked = now;
		if (now - last_ranked > longest)
			longest = now - last_ranked;
		if (s.burst_left == 0)
			break;
		if (secs_since(t0) > 600)
			die("the burst", "not done after 10 minutes");
		nap_ms(SAMPLE_MS);
	}
	return (struct burst){ .longest_pause_s = longest / 1e9, .took_s = secs_since(t0),
			       .ranked_during = ranked_played(pc) - before };
}

int main(int argc, char **argv)
{
	if (argc > 1)
		judge = argv[1];
	setup();
	static const char *const seeds[] = { "Ann", "Bea", "Cid", "Dan" };
	for (int i = 0; i < 4; i++)
		upload(seeds[i]);
	char cmd[4 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s-worker --queue '%s' --jobs %d --exit-when-idle"
		 " --ranked-matches 0 2> %s/qualify.log", cfg, judge, url, SLOTS, dir);
	run(cmd);
	PGconn *pc = PQconnectdb(url);
	if (PQstatus(pc) != CONNECTION_OK)
		die("PQconnectdb", PQerrorMessage(pc));
	start_worker();
	nap_ms(1000); /* the first plan, the first matches */
	double busy = ladder_busy(pc, LADDER_S);
	struct burst b = burst(pc);
	PQfinish(pc);
	printf("scheduling: judge-worker --jobs %d on PostgreSQL 15 (cluster in %s), 4 qualified\n"
	       "Dominator Demos on the ladder; the queue sampled every %d ms\n", SLOTS, pg.dir,
	       SAMPLE_MS);
	printf("  slots busy during the ladder (%d s)          %6.1f%%   (goal >= %.0f%%: %s)\n",
	       LADDER_S, 100 * busy, 100 * BUSY_GOAL, busy >= BUSY_GOAL ? "met" : "NOT met");
	printf("  a burst of %d uploads (compile + 1 qualifying match each):\n", BURST);
	printf("    longest pause of ranked work              %6.2f s  (goal <= %.0f s: %s)\n",
	       b.longest_pause_s, PAUSE_GOAL_S, b.longest_pause_s <= PAUSE_GOAL_S ? "met" : "NOT met");
	printf("    the burst's work done in                  %6.2f s\n", b.took_s);
	printf("    ranked matches played meanwhile           %6d\n", b.ranked_during);
	cleanup();
	return 0;
}
