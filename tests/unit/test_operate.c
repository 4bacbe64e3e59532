/* test_operate.c - operating the judge while it runs: a backup and a copy
 * taken under a running worker keep every recorded match, a copy refuses
 * a column it does not know, and a worker killed with SIGKILL takes its
 * slots and players with it, its jobs taken over at once by the next
 * worker on the host.  Real judge and judge-worker programs, a real SQLite
 * file. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char dir[64], db[128], cfg[128], out[65536];
static pid_t worker_pid;

static void setup(void)
{
	cli_workdir("operate", dir, db, cfg);
}

static void teardown(void)
{
	if (worker_pid > 0) {
		kill(worker_pid, SIGKILL);
		waitpid(worker_pid, NULL, 0);
	}
	cli_workdir_remove(dir);
}

TestSuite(operate, .init = setup, .fini = teardown, .timeout = 240);

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The number the sqlite3 program answers to query on file. */
static long long sql_int(const char *file, const char *query)
{
	char cmd[768], result[256];
	snprintf(cmd, sizeof cmd, "sqlite3 -batch -cmd '.timeout 5000' %s \"%s\" 2>&1", file, query);
	cr_assert_eq(cli_run(cmd, result, sizeof result), 0, "%s: %s", query, result);
	return atoll(result);
}

/* Eight Demo players under their own names, uploaded, and a ladder of
 * min_games each to play. */
static void field_of_demos(int min_games, long long lease_ms)
{
	char json[256];
	snprintf(json, sizeof json, "{\"worker\": {\"qualify_matches\": 0, \"min_games\": %d,"
		 " \"lease_ms\": %lld, \"seed_secret\": \"operate\"}}", min_games, lease_ms);
	cr_assert_eq(cli_write_file(cfg, json), 0);
	for (int i = 0; i < 8; i++)
		cli_upload_demo(dir, cfg, db, "dominator", (char[]){ 'P', (char)('a' + i), '\0' });
}

/* A program in the background with the test's settings, its output in
 * dir/LOG. */
static pid_t spawn(const char *log_name, char *const argv[])
{
	char log[160];
	snprintf(log, sizeof log, "%s/%s", dir, log_name);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		setenv("JUDGE_CONFIG", cfg, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* judge-worker in the background, its log in dir/worker.log. */
static pid_t start_worker(const char *slots)
{
	return spawn("worker.log", (char *const[]){ (char *)cli_worker(), "--queue", db, "--jobs",
						    (char *)slots, NULL });
}

/* Waits up to 120 s until query answers at least n. */
static void wait_for(const char *query, long long n)
{
	double until = now_s() + 120;
	while (sql_int(db, query) < n && now_s() < until)
		usleep(50 * 1000);
	cr_assert_geq(sql_int(db, query), n, "waited 120 s for %s >= %lld", query, n);
}

static void stop_worker(void)
{
	kill(worker_pid, SIGTERM);
	int status;
	cr_assert_eq(waitpid(worker_pid, &status, 0), worker_pid);
	worker_pid = 0;
}

/* Every match of the source up to the backup's last one is in the backup,
 * with the same replay. */
static void same_matches_up_to(const char *copy, long long n)
{
	char q[256];
	snprintf(q, sizeof q, "SELECT count(*) || ':' || total(length(replay)) FROM matches"
		 " WHERE id <= %lld", n);
	char cmd[768], a[128], b[128];
	snprintf(cmd, sizeof cmd, "sqlite3 -batch -cmd '.timeout 5000' %s \"%s\"", db, q);
	cr_assert_eq(cli_run(cmd, a, sizeof a), 0);
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s \"%s\"", copy, q);
	cr_assert_eq(cli_run(cmd, b, sizeof b), 0);
	cr_expect_str_eq(b, a, "the matches up to %lld differ between the store and %s", n, copy);
}

Test(operate, a_backup_and_a_copy_under_a_running_worker_keep_every_recorded_match)
{
	field_of_demos(40, 60000);
	worker_pid = start_worker("2");
	wait_for("SELECT count(*) FROM matches WHERE kind = 'ranked'", 5);

	char backup[160], copy[160], cmd[768];
	snprintf(backup, sizeof backup, "%s/backup.sqlite", dir);
	snprintf(copy, sizeof copy, "%s/copy.sqlite", dir);
	long long before = sql_int(db, "SELECT count(*) FROM matches");
	snprintf(cmd, sizeof cmd, "%s store backup --queue %s %s 2>&1 && %s store copy --from %s "
		 "--to %s 2>&1", cli_judge(), db, backup, cli_judge(), db, copy);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	long long in_backup = sql_int(backup, "SELECT count(*) FROM matches"),
		  in_copy = sql_int(copy, "SELECT count(*) FROM matches");
	stop_worker();

	cr_expect_geq(in_backup, before, "the backup lost matches: %lld of %lld", in_backup, before);
	cr_expect_geq(in_copy, in_backup, "the copy lost matches: %lld, the backup had %lld", in_copy,
		      in_backup);
	same_matches_up_to(backup, in_backup);
	same_matches_up_to(copy, in_copy);
	struct stat st;
	cr_assert_eq(stat(backup, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "the backup holds every source, but its mode is %o",
		     st.st_mode & 0777);
	/* Restored in the store's place, each rates exactly as it records. */
	for (const char *f = backup; f; f = f == backup ? copy : NULL) {
		snprintf(cmd, sizeof cmd, "%s ratings --game dominator --recompute --check --queue %s 2>&1",
			 cli_judge(), f);
		cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "%s: %s", f, out);
	}
	snprintf(cmd, sizeof cmd, "%s store backup --queue %s %s 2>&1", cli_judge(), db, backup);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 1, "an existing file was overwritten: %s", out);
}

Test(operate, a_copy_refuses_a_column_it_does_not_know_before_writing_anything)
{
	char cmd[768], target[160];
	snprintf(cmd, sizeof cmd, "%s token add --author x --queue %s >/dev/null 2>&1 && "
		 "sqlite3 %s 'ALTER TABLE matches ADD COLUMN notes TEXT'", cli_judge(), db, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(target, sizeof target, "%s/target.sqlite", dir);
	snprintf(cmd, sizeof cmd, "%s store copy --from %s --to %s 2>&1", cli_judge(), db, target);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_expect(strstr(out, "column notes of table matches"), "%s", out);
	cr_expect_eq(sql_int(target, "SELECT count(*) FROM tokens"), 0, "a refused copy wrote rows");
}

/* ---- a worker killed with SIGKILL ------------------------------------------ */

/* The parent pid of pid, and whether it is still running (not a zombie). */
static pid_t parent_of(pid_t pid, bool *alive)
{
	char path[64], line[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	*alive = false;
	if (!f)
		return -1;
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = '\0';
	char state = 0;
	int ppid = -1;
	const char *p = strrchr(line, ')');
	if (p && sscanf(p + 1, " %c %d", &state, &ppid) == 2)
		*alive = state != 'Z' && state != 'X';
	return ppid;
}

/* The live descendants of root, into pids (at most max). */
static int descendants(pid_t root, pid_t *pids, int max)
{
	int n = 0;
	pid_t frontier[256] = { root };
	for (int head = 0, tail = 1; head < tail; head++) {
		DIR *d = opendir("/proc");
		cr_assert_not_null(d);
		for (struct dirent *e; (e = readdir(d));) {
			pid_t pid = atoi(e->d_name);
			bool alive;
			if (pid <= 0 || parent_of(pid, &alive) != frontier[head] || !alive)
				continue;
			if (n < max)
				pids[n++] = pid;
			if (tail < 256)
				frontier[tail++] = pid;
		}
		closedir(d);
	}
	return n;
}

static int still_alive(const pid_t *pids, int n)
{
	int alive = 0;
	for (int i = 0; i < n; i++) {
		bool a;
		parent_of(pids[i], &a);
		alive += a;
	}
	return alive;
}

Test(operate, a_killed_worker_takes_its_slots_and_players_along_and_its_jobs_are_taken_over)
{
	field_of_demos(10, 120000);
	worker_pid = start_worker("2");
	wait_for("SELECT count(*) FROM matches WHERE kind = 'ranked'", 2);
	pid_t family[256];
	int n = 0;
	for (double until = now_s() + 60; n < 3 && now_s() < until; usleep(2000))
		n = descendants(worker_pid, family, 256); /* two slots and a player at least */
	cr_assert_geq(n, 3, "the worker never had slots and players running");

	kill(worker_pid, SIGKILL);
	waitpid(worker_pid, NULL, 0);
	worker_pid = 0;
	double killed = now_s();
	while (still_alive(family, n) && now_s() < killed + 1)
		usleep(1000);
	cr_expect_eq(still_alive(family, n), 0, "%d of the worker's %d slots and players still run "
		     "%.1f s after it was killed", still_alive(family, n), n, now_s() - killed);
	/* Read once they are gone: a job counted before the kill could have
	 * ended in between, leaving none held by the dead worker. */
	long long running = sql_int(db, "SELECT count(*) FROM jobs WHERE state = 'running'");

	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s jobs --queue %s 2>&1", cli_judge(), db);
	cli_run(cmd, out, sizeof out);
	if (running > 0)
		cr_expect(strstr(out, "whose process is gone"), "judge jobs does not say the holder "
			  "is gone: %s", out);

	/* The next worker plays everything left, without waiting out the
	 * dead slots' two-minute leases. */
	double restart = now_s();
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle 2>&1",
		 cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect_lt(now_s() - restart, 100, "the restarted worker waited out the leases: %s", out);
	if (running > 0)
		cr_expect(strstr(out, "taken over: that worker is gone"), "%s", out);
	cr_expect_eq(sql_int(db, "SELECT count(*) FROM jobs WHERE state <> 'done'"), 0);
}

/* ---- settings reloaded on SIGHUP ---------------------------------------------- */

static void write_opponent(const char *opponent)
{
	char json[256];
	snprintf(json, sizeof json, "{\"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0,"
		 " \"min_games\": 0, \"qualify_opponent\": \"%s\"}}", opponent);
	cr_assert_eq(cli_write_file(cfg, json), 0);
}

/* The names in the qualifying match of submission id. */
static void qualifying_names(int id, char *names, size_t size)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "sqlite3 -batch -cmd '.timeout 5000' %s \"SELECT group_concat("
		 "p.name, ' ') FROM match_players p JOIN matches m ON m.id = p.match_id WHERE "
		 "m.kind = 'qualifying' AND m.id IN (SELECT match_id FROM match_players WHERE "
		 "submission_id = %d)\"", db, id);
	cr_assert_eq(cli_run(cmd, names, size), 0, "%s", names);
}

static void judge_config(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s config --queue %s 2>&1", cfg, cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

Test(operate, sighup_changes_the_opponent_of_the_next_qualification_and_judge_config_tells)
{
	write_opponent("Dummy");
	worker_pid = start_worker("2");
	cli_upload_demo(dir, cfg, db, "dominator", "Ann");
	wait_for("SELECT count(*) FROM submissions WHERE id = 1 AND state = 'qualified'", 1);
	char names[1024];
	qualifying_names(1, names, sizeof names);
	cr_assert(strstr(names, "Dummy") && !strstr(names, "Null"), "%s", names);

	write_opponent("Null");
	judge_config();
	cr_expect(strstr(out, "runs with other settings") &&
		  strstr(out, "worker.qualify_opponent          runs with \"Dummy\", this says "
				"\"Null\""), "judge config does not say the running worker differs: %s",
		  out);
	kill(worker_pid, SIGHUP);
	/* Each of the two slots reloads between two jobs and says so: judge
	 * config agrees once both have. */
	static const char reloaded[] =
		"settings reloaded: worker.qualify_opponent \"Dummy\" -> \"Null\"";
	char log[160], text[8192] = "";
	snprintf(log, sizeof log, "cat %s/worker.log", dir);
	for (double until = now_s() + 30; now_s() < until; usleep(20000))
		if (cli_run(log, text, sizeof text) == 0 && cli_count(text, reloaded) >= 2)
			break;
	cr_assert_eq(cli_count(text, reloaded), 2, "%s", text);
	cr_expect(strstr(text, "judge-worker: settings from "), "no settings at start: %s", text);
	judge_config();
	cr_expect(!strstr(out, "runs with other settings") &&
		  strstr(out, "running processes of this queue run with these settings"), "%s", out);

	cli_upload_demo(dir, cfg, db, "dominator", "Bea");
	wait_for("SELECT count(*) FROM submissions WHERE id = 2 AND state = 'qualified'", 1);
	qualifying_names(2, names, sizeof names);
	cr_expect(strstr(names, "Null") && !strstr(names, "Dummy"), "after SIGHUP: %s", names);
	stop_worker();
	judge_config();
	cr_expect(!strstr(out, "running process"), "a stopped worker is still listed: %s", out);
}

/* The service reads its settings at start: it says them, `judge config`
 * names what it runs with that the file no longer says, and SIGHUP logs
 * the change and that a restart applies it. */
Test(operate, judge_serve_says_its_settings_and_a_changed_file_on_sighup)
{
	cr_assert_eq(cli_write_file(cfg, "{\"contest\": {\"frozen\": false}}"), 0);
	pid_t pid = spawn("serve.log", (char *const[]){ (char *)cli_judge(), "serve", "--queue", db,
						       "--listen", "127.0.0.1:0", NULL });
	char log[160];
	snprintf(log, sizeof log, "%s/serve.log", dir);
	worker_pid = pid; /* the teardown kills it if the test fails */
	char text[8192] = "", cat[256];
	snprintf(cat, sizeof cat, "cat %s 2>/dev/null", log);
	for (double until = now_s() + 20; !strstr(text, "listening") && now_s() < until;
	     usleep(20000))
		cli_run(cat, text, sizeof text);
	cr_assert(strstr(text, "judge serve: settings from "), "%s", text);

	cr_assert_eq(cli_write_file(cfg, "{\"contest\": {\"frozen\": true}}"), 0);
	judge_config();
	cr_expect(strstr(out, "judge-serve") && strstr(out, "systemctl restart judge-serve") &&
		  strstr(out, "contest.frozen                   runs with false, this says true"),
		  "%s", out);
	kill(pid, SIGHUP);
	for (double until = now_s() + 20; !strstr(text, "now says") && now_s() < until;
	     usleep(20000))
		cli_run(cat, text, sizeof text);
	cr_expect(strstr(text, "the settings file now says contest.frozen false -> true") &&
		  strstr(text, "restart it"), "%s", text);
	stop_worker();
	judge_config();
	cr_expect(!strstr(out, "judge-serve"), "a stopped service is still listed: %s", out);
}

/* A compiled player is kept gzip-compressed in the store (about half its
 * size), and a machine that fetches it plays it: its hash is the plain
 * binary's, checked before it runs. */
Test(operate, the_store_keeps_binaries_compressed_and_a_fetched_one_plays)
{
	cr_assert_eq(cli_write_file(cfg, "{\"worker\": {\"qualify_matches\": 1, \"qualify_wins\": 0,"
				    " \"qualify_opponent\": \"Null\"}}"), 0);
	cli_upload_demo(dir, cfg, db, "dominator", "Zip");
	char cmd[768];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --once 2>&1", cfg,
		 cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect_eq(sql_int(db, "SELECT count(*) FROM binaries WHERE hex(substr(bytes, 1, 2))"
			     " = '1F8B'"), 1, "the binary is not stored gzip-compressed");
	long long stored = sql_int(db, "SELECT length(bytes) FROM binaries");
	/* another machine: a settings file with its own, empty compile cache */
	char other[160], json[512];
	snprintf(other, sizeof other, "%s/other.json", dir);
	snprintf(json, sizeof json, "{\"compile\": {\"cache_dir\": \"%s/other-cache\"}, \"worker\":"
		 " {\"qualify_matches\": 1, \"qualify_wins\": 0, \"qualify_opponent\": \"Null\"}}", dir);
	cr_assert_eq(cli_write_file(other, json), 0);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle "
		 "--ranked-matches 0 2>&1", other, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect_eq(sql_int(db, "SELECT count(*) FROM submissions WHERE state = 'qualified'"), 1,
		     "%s", out);
	snprintf(cmd, sizeof cmd, "stat -c %%s %s/other-cache/store/*", dir);
	char size[64];
	cr_assert_eq(cli_run(cmd, size, sizeof size), 0, "the other machine fetched nothing");
	cr_expect_lt(stored * 10, atoll(size) * 7, "stored %lld bytes of a %lld-byte binary",
		     stored, atoll(size));
}
