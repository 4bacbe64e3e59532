/* judge config: the effective configuration, and where each value came
 * from (the built-in default, or the file read and why that file). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/config.h"
#include "judge/base/paths.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"

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

int cmd_config(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	const struct opt opts[] = {
		OPT_STR("config", 0, "FILE", &path, "show what FILE would give"),
		OPT_JSON(&json, "{\"file\", \"why\", \"data_dir\", \"settings\": {\"section.key\": "
			 "{\"value\", \"from\"}}}"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge config", .opts = opts, .summary = summary,
		.exits = "0 shown, 1 the settings file cannot be used, 2 bad usage.",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	struct judge_config cfg;
	char err[CFG_ERRLEN], file[PATH_MAX];
	if (cfg_init(&cfg, path, err) < 0) {
		fprintf(stderr, "judge config: %s\n", err);
		return 1;
	}
	const char *why;
	cfg_which_file(&cfg, path, file, &why);
	char from[PATH_MAX + 64];
	snprintf(from, sizeof from, "%s (%s)", file, why);
	json_t *all = json_pack("{s:s, s:s, s:s, s:o}", "file", file, "why", why, "data_dir",
				cfg.data_dir, "settings", cfg_describe(&cfg, file, from));
	if (json)
		json_dumpf(all, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	else
		print_text(all);
	if (json)
		putchar('\n');
	json_decref(all);
	return 0;
}
