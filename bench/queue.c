/* queue.c - the job queue's speed: N jobs are queued first, then one
 * worker claims and completes them (store_claim + store_complete) until the
 * queue is empty; jobs per second with synchronous=FULL and NORMAL, next to
 * the floor on the same machine and file system: a bare SQLite loop doing,
 * per job, one INSERT then one UPDATE in separate transactions with the
 * same pragmas (WAL, the same synchronous, foreign keys, busy timeout).
 * Each figure is the median of ROUNDS runs, store and floor interleaved.
 * Goals: >= 2,500 jobs/s with FULL, >= 20,000 jobs/s with NORMAL.  It
 * prints, it never fails on speed. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/store/store.h"

#define BENCH_DIR "build"
#define PATH BENCH_DIR "/bench-queue.sqlite"
#define ROUNDS 5

struct mode {
	const char *name;
	enum store_sync sync;
	int jobs;
	double goal;
};

static void remove_db(void)
{
	unlink(PATH);
	unlink(PATH "-wal");
	unlink(PATH "-shm");
	unlink(PATH "-journal");
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench-queue: %s: %s\n", what, why);
	remove_db();
	exit(1);
}

/* The mount that holds dir: its type, device and options, from the
 * longest mount point of /proc/self/mounts that prefixes its real path. */
static void describe_fs(const char *dir, char *out, size_t n)
{
	char real[PATH_MAX];
	snprintf(out, n, "an unknown file system");
	if (!realpath(dir, real))
		return;
	FILE *f = fopen("/proc/self/mounts", "r");
	if (!f)
		return;
	char dev[512], mnt[PATH_MAX], type[64], opts[1024];
	size_t best = 0;
	while (fscanf(f, "%511s %4095s %63s %1023s %*d %*d", dev, mnt, type, opts) == 4) {
		size_t len = strlen(mnt);
		bool under = strncmp(real, mnt, len) == 0 &&
			     (real[len] == '/' || real[len] == '\0' || strcmp(mnt, "/") == 0);
		if (under && len >= best) {
			best = len;
			snprintf(out, n, "%s (%s mounted on %s, %s)", type, dev, mnt, opts);
		}
	}
	fclose(f);
}

/* ---- the store ------------------------------------------------------------ */

static double store_run(const struct mode *m)
{
	char err[STORE_ERRLEN];
	remove_db();
	struct store *s = store_open(PATH, true, err);
	if (!s)
		die("store_open", err);
	if (store_set_sync(s, m->sync, err) < 0)
		die("store_set_sync", err);
	if (store_begin(s, err) < 0)
		die("store_begin", err);
	for (int i = 0; i < m->jobs; i++) {
		char payload[48];
		snprintf(payload, sizeof payload, "{\"match\":%d}", i);
		if (store_enqueue(s, "match", payload, i % 4, 0, NULL, err) < 0)
			die("store_enqueue", err);
	}
	if (store_commit(s, err) < 0)
		die("store_commit", err);

	int done = 0;
	uint64_t t0 = bench_now_ns();
	for (;;) {
		struct store_job j;
		int rc = store_claim(s, "bench", 60000, 3, &j, err);
		if (rc < 0)
			die("store_claim", err);
		if (rc == 0)
			break;
		if (store_complete(s, j.id, "bench", err) < 0)
			die("store_complete", err);
		store_job_clear(&j);
		done++;
	}
	uint64_t t = bench_now_ns() - t0;
	int64_t left = -1;
	if (store_pending(s, &left, err) < 0)
		die("store_pending", err);
	if (done != m->jobs || left != 0) {
		fprintf(stderr, "bench-queue: %d of %d jobs done, %lld pending\n", done, m->jobs,
			(long long)left);
		remove_db();
		exit(1);
	}
	store_close(s);
	remove_db();
	return done / (t / 1e9);
}

/* ---- the floor: bare SQLite, two write transactions per job -------------- */

static void floor_exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql, sqlite3_errmsg(db));
}

static double floor_run(const struct mode *m)
{
	remove_db();
	sqlite3 *db;
	if (sqlite3_open_v2(PATH, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK)
		die("sqlite3_open_v2", db ? sqlite3_errmsg(db) : "out of memory");
	sqlite3_busy_timeout(db, 30000);
	floor_exec(db, "PRAGMA journal_mode = WAL");
	floor_exec(db, m->sync == STORE_SYNC_FULL ? "PRAGMA synchronous = FULL"
						  : "PRAGMA synchronous = NORMAL");
	floor_exec(db, "PRAGMA foreign_keys = ON");
	floor_exec(db, "CREATE TABLE jobs (id INTEGER PRIMARY KEY, payload TEXT NOT NULL,"
		       " state TEXT NOT NULL)");
	sqlite3_stmt *ins, *upd;
	if (sqlite3_prepare_v2(db, "INSERT INTO jobs (payload, state) VALUES (?, 'queued')", -1,
			       &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE jobs SET state = 'done' WHERE id = ?", -1, &upd,
			       NULL) != SQLITE_OK)
		die("prepare", sqlite3_errmsg(db));

	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < m->jobs; i++) {
		char payload[48];
		snprintf(payload, sizeof payload, "{\"match\":%d}", i);
		sqlite3_bind_text(ins, 1, payload, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(ins) != SQLITE_DONE)
			die("INSERT", sqlite3_errmsg(db));
		sqlite3_reset(ins);
		sqlite3_bind_int64(upd, 1, sqlite3_last_insert_rowid(db));
		if (sqlite3_step(upd) != SQLITE_DONE || sqlite3_changes(db) != 1)
			die("UPDATE", sqlite3_errmsg(db));
		sqlite3_reset(upd);
	}
	uint64_t t = bench_now_ns() - t0;
	sqlite3_finalize(ins);
	sqlite3_finalize(upd);
	sqlite3_close(db);
	remove_db();
	return m->jobs / (t / 1e9);
}

static double median_rate(const double *v)
{
	uint64_t u[ROUNDS];
	for (int i = 0; i < ROUNDS; i++)
		u[i] = (uint64_t)v[i];
	return (double)bench_median(u, ROUNDS);
}

int main(void)
{
	static const struct mode modes[] = {
		{ "FULL", STORE_SYNC_FULL, 1500, 2500 },
		{ "NORMAL", STORE_SYNC_NORMAL, 10000, 20000 },
	};
	if (mkdir(BENCH_DIR, 0755) < 0 && errno != EEXIST)
		die("mkdir " BENCH_DIR, strerror(errno));
	char fs[6144];
	describe_fs(BENCH_DIR, fs, sizeof fs);
	printf("job queue: N jobs queued, then store_claim + store_complete until empty\n"
	       "(median of %d runs); floor: bare SQLite, INSERT then UPDATE per job, each its\n"
	       "own transaction, same pragmas\n", ROUNDS);
	printf("  file %s on %s\n", PATH, fs);
	printf("  SQLite %s\n", sqlite3_libversion());
	for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
		const struct mode *m = &modes[k];
		double st[ROUNDS], fl[ROUNDS];
		for (int r = 0; r < ROUNDS; r++) {
			st[r] = store_run(m);
			fl[r] = floor_run(m);
		}
		double ms = median_rate(st), mf = median_rate(fl);
		printf("  synchronous=%-6s  N=%d\n", m->name, m->jobs);
		printf("    store (claim+complete) %10.0f jobs/s   (goal >= %.0f: %s)\n", ms,
		       m->goal, ms >= m->goal ? "met" : "NOT met");
		printf("    floor (insert+update)  %10.0f jobs/s\n", mf);
		printf("    store / floor          %10.2f\n", ms / mf);
	}
	return 0;
}
