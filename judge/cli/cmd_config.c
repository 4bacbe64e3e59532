/* judge config: the effective configuration, and where each value came
 * from (the built-in default, or the file read and why that file). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/base/config_running.h"
#include "judge/base/paths.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/store/store.h"

static const char summary[] =
"Prints every setting the judge's commands use, with its value and where\n"
"it came from.  One file is read, the first of:\n"
"  1. the command's --config FILE\n"
"  2. the file named by $JUDGE_CONFIG\n"
"  3. config/judge.json in the data directory ($JUDGE_DATA; else, beside the\n"
"     program, ../share/judge or the source tree; else the working directory)\n"
"A setting the file does not name keeps its built-in default.";

/* Where the data directory came from, as paths_data_dir() found it. */
static const char *data_dir_origin(void)
{
	const char *env = getenv(PATHS_DATA_ENV);
	return env && *env ? "$" PATHS_DATA_ENV : "found beside the program, or the working directory";
}

static void print_text(const json_t *all)
{
	const char *file = json_string_value(json_object_get(all, "file"));
	printf("# file      %s (%s)\n", *file ? file : "none",
	       json_string_value(json_object_get(all, "why")));
	printf("# data_dir  %s (%s)\n", json_string_value(json_object_get(all, "data_dir")),
	       data_dir_origin());
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(all, "settings"), key, v) {
		char *value = json_dumps(json_object_get(v, "value"), JSON_ENCODE_ANY);
		printf("%-34s %-14s %s\n", key, value ? value : "?",
		       json_string_value(json_object_get(v, "from")));
		free(value);
	}
}

/* What each running process (config_running.h) runs with that the file
 * does not say, as an array of {"program", "holder", "differs": [...]}. */
static json_t *running_differences(const char *queue, const json_t *settings)
{
	char dir[PATH_MAX];
	cfgrun_dir(queue, dir);
	json_t *list = cfgrun_list(dir), *out = json_array(), *p;
	size_t i;
	json_array_foreach(list, i, p) {
		json_t *diff = cfgrun_diff(settings, json_object_get(p, "settings"));
		json_array_append_new(out, json_pack("{s:O, s:O, s:o}", "program",
						     json_object_get(p, "program"), "holder",
						     json_object_get(p, "holder"), "differs", diff));
	}
	json_decref(list);
	return out;
}

static void print_running(const json_t *running)
{
	size_t i, j, same = 0;
	json_t *p, *d;
	json_array_foreach(running, i, p) {
		const json_t *differs = json_object_get(p, "differs");
		const char *program = json_string_value(json_object_get(p, "program"));
		same += json_array_size(differs) == 0;
		if (!json_array_size(differs))
			continue;
		bool reloads = strcmp(program, "judge-worker") == 0;
		printf("# %s %s runs with other settings than these (%s it: `systemctl %s %s`%s):\n",
		       program, json_string_value(json_object_get(p, "holder")),
		       reloads ? "reload" : "restart", reloads ? "reload" : "restart", program,
		       reloads ? ", or kill -HUP its main process" : "");
		json_array_foreach(differs, j, d) {
			char *now = json_dumps(json_object_get(d, "now"), JSON_ENCODE_ANY),
			     *was = json_dumps(json_object_get(d, "was"), JSON_ENCODE_ANY);
			printf("#   %-32s runs with %s, this says %s\n",
			       json_string_value(json_object_get(d, "key")), now ? now : "?",
			       was ? was : "?");
			free(now);
			free(was);
		}
	}
	if (same)
		printf("# %zu running process%s of this queue run%s with these settings\n", same,
		       same == 1 ? "" : "es", same == 1 ? "s" : "");
}

int cmd_config(int argc, char **argv)
{
	const char *path = NULL, *queue = STORE_DEFAULT_PATH;
	bool json = false;
	const struct opt opts[] = {
		OPT_STR("config", 0, "FILE", &path, "show what FILE would give"),
		OPT_STR("queue", 0, "FILE", &queue, "compare with the processes running on this "
			"queue (default " STORE_DEFAULT_PATH ")"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge config", .opts = opts, .summary = summary,
		.json = &json,
		.json_help = "{\"file\", \"why\", \"data_dir\", \"settings\": {\"section.key\": "
			"{\"value\", \"from\"}}, \"running\": [{\"program\", \"holder\", "
			"\"differs\": [{\"key\", \"was\", \"now\"}]}]}",
		.exits = "0 shown, 1 the settings file cannot be used, 2 bad usage.",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	struct judge_config cfg;
	char file[PATH_MAX];
	err_t err;
	if (cfg_init(&cfg, path, err) < 0) {
		fprintf(stderr, "judge config: %s\n", err->msg);
		return 1;
	}
	const char *why;
	cfg_which_file(&cfg, path, file, &why);
	char from[PATH_MAX + 64];
	snprintf(from, sizeof from, "%s (%s)", file, why);
	json_t *settings = cfg_describe(&cfg, file, from);
	json_t *all = json_pack("{s:s, s:s, s:s, s:o, s:o}", "file", file, "why", why, "data_dir",
				cfg.data_dir, "settings", settings, "running",
				running_differences(queue, settings));
	if (json) {
		json_dumpf(all, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	} else {
		print_text(all);
		print_running(json_object_get(all, "running"));
	}
	if (json)
		putchar('\n');
	json_decref(all);
	return 0;
}
