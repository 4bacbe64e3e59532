/* What starting the judge costs: the libraries loaded before main().  The
 * PostgreSQL client, libcurl and libmicrohttpd (and the thirty libraries
 * they pull in) are loaded on their first use (judge/base/lazy_load.h);
 * their own tests (store, webhook, serve) show that they still work. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/cli_testlib.h"

Test(start, the_judge_loads_no_network_library_to_start)
{
	char cmd[512], out[8192];
	const char *programs[] = { cli_judge(), cli_worker() };
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd, "ldd %s", programs[i]);
		cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
		cr_expect_null(strstr(out, "libpq"), "%s loads libpq:\n%s", programs[i], out);
		cr_expect_null(strstr(out, "libcurl"), "%s loads libcurl:\n%s", programs[i], out);
		cr_expect_null(strstr(out, "libmicrohttpd"), "%s loads libmicrohttpd:\n%s",
			       programs[i], out);
	}
}
