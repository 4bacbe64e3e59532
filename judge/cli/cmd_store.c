/* judge store copy: a tournament moved whole from one store to another
 * (one box's SQLite file to the PostgreSQL database of many machines, or
 * back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/store/store.h"

static const char summary[] =
"Copies everything the judge keeps (submissions and their sources, compiled\n"
"binaries, jobs, matches with their replays, ratings, events, plagiarism\n"
"fingerprints and pairs) from one store into another, keeping every id, in\n"
"one transaction on the target.  A store is a SQLite file or a\n"
"postgresql:// URL; the target is created if it is a new file, and must\n"
"hold no tournament yet (a non-empty one is refused, untouched).  Stop the\n"
"workers first: what they record during the copy would not be copied.\n"
"Afterwards `judge leaderboard` and `judge ratings --recompute --check` on\n"
"the target say the same as on the source.";

static int copy(const char *from_path, const char *to_path)
{
	char err[STORE_ERRLEN];
	struct store *from = store_open(from_path, false, err), *to = NULL;
	if (from)
		to = store_open(to_path, true, err);
	if (!to) {
		fprintf(stderr, "judge store copy: %s\n", err);
		store_close(from);
		return 2;
	}
	int64_t rows;
	int rc = store_copy(from, to, &rows, err);
	if (rc < 0)
		fprintf(stderr, "judge store copy: %s\n", err);
	else
		printf("copied %lld rows from %s to %s\n", (long long)rows, from_path, to_path);
	store_close(to);
	store_close(from);
	return rc < 0 ? 1 : 0;
}

/* judge store copy --from STORE --to STORE */
int cmd_store(int argc, char **argv)
{
	const char *from_path = NULL, *to_path = NULL;
	const struct opt opts[] = {
		OPT_STR("from", 0, "STORE", &from_path, "the store to copy (read only)",
			.required = true),
		OPT_STR("to", 0, "STORE", &to_path, "the empty store to fill", .required = true),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge store", .args = "copy", .min_args = 1, .max_args = 1, .opts = opts,
		.summary = summary,
		.exits = "0 copied, 1 the target is not empty or the copy failed (nothing "
			 "written), 2 bad usage or a store that cannot be opened.",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	if (strcmp(argv[1], "copy") != 0)
		return opt_bad(&cmd, "say what to do: `judge store copy --from STORE --to STORE`");
	return copy(from_path, to_path);
}
