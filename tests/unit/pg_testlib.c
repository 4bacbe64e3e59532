#include "tests/unit/pg_testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_ENV "JUDGE_TEST_PG_DIR"
#define ROLE "judge"

__attribute__((format(printf, 2, 3)))
static int fail(err_t err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *bindir(void)
{
	const char *d = getenv("PG_BINDIR");
	return d && *d ? d : "/usr/lib/postgresql/15/bin";
}

/* The account the server runs as: ourselves, or (as root, which initdb
 * refuses) the postgres system user, made if the system has none. */
static int server_account(uid_t *uid, gid_t *gid, err_t err)
{
	*uid = geteuid();
	*gid = getegid();
	if (*uid != 0)
		return 0;
	struct passwd *pw = getpwnam("postgres");
	if (!pw) {
		int rc = system("useradd --system --no-create-home --shell /usr/sbin/nologin "
				"postgres");
		pw = rc == 0 ? getpwnam("postgres") : NULL;
	}
	if (!pw)
		return fail(err, "running as root, and there is no postgres user to run "
			    "PostgreSQL as (useradd failed): create one");
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

/* Runs bindir/argv[0] as the server's account, its output appended to
 * dir/setup.log; 0 when it exits with status 0. */
static int run_tool(const char *dir, char *const argv[], err_t err)
{
	uid_t uid;
	gid_t gid;
	if (server_account(&uid, &gid, err) < 0)
		return -1;
	char prog[512], log[512];
	snprintf(prog, sizeof prog, "%s/%s", bindir(), argv[0]);
	snprintf(log, sizeof log, "%s/setup.log", dir);
	pid_t pid = fork();
	if (pid < 0)
		return fail(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (fd < 0 || fchown(fd, uid, gid) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
		     setresuid(uid, uid, uid) < 0))
			_exit(126);
		execv(prog, argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail(err, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return fail(err, "cannot run %s: is PostgreSQL 15 installed? (scripts/deps.sh "
			    "installs it; PG_BINDIR names another folder)", prog);
	return fail(err, "%s failed (status %#x): see %s", prog, status, log);
}

int pg_server_start(struct pg_server *srv, const char *dir, bool durable, err_t err)
{
	memset(srv, 0, sizeof *srv);
	snprintf(srv->dir, sizeof srv->dir, "%s", dir);
	uid_t uid;
	gid_t gid;
	if (server_account(&uid, &gid, err) < 0)
		return -1;
	if (chown(dir, uid, gid) < 0 || chmod(dir, 0700) < 0)
		return fail(err, "cannot hand %s to the server's account: %s", dir, strerror(errno));
	char data[300];
	snprintf(data, sizeof data, "%s/data", dir);
	char *initdb[] = { "initdb", "-D", data, "-U", ROLE, "--auth=trust", "-E", "UTF8",
			   "--locale=C", durable ? NULL : "--no-sync", NULL };
	if (run_tool(dir, initdb, err) < 0)
		return -1;
	srv->durable = durable;
	return pg_server_resume(srv, err);
}

int pg_server_resume(struct pg_server *srv, err_t err)
{
	char data[300], log[300], opts[600];
	snprintf(data, sizeof data, "%s/data", srv->dir);
	snprintf(log, sizeof log, "%s/server.log", srv->dir);
	/* Only the socket in dir: nothing on the network. */
	snprintf(opts, sizeof opts, "-c listen_addresses='' -k %s -c max_connections=60%s",
		 srv->dir, srv->durable ? "" : " -c fsync=off -c full_page_writes=off");
	char *start[] = { "pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "-o", opts, "start",
			  NULL };
	if (run_tool(srv->dir, start, err) < 0)
		return fail(err, "PostgreSQL did not start: see %s and %s/setup.log", log, srv->dir);
	srv->running = true;
	return 0;
}

int pg_server_pause(struct pg_server *srv, err_t err)
{
	char data[300];
	snprintf(data, sizeof data, "%s/data", srv->dir);
	char *stop[] = { "pg_ctl", "-D", data, "-m", "fast", "-w", "stop", NULL };
	if (run_tool(srv->dir, stop, err) < 0)
		return -1;
	srv->running = false;
	return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void pg_server_stop(struct pg_server *srv)
{
	char data[300];
	err_t err;
	snprintf(data, sizeof data, "%s/data", srv->dir);
	char *stop[] = { "pg_ctl", "-D", data, "-m", "fast", "-w", "stop", NULL };
	if (srv->running && run_tool(srv->dir, stop, err) < 0)
		fprintf(stderr, "pg_testlib: %s\n", err->msg);
	srv->running = false;
	nftw(srv->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void url_of(const struct pg_server *srv, const char *db, char *url, size_t n)
{
	snprintf(url, n, "postgresql://" ROLE "@/%s?host=%s", db, srv->dir);
}

int pg_server_createdb(const struct pg_server *srv, const char *name, char *url, size_t n,
		       err_t err)
{
	char admin[400], sql[200];
	url_of(srv, "postgres", admin, sizeof admin);
	PGconn *pg = PQconnectdb(admin);
	if (PQstatus(pg) != CONNECTION_OK) {
		fail(err, "cannot reach the test server at %s: %s", srv->dir, PQerrorMessage(pg));
		PQfinish(pg);
		return -1;
	}
	snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", name);
	PGresult *r = PQexec(pg, sql);
	int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0
						       : fail(err, "%s: %s", sql, PQerrorMessage(pg));
	PQclear(r);
	PQfinish(pg);
	url_of(srv, name, url, n);
	return rc;
}

/* ---- the unit suite's shared server -------------------------------------------- */

void pg_test_run_begin(void)
{
	static char dir[] = "/tmp/judge-test-pg-XXXXXX";
	if (mkdtemp(dir))
		setenv(RUN_ENV, dir, 1);
}

void pg_test_run_end(void)
{
	const char *dir = getenv(RUN_ENV);
	if (!dir)
		return;
	struct pg_server srv = { .running = false };
	snprintf(srv.dir, sizeof srv.dir, "%s", dir);
	char marker[300];
	snprintf(marker, sizeof marker, "%s/started", dir);
	srv.running = access(marker, F_OK) == 0;
	pg_server_stop(&srv);
}

/* Under the run's lock: starts the server unless a test before did. */
static int ensure_started(const char *dir, struct pg_server *srv, err_t err)
{
	char lock[300], marker[300], data[300];
	snprintf(lock, sizeof lock, "%s/lock", dir);
	snprintf(marker, sizeof marker, "%s/started", dir);
	snprintf(data, sizeof data, "%s/data", dir);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		if (fd >= 0)
			close(fd);
		return fail(err, "cannot lock %s: %s", lock, strerror(errno));
	}
	int rc = 0;
	memset(srv, 0, sizeof *srv);
	snprintf(srv->dir, sizeof srv->dir, "%s", dir);
	if (access(marker, F_OK) == 0)
		srv->running = true;
	else if (access(data, F_OK) == 0)
		rc = fail(err, "an earlier test could not start PostgreSQL: see %s/server.log", dir);
	else if ((rc = pg_server_start(srv, dir, false, err)) == 0)
		close(open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
	close(fd); /* and the lock with it */
	return rc;
}

int pg_test_database(char *url, size_t n, err_t err)
{
	const char *dir = getenv(RUN_ENV);
	if (!dir)
		return fail(err, "no test server folder (" RUN_ENV "): the runner's PRE_ALL hook "
			    "did not run");
	struct pg_server srv;
	if (ensure_started(dir, &srv, err) < 0)
		return -1;
	static int made;
	char name[64];
	snprintf(name, sizeof name, "t_%d_%d", (int)getpid(), made++);
	return pg_server_createdb(&srv, name, url, n, err);
}
