/* config_running.h - the settings running processes started with.
 *
 * A long-running process (each worker slot, the service) writes the
 * settings it runs with (cfg_describe()) into DIR/PROGRAM-PID.json when it
 * starts and again when it reloads them, and removes the file when it
 * ends.  `judge config` reads them back and names every setting a running
 * process has that the settings file no longer says, so an edit that is
 * not in force yet is never silent.  A file whose process is gone
 * (holder.h) is removed as it is read.  DIR is beside the store: the
 * queue's folder for a SQLite file, db/ of the working directory for a
 * server.
 */
#ifndef JUDGE_BASE_CONFIG_RUNNING_H
#define JUDGE_BASE_CONFIG_RUNNING_H

#include <jansson.h>
#include <limits.h>
#include "judge/base/error.h"


/* The folder for queue's processes, into out. */
void cfgrun_dir(const char *queue, char out[PATH_MAX]);

/* Writes (or replaces) this process's file; settings is not consumed. */
int cfgrun_publish(const char *dir, const char *program, const json_t *settings,
		   err_t err);
void cfgrun_withdraw(const char *dir, const char *program);

/* The running processes' files, a new array of {"program", "holder",
 * "settings"}; an empty array when there are none. */
json_t *cfgrun_list(const char *dir);

/* Every key whose value differs between two cfg_describe() objects, as a
 * new array of {"key", "was", "now"}. */
json_t *cfgrun_diff(const json_t *was, const json_t *now);

#endif
