/* Files the judge writes where the user says (-o, --html, --logs): what the
 * name already is decides how (judge/base/file_write.h).  A device or a
 * FIFO is written in place and stays what it was, a directory or a link
 * to one is refused before the match is played. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/game_testlib.h"

#define DEMOS "Demo Demo Demo Demo"

static char dir[] = "/tmp/judge-outfile-XXXXXX";

static void make_dir(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(outfile, .init = make_dir, .fini = remove_dir, .timeout = 120);

static void in_dir(char path[128], const char *name)
{
	snprintf(path, 128, "%s/%s", dir, name);
}

static mode_t type_of(const char *path)
{
	struct stat st;
	cr_assert_eq(lstat(path, &st), 0, "%s: %s", path, strerror(errno));
	return st.st_mode & S_IFMT;
}

/* The match was not played: judge play refused before it. */
static void expect_refused(const char *args, const char *message)
{
	cr_assert_eq(gt_play("dominator", args), 2, "%s", gt_out);
	cr_assert(strstr(gt_out, message), "wanted \"%s\" in:\n%s", message, gt_out);
	cr_assert_null(cli_table_row(gt_out, 0), "the match was played first:\n%s", gt_out);
}

/* In a mount namespace of its own, with a tmpfs over /dev holding a fresh
 * /dev/null, the machine's stays out of reach whatever the judge does to
 * it.  Exit status: 0 when the command worked and /dev/null is still a
 * character device; 1 when the command failed; 2 when /dev/null became
 * something else; 3 when the namespace could not be made. */
static int play_into_private_dev_null(void)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("tmpfs", "/dev", "tmpfs", 0, "mode=755") < 0 ||
		    mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3)) < 0 ||
		    chmod("/dev/null", 0666) < 0)
			_exit(3);
		char cmd[256], out[4096];
		snprintf(cmd, sizeof cmd, "%s play dominator " DEMOS " --seed 3 -o /dev/null 2>&1",
			 cli_judge());
		int rc = cli_run(cmd, out, sizeof out);
		if (rc != 0)
			fprintf(stderr, "%s", out);
		struct stat st;
		bool still = lstat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode) &&
			     st.st_rdev == makedev(1, 3);
		_exit(rc != 0 ? 1 : still ? 0 : 2);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(outfile, dev_null_stays_a_character_device)
{
	if (geteuid() != 0)
		cr_skip_test("needs root: only root can replace /dev/null");
	cr_assert_eq(gt_play("dominator", DEMOS " --seed 3"), 0, "%s", gt_out); /* compiled */
	int rc = play_into_private_dev_null();
	cr_assert_neq(rc, 3, "cannot make a mount namespace with its own /dev");
	cr_assert_neq(rc, 1, "judge play -o /dev/null failed (its output is above)");
	cr_assert_eq(rc, 0, "-o /dev/null turned /dev/null into another kind of file");
}

/* A reader of fifo in a child of its own: what it reads goes to `into`. */
static pid_t start_reader(const char *fifo, const char *into)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int in = open(fifo, O_RDONLY), out = open(into, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		char buf[65536];
		ssize_t n;
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in >= 0 && out >= 0 ? 0 : 1);
	}
	return pid;
}

/* Whether the reader ended within a few seconds (else it is killed: it
 * waits on a FIFO nobody writes to any more). */
static bool reader_ended(pid_t pid)
{
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return true;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return false;
}

Test(outfile, a_fifo_is_written_through_and_stays_a_fifo)
{
	char fifo[128], got[128], args[512];
	in_dir(fifo, "replay.fifo");
	in_dir(got, "read");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	pid_t reader = start_reader(fifo, got);
	snprintf(args, sizeof args, DEMOS " --seed 3 -o %s", fifo);
	int rc = gt_play("dominator", args);
	bool ended = reader_ended(reader);
	cr_assert_eq(rc, 0, "%s", gt_out);
	cr_assert_eq(type_of(fifo), S_IFIFO, "the FIFO was replaced by another kind of file");
	cr_assert(ended, "the reader of the FIFO got no end of file");
	json_t *replay = gt_load_replay(got);
	cr_assert_eq(json_integer_value(json_object_get(replay, "seed")), 3);
	json_decref(replay);
}

Test(outfile, a_directory_is_refused_before_the_match)
{
	char args[512];
	snprintf(args, sizeof args, DEMOS " -o %s", dir);
	char message[256];
	snprintf(message, sizeof message, "judge play: cannot write %s: it is a directory; name a "
		 "file in it", dir);
	expect_refused(args, message);
	snprintf(args, sizeof args, DEMOS " --html %s", dir);
	expect_refused(args, message);
}

Test(outfile, a_link_to_a_directory_is_refused_and_stays_a_link)
{
	char link[128], args[512], message[256];
	in_dir(link, "to-dir");
	cr_assert_eq(symlink("/tmp", link), 0);
	snprintf(args, sizeof args, DEMOS " -o %s", link);
	snprintf(message, sizeof message, "cannot write %s: it is a symbolic link to a directory",
		 link);
	expect_refused(args, message);
	cr_assert_eq(type_of(link), S_IFLNK);
}

Test(outfile, logs_wants_a_directory)
{
	char file[128], args[512], message[256];
	in_dir(file, "file");
	cr_assert_eq(cli_write_file(file, "mine\n"), 0);
	snprintf(args, sizeof args, DEMOS " --logs %s", file);
	snprintf(message, sizeof message, "--logs wants a directory (made when missing), and %s is "
		 "a regular file", file);
	expect_refused(args, message);
	expect_refused(DEMOS " --logs /dev/null",
		       "--logs wants a directory (made when missing), and /dev/null is a character "
		       "device");
}

/* A link to a regular file stays a link: the file it names gets the
 * replay, whole. */
Test(outfile, a_link_to_a_file_replaces_the_file)
{
	char file[128], link[128], args[512];
	in_dir(file, "replay.json");
	in_dir(link, "latest.json");
	cr_assert_eq(cli_write_file(file, "old\n"), 0);
	cr_assert_eq(symlink("replay.json", link), 0);
	snprintf(args, sizeof args, DEMOS " --seed 3 -o %s", link);
	cr_assert_eq(gt_play("dominator", args), 0, "%s", gt_out);
	cr_assert_eq(type_of(link), S_IFLNK);
	json_t *replay = gt_load_replay(file);
	cr_assert_eq(json_integer_value(json_object_get(replay, "seed")), 3);
	json_decref(replay);
}

/* -o - puts the replay alone on standard output; the table goes to stderr. */
Test(outfile, dash_is_standard_output_alone)
{
	char cmd[256], out[1 << 17];
	snprintf(cmd, sizeof cmd, "%s play dominator " DEMOS " --seed 3 -o - 2>/dev/null",
		 cli_judge());
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	json_error_t e;
	json_t *replay = json_loads(out, 0, &e);
	cr_assert_not_null(replay, "not the replay alone: %s\n%.300s", e.text, out);
	json_decref(replay);
}

/* The function itself, for what no command above reaches. */
Test(outfile, file_write_whole_refuses_what_it_cannot_write_in_place)
{
	char link[128];
	err_t err;
	cr_assert_eq(file_write_whole("/dev/null", "x", 1, 0644, err), 0, "%s", err->msg);
	cr_assert_eq(file_write_whole(dir, "x", 1, 0644, err), -1);
	cr_assert(strstr(err->msg, "it is a directory"), "%s", err->msg);
	in_dir(link, "missing-link");
	cr_assert_eq(symlink("nothing-here", link), 0);
	cr_assert_eq(file_write_whole(link, "x", 1, 0644, err), -1);
	cr_assert(strstr(err->msg, "symbolic link to a file that does not exist"), "%s", err->msg);
	cr_assert_eq(type_of(link), S_IFLNK, "nothing was made through the dangling link");
}
