/* What starting the judge costs: the libraries loaded before main().  The
 * PostgreSQL client, libcurl and libmicrohttpd (and the thirty libraries
 * they pull in) are loaded on their first use (judge/base/lazy_load.h);
 * their own tests (store, webhook, serve) show that they still work. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "judge/base/lazy_load.h"
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

/* A library loaded on demand is required by its part first, and a library
 * or function that cannot be found is an error the part returns, naming
 * it and what to install, not the end of the program. */
static struct lazy_lib absent = { "libjudge-absent.so.1", "a library that is not installed",
				  NULL };
static struct lazy_lib maths = { "libm.so.6", "the maths library", NULL };
static struct lazy_lib maths_old = { "libm.so.6", "an old maths library", NULL };
LAZY(absent, int, judge_lazy_absent_fn, (void), ())
LAZY(maths, double, j0, (double x), (x))
LAZY(maths_old, int, judge_lazy_missing_fn, (void), ())

Test(start, a_library_that_cannot_be_loaded_is_an_error_not_an_exit)
{
	err_t err = { 0 };
	cr_assert_eq(lazy_require(&absent, err), -1);
	cr_expect(strstr(err->msg, "cannot load a library that is not installed (libjudge-absent.so.1)") &&
		  strstr(err->msg, "install it"), "%s", err->msg);
	cr_assert_eq(lazy_require(&maths_old, err), -1);
	cr_expect(strstr(err->msg, "cannot load an old maths library") &&
		  strstr(err->msg, "judge_lazy_missing_fn"), "%s", err->msg);
}

Test(start, a_required_library_has_every_function_found)
{
	err_t err = { 0 };
	cr_assert_eq(lazy_require(&maths, err), 0, "%s", err->msg);
	cr_expect_not_null(__atomic_load_n(&lazy_j0, __ATOMIC_ACQUIRE), "j0 not found at once");
	cr_expect_eq(j0(0.0), 1.0);
}
