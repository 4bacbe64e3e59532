/* cli_testlib.h - runs the real `judge` program from the unit tests.
 *
 * Commands go through sh, so a test can pipe input in; the program is
 * build/judge or $JUDGE_BIN, and the attack programs are under
 * $ATTACK_DIR (build/attack).
 */
#ifndef CLI_TESTLIB_H
#define CLI_TESTLIB_H

#include <stddef.h>

const char *cli_judge(void);
const char *cli_attack_dir(void);
/* judge-worker: $WORKER_BIN, or the judge's path followed by -worker. */
const char *cli_worker(void);

/* Runs `sh -c cmdline`, keeping at most cap - 1 bytes of its stdout (and of
 * its stderr too when the command line says 2>&1).  Returns its exit
 * status, or -1 if it was killed by a signal. */
int cli_run(const char *cmdline, char *out, size_t cap);

/* A test's folder for the programs it runs: a fresh /tmp/judge-NAME-XXXXXX
 * in dir, with the paths of a queue (jobs.sqlite) and a settings file
 * (judge.json) in it; a failure fails the test.  cli_workdir_remove
 * deletes it. */
void cli_workdir(const char *name, char dir[64], char db[128], char cfg[128]);
void cli_workdir_remove(const char *dir);

/* Uploads the game's shipped Demo renamed to name (by author "a" name)
 * to the queue db with the settings cfg, through `judge submit`; a
 * failure fails the test. */
void cli_upload_demo(const char *dir, const char *cfg, const char *db, const char *game,
		     const char *name);

/* How many times what occurs in text (a command's output, a log). */
int cli_count(const char *text, const char *what);

/* Writes text to path, replacing it (a settings file, a player): 0, or -1. */
int cli_write_file(const char *path, const char *text);

/* The row of `judge play`'s table for a seat ("N    Name ..."), or NULL. */
const char *cli_table_row(const char *out, int seat);

/* The last line of out (without its newline), in place. */
const char *cli_last_line(char *out);

#endif
