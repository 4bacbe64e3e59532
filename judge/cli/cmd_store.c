/* judge store copy | backup: a tournament moved whole from one store to
 * another (one box's SQLite file to the PostgreSQL database of many
 * machines, or back), or a SQLite store saved while the judge runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/store/store.h"

static const char summary[] =
"copy: copies everything the judge keeps (submissions and their sources,\n"
"compiled binaries, jobs, matches with their replays, ratings, events,\n"
"plagiarism fingerprints and pairs, tournaments) from one store into\n"
"another, keeping every id, in one transaction on the target.  A store is a\n"
"SQLite file or a postgresql:// URL; the target is created if it is a new\n"
"file, and must hold no tournament yet (a non-empty one is refused,\n"
"untouched).  The source is read as one snapshot, so the workers and the\n"
"service may go on: the copy holds what was recorded when it began.\n"
"Afterwards `judge leaderboard` and `judge ratings --recompute --check` on\n"
"the target say the same as on the source.\n"
"\n"
"backup FILE: writes the SQLite store (--queue) whole into the new FILE, as\n"
"one snapshot, while the judge runs; FILE is readable by its owner only (it\n"
"holds every contestant's source).  To restore, stop the judge and put FILE\n"
"in the store's place.  A PostgreSQL store is backed up with pg_dump.";

static int copy(const char *from_path, const char *to_path)
{
	err_t err;
	struct store *from = store_open(from_path, false, err), *to = NULL;
	if (from)
		to = store_open(to_path, true, err);
	if (!to) {
		fprintf(stderr, "judge store copy: %s\n", err->msg);
		store_close(from);
		return 2;
	}
	int64_t rows;
	int rc = store_copy(from, to, &rows, err);
	if (rc < 0)
		fprintf(stderr, "judge store copy: %s\n", err->msg);
	else
		printf("copied %lld rows from %s to %s\n", (long long)rows, from_path, to_path);
	store_close(to);
	store_close(from);
	return rc < 0 ? 1 : 0;
}

static int backup(const char *queue, const char *dest)
{
	err_t err;
	if (access(dest, F_OK) == 0 || errno != ENOENT) {
		fprintf(stderr, "judge store backup: %s already exists: name a new file\n", dest);
		return 1;
	}
	struct store *s = store_open(queue, false, err);
	if (!s) {
		fprintf(stderr, "judge store backup: %s\n", err->msg);
		return 2;
	}
	mode_t old = umask(077); /* the file holds every contestant's source */
	int rc = store_backup(s, dest, err);
	umask(old);
	store_close(s);
	if (rc < 0) {
		fprintf(stderr, "judge store backup: %s\n", err->msg);
		return 1;
	}
	struct stat st;
	if (stat(dest, &st) == 0)
		printf("backed up %s to %s (%lld bytes, mode %03o)\n", queue, dest,
		       (long long)st.st_size, (unsigned)(st.st_mode & 0777));
	return 0;
}

/* judge store copy --from STORE --to STORE | judge store backup [--queue STORE] FILE */
int cmd_store(int argc, char **argv)
{
	const char *from_path = NULL, *to_path = NULL, *queue = STORE_DEFAULT_PATH;
	const struct opt opts[] = {
		OPT_STR("from", 0, "STORE", &from_path, "copy: the store to copy (read only)"),
		OPT_STR("to", 0, "STORE", &to_path, "copy: the empty store to fill"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge store", .args = "copy | backup FILE", .min_args = 1, .max_args = 2,
		.queue = &queue,
		.opts = opts, .summary = summary,
		.exits = "0 done, 1 the target exists or is not empty, or the copy failed (nothing "
			 "written), 2 bad usage or a store that cannot be opened.",
	};
	int status, nargs = opt_parse(&cmd, argc, argv, &status);
	if (nargs < 0)
		return status;
	if (strcmp(argv[1], "backup") == 0 && nargs == 2)
		return backup(queue, argv[2]);
	if (strcmp(argv[1], "copy") == 0 && nargs == 1 && from_path && to_path)
		return copy(from_path, to_path);
	return opt_bad(&cmd, "say what to do: `judge store copy --from STORE --to STORE` or "
		       "`judge store backup [--queue STORE] FILE`");
}
