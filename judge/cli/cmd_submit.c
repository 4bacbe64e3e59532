/* judge submit (scripts/upload): check a contestant's file and store it,
 * with its compile job, in the queue; --wait follows it to its outcome. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/compile/compile.h"
#include "judge/base/hash.h"
#include "judge/play/match.h"
#include "judge/compile/source.h"
#include "judge/compile/upload_check.h"
#include "judge/store/store.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: scripts/upload AIName.c --game GAME [--author NAME] [--queue FILE] [--wait]\n"
"       (the same as: judge submit ...)\n"
"\n"
"Checks AIName.c (a readable text file of at most 256 KiB that names its\n"
"player with PLAYER_NAME(Name)) and stores it with its compile job in the\n"
"judge's queue, then prints the submission's id.  A player name belongs to\n"
"the first author who used it in a game; a newer submission of yours\n"
"replaces your older one in the ranking once it qualifies.\n"
"\n"
"  --game GAME     the game it plays\n"
"  --author NAME   who submits it (default: your login name)\n"
"  --queue FILE    the judge's database (default db/jobs.sqlite; created if missing)\n"
"  --wait          follow it until it is compiled and qualified, or failed\n"
"\n"
"exit status: 0 stored (with --wait: qualified), 1 refused or (with --wait)\n"
"failed or not qualified, 2 bad usage.\n");
}

struct submit_args {
	const char *file, *game, *author, *queue;
	bool wait;
};

static int parse_args(int argc, char **argv, struct submit_args *a)
{
	static const struct option longopts[] = {
		{ "game", 1, 0, 'g' }, { "author", 1, 0, 'a' }, { "queue", 1, 0, 'q' },
		{ "wait", 0, 0, 'w' }, { "help", 0, 0, 'h' }, { 0 },
	};
	*a = (struct submit_args){ .queue = STORE_DEFAULT_PATH, .author = getenv("USER") };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'g': a->game = optarg; break;
		case 'a': a->author = optarg; break;
		case 'q': a->queue = optarg; break;
		case 'w': a->wait = true; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (optind + 1 != argc || !a->game) {
		fprintf(stderr, "upload: give one file and --game (see --help)\n");
		return -1;
	}
	a->file = argv[optind];
	if (!a->author || !*a->author)
		a->author = "anonymous";
	return 0;
}

static int refuse(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "upload: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

static int check(const struct submit_args *a, const char *src, size_t len,
		 char name[PLAYER_NAME_MAX + 1])
{
	char err[UPLOAD_ERRLEN];
	if (upload_check(a->game, a->author, a->file, src, len, name, err) < 0)
		return refuse("%s%s", err, "");
	return 0;
}

static const char *const final_states[] = { "compile_failed", "qualified", "not_qualified",
					    "superseded", NULL };

static int follow(struct store *s, int64_t id)
{
	char last[16] = "", err[STORE_ERRLEN];
	for (;;) {
		struct store_submission sub;
		if (store_get_submission(s, id, &sub, err) <= 0) {
			fprintf(stderr, "upload: %s\n", err);
			return 1;
		}
		if (strcmp(sub.state, last) != 0)
			printf("submission %lld: %s\n", (long long)id, sub.state);
		fflush(stdout);
		snprintf(last, sizeof last, "%s", sub.state);
		for (const char *const *f = final_states; *f; f++)
			if (strcmp(sub.state, *f) == 0)
				return strcmp(sub.state, "qualified") == 0 ? 0 : 1;
		struct timespec ts = { 0, 200000000 };
		nanosleep(&ts, NULL);
	}
}

/* How long an upload waits for a server that is away (restarting). */
#define SUBMIT_WAIT_MS 60000

static void say(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "upload: %s\n", message);
}

/* store_submit, tried again while the server is out of reach (its
 * transaction then recorded nothing), said once. */
static int submit_patiently(struct store *s, const struct store_new_submission *sub,
			    int64_t *id, char err[STORE_ERRLEN])
{
	int64_t deadline = store_now_ms() + SUBMIT_WAIT_MS, nap_ms = 0;
	while (store_submit(s, sub, id, err) < 0) {
		if (!store_unreachable(s) || store_now_ms() > deadline)
			return -1;
		if (nap_ms == 0)
			say(NULL, err);
		nap_ms = store_backoff_ms(nap_ms);
		struct timespec ts = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	return 0;
}

int cmd_submit(int argc, char **argv)
{
	struct submit_args a;
	if (parse_args(argc, argv, &a) < 0)
		return 2;
	char *src = NULL, name[PLAYER_NAME_MAX + 1], sha[HASH_HEXLEN + 1], err[STORE_ERRLEN];
	size_t len = 0;
	char rerr[SRC_ERRLEN];
	int rc = src_read(a.file, CMP_SOURCE_MAX, &src, &len, rerr) < 0 ? refuse("%s%s", rerr, "") : 0;
	if (rc == 0)
		rc = check(&a, src, len, name);
	if (rc == 0 && hash_hex(src, len, sha) < 0)
		rc = refuse("cannot hash the source%s%s", "", "");
	struct store *s = rc == 0 ? store_open_patient(a.queue, true, SUBMIT_WAIT_MS, say, NULL, err)
				  : NULL;
	if (rc == 0 && !s)
		rc = refuse("%s%s", err, "");
	int64_t id = 0;
	struct store_new_submission sub = { .game = a.game, .author = a.author, .name = name,
					    .source = src, .source_len = len, .source_sha256 = sha };
	if (rc == 0 && submit_patiently(s, &sub, &id, err) < 0)
		rc = refuse("%s%s", err, "");
	if (rc == 0) {
		printf("%lld\n", (long long)id);
		fflush(stdout);
		if (a.wait)
			rc = follow(s, id);
	}
	store_close(s);
	free(src);
	return rc;
}
