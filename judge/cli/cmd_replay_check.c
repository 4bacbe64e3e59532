/* judge replay check FILE|MATCH: re-runs a replay's engine and says
 * whether it agrees with every round. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/replay/replay_check.h"
#include "judge/replay/replay_io.h"
#include "judge/store/store.h"

static const char summary[] =
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
"lists them; write ./N for a file named N).";

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
	err_t err;
	err_t serr;
	struct store *s = store_open(queue, false, serr);
	if (!s) {
		fprintf(stderr, "judge replay check: %s\n", serr->msg);
		*rc = 2;
		return NULL;
	}
	char *text = NULL;
	size_t len;
	int found = replay_stored_text(s, id, &text, &len, err);
	store_close(s);
	if (found <= 0) {
		fprintf(stderr, "judge replay check: %s%s%s\n", err->msg, found == 0 ? " in " : "",
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
	err_t err;
	json_t *r = replay_read_file(path, err);
	if (!r) {
		/* A file that cannot be read is a usage error; one that is not a
		 * replay is a replay that fails the check. */
		bool unreadable = strncmp(err->msg, "cannot read ", 12) == 0;
		fprintf(unreadable ? stderr : stdout, "%s%s\n",
			unreadable ? "judge replay check: " : "", err->msg);
		*rc = unreadable ? 2 : 1;
	}
	return r;
}

int cmd_replay_check(int argc, char **argv)
{
	const char *queue = STORE_DEFAULT_PATH;
	const struct opt opts[] = {
		OPT_STR("queue", 0, "FILE", &queue, OPT_QUEUE_HELP ", for MATCH"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge replay check", .args = "FILE|MATCH", .min_args = 1, .max_args = 1,
		.opts = opts, .summary = summary,
		.exits = "0 the replay agrees, 1 it does not (or is not a replay, or no such "
			 "match), 2 bad usage, a file that cannot be read or an unusable database.",
	};
	int status;
	if (opt_parse(&cmd, argc, argv, &status) < 0)
		return status;
	const char *target = argv[1];
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
