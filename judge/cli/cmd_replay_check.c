/* judge replay check FILE|MATCH: re-runs a replay's engine and says
 * whether it agrees with every round. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/replay/replay_check.h"
#include "judge/replay/replay_io.h"
#include "judge/store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge replay check FILE|MATCH [--queue FILE]\n"
"\n"
"Re-plays a replay without its players: creates the game from the replay's\n"
"parameters and seed, checks the start state, feeds each round's recorded\n"
"orders back to the engine (which seats still played included), compares\n"
"what changed in every round with what the replay says, then the scores,\n"
"ranks and frozen seats of the result.  Prints OK and the number of rounds,\n"
"or the first place that differs (the start, round N counted from 0 as in\n"
"the replay's \"rounds\" and the frozen rounds, or the result) and what.\n"
"\n"
"FILE is a replay written by `judge play -o` or `judge replay -o`, plain or\n"
"gzip-compressed; MATCH, a number, is a match of the store (`judge matches`\n"
"lists them; write ./N for a file named N).\n"
"\n"
"  --queue FILE  the judge's database, for MATCH (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 the replay agrees, 1 it does not (or is not a replay, or no\n"
"such match), 2 bad usage, a file that cannot be read or an unusable\n"
"database.\n");
}

static bool is_match_id(const char *s, long long *id)
{
	char *end;
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	*id = strtoll(s, &end, 10);
	return *id > 0;
}

/* The replay of a match of the store; NULL with *rc the exit status. */
static json_t *load_match(const char *queue, long long id, int *rc)
{
	char err[REPLAY_ERRLEN], serr[STORE_ERRLEN];
	struct store *s = store_open(queue, false, serr);
	if (!s) {
		fprintf(stderr, "judge replay check: %s\n", serr);
		*rc = 2;
		return NULL;
	}
	char *text = NULL;
	size_t len;
	int found = replay_stored_text(s, id, &text, &len, err);
	store_close(s);
	if (found <= 0) {
		fprintf(stderr, "judge replay check: %s%s%s\n", err, found == 0 ? " in " : "",
			found == 0 ? queue : "");
		*rc = found == 0 ? 1 : 2;
		return NULL;
	}
	json_error_t e;
	json_t *r = json_loadb(text, len, 0, &e);
	free(text);
	if (!r) {
		printf("match %lld: the stored replay is not JSON: line %d: %s\n", id, e.line,
		       e.text);
		*rc = 1;
	}
	return r;
}

static json_t *load_file(const char *path, int *rc)
{
	char err[REPLAY_ERRLEN];
	json_t *r = replay_read_file(path, err);
	if (!r) {
		/* A file that cannot be read is a usage error; one that is not a
		 * replay is a replay that fails the check. */
		bool unreadable = strncmp(err, "cannot read ", 12) == 0;
		fprintf(unreadable ? stderr : stdout, "%s%s\n",
			unreadable ? "judge replay check: " : "", err);
		*rc = unreadable ? 2 : 1;
	}
	return r;
}

static int parse(int argc, char **argv, const char **queue)
{
	static const struct option longopts[] = {
		{ "queue", 1, 0, 'q' }, { "help", 0, 0, 'h' }, { 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c != 'q')
			return -1;
		*queue = optarg;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "judge replay check: give one replay, a FILE or a MATCH id "
				"(see --help)\n");
		return -1;
	}
	return 0;
}

int cmd_replay_check(int argc, char **argv)
{
	const char *queue = STORE_DEFAULT_PATH;
	if (parse(argc, argv, &queue) < 0)
		return 2;
	const char *target = argv[optind];
	long long id;
	int rc = 0;
	json_t *replay = is_match_id(target, &id) ? load_match(queue, id, &rc)
						  : load_file(target, &rc);
	if (!replay)
		return rc;
	struct replay_verdict v;
	if (replay_check(replay, &v) == 0) {
		printf("OK: %d rounds agree with the engine\n", v.rounds);
	} else if (strcmp(v.where, "the header") == 0) {
		printf("the replay cannot be checked: %s\n", v.what);
		rc = 1;
	} else {
		printf("%s differs: %s\n", v.where, v.what);
		rc = 1;
	}
	json_decref(replay);
	return rc;
}
