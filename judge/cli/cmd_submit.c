/* judge submit (scripts/upload): check a contestant's file and store it,
 * with its compile job, in the queue, or send it to a judge server over
 * HTTP; --wait follows it to its outcome. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/base/config.h"
#include "judge/base/hash.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/submit_http.h"
#include "judge/cli/why_waiting.h"
#include "judge/compile/compile.h"
#include "judge/compile/source.h"
#include "judge/compile/upload_check.h"
#include "judge/event/run.h"
#include "judge/store/store.h"

#define TOKEN_ENV "JUDGE_TOKEN"
#define LOCAL_POLL_MS 200
#define SERVER_POLL_MS 2000
/* The author upload_check() sees in --server mode: the server knows the
 * real one from the token. */
#define SERVER_AUTHOR "token"

static const char *const submit_forms[] = {
	"scripts/upload AIName.c --game GAME [--author NAME] [--queue FILE] [--wait]",
	"scripts/upload AIName.c --game GAME --server URL [--token TOKEN] [--wait]",
	"(the same as: judge submit ...)",
	NULL,
};

static const char summary[] =
"Checks AIName.c (a readable text file of at most 256 KiB that names its\n"
"player once with PLAYER_NAME(Name) and passes the compile step's source\n"
"checks: only the standard C headers and the game's own header) and stores\n"
"it with its compile job in the judge's queue, or sends it to the judge\n"
"server at URL, then prints the submission's id.  A player name belongs to\n"
"the first author who used it in a game; a newer submission of yours\n"
"replaces your older one in the ranking once it qualifies.";

struct submit_args {
	const char *file, *game, *author, *queue, *server, *token;
	bool wait, author_given;
};

static int check_modes(struct submit_args *a)
{
	if (!a->server) {
		if (!a->author_given)
			a->author = opt_user();
		return 0;
	}
	if (a->author_given) {
		fprintf(stderr, "upload: --author is for the local queue; with --server the "
			"token says who you are\n");
		return -1;
	}
	if (!a->token)
		a->token = getenv(TOKEN_ENV);
	if (!a->token || !*a->token) {
		fprintf(stderr, "upload: --server needs your token: set %s=TOKEN in the "
			"environment (or give --token TOKEN)\n", TOKEN_ENV);
		return -1;
	}
	a->author = SERVER_AUTHOR;
	return 0;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct submit_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_STR("game", 0, "GAME", &a->game, "the game it plays", .required = true),
		OPT_STR("author", 0, "NAME", &a->author, "who submits it (default: your login "
			"name); not with --server"),
		OPT_STR("server", 0, "URL", &a->server, "upload to the judge server at URL "
			"(http:// or https://)"),
		OPT_STR("token", 0, "TOKEN", &a->token, "your token for --server; better: set "
			TOKEN_ENV " in the environment, so that the token does not show in `ps`"),
		OPT_BOOL("wait", 0, &a->wait, "follow it until it is compiled and qualified, or "
			 "failed"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "upload", .args = "AIName.c", .min_args = 1, .max_args = 1,
		.queue = &a->queue, .queue_created = true,
		.forms = submit_forms, .opts = opts, .summary = summary,
		.exits = "0 stored (with --wait: qualified), 1 refused or (with --wait) failed or "
			 "not qualified, 2 bad usage.",
	};
	*a = (struct submit_args){ 0 };
	if (opt_parse(&cmd, argc, argv, status) < 0)
		return -1;
	a->file = argv[1];
	a->author_given = a->author != NULL;
	*status = check_modes(a) < 0 ? 2 : 0;
	return *status ? -1 : 0;
}

static int refuse(const char *message)
{
	fprintf(stderr, "upload: %s\n", message);
	return 1;
}

/* The file, read and passed through upload_check(): 0, or 1 refused. */
static int read_checked(const struct submit_args *a, char **src, size_t *len,
			char name[PLAYER_NAME_MAX + 1])
{
	err_t rerr;
	err_t err;
	if (src_read(a->file, CMP_SOURCE_MAX, src, len, rerr) < 0)
		return refuse(rerr->msg);
	if (upload_check(a->game, a->author, a->file, *src, *len, name, err) < 0)
		return refuse(err->msg);
	return 0;
}

static const char *const final_states[] = { "compile_failed", "qualified", "not_qualified",
					    "superseded", "failed", NULL };

/* -1 while state is not final; else the exit status it means. */
static int final_status(const char *state)
{
	for (const char *const *f = final_states; *f; f++)
		if (strcmp(state, *f) == 0)
			return strcmp(state, "qualified") == 0 ? 0 : 1;
	return -1;
}

static void nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Says, once, why nothing moves: the usual reason --wait waits forever is
 * that no judge-worker runs on this queue. */
static void explain_stall(struct store *s, const struct store_submission *sub, const char *queue,
			  bool *said)
{
	char why[600];
	if (*said || why_waiting(s, queue, sub->state, sub->game, 0, why, sizeof why) != 1)
		return;
	printf("submission %lld: %s\n", (long long)sub->id, why);
	fflush(stdout);
	*said = true;
}

static void print_state(int64_t id, const char *state, char last[SUBMIT_HTTP_STATE_MAX])
{
	if (strcmp(state, last) != 0)
		printf("submission %lld: %s\n", (long long)id, state);
	fflush(stdout);
	snprintf(last, SUBMIT_HTTP_STATE_MAX, "%s", state);
}

static int follow_local(struct store *s, const char *queue, int64_t id)
{
	char last[SUBMIT_HTTP_STATE_MAX] = "";
	err_t err;
	bool said = false;
	for (;;) {
		struct store_submission sub;
		if (store_get_submission(s, id, &sub, err) <= 0)
			return refuse(err->msg);
		print_state(id, sub.state, last);
		int rc = final_status(sub.state);
		if (rc >= 0)
			return rc;
		explain_stall(s, &sub, queue, &said);
		nap_ms(LOCAL_POLL_MS);
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
 * transaction then recorded nothing), said once: 0, 1 (unchanged) or -1. */
static int submit_patiently(struct store *s, const struct store_new_submission *sub,
			    int64_t *id, err_t err)
{
	int64_t deadline = store_now_ms() + SUBMIT_WAIT_MS, wait_ms = 0;
	int rc;
	while ((rc = store_submit(s, sub, id, err)) < 0) {
		if (!store_unreachable(s) || store_now_ms() > deadline)
			return -1;
		if (wait_ms == 0)
			say(NULL, err->msg);
		wait_ms = store_backoff_ms(wait_ms);
		nap_ms((int)wait_ms);
	}
	return rc;
}

/* Polls the server; a long "queued" is said once, as the local queue does,
 * though only the organiser can see why. */
static int follow_server(const struct submit_http_target *t, int64_t id)
{
	char last[SUBMIT_HTTP_STATE_MAX] = "", state[SUBMIT_HTTP_STATE_MAX];
	char log[SUBMIT_HTTP_LOG_LINES * 520];
	err_t err;
	int queued_ms = 0;
	for (;;) {
		if (submit_http_status(t, id, state, log, sizeof log, err) < 0)
			return refuse(err->msg);
		print_state(id, state, last);
		int rc = final_status(state);
		/* why it failed, in the compiler's words, not only that it did */
		if (strcmp(state, "compile_failed") == 0)
			fputs(log, stdout);
		if (rc >= 0)
			return rc;
		queued_ms = strcmp(state, "queued") == 0 ? queued_ms + SERVER_POLL_MS : 0;
		if (queued_ms == STORE_STALL_MS)
			printf("submission %lld: still queued after %d s: the judge's workers are "
			       "busy or stopped; tell the organiser if it stays so\n", (long long)id,
			       STORE_STALL_MS / 1000);
		nap_ms(SERVER_POLL_MS);
	}
}

/* The submission's id on standard output: alone for scripts, labelled
 * when --wait follows it with labelled lines; when the file was the current
 * submission already, why nothing new was stored. */
static int print_submission_id(int64_t id, bool unchanged, bool labelled)
{
	if (unchanged)
		fprintf(stderr, "upload: this file is already your current submission %lld, so "
			"nothing new was stored and it keeps its state and rating; change the file to send "
			"a new version\n", (long long)id);
	printf(labelled ? "submission %lld: stored\n" : "%lld\n", (long long)id);
	fflush(stdout);
	return 0;
}

/* contest.games (the settings of $JUDGE_CONFIG or the data directory):
 * 0, or 1 refused (said). */
static int takes_uploads(const char *game)
{
	struct judge_config cfg;
	char games[160];
	err_t err;
	if (cfg_init(&cfg, NULL, err) < 0)
		return refuse(err->msg);
	if (cfg_takes_uploads(&cfg.contest, game))
		return 0;
	cfg_upload_games(&cfg.contest, games, sizeof games);
	err_set(err, "this judge takes no uploads of %s: it runs %.150s (contest.games)", game,
		games);
	return refuse(err->msg);
}

static int submit_local(const struct submit_args *a, const char *src, size_t len,
			const char *name)
{
	char sha[HASH_HEXLEN + 1];
	err_t err;
	if (hash_hex(src, len, sha) < 0)
		return refuse("cannot hash the source");
	if (takes_uploads(a->game) != 0)
		return 1;
	struct store *s = store_open_patient(a->queue, true, SUBMIT_WAIT_MS, say, NULL, err);
	if (!s)
		return refuse(err->msg);
	int64_t id = 0;
	struct store_new_submission sub = { .game = a->game, .author = a->author, .name = name,
					    .source = src, .source_len = len, .source_sha256 = sha };
	err_t why;
	int closed = event_uploads_closed(s, a->game, a->author, store_now_ms(), why);
	if (closed != 0) {
		store_close(s);
		return refuse(why->msg);
	}
	int rc = submit_patiently(s, &sub, &id, err);
	rc = rc < 0 ? refuse(err->msg) : print_submission_id(id, rc == 1, a->wait);
	if (rc == 0) {
		if (a->wait)
			rc = follow_local(s, a->queue, id);
	}
	store_close(s);
	return rc;
}

static int submit_server(const struct submit_args *a, const char *src, size_t len)
{
	struct submit_http_target t = { .server = a->server, .token = a->token };
	err_t err;
	int64_t id = 0;
	int rc = submit_http_post(&t, a->game, src, len, &id, err);
	if (rc < 0)
		return refuse(err->msg);
	print_submission_id(id, rc == 1, a->wait);
	return a->wait ? follow_server(&t, id) : 0;
}

int cmd_submit(int argc, char **argv)
{
	struct submit_args a;
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	char *src = NULL, name[PLAYER_NAME_MAX + 1];
	size_t len = 0;
	int rc = read_checked(&a, &src, &len, name);
	if (rc == 0)
		rc = a.server ? submit_server(&a, src, len) : submit_local(&a, src, len, name);
	free(src);
	return rc;
}
