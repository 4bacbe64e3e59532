/* queue.c - the job queue's speed: N jobs are queued first, then one
 * worker claims and completes them (store_claim once, then
 * store_complete_claim: each job's end and the next claim in one round
 * trip and one commit) until the queue is empty; jobs per second with synchronous=FULL and NORMAL, next to
 * the floor on the same machine and file system: a bare SQLite loop doing,
 * per job, one INSERT then one UPDATE in separate transactions with the
 * same pragmas (WAL, the same synchronous, foreign keys, busy timeout).
 * Each figure is the median of ROUNDS runs, store and floor interleaved.
 * Goals: >= 2,500 jobs/s with FULL, >= 20,000 jobs/s with NORMAL.
 *
 * Then the same store calls on PostgreSQL 15, a private server started for
 * the bench in build/ (durable: fsync on; FULL is synchronous_commit on,
 * NORMAL off), next to its floor (bare libpq, the same two statements per
 * job), and claim+complete with 1, 2 and 4 worker processes sharing one
 * queue on each backend.  Goal: PostgreSQL claim+complete >= 5,000
 * jobs/s.  It prints, it never fails on speed. */
#include <errno.h>
#include <libpq-fe.h>
#include <limits.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "judge/store/store.h"
#include "tests/unit/pg_testlib.h"

#define BENCH_DIR "build"
#define PATH BENCH_DIR "/bench-queue.sqlite"
#define ROUNDS ((int)bench_size(5, 1))
#define PG_GOAL 5000
#define SHARED_JOBS ((int)bench_size(4000, 100))

static struct pg_server pg;

enum db_target { ON_SQLITE, ON_POSTGRES };

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
	if (pg.running)
		pg_server_stop(&pg);
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

/* A new, empty queue: the SQLite file made again, or a new database. */
static void fresh_queue(enum db_target kind, char *target, size_t n)
{
	static int made;
	if (kind == ON_SQLITE) {
		remove_db();
		snprintf(target, n, "%s", PATH);
		return;
	}
	char name[32];
	err_t err;
	snprintf(name, sizeof name, "bench_%d", made++);
	if (pg_server_createdb(&pg, name, target, n, err) < 0)
		die("createdb", err->msg);
}

/* The queue at target, with the mode's sync setting; dies on failure. */
static struct store *open_queue(const char *target, bool create, const struct mode *m)
{
	err_t err;
	struct store *s = store_open(target, create, err);
	if (!s)
		die("store_open", err->msg);
	if (store_set_sync(s, m->sync, err) < 0)
		die("store_set_sync", err->msg);
	return s;
}

static void fill(const char *target, const struct mode *m, int jobs)
{
	err_t err;
	struct store *s = open_queue(target, true, m);
	if (store_begin(s, err) < 0)
		die("store_begin", err->msg);
	for (int i = 0; i < jobs; i++) {
		char payload[48];
		snprintf(payload, sizeof payload, "{\"match\":%d}", i);
		if (store_enqueue(s, "match", payload, (enum sched_class)(i % SCHED_CLASSES), 0, NULL,
				  err) < 0)
			die("store_enqueue", err->msg);
	}
	if (store_commit(s, err) < 0)
		die("store_commit", err->msg);
	store_close(s);
}

/* Claims and completes until the queue is empty; how many it did. */
static int drain(const char *target, const struct mode *m, const char *worker)
{
	err_t err;
	struct store *s = open_queue(target, false, m);
	int done = 0;
	struct store_job j;
	int rc = store_claim(s, worker, 60000, 3, &j, err);
	while (rc == 1) {
		int64_t id = j.id;
		store_job_clear(&j);
		rc = store_complete_claim(s, id, worker, 60000, 3, &j, err);
		done += rc >= 0;
	}
	if (rc < 0)
		die("store_complete_claim", err->msg);
	store_close(s);
	return done;
}

static void expect_all_done(const char *target, int done, int jobs)
{
	err_t err;
	struct store *s = store_open(target, false, err);
	int64_t left = -1;
	if (!s || store_pending(s, &left, err) < 0)
		die("store_pending", err->msg);
	store_close(s);
	if (done != jobs || left != 0) {
		fprintf(stderr, "bench-queue: %d of %d jobs done, %lld pending\n", done, jobs,
			(long long)left);
		die("the queue", "lost or repeated jobs");
	}
}

static double store_run(enum db_target kind, const struct mode *m)
{
	char target[512];
	fresh_queue(kind, target, sizeof target);
	fill(target, m, m->jobs);
	uint64_t t0 = bench_now_ns();
	int done = drain(target, m, "bench");
	uint64_t t = bench_now_ns() - t0;
	expect_all_done(target, done, m->jobs);
	remove_db();
	return done / (t / 1e9);
}

/* nworkers processes drain one queue of SHARED_JOBS together: jobs/s. */
static double shared_run(enum db_target kind, const struct mode *m, int nworkers)
{
	char target[512];
	fresh_queue(kind, target, sizeof target);
	fill(target, m, SHARED_JOBS);
	int out[2];
	if (pipe(out) < 0)
		die("pipe", strerror(errno));
	uint64_t t0 = bench_now_ns();
	for (int w = 0; w < nworkers; w++) {
		pid_t pid = fork();
		if (pid < 0)
			die("fork", strerror(errno));
		if (pid == 0) {
			char name[16];
			snprintf(name, sizeof name, "w%d", w);
			int done = drain(target, m, name);
			_exit(write(out[1], &done, sizeof done) == sizeof done ? 0 : 1);
		}
	}
	close(out[1]);
	int done = 0, one;
	while (read(out[0], &one, sizeof one) == sizeof one)
		done += one;
	close(out[0]);
	while (wait(NULL) > 0)
		;
	uint64_t t = bench_now_ns() - t0;
	expect_all_done(target, done, SHARED_JOBS);
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

/* ---- the PostgreSQL floor: bare libpq, two autocommit statements per job - */

static void pg_floor_exec(PGconn *pc, PGresult *r, const char *what)
{
	ExecStatusType st = PQresultStatus(r);
	PQclear(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		die(what, PQerrorMessage(pc));
}

/* What the server and the socket cost alone: per job one prepared INSERT
 * and one prepared UPDATE by primary key, each its own transaction, with
 * the same synchronous_commit as the store's run. */
static double pg_floor_run(const struct mode *m)
{
	char target[512];
	fresh_queue(ON_POSTGRES, target, sizeof target);
	PGconn *pc = PQconnectdb(target);
	if (PQstatus(pc) != CONNECTION_OK)
		die("PQconnectdb", PQerrorMessage(pc));
	pg_floor_exec(pc, PQexec(pc, m->sync == STORE_SYNC_FULL ? "SET synchronous_commit = on"
								 : "SET synchronous_commit = off"),
		      "SET");
	pg_floor_exec(pc, PQexec(pc, "CREATE TABLE jobs (id BIGINT PRIMARY KEY, payload TEXT NOT NULL,"
				     " state TEXT NOT NULL)"), "CREATE TABLE");
	pg_floor_exec(pc, PQprepare(pc, "ins", "INSERT INTO jobs VALUES ($1, $2, 'queued')", 2,
				    NULL), "PREPARE");
	pg_floor_exec(pc, PQprepare(pc, "upd", "UPDATE jobs SET state = 'done' WHERE id = $1", 1,
				    NULL), "PREPARE");
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < m->jobs; i++) {
		char id[16], payload[48];
		snprintf(id, sizeof id, "%d", i);
		snprintf(payload, sizeof payload, "{\"match\":%d}", i);
		const char *ins[2] = { id, payload }, *upd[1] = { id };
		pg_floor_exec(pc, PQexecPrepared(pc, "ins", 2, ins, NULL, NULL, 0), "INSERT");
		pg_floor_exec(pc, PQexecPrepared(pc, "upd", 1, upd, NULL, NULL, 0), "UPDATE");
	}
	uint64_t t = bench_now_ns() - t0;
	PQfinish(pc);
	return m->jobs / (t / 1e9);
}

static double median_rate(const double *v)
{
	uint64_t u[ROUNDS];
	for (int i = 0; i < ROUNDS; i++)
		u[i] = (uint64_t)v[i];
	return (double)bench_median(u, ROUNDS);
}

static double median_shared(enum db_target kind, const struct mode *m, int nworkers)
{
	double v[ROUNDS];
	for (int r = 0; r < ROUNDS; r++)
		v[r] = shared_run(kind, m, nworkers);
	return median_rate(v);
}

static void start_postgres(void)
{
	char dir[] = BENCH_DIR "/bench-pg-XXXXXX", real[PATH_MAX];
	err_t err;
	if (!mkdtemp(dir) || !realpath(dir, real))
		die("mkdtemp " BENCH_DIR "/bench-pg-XXXXXX", strerror(errno));
	if (pg_server_start(&pg, real, true, err) < 0)
		die("starting PostgreSQL", err->msg);
}

int main(void)
{
	const struct mode modes[] = {
		{ "FULL", STORE_SYNC_FULL, (int)bench_size(1500, 50), 2500 },
		{ "NORMAL", STORE_SYNC_NORMAL, (int)bench_size(10000, 100), 20000 },
	};
	if (mkdir(BENCH_DIR, 0755) < 0 && errno != EEXIST)
		die("mkdir " BENCH_DIR, strerror(errno));
	char fs[6144];
	describe_fs(BENCH_DIR, fs, sizeof fs);
	start_postgres();
	printf("job queue: N jobs queued, then claimed and completed until empty (each end and\n"
	       "the next claim in one call: store_complete_claim)\n"
	       "(median of %d runs); floor: bare SQLite (libpq), INSERT then UPDATE per job,\n"
	       "each its own transaction, same pragmas (synchronous_commit)\n", ROUNDS);
	printf("  file %s on %s\n", PATH, fs);
	printf("  SQLite %s; PostgreSQL 15 on a Unix socket, cluster in %s (fsync on)\n",
	       sqlite3_libversion(), pg.dir);
	for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
		const struct mode *m = &modes[k];
		double st[ROUNDS], fl[ROUNDS];
		for (int r = 0; r < ROUNDS; r++) {
			st[r] = store_run(ON_SQLITE, m);
			fl[r] = floor_run(m);
		}
		double ms = median_rate(st), mf = median_rate(fl);
		double pst[ROUNDS], pfl[ROUNDS];
		for (int r = 0; r < ROUNDS; r++) {
			pst[r] = store_run(ON_POSTGRES, m);
			pfl[r] = pg_floor_run(m);
		}
		double mp = median_rate(pst), mpf = median_rate(pfl);
		printf("  synchronous=%-6s  N=%d  (PostgreSQL: synchronous_commit=%s)\n", m->name,
		       m->jobs, m->sync == STORE_SYNC_FULL ? "on" : "off");
		printf("    SQLite store (claim+complete)      %10.0f jobs/s   (goal >= %.0f: %s)\n",
		       ms, m->goal, ms >= m->goal ? "met" : "NOT met");
		printf("    SQLite floor (insert+update)       %10.0f jobs/s\n", mf);
		printf("    SQLite store / floor               %10.2f\n", ms / mf);
		printf("    PostgreSQL store (claim+complete)  %10.0f jobs/s   (goal >= %d: %s)\n",
		       mp, PG_GOAL, mp >= PG_GOAL ? "met" : "NOT met");
		printf("    PostgreSQL floor (insert+update)   %10.0f jobs/s\n", mpf);
		printf("    PostgreSQL store / floor           %10.2f\n", mp / mpf);
	}
	const struct mode *normal = &modes[1];
	printf("  worker processes sharing one queue of %d jobs, synchronous=NORMAL:\n",
	       SHARED_JOBS);
	printf("    processes        SQLite      PostgreSQL   (jobs/s)\n");
	for (int n = 1; n <= 4; n *= 2)
		printf("    %9d  %12.0f  %14.0f\n", n, median_shared(ON_SQLITE, normal, n),
		       median_shared(ON_POSTGRES, normal, n));
	pg_server_stop(&pg);
	return 0;
}
