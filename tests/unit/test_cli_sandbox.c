/* `judge sandbox run`, as an operator uses it: a real judge process, real
 * pipes, the JSON line it prints. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/unit/cli_testlib.h"

struct cli_run {
	int status;     /* the command's exit status */
	char out[8192];
	json_t *report; /* its last line, parsed */
};

/* Runs `printf INPUT | judge sandbox run ARGS`, where @ATTACK@ in ARGS
 * stands for the attack programs' folder. */
static void cli(const char *input, const char *args, struct cli_run *r)
{
	char expanded[512] = "", cmd[1024];
	const char *at;
	while ((at = strstr(args, "@ATTACK@"))) {
		strncat(expanded, args, at - args);
		strcat(expanded, cli_attack_dir());
		args = at + strlen("@ATTACK@");
	}
	strcat(expanded, args);
	snprintf(cmd, sizeof cmd, "printf '%s' | %s sandbox run %s 2>/dev/null", input,
		 cli_judge(), expanded);
	r->status = cli_run(cmd, r->out, sizeof r->out);
	char copy[sizeof r->out];
	strcpy(copy, r->out);
	r->report = json_loads(cli_last_line(copy), 0, NULL);
}

Test(cli_sandbox, benign_program_runs_and_reports_exited)
{
	struct cli_run r;
	cli("3\\n30 10 20\\n", "--cpu 500 --memory 64 @ATTACK@/benign", &r);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "10 20 30\nsum 60\n"), "got: %s", r.out);
	cr_assert_not_null(r.report, "no JSON line in: %s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "verdict")), "exited");
	cr_assert_eq(json_integer_value(json_object_get(r.report, "exit_status")), 0);
	cr_assert_gt(json_integer_value(json_object_get(r.report, "cpu_ns")), 0);
	cr_assert_gt(json_integer_value(json_object_get(r.report, "peak_memory")), 0);
	cr_assert_gt(json_integer_value(json_object_get(r.report, "stderr_bytes")), 0);
	json_decref(r.report);
}

Test(cli_sandbox, forbidden_call_is_named_and_exit_status_is_1)
{
	struct cli_run r;
	cli("/etc/passwd\\n", "--memory 64 @ATTACK@/open", &r);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(r.report, "no JSON line in: %s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "verdict")),
			 "forbidden-syscall");
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "detail")), "open");
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "message")),
			 "forbidden system call: open");
	cr_assert_null(strstr(r.out, "root:"), "the file leaked: %s", r.out);
	json_decref(r.report);
}

Test(cli_sandbox, cpu_option_sets_the_budget)
{
	struct cli_run r;
	cli("", "--cpu 100 --memory 64 @ATTACK@/spin", &r);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(r.report, "no JSON line in: %s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "verdict")), "cpu-limit");
	json_int_t cpu = json_integer_value(json_object_get(r.report, "cpu_ns"));
	cr_assert(cpu >= 100000000 && cpu < 150000000, "cpu_ns %lld", (long long)cpu);
	json_decref(r.report);
}

Test(cli_sandbox, output_limit_stops_a_chatty_program)
{
	struct cli_run r;
	cli("", "--output 1 --memory 64 @ATTACK@/stdout_flood", &r);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(r.report, "no JSON line in: %s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "verdict")), "output-limit");
	json_decref(r.report);
}

Test(cli_sandbox, bad_usage_exits_2)
{
	struct cli_run r;
	cli("", "--cpu lots @ATTACK@/benign", &r);
	cr_assert_eq(r.status, 2);
	cli("", "", &r);
	cr_assert_eq(r.status, 2);
}

Test(cli_sandbox, a_file_that_is_not_a_program_is_setup_failed)
{
	struct cli_run r;
	cli("", "--memory 64 Makefile", &r);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(r.report, "no JSON line in: %s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(r.report, "verdict")), "setup-failed");
	json_decref(r.report);
}
