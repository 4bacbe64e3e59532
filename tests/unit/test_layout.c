/* scripts/check-layout keeps the parts of judge/ in one order: the tree as
 * it is passes, and a lower part that includes or calls a higher one fails,
 * naming the file and the include or the symbol.  The failing cases are a
 * small tree of their own (two parts, compiled here), given to the script
 * with --root. */
#include <criterion/criterion.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/cli_testlib.h"

/* The build the unit tests belong to: build/ or build/asan/, the judge's. */
static void this_build(char out[PATH_MAX])
{
	char judge[PATH_MAX];
	snprintf(judge, sizeof judge, "%s", cli_judge());
	snprintf(out, PATH_MAX, "%s", dirname(judge));
}

Test(layout, the_tree_keeps_its_parts_in_order)
{
	char build[PATH_MAX], cmd[PATH_MAX + 64], out[8192];
	this_build(build);
	snprintf(cmd, sizeof cmd, "scripts/check-layout %s 2>&1", build);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "base < store < notify"), "%s", out);
}

struct tree {
	char dir[64];
	char out[8192];
};

static void tree_file(struct tree *t, const char *path, const char *text)
{
	char full[PATH_MAX], cmd[PATH_MAX + 32];
	snprintf(full, sizeof full, "%s/%s", t->dir, path);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s)\"", full);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(cli_write_file(full, text), 0, "cannot write %s", full);
}

/* Writes stem.c and compiles it into build/obj/stem.o, as make would. */
static void tree_add(struct tree *t, const char *stem, const char *text)
{
	char path[PATH_MAX], cmd[512];
	snprintf(path, sizeof path, "%s.c", stem);
	tree_file(t, path, text);
	snprintf(cmd, sizeof cmd, "cd %s && mkdir -p \"$(dirname build/obj/%s)\" && "
		 "gcc -std=gnu17 -Wall -Werror -I. -c %s.c -o build/obj/%s.o 2>&1",
		 t->dir, stem, stem, stem);
	cr_assert_eq(cli_run(cmd, t->out, sizeof t->out), 0, "%s", t->out);
}

/* A tree of judge/base/low.c (given) and judge/worker/worker.{h,c}, compiled. */
static void tree_make(struct tree *t, const char *low_c)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/judge-layout-XXXXXX");
	cr_assert_not_null(mkdtemp(t->dir));
	tree_file(t, "judge/worker/worker.h", "int worker_plays(void);\n");
	tree_add(t, "judge/worker/worker",
		 "#include \"judge/worker/worker.h\"\nint worker_plays(void) { return 1; }\n");
	tree_add(t, "judge/base/low", low_c);
}

/* Runs the script on the tree, expects exit status rc and `says` in what
 * it prints, and removes the tree. */
static void tree_expect(struct tree *t, int rc, const char *says)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "scripts/check-layout --root %s %s/build 2>&1", t->dir, t->dir);
	cr_expect_eq(cli_run(cmd, t->out, sizeof t->out), rc, "%s", t->out);
	cr_expect(strstr(t->out, says), "wanted \"%s\" in:\n%s", says, t->out);
	snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
	cr_expect_eq(system(cmd), 0);
}

Test(layout, a_lower_part_including_a_higher_one_fails)
{
	struct tree t;
	tree_make(&t, "#include \"judge/worker/worker.h\"\nint low_value(void) { return 2; }\n");
	tree_expect(&t, 1, "check-layout: judge/base is below judge/worker, yet judge/base/low.c "
		    "uses judge/worker/worker.c: #include \"judge/worker/worker.h\"");
}

Test(layout, a_lower_part_calling_a_higher_one_fails)
{
	struct tree t;
	tree_make(&t, "int worker_plays(void);\nint low_value(void) { return worker_plays(); }\n");
	tree_expect(&t, 1, "judge/base/low.c uses judge/worker/worker.c: worker_plays");
}

Test(layout, a_part_left_out_of_the_order_fails)
{
	struct tree t;
	tree_make(&t, "int low_value(void) { return 2; }\n");
	tree_add(&t, "judge/extra/extra", "int low_value(void);\n"
		 "int extra_value(void) { return low_value(); }\n");
	tree_expect(&t, 1, "judge/extra is not in the order of the parts");
}

Test(layout, a_higher_part_using_a_lower_one_passes)
{
	struct tree t;
	tree_make(&t, "int low_value(void) { return 2; }\n");
	tree_add(&t, "judge/worker/worker", "int low_value(void);\n"
		 "int worker_plays(void) { return low_value(); }\n");
	tree_expect(&t, 0, "parts in order");
}
