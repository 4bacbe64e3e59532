/* in_force.h - the settings a long-running command (judge-worker, judge
 * serve) runs with: read at start and again on SIGHUP, said in its log in
 * one line, and recorded for `judge config` (config_running.h). */
#ifndef JUDGE_CLI_IN_FORCE_H
#define JUDGE_CLI_IN_FORCE_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

#include "judge/base/config.h"

struct in_force {
	struct judge_config *cfg; /* the settings in force, replaced by a reload */
	const char *path;         /* --config, or NULL: the usual lookup */
	const char *program;      /* "judge-worker" */
	char dir[PATH_MAX];       /* config_running.h's folder */
};

/* cfg_describe() of cfg, read from where path leads (a new object). */
json_t *in_force_describe(struct judge_config *cfg, const char *path);

/* "settings from FILE (why): key=value, ..." naming every setting that is
 * not its default, into line. */
void in_force_said(struct in_force *f, char *line, size_t size);

/* Records the settings in force for `judge config`: 0, or -1 with line
 * saying why not (the process runs on). */
int in_force_publish(struct in_force *f, char *line, size_t size);

/* Reads the settings again.  1: *f->cfg holds them now and line says what
 * changed; 0: nothing changed; -1: the file cannot be used, the settings
 * in force stay, and line says why. */
int in_force_reload(struct in_force *f, char *line, size_t size);

#endif
