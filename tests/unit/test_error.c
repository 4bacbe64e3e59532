/* The one error type (judge/base/error.h), the judge's, the sandbox's and
 * the engines': a plain char buffer given where an error is wanted does
 * not compile, whatever its size, while an err_t does; the helpers write
 * one message of ERR_LEN bytes at most. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/base/error.h"
#include "tests/unit/cli_testlib.h"

/* Compiles body (the inside of a function) against header as the build
 * does, warnings as errors: gcc's exit status, its messages in out. */
static int compile_with(const char *header, const char *body, char *out, size_t cap)
{
	char path[] = "/tmp/judge-error-type-XXXXXX.c", text[1024], cmd[256];
	int fd = mkstemps(path, 2);
	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(text, sizeof text,
		 "#include \"%s\"\nint try_it(void);\n"
		 "int try_it(void)\n{\n%s\n}\n", header, body);
	cr_assert_eq(cli_write_file(path, text), 0, "cannot write %s", path);
	snprintf(cmd, sizeof cmd, "gcc -std=gnu17 -Wall -Wextra -Werror -I. -fsyntax-only %s 2>&1",
		 path);
	int rc = cli_run(cmd, out, cap);
	unlink(path);
	return rc;
}

Test(error, a_char_buffer_given_as_an_error_does_not_compile)
{
	static const char *const bodies[] = {
		"\tchar buf[10];\n\terr_set(buf, \"x\");\n\treturn buf[0];",
		"\tchar buf[ERR_LEN];\n\treturn err_fail(buf, \"x\");",
		"\tchar *buf = NULL;\n\terr_prefix(buf, \"x\");\n\treturn 0;",
	};
	char out[4096];
	for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
		cr_expect_neq(compile_with("judge/base/error.h", bodies[i], out, sizeof out), 0,
			      "compiled:\n%s", bodies[i]);
		cr_expect(strstr(out, "struct err"), "gcc did not name the error type:\n%s", out);
	}
}

Test(error, an_err_t_compiles_and_its_message_is_read_as_msg)
{
	char out[4096];
	cr_expect_eq(compile_with("judge/base/error.h",
				  "\terr_t err;\n\terr_set(err, \"x\");\n"
				  "\terr_prefix(err, \"y\");\n"
				  "\treturn err_fail(err, \"%s\", err->msg);",
				  out, sizeof out),
		     0, "%s", out);
}

/* The sandbox and the engines take the judge's err_t, so a message passes
 * from them to the judge whole: the buffers of their old own sizes are
 * refused, an err_t is taken. */
Test(error, the_sandbox_and_the_engines_take_the_one_error_type)
{
	static const struct {
		const char *header, *call;
	} parts[] = {
		{ "sandbox/sandbox.h", "sbx_uid_claim(0, 1, &(struct sbx_uid){ 0 }, buf)" },
		{ "games/game.h", "game_create(NULL, NULL, 1, 2, buf) != NULL" },
		{ "games/params_text.h", "pt_read_params(NULL, NULL, NULL, \"\", buf)" },
	};
	char out[4096], body[512];
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		snprintf(body, sizeof body, "\tchar buf[256];\n\treturn %s;", parts[i].call);
		cr_expect_neq(compile_with(parts[i].header, body, out, sizeof out), 0,
			      "%s took a char buffer:\n%s", parts[i].header, body);
		cr_expect(strstr(out, "struct err"), "gcc did not name the error type:\n%s", out);
		snprintf(body, sizeof body, "\terr_t buf;\n\treturn %s;", parts[i].call);
		cr_expect_eq(compile_with(parts[i].header, body, out, sizeof out), 0,
			     "%s refused an err_t:\n%s", parts[i].header, out);
	}
}

Test(error, the_helpers_cut_to_one_message_and_prefix_in_front)
{
	err_t err;
	char long_text[2 * ERR_LEN];
	memset(long_text, 'a', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	cr_expect_eq(err_fail(err, "%s", long_text), -1);
	cr_expect_eq(strlen(err->msg), ERR_LEN - 1);
	err_set(err, "no such file %s", "x.c");
	err_prefix(err, "submission %d", 7);
	cr_expect_str_eq(err->msg, "submission 7: no such file x.c");
	cr_expect_eq(sizeof(err_t), ERR_LEN);
}
