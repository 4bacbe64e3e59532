/* judge store copy: a tournament moved whole from one store to another
 * (one box's SQLite file to the PostgreSQL database of many machines, or
 * back). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge store copy --from STORE --to STORE\n"
"\n"
"Copies everything the judge keeps (submissions and their sources, compiled\n"
"binaries, jobs, matches with their replays, ratings, events, plagiarism\n"
"fingerprints and pairs) from one store into another, keeping every id, in\n"
"one transaction on the target.  A store is a SQLite file or a\n"
"postgresql:// URL; the target is created if it is a new file, and must\n"
"hold no tournament yet (a non-empty one is refused, untouched).  Stop the\n"
"workers first: what they record during the copy would not be copied.\n"
"Afterwards `judge leaderboard` and `judge ratings --recompute --check` on\n"
"the target say the same as on the source.\n"
"\n"
"  --from STORE   the store to copy (read only)\n"
"  --to STORE     the empty store to fill\n"
"\n"
"exit status: 0 copied, 1 the target is not empty or the copy failed\n"
"(nothing written), 2 bad usage or a store that cannot be opened.\n");
}

static int parse(int argc, char **argv, const char **from, const char **to)
{
	static const struct option longopts[] = {
		{ "from", 1, 0, 'f' }, { "to", 1, 0, 't' }, { "help", 0, 0, 'h' }, { 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == 'f')
			*from = optarg;
		else if (c == 't')
			*to = optarg;
		else
			return -1;
	}
	if (!*from || !*to || optind != argc) {
		fprintf(stderr, "judge store copy: give --from STORE and --to STORE (see --help)\n");
		return -1;
	}
	return 0;
}

static int copy(int argc, char **argv)
{
	const char *from_path = NULL, *to_path = NULL;
	if (parse(argc, argv, &from_path, &to_path) < 0)
		return 2;
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

int cmd_store(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "copy") == 0)
		return copy(argc - 1, argv + 1);
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "judge store: say what to do: `judge store copy --from STORE --to STORE`"
		" (see --help)\n");
	return 2;
}
