#include "judge/cli/in_force.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config_running.h"

json_t *in_force_describe(struct judge_config *cfg, const char *path)
{
	char file[PATH_MAX], from[PATH_MAX + 64];
	const char *why;
	if (cfg_which_file(cfg, path, file, &why) == 1)
		snprintf(from, sizeof from, "%s (%s)", file, why);
	else
		file[0] = from[0] = '\0';
	return cfg_describe(cfg, file, from);
}

/* Appends "key=value" to line, keeping it a C string within size. */
static void put_setting(char *line, size_t size, const char *key, const json_t *value,
			bool first)
{
	size_t used = strlen(line);
	char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
	if (used < size)
		snprintf(line + used, size - used, "%s%s=%s", first ? "" : ", ", key,
			 text ? text : "?");
	free(text);
}

void in_force_said(struct in_force *f, char *line, size_t size)
{
	char file[PATH_MAX];
	const char *why;
	json_t *all = in_force_describe(f->cfg, f->path);
	if (cfg_which_file(f->cfg, f->path, file, &why) == 1)
		snprintf(line, size, "settings from %s (%s): ", file, why);
	else
		snprintf(line, size, "settings: the built-in defaults");
	const char *key;
	json_t *v;
	bool first = true;
	json_object_foreach(all, key, v) {
		if (strcmp(json_string_value(json_object_get(v, "from")), "default") == 0)
			continue;
		put_setting(line, size, key, json_object_get(v, "value"), first);
		first = false;
	}
	if (first && strstr(line, "): "))
		strncat(line, "every setting at its default", size - strlen(line) - 1);
	json_decref(all);
}

int in_force_publish(struct in_force *f, char *line, size_t size)
{
	err_t err;
	json_t *all = in_force_describe(f->cfg, f->path);
	int rc = cfgrun_publish(f->dir, f->program, all, err);
	json_decref(all);
	if (rc < 0)
		snprintf(line, size, "%s (`judge config` cannot tell what this process runs with)",
			 err->msg);
	return rc;
}

int in_force_reload(struct in_force *f, char *line, size_t size)
{
	struct judge_config next;
	err_t err;
	if (cfg_init(&next, f->path, err) < 0) {
		snprintf(line, size, "settings not reloaded, those in force stay: %s", err->msg);
		return -1;
	}
	json_t *was = in_force_describe(f->cfg, f->path), *now = in_force_describe(&next, f->path);
	json_t *diff = cfgrun_diff(was, now);
	size_t n = json_array_size(diff), i;
	json_t *d;
	snprintf(line, size, "settings reloaded: %s", n ? "" : "nothing changed");
	json_array_foreach(diff, i, d) {
		char change[256];
		char *old = json_dumps(json_object_get(d, "was"), JSON_ENCODE_ANY),
		     *new = json_dumps(json_object_get(d, "now"), JSON_ENCODE_ANY);
		snprintf(change, sizeof change, "%s%s %s -> %s", i ? ", " : "",
			 json_string_value(json_object_get(d, "key")), old ? old : "?",
			 new ? new : "?");
		free(old);
		free(new);
		strncat(line, change, size - strlen(line) - 1);
	}
	json_decref(diff);
	json_decref(was);
	json_decref(now);
	*f->cfg = next;
	return n ? 1 : 0;
}
