#include "judge/base/config_running.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "judge/base/holder.h"
#include "judge/base/paths.h"

void cfgrun_dir(const char *queue, char out[PATH_MAX])
{
	const char *slash = strrchr(queue, '/');
	if (strstr(queue, "://") || !slash)
		snprintf(out, PATH_MAX, "%s", strstr(queue, "://") ? "db/running" : "running");
	else
		snprintf(out, PATH_MAX, "%.*s/running", (int)(slash - queue), queue);
}

static void own_file(const char *dir, const char *program, char path[PATH_MAX])
{
	snprintf(path, PATH_MAX, "%s/%s-%d.json", dir, program, (int)getpid());
}

int cfgrun_publish(const char *dir, const char *program, const json_t *settings,
		   err_t err)
{
	char path[PATH_MAX], holder[HOLDER_LEN], failed[PATH_MAX];
	if (paths_make_dirs(dir, failed) < 0) {
		err_set(err, "cannot make %.200s: %s", failed, strerror(errno));
		return -1;
	}
	holder_self(holder);
	own_file(dir, program, path);
	json_t *doc = json_pack("{s:s, s:s, s:O}", "program", program, "holder", holder,
				"settings", settings);
	char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	err_t werr;
	int rc = text ? file_write_whole(path, text, strlen(text), 0644, werr) : -1;
	if (rc < 0)
		err_set(err, "cannot record the settings in force: %.200s",
			 text ? werr->msg : "out of memory");
	free(text);
	return rc < 0 ? -1 : 0;
}

void cfgrun_withdraw(const char *dir, const char *program)
{
	char path[PATH_MAX];
	own_file(dir, program, path);
	unlink(path);
}

json_t *cfgrun_list(const char *dir)
{
	json_t *out = json_array();
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[PATH_MAX];
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 ||
		    !paths_in(path, dir, "%s", e->d_name))
			continue;
		json_t *doc = json_load_file(path, 0, NULL);
		const char *holder = json_string_value(json_object_get(doc, "holder"));
		if (holder && holder_gone(holder))
			unlink(path);
		else if (holder && json_is_object(json_object_get(doc, "settings")))
			json_array_append(out, doc);
		json_decref(doc);
	}
	if (d)
		closedir(d);
	return out;
}

json_t *cfgrun_diff(const json_t *was, const json_t *now)
{
	json_t *out = json_array();
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)now, key, v) {
		json_t *old = json_object_get(json_object_get(was, key), "value"),
		       *new = json_object_get(v, "value");
		if (!json_equal(old, new))
			json_array_append_new(out, json_pack("{s:s, s:O?, s:O?}", "key", key,
							     "was", old, "now", new));
	}
	return out;
}
