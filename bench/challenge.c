/* challenge.c - does a queue of challenges delay a new submission's
 * qualification?  Two stores (SQLite), set up alike: four qualified
 * Dominator Demos on the ladder, each store with its own real judge-worker
 * (one slot each, both running at once, so both see the same machine);
 * one of them also holds CHALLENGES queued challenge matches.  Each round
 * uploads a new player to both at the same moment and times each until
 * its qualification is over (compile and qualifying matches).  Printed:
 * the median time to qualification without and with the challenges, and
 * their ratio (goal <= 1.1: challenges run below qualifying work,
 * sched.h).  Usage: bench-challenge [JUDGE].  It prints, it never fails on
 * speed. */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/base/file_write.h"
#include "judge/store/store.h"

#define CHALLENGES ((int)bench_size(100, 20))
#define ROUNDS ((int)bench_size(5, 1))
#define RATIO_GOAL 1.1

enum { PLAIN, BUSY, STORES };

static char dir[PATH_MAX], cfg[PATH_MAX + 16], queue[STORES][PATH_MAX + 32];
static const char *judge = "build/judge";
static pid_t workers[STORES];

static void cleanup(void)
{
	for (int i = 0; i < STORES; i++)
		bench_stop(&workers[i]);
	bench_remove_dir("bench-challenge", dir);
}

static _Noreturn void die(const char *what, const char *why)
{
	bench_fail("bench-challenge", cleanup, what, why);
}

/* Runs cmd; a failure ends the benchmark. */
static void run(const char *cmd)
{
	if (system(cmd) != 0)
		die("command failed", cmd);
}

/* The Demo as player name in store q: the new submission's id. */
static int64_t upload(int q, const char *name)
{
	char cmd[4 * PATH_MAX], out[64] = "";
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AIDemo.c > %s/AI%s.c && JUDGE_CONFIG=%s %s submit "
		 "%s/AI%s.c --game dominator --author a%s --queue '%s'", name, dir, name, cfg, judge,
		 dir, name, name, queue[q]);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(out, sizeof out, p) || pclose(p) != 0)
		die("uploading", name);
	return strtoll(out, NULL, 10);
}

static void setup(void)
{
	char tmpl[] = "build/bench-challenge-XXXXXX";
	if (mkdir("build", 0755) < 0 && errno != EEXIST)
		die("mkdir build", strerror(errno));
	if (!mkdtemp(tmpl) || !realpath(tmpl, dir))
		die("mkdtemp", strerror(errno));
	chmod(dir, 0755);
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	char settings[PATH_MAX + 512];
	err_t ferr;
	int len = snprintf(settings, sizeof settings, "{ \"worker\": { \"qualify_matches\": 4, "
		"\"qualify_wins\": 0, \"qualify_opponent\": \"Dummy\", \"min_games\": 100000, "
		"\"seed_secret\": \"bench\" }, \"compile\": { \"cache_dir\": \"%s/cache\" }, "
		"\"contest\": { \"challenges_per_hour\": 100000 } }\n", dir);
	if (file_write_whole(cfg, settings, (size_t)len, 0644, ferr) < 0)
		die("writing the settings", ferr->msg);
	static const char *const ladder[] = { "Ann", "Bea", "Cid", "Dan" };
	for (int q = 0; q < STORES; q++) {
		snprintf(queue[q], sizeof queue[q], "%s/%s.sqlite", dir, q == PLAIN ? "plain" : "busy");
		for (int i = 0; i < 4; i++)
			upload(q, ladder[i]);
		char cmd[6 * PATH_MAX];
		snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s-worker --queue '%s' --jobs 2 "
			 "--exit-when-idle --ranked-matches 0 2> %s/qualify.log", cfg, judge, queue[q],
			 dir);
		run(cmd);
	}
	for (int k = 0; k < CHALLENGES / 20; k++) {
		char cmd[6 * PATH_MAX];
		snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s challenge --game dominator Ann Bea Dummy "
			 "Demo -n 20 --author aAnn --queue '%s' > /dev/null", cfg, judge, queue[BUSY]);
		run(cmd);
	}
}

static void start_worker(int q)
{
	char log[PATH_MAX + 32], worker[PATH_MAX];
	snprintf(log, sizeof log, "%s/worker-%d.log", dir, q);
	snprintf(worker, sizeof worker, "%s-worker", judge);
	workers[q] = fork();
	if (workers[q] < 0)
		die("fork", strerror(errno));
	if (workers[q] == 0) {
		setenv("JUDGE_CONFIG", cfg, 1);
		if (!freopen(log, "w", stderr))
			_exit(127);
		execl(worker, worker, "--queue", queue[q], "--jobs", "1", (char *)NULL);
		_exit(127);
	}
}

static bool qualification_over(struct store *s, int64_t id)
{
	struct store_submission sub;
	err_t err;
	if (store_get_submission(s, id, &sub, err) <= 0)
		die("reading a submission", err->msg);
	return strcmp(sub.state, "qualified") == 0 || strcmp(sub.state, "not_qualified") == 0 ||
	       strcmp(sub.state, "compile_failed") == 0;
}

/* One round: a new player uploaded to both stores; each one's seconds to
 * the end of its qualification in took[]. */
static void round_trip(struct store *const *s, int r, double took[STORES])
{
	int64_t id[STORES];
	uint64_t t0[STORES];
	bool done[STORES] = { false };
	char name[16];
	snprintf(name, sizeof name, "New%c", 'a' + r);
	for (int q = 0; q < STORES; q++) {
		t0[q] = bench_now_ns();
		id[q] = upload(q, name);
	}
	for (int left = STORES; left > 0;) {
		for (int q = 0; q < STORES; q++)
			if (!done[q] && qualification_over(s[q], id[q])) {
				took[q] = (bench_now_ns() - t0[q]) / 1e9;
				done[q] = true;
				left--;
			}
		if ((bench_now_ns() - t0[0]) / 1e9 > 300)
			die("a qualification", "not over after 5 minutes");
		struct timespec nap = { 0, 10 * 1000000L };
		nanosleep(&nap, NULL);
	}
}

/* How many challenge matches the busy store's worker played. */
static int challenges_played(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n = -1;
	if (sqlite3_open_v2(queue[BUSY], &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM matches WHERE kind = 'challenge'", -1, &st,
			       NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return n;
}

static double median(double *v, int n)
{
	uint64_t ns[ROUNDS];
	for (int i = 0; i < n; i++)
		ns[i] = (uint64_t)(v[i] * 1e9);
	return bench_median(ns, (size_t)n) / 1e9;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		judge = argv[1];
	setup();
	struct store *s[STORES];
	err_t err;
	for (int q = 0; q < STORES; q++) {
		if (!(s[q] = store_open(queue[q], false, err)))
			die("opening a store", err->msg);
		start_worker(q);
	}
	struct timespec warm = { 2, 0 }; /* the ladder under way in both */
	nanosleep(&warm, NULL);
	double took[STORES][ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t[STORES];
		round_trip(s, r, t);
		for (int q = 0; q < STORES; q++)
			took[q][r] = t[q];
	}
	int played = challenges_played();
	for (int q = 0; q < STORES; q++)
		store_close(s[q]);
	double plain = median(took[PLAIN], ROUNDS), busy = median(took[BUSY], ROUNDS);
	double ratio = busy / plain;
	printf("challenges: two SQLite stores side by side, each with judge-worker --jobs 1 and 4\n"
	       "Dominator Demos on the ladder; one also holds %d queued challenge matches.\n"
	       "A new player uploaded to both at once, %d rounds (4 qualifying matches each):\n",
	       CHALLENGES, ROUNDS);
	printf("  time to qualification, median, no challenges    %6.2f s\n", plain);
	printf("  time to qualification, median, %d challenges   %6.2f s\n", CHALLENGES, busy);
	printf("  ratio with / without                            %6.2f    (goal <= %.1f: %s)\n",
	       ratio, RATIO_GOAL, ratio <= RATIO_GOAL ? "met" : "NOT met");
	printf("  challenge matches played meanwhile              %6d\n", played);
	cleanup();
	return 0;
}
