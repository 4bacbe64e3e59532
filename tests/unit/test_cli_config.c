/* judge config (the effective settings and where each came from) and
 * --version, run as an organiser runs them. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char out[65536];

static bool matches(const char *pattern, const char *text)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0, "%s", pattern);
	bool yes = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return yes;
}

Test(cli_version, both_programs_say_the_build_version)
{
	char cmd[256], worker[256];
	snprintf(cmd, sizeof cmd, "%s --version", cli_worker());
	cr_assert_eq(cli_run(cmd, worker, sizeof worker), 0, "%s", worker);
	snprintf(cmd, sizeof cmd, "%s --version", cli_judge());
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_assert(matches("^judge [^ \n]+\n$", out), "%s", out);
	cr_assert(strncmp(worker, "judge-worker ", 13) == 0, "%s", worker);
	cr_assert_str_eq(worker + 13, out + 6, "the two programs of one build differ");
	cr_assert_str_neq(out, "judge \n");
}

/* A config file with text; its path in path. */
static void config_file(char path[64], const char *text)
{
	snprintf(path, 64, "/tmp/judge-config-XXXXXX");
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

Test(cli_config, each_value_says_where_it_came_from)
{
	char env_file[64], opt_file[64], cmd[512];
	config_file(env_file, "{\"worker\": {\"min_games\": 3, \"seed_secret\": \"hush\"}}");
	config_file(opt_file, "{\"sandbox\": {\"cpu_ms\": 250}}");
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s config", env_file, cli_judge());
	int rc = cli_run(cmd, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	char line[256];
	snprintf(line, sizeof line, "\nworker.min_games +3 +%s \\(\\$JUDGE_CONFIG\\)\n", env_file);
	cr_expect(matches(line + 1, out), "no /%s/ in:\n%s", line + 1, out);
	cr_expect(matches("^worker.lease_ms +60000 +default$", out), "%s", out);
	cr_expect(matches("^sandbox.cpu_ms +1000 +default$", out), "%s", out);
	cr_expect(matches("^worker.seed_secret +\"\\(set\\)\" ", out), "%s", out);
	cr_expect_null(strstr(out, "hush"), "a secret was shown: %s", out);
	cr_expect(strstr(out, "# file      ") && strstr(out, "($JUDGE_CONFIG)"), "%s", out);

	/* --config comes first */
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s config --config %s --json", env_file,
		 cli_judge(), opt_file);
	rc = cli_run(cmd, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	json_t *j = json_loads(out, 0, NULL);
	cr_assert_not_null(j, "%s", out);
	cr_expect_str_eq(json_string_value(json_object_get(j, "file")), opt_file);
	cr_expect_str_eq(json_string_value(json_object_get(j, "why")), "--config");
	json_t *set = json_object_get(j, "settings");
	json_t *cpu = json_object_get(set, "sandbox.cpu_ms");
	cr_expect_eq(json_integer_value(json_object_get(cpu, "value")), 250);
	cr_expect(strstr(json_string_value(json_object_get(cpu, "from")), opt_file));
	json_t *games = json_object_get(set, "worker.min_games");
	cr_expect_eq(json_integer_value(json_object_get(games, "value")), 30);
	cr_expect_str_eq(json_string_value(json_object_get(games, "from")), "default");
	json_decref(j);
	unlink(env_file);
	unlink(opt_file);
}

Test(cli_config, a_bad_file_is_named_with_its_key)
{
	char file[64], cmd[512];
	config_file(file, "{\"worker\": {\"min_game\": 3}}");
	snprintf(cmd, sizeof cmd, "%s config --config %s 2>&1", cli_judge(), file);
	int rc = cli_run(cmd, out, sizeof out);
	unlink(file);
	cr_assert_eq(rc, 1, "%s", out);
	char words[128];
	snprintf(words, sizeof words, "config %s: unknown setting worker.min_game", file);
	cr_assert(strstr(out, words), "%s", out);
}

Test(cli_config, a_missing_file_is_said_without_a_line_number)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s config --config /nonexistent/judge.json 2>&1", cli_judge());
	cr_assert_eq(cli_run(cmd, out, sizeof out), 1, "%s", out);
	cr_assert(strstr(out, "config /nonexistent/judge.json: unable to open"), "%s", out);
	cr_assert_null(strstr(out, "line -1"), "%s", out);
}

/* `judge config` with a file holding json: its exit status, its output in
 * out. */
static int config_with(const char *json)
{
	char file[64], cmd[512];
	config_file(file, json);
	snprintf(cmd, sizeof cmd, "%s config --config %s 2>&1", cli_judge(), file);
	int rc = cli_run(cmd, out, sizeof out);
	unlink(file);
	return rc;
}

Test(cli_config, keep_logs_is_true_or_false)
{
	cr_assert_eq(config_with("{}"), 0, "%s", out);
	cr_expect(matches("^worker.keep_logs +true +default$", out), "logs are kept by default: %s",
		  out);
	cr_assert_eq(config_with("{\"worker\": {\"keep_logs\": \"yes\"}}"), 1, "%s", out);
	cr_assert(strstr(out, ": worker.keep_logs must be true or false"), "%s", out);
}

/* On by default with 10 pairs (a new version is compared with the one it
 * replaced unasked); 0 turns it off; one pair is refused, as it gives no
 * interval. */
Test(cli_config, compare_pairs_is_on_by_default_off_or_at_least_two)
{
	cr_assert_eq(config_with("{}"), 0, "%s", out);
	cr_expect(matches("^worker.compare_pairs +10 +default$", out), "%s", out);
	cr_assert_eq(config_with("{\"worker\": {\"compare_pairs\": 0}}"), 0, "%s", out);
	cr_expect(matches("^worker.compare_pairs +0 +", out), "%s", out);
	cr_assert_eq(config_with("{\"worker\": {\"compare_pairs\": 1}}"), 1, "%s", out);
	cr_assert(strstr(out, "worker.compare_pairs is 0 (no automatic comparison) or 2 to 200"),
		  "%s", out);
}
